package changeset

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"hash"
	"io"
	"os"
	"path/filepath"

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
	h := sha256.New()
	content := sha256.New()
	for _, p := range sortedSet(files) {
		if err := protocol.CheckPath(p); err != nil {
			return "", refuse(p, err.Error(), "fingerprint only paths relative to the project root")
		}
		sum, err := digest(content, filepath.Join(root, filepath.FromSlash(p)))
		if err != nil {
			return "", fmt.Errorf("fingerprint %s: %w", p, err)
		}
		io.WriteString(h, p+"\x00"+sum+"\n")
	}
	return "sha256:" + hex.EncodeToString(h.Sum(nil)), nil
}

// digest returns the hex sha256 of the file's content, streamed through h,
// or "deleted" if there is no such file.
func digest(h hash.Hash, name string) (string, error) {
	fi, err := os.Stat(name)
	switch {
	case notExist(err):
		return "deleted", nil
	case err != nil:
		return "", err
	case !fi.Mode().IsRegular():
		return "", fmt.Errorf("not a regular file (%s)", fi.Mode().Type())
	}
	f, err := os.Open(name)
	if notExist(err) {
		return "deleted", nil // removed since the Stat
	}
	if err != nil {
		return "", err
	}
	defer f.Close()
	h.Reset()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}
