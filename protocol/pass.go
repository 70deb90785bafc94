package protocol

import (
	"fmt"
	"maps"
	"slices"
	"sort"
)

// DigestDeleted stands in for the content digest of a file that does not
// exist (a deletion is part of a change too).
const DigestDeleted = "deleted"

// PassRecord remembers the review that last passed a gate, so that
// `specdev gate` can tell, file by file, whether what is committed or
// pushed is what was reviewed. Request.Passed keeps one per gate; a request
// for another gate does not forget it.
//
// Files and Fingerprint are those of the passing request; FileDigests
// holds a digest for each of Files and, besides, the digests the request
// carried from earlier rounds of its loop and earlier passes of the gate
// (files reviewed then and not again since).
type PassRecord struct {
	RequestID   string            `json:"request_id"`
	Round       int               `json:"round"`
	HeadCommit  string            `json:"head_commit"`
	BaseCommit  string            `json:"base_commit,omitempty"`
	Fingerprint string            `json:"fingerprint,omitempty"`
	Files       []string          `json:"files"`
	FileDigests map[string]string `json:"file_digests,omitempty"`
	Staged      bool              `json:"staged,omitempty"`
	CompletedAt Timestamp         `json:"completed_at"`
}

// PassRecord is what a pass of r at the given time leaves for its gate.
func (r *Request) PassRecord(at Timestamp) PassRecord {
	digests := maps.Clone(r.CarriedDigests)
	if len(r.FileDigests) > 0 && digests == nil {
		digests = map[string]string{}
	}
	maps.Copy(digests, r.FileDigests) // this round's digests win
	return PassRecord{
		RequestID:   r.RequestID,
		Round:       r.Round,
		HeadCommit:  r.HeadCommit,
		BaseCommit:  r.BaseCommit,
		Fingerprint: r.Fingerprint,
		Files:       slices.Clone(r.ChangedFiles),
		FileDigests: digests,
		Staged:      r.Staged,
		CompletedAt: at,
	}
}

// Compare lists the files of current (path → digest, as the gate computes
// them now) whose content differs from what the review saw, and those the
// review did not cover at all; both sorted.
func (p PassRecord) Compare(current map[string]string) (changed, unreviewed []string) {
	for file, sum := range current {
		reviewed, ok := p.FileDigests[file]
		switch {
		case !ok:
			unreviewed = append(unreviewed, file)
		case reviewed != sum:
			changed = append(changed, file)
		}
	}
	sort.Strings(changed)
	sort.Strings(unreviewed)
	return changed, unreviewed
}

// Clone returns a copy that shares no slices or maps with p.
func (p PassRecord) Clone() PassRecord {
	p.Files = slices.Clone(p.Files)
	p.FileDigests = maps.Clone(p.FileDigests)
	return p
}

func clonePassed(m map[string]PassRecord) map[string]PassRecord {
	if m == nil {
		return nil
	}
	out := make(map[string]PassRecord, len(m))
	for gate, rec := range m {
		out[gate] = rec.Clone()
	}
	return out
}

func (r *Request) checkCoveragePathsIf(validate bool, file string) error {
	if !validate {
		return nil
	}
	return r.checkCoveragePaths(file)
}

// checkCoveragePaths applies CheckPath to every path the coverage fields
// name (the schema bounds their length only).
func (r *Request) checkCoveragePaths(file string) error {
	if err := checkDigestPaths(file, "file_digests", r.FileDigests); err != nil {
		return err
	}
	if err := checkDigestPaths(file, "carried_digests", r.CarriedDigests); err != nil {
		return err
	}
	for _, gate := range slices.Sorted(maps.Keys(r.Passed)) {
		rec := r.Passed[gate]
		if err := checkPaths(file, "passed."+gate+".files", rec.Files); err != nil {
			return err
		}
		if err := checkDigestPaths(file, "passed."+gate+".file_digests", rec.FileDigests); err != nil {
			return err
		}
	}
	return nil
}

func checkDigestPaths(file, field string, digests map[string]string) error {
	for _, p := range slices.Sorted(maps.Keys(digests)) {
		if err := CheckPath(p); err != nil {
			return invalid(file, fmt.Sprintf("%s[%q]", field, p), "use paths relative to the project root, without \"..\"", "%v", err)
		}
	}
	return nil
}
