package main

import (
	"time"

	"github.com/alecthomas/kong"

	"github.com/specdev/specdev/protocol"
)

// Duration is a flag value in Go syntax ("2m") or plain seconds ("120").
type Duration time.Duration

// Decode implements kong.MapperValue.
func (d *Duration) Decode(ctx *kong.DecodeContext) error {
	var s string
	if err := ctx.Scan.PopValueInto("duration", &s); err != nil {
		return err
	}
	parsed, err := protocol.ParseDuration(s)
	if err != nil {
		return err
	}
	*d = Duration(parsed)
	return nil
}
