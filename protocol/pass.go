package protocol

import (
	"maps"
	"reflect"
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
// holds a digest for each file the round reviewed and, besides, the
// digests the request carried from earlier passes of the gate (files a
// passed review saw then and the round did not review again).
type PassRecord struct {
	RequestID   string            `json:"request_id" specdev:"required" check:"id"`
	Round       int               `json:"round" specdev:"required" check:"round"`
	HeadCommit  string            `json:"head_commit" specdev:"required" check:"id"`
	BaseCommit  string            `json:"base_commit,omitempty" check:"commit"`
	Fingerprint string            `json:"fingerprint,omitempty" check:"fingerprint"`
	Files       []string          `json:"files" specdev:"required" check:"paths"`
	FileDigests map[string]string `json:"file_digests,omitempty" check:"digests"`
	Staged      bool              `json:"staged,omitzero"`
	CompletedAt Timestamp         `json:"completed_at" specdev:"required" check:"time"`
}

// same reports whether o holds what p holds (see Request.Same).
func (p PassRecord) same(o PassRecord) bool {
	if !slices.Equal(p.Files, o.Files) || !maps.Equal(p.FileDigests, o.FileDigests) {
		return false
	}
	p.Files, p.FileDigests, o.Files, o.FileDigests = nil, nil, nil, nil
	return reflect.DeepEqual(p, o)
}

// PassRecord is what a pass of r at the given time leaves for its gate:
// the digests of the files the round reviewed, as the review read them
// (reviewed: ReviewedDigests; nil for a request that passed before
// progress kept them, whose own digests stand in), and the digests it
// carried from the gate's earlier passes (never those of a failed,
// cancelled or unreviewed request).
func (r *Request) PassRecord(at Timestamp, reviewed map[string]string) PassRecord {
	if reviewed == nil {
		reviewed = r.FileDigests
	}
	digests := maps.Clone(r.CarriedDigests)
	if len(reviewed) > 0 && digests == nil {
		digests = map[string]string{}
	}
	maps.Copy(digests, reviewed) // this round's digests win
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

// ReviewedDigests is the content each reviewed file of p had when the
// review read it: its digest when it was recorded, else (a file recorded
// as the request has it, or carried over unchanged) the request's.
func ReviewedDigests(r *Request, p *Progress) map[string]string {
	out := make(map[string]string, len(p.FilesReviewed))
	for _, f := range p.FilesReviewed {
		if sum, ok := p.RecordedDigests[f]; ok {
			out[f] = sum
		} else if sum, ok := r.FileDigests[f]; ok {
			out[f] = sum
		}
	}
	return out
}

// ChangedSince lists the files of was whose digest in now differs, sorted.
func ChangedSince(was, now map[string]string) []string {
	var changed []string
	for f, sum := range was {
		if now[f] != sum {
			changed = append(changed, f)
		}
	}
	sort.Strings(changed)
	return changed
}
