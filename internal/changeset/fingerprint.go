package changeset

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"hash"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"

	"github.com/specdev/specdev/protocol"
)

// Fingerprint is "sha256:<64 hex>" over the files' paths and contents.
//
// It hashes, for each file in sorted order (duplicates once), the line
// "<path>\x00<hex sha256 of its content>\n", with the word "deleted" in
// place of the content hash for a file that does not exist. Paths are
// relative to root; a symlink is hashed by the content it leads to. A path
// that protocol.CheckPath refuses, or one that is not a regular file (a
// folder), is an error.
func Fingerprint(root string, files []string) (string, error) {
	sums, err := Digest(root, files)
	return sums.Fingerprint, err
}

// Sums is the fingerprint of a set of files together with each file's
// content digest, computed in one pass.
type Sums struct {
	Fingerprint string
	Files       map[string]string // path -> hex sha256 of its content, or protocol.DigestDeleted
}

// Digest reads each file once and returns its content digest and the
// Fingerprint of them all (same rules and errors as Fingerprint).
func Digest(root string, files []string) (Sums, error) {
	content := newHasher()
	sums := make(map[string]string, len(files))
	for _, p := range sortedSet(files) {
		if err := protocol.CheckPath(p); err != nil {
			return Sums{}, refuse(p, err.Error(), "fingerprint only paths relative to the project root")
		}
		sum, err := digest(content, filepath.Join(root, filepath.FromSlash(p)))
		if err != nil {
			return Sums{}, fmt.Errorf("fingerprint %s: %w", p, err)
		}
		sums[p] = sum
	}
	return Sums{Fingerprint: fingerprintFrom(sums), Files: sums}, nil
}

// fingerprintFrom is the Fingerprint of files with these content digests.
func fingerprintFrom(sums map[string]string) string {
	h := sha256.New()
	for _, p := range slices.Sorted(maps.Keys(sums)) {
		io.WriteString(h, p+"\x00"+sums[p]+"\n")
	}
	return "sha256:" + hex.EncodeToString(h.Sum(nil))
}

// hasher hashes one file after another with one sha256 state and one
// read buffer: a review of thousands of files allocates neither per file.
type hasher struct {
	h   hash.Hash
	buf []byte
}

func newHasher() *hasher { return &hasher{h: sha256.New(), buf: make([]byte, 32<<10)} }

// onlyReader hides a file's WriteTo, which would copy through a buffer
// of its own for every file, from io.CopyBuffer.
type onlyReader struct{ io.Reader }

// digest returns the hex sha256 of the file's content, streamed through
// h, or "deleted" if there is no such file.
func digest(h *hasher, name string) (string, error) {
	fi, err := os.Stat(name)
	switch {
	case notExist(err):
		return protocol.DigestDeleted, nil
	case err != nil:
		return "", err
	case !fi.Mode().IsRegular():
		return "", fmt.Errorf("not a regular file (%s)", fi.Mode().Type())
	}
	f, err := os.Open(name)
	if notExist(err) {
		return protocol.DigestDeleted, nil // removed since the Stat
	}
	if err != nil {
		return "", err
	}
	defer f.Close()
	h.h.Reset()
	if _, err := io.CopyBuffer(h.h, onlyReader{f}, h.buf); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.h.Sum(nil)), nil
}
