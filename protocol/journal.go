package protocol

// Journal is the history events of the last transaction that wrote a state
// file, carried inside the file itself. The events reach
// review_history.jsonl only after the state files are renamed into place;
// a crash in between would lose them, so the next transaction appends every
// journalled event whose Seq the history has not reached yet. The journal
// is replaced by each transaction that writes the file and has events.
type Journal struct {
	Events []Event `json:"events" specdev:"required"`
}

// MaxJournalEvents bounds the events one transaction logs.
const MaxJournalEvents = 16

// LastSeq is the highest sequence number in the journal, 0 if none.
func (j *Journal) LastSeq() int64 {
	if j == nil {
		return 0
	}
	var last int64
	for _, e := range j.Events {
		last = max(last, e.Seq)
	}
	return last
}

// After returns the journalled events whose Seq is above seq, in order.
func (j *Journal) After(seq int64) []Event {
	if j == nil {
		return nil
	}
	var out []Event
	for _, e := range j.Events {
		if e.Seq > seq {
			out = append(out, e)
		}
	}
	return out
}
