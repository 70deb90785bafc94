package main

import (
	"time"

	"github.com/alecthomas/kong"

	"github.com/specdev/specdev/protocol"
)

// Duration is a --timeout value in Go syntax ("2m") or plain seconds
// ("120"), from 0 to 24h (protocol.TimeoutBounds). NaN, infinities,
// negative and longer values are usage errors naming the flag.
type Duration time.Duration

// Decode implements kong.MapperValue; kong prefixes the error with the flag.
func (d *Duration) Decode(ctx *kong.DecodeContext) error {
	var s string
	if err := ctx.Scan.PopValueInto("duration", &s); err != nil {
		return err
	}
	parsed, err := protocol.ParseDurationIn(s, protocol.TimeoutBounds)
	if err != nil {
		return err
	}
	*d = Duration(parsed)
	return nil
}
