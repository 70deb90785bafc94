package checkpoint

import (
	"crypto/rand"
	"encoding/hex"
)

// NewSessionID returns a fresh reviewer session id such as "rv-4f2a9c".
func NewSessionID() string { return "rv-" + randomHex(3) }

// newRequestID returns a fresh request id such as "rq-1b2c3d4e".
func newRequestID() string { return "rq-" + randomHex(4) }

func randomHex(n int) string {
	b := make([]byte, n)
	rand.Read(b)
	return hex.EncodeToString(b)
}
