package checkpoint

import (
	"errors"

	"github.com/specdev/specdev/protocol"
)

// validate applies to what a transaction is about to write the same rules
// the full decoder applies when it reads it back (protocol's Validate
// methods: schema bounds, safe paths, consistency). A value that breaks
// one is a bug or bad input that slipped past a command's checks: nothing
// is written, and the error names the file and the field. It costs well
// under a millisecond for a 1,000-file review (no schema is compiled).
// An unchanged request is not written, so it is not validated again: it
// was validated when it was read.
func (tx *Tx) validate(requestChanged bool) error {
	if requestChanged {
		if err := tx.Request.Validate(); err != nil {
			return tx.refuse(protocol.RequestFile, err)
		}
	}
	if tx.Progress != nil {
		if err := tx.Progress.Validate(); err != nil {
			return tx.refuse(protocol.ProgressFile, err)
		}
	}
	for i := range tx.events {
		if err := tx.events[i].Validate(); err != nil {
			return tx.refuse(protocol.HistoryFile, err)
		}
	}
	return nil
}

func (tx *Tx) refuse(name string, err error) error {
	var inv *protocol.InvalidError
	if !errors.As(err, &inv) {
		return err
	}
	out := *inv
	out.File = tx.A.rel(name)
	out.Problem += " (refused before writing: nothing was changed)"
	return &out
}
