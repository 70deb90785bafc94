package gitremote

import (
	"bufio"
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/specdev/specdev/checkpoint"
	"github.com/specdev/specdev/internal/changeset"
	"github.com/specdev/specdev/protocol"
)

// errMissing: this repository lacks the commit (it is to be fetched).
var errMissing = errors.New("commit not in this repository")

// read takes the state commit id holds out of this repository: one
// git cat-file --batch for the commit and each state file in its tree.
// Anything but a commit, a state file that is not a file, or one past
// protocol.MaxFileSize is a *protocol.InvalidError naming ref and file.
func (r *Remote) read(ctx context.Context, ref, id string) (*checkpoint.RemoteState, error) {
	var in strings.Builder
	in.WriteString(id + "\n")
	for _, f := range checkpoint.RemoteFiles {
		in.WriteString(id + ":" + f + "\n")
	}
	// The answer is streamed, not read whole: a refused object (one too
	// big, say) ends cat-file, by ctx, without its rest being read.
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	pr, pw := io.Pipe()
	defer pr.Close()
	go func() {
		_, err := changeset.Git(ctx, r.root, nil, strings.NewReader(in.String()), pw, "cat-file", "--batch")
		pw.CloseWithError(cmp.Or(err, errors.New("git cat-file: its answer ended early")))
	}()
	out := bufio.NewReader(pr)
	st := &checkpoint.RemoteState{ID: id, Ref: ref, Files: map[string][]byte{}}
	kind, body, err := object(out)
	switch {
	case err != nil:
		return nil, err
	case kind == "missing":
		return nil, errMissing
	case kind != "commit":
		return nil, r.invalid(st, "", "is a "+kind+", not a commit")
	}
	st.Parent, st.Time = commitHeader(body)
	for _, f := range checkpoint.RemoteFiles {
		kind, body, err := object(out)
		switch {
		case err != nil:
			return nil, r.invalid(st, f, err.Error())
		case kind == "blob":
			st.Files[f] = body
		case kind != "missing":
			return nil, r.invalid(st, f, "is a "+kind+", not a file")
		}
	}
	return st, nil
}

// object reads one answer of cat-file --batch: its kind ("missing" for
// none) and content.
func object(out *bufio.Reader) (kind string, body []byte, err error) {
	header, err := out.ReadString('\n')
	if err != nil {
		return "", nil, err // it names git cat-file
	}
	fields := strings.Fields(header)
	if len(fields) == 2 && fields[1] == "missing" {
		return "missing", nil, nil
	}
	if len(fields) != 3 {
		return "", nil, fmt.Errorf("git cat-file: unexpected answer %q", header)
	}
	size, err := strconv.ParseInt(fields[2], 10, 64)
	if err != nil || size > protocol.MaxFileSize {
		return "", nil, fmt.Errorf("is %s bytes, more than the limit of %d", fields[2], protocol.MaxFileSize)
	}
	body = make([]byte, size+1) // and the newline after it
	if _, err := io.ReadFull(out, body); err != nil {
		return "", nil, err
	}
	return fields[1], body[:size], nil
}

// commitHeader reads a commit's first parent and its committer's time.
func commitHeader(body []byte) (parent string, at time.Time) {
	head, _, _ := bytes.Cut(body, []byte("\n\n"))
	for line := range strings.Lines(string(head)) {
		line = strings.TrimSpace(line)
		if p, ok := strings.CutPrefix(line, "parent "); ok && parent == "" {
			parent = p
		}
		if c, ok := strings.CutPrefix(line, "committer "); ok {
			fields := strings.Fields(c)
			if n := len(fields); n >= 2 {
				if secs, err := strconv.ParseInt(fields[n-2], 10, 64); err == nil {
					at = time.Unix(secs, 0).UTC()
				}
			}
		}
	}
	return parent, at
}

// invalid is a state commit that specdev cannot read.
func (r *Remote) invalid(st *checkpoint.RemoteState, file, problem string) error {
	return &protocol.InvalidError{File: checkpoint.RemoteLabel(r.remote, st, file), Problem: problem, Hint: checkpoint.RemoteHint(r.remote, st.Ref)}
}

// hintError is an error with the fix to suggest (review.HintOf finds
// it): nothing was changed, here or on the remote.
type hintError struct {
	msg, hint string
	err       error
}

func (e *hintError) Error() string    { return e.msg + ": " + e.err.Error() }
func (e *hintError) Unwrap() error    { return e.err }
func (e *hintError) HintText() string { return e.hint }

// unreachable says the remote could not be asked, unless err is the
// context's end.
func (r *Remote) unreachable(err error) error {
	if _, ok := errors.AsType[*changeset.GitError](err); !ok {
		return err
	}
	return &hintError{msg: "cannot reach the remote " + r.remote + ", which holds the review state", err: err,
		hint: fmt.Sprintf("nothing was changed, here or on %s; check the network and that git reaches it (git ls-remote %s), then run the command again", r.remote, r.remote)}
}

// signError says a verdict commit could not be signed.
func signError(err error) error {
	return &hintError{msg: "cannot sign the verdict commit (sign_verdicts is on)", err: err,
		hint: "set up git's signing on this machine (git config gpg.format ssh; git config user.signingkey ~/.ssh/id_ed25519.pub), or turn sign_verdicts off in .specdev/config.json; nothing was changed"}
}
