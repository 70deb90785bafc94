package changeset

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"regexp"
	"testing"

	"github.com/specdev/specdev/protocol"
)

func TestFingerprintFormat(t *testing.T) {
	root := t.TempDir()
	write(t, root, "b.txt", "hello\n")
	got, err := fingerprint(root, []string{"gone.txt", "b.txt"})
	if err != nil {
		t.Fatal(err)
	}
	content := sha256.Sum256([]byte("hello\n"))
	whole := sha256.Sum256([]byte("b.txt\x00" + hex.EncodeToString(content[:]) + "\ngone.txt\x00deleted\n"))
	if want := "sha256:" + hex.EncodeToString(whole[:]); got != want {
		t.Errorf("got %s, want %s", got, want)
	}
	if !regexp.MustCompile(`^sha256:[0-9a-f]{64}$`).MatchString(got) {
		t.Errorf("got %q, want sha256:<64 hex>", got)
	}
}

func TestFingerprint(t *testing.T) {
	base := map[string]string{"a.txt": "alpha\n", "src/b.go": "package src\n"}
	baseFiles := []string{"a.txt", "src/b.go"}
	tests := []struct {
		name  string
		files map[string]string // the tree
		list  []string
		same  bool // whether it must equal the fingerprint of base
	}{
		{"same content", base, baseFiles, true},
		{"other order and duplicates", base, []string{"src/b.go", "a.txt", "a.txt"}, true},
		{"unlisted file changes nothing", map[string]string{"a.txt": "alpha\n", "src/b.go": "package src\n", "c.txt": "x"}, baseFiles, true},
		{"content changed", map[string]string{"a.txt": "alpha!\n", "src/b.go": "package src\n"}, baseFiles, false},
		{"renamed", map[string]string{"a2.txt": "alpha\n", "src/b.go": "package src\n"}, []string{"a2.txt", "src/b.go"}, false},
		{"file added to the set", map[string]string{"a.txt": "alpha\n", "src/b.go": "package src\n", "c.txt": "x"}, []string{"a.txt", "c.txt", "src/b.go"}, false},
		{"file removed from the set", base, []string{"a.txt"}, false},
		{"deleted", map[string]string{"src/b.go": "package src\n"}, baseFiles, false},
		{"emptied", map[string]string{"a.txt": "", "src/b.go": "package src\n"}, baseFiles, false},
	}
	want := fingerprintOf(t, base, baseFiles)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := fingerprintOf(t, tt.files, tt.list)
			if (got == want) != tt.same {
				t.Errorf("got %s, base %s, want equal: %v", got, want, tt.same)
			}
		})
	}
}

func TestFingerprintDeletedDiffersFromEmpty(t *testing.T) {
	deleted := fingerprintOf(t, nil, []string{"x"})
	empty := fingerprintOf(t, map[string]string{"x": ""}, []string{"x"})
	if deleted == empty {
		t.Errorf("got equal fingerprints %s for a deleted and an empty file", deleted)
	}
}

func TestFingerprintRefuses(t *testing.T) {
	root := t.TempDir()
	write(t, root, "dir/a.txt", "a\n")
	tests := []struct {
		name    string
		files   []string
		invalid bool
	}{
		{"absolute", []string{"/etc/passwd"}, true},
		{"dot dot", []string{"../x"}, true},
		{"directory", []string{"dir"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := fingerprint(root, tt.files)
			if err == nil {
				t.Fatalf("got %s, want an error", got)
			}
			if errors.Is(err, protocol.ErrInvalid) != tt.invalid {
				t.Errorf("got %v, want ErrInvalid: %v", err, tt.invalid)
			}
		})
	}
}

func fingerprintOf(t *testing.T, tree map[string]string, files []string) string {
	t.Helper()
	root := t.TempDir()
	for name, content := range tree {
		write(t, root, name, content)
	}
	fp, err := fingerprint(root, files)
	if err != nil {
		t.Fatalf("Fingerprint: %v", err)
	}
	return fp
}
