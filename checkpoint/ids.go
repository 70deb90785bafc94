package checkpoint

import (
	"crypto/rand"
	"encoding/hex"
)

// NewSessionID returns a fresh reviewer session id such as
// "rv-4f2a9c1d2e3b4a5c" (64 random bits: two generated ids never meet).
func NewSessionID() string { return "rv-" + randomHex(8) }

// newLease returns a fresh claim lease (fencing token) such as
// "ls-9b3e0c7a5d1f2e48".
func newLease() string { return "ls-" + randomHex(8) }

// newRequestID returns a fresh request id such as "rq-1b2c3d4e".
func newRequestID() string { return "rq-" + randomHex(4) }

func randomHex(n int) string {
	b := make([]byte, n)
	rand.Read(b)
	return hex.EncodeToString(b)
}
