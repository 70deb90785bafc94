package review

import (
	"context"
	"path/filepath"

	"github.com/specdev/specdev/checkpoint"
	"github.com/specdev/specdev/protocol"
)

// The state files a caller may read whole: what the MCP server offers
// as resources.
const (
	FileRequest  = "request"
	FileProgress = "progress"
	FileReport   = "report"
)

// File returns one of the caller's assignment's state files — its
// request, progress or report — after the check every view makes (a
// malformed file is an error naming it; a report a crash left behind is
// brought up to date). The request and progress are as specdev writes
// them, unknown kept fields included.
func (s *Service) File(ctx context.Context, which string) (ReportData, error) {
	if which == FileReport {
		return s.Report(ctx)
	}
	if which != FileRequest && which != FileProgress {
		return ReportData{}, usage("ask for the request, progress or report", "no state file called "+protocol.QuotePrefix(which))
	}
	a, err := s.Target()
	if err != nil {
		return ReportData{}, err
	}
	snap, err := a.Fresh(ctx)
	if err != nil {
		return ReportData{}, err
	}
	name, data := protocol.RequestFile, []byte(nil)
	switch {
	case which == FileRequest && snap.Request != nil:
		data, err = protocol.EncodeRequest(snap.Request)
	case which == FileProgress && snap.Progress != nil:
		name = protocol.ProgressFile
		data, err = protocol.EncodeProgress(snap.Progress)
	default:
		return ReportData{}, &checkpoint.StateError{Msg: "no " + which + " file yet for " + a.Name,
			Hint: "a request is written by specdev work request, a progress file once a reviewer claims the review"}
	}
	return ReportData{Assignment: a.Name, Path: a.RelDir() + "/" + name, AbsolutePath: filepath.Join(a.Dir, name), Content: string(data)}, err
}

// NewSessionID returns a fresh reviewer session id, for a caller that
// claims without one of its own (an MCP connection).
func NewSessionID() string { return checkpoint.NewSessionID() }

// Holding is the session and lease a claim's result gives its caller,
// or "" for a result that claimed nothing.
func (r Result) Holding() (session, lease string) {
	if d, ok := r.Data.(briefingData); ok {
		return d.Session, d.Lease
	}
	return "", ""
}
