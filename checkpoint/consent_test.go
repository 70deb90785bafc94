package checkpoint

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

func sum(content string) string {
	s := sha256.Sum256([]byte(content))
	return "sha256:" + hex.EncodeToString(s[:])
}

// NewGate counts the program when it is a path, and a later word when it
// names a file, both only inside the project.
func TestNewGateNamesTheProjectFilesOfTheCommand(t *testing.T) {
	root := t.TempDir()
	outside := filepath.Join(t.TempDir(), "elsewhere.sh")
	for path, content := range map[string]string{"gate.sh": "#!/bin/sh\n", "lib/check.sh": "echo ok\n", "sh": "a file named like the program", outside: "x"} {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(root, path)), 0o755); err != nil {
			t.Fatal(err)
		}
		if !filepath.IsAbs(path) {
			path = filepath.Join(root, path)
		}
		if err := os.WriteFile(path, []byte(content), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		name string
		argv []string
		want map[string]string
	}{
		{"a script", []string{"./gate.sh", "--strict"}, map[string]string{"./gate.sh": sum("#!/bin/sh\n")}},
		{"an interpreter and its script", []string{"sh", "lib/check.sh"}, map[string]string{"lib/check.sh": sum("echo ok\n")}},
		{"an absolute path inside", []string{filepath.Join(root, "gate.sh")}, map[string]string{filepath.Join(root, "gate.sh"): sum("#!/bin/sh\n")}},
		{"outside the project", []string{outside, "../x", "/etc/hostname"}, map[string]string{}},
		{"a folder, a missing file", []string{"./lib", "./missing.sh"}, map[string]string{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g, err := NewGate(root, tt.argv)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(g.Argv, tt.argv) || len(g.Files) != len(tt.want) {
				t.Fatalf("got %+v, want files %v", g, tt.want)
			}
			for f, s := range tt.want {
				if g.Files[f] != s {
					t.Errorf("file %s: got %q, want %q", f, g.Files[f], s)
				}
			}
		})
	}
}

func TestConsentAllowChangeRevoke(t *testing.T) {
	for _, dir := range []string{"allowed", "[allowed] *?"} { // a glob's metacharacters in the folder's path
		t.Run(dir, func(t *testing.T) { testConsentAllowChangeRevoke(t, Consent{Dir: filepath.Join(t.TempDir(), dir)}) })
	}
}

func testConsentAllowChangeRevoke(t *testing.T, c Consent) {
	gate := Gate{Project: "/p", Argv: []string{"./gate.sh"}, Files: map[string]string{"./gate.sh": sum("v1")}}
	other := Gate{Project: "/q", Argv: []string{"./gate.sh"}, Files: map[string]string{"./gate.sh": sum("v1")}}
	if ok, last, err := c.Allowed(gate); ok || last != nil || err != nil {
		t.Fatalf("before any consent: %v %v %v, want not allowed, nothing before", ok, last, err)
	}
	for _, g := range []Gate{gate, other} {
		if err := c.Allow(g, time.Unix(1, 0)); err != nil {
			t.Fatal(err)
		}
	}
	if ok, _, err := c.Allowed(gate); !ok || err != nil {
		t.Fatalf("after Allow: %v %v, want allowed", ok, err)
	}
	changed := gate
	changed.Files = map[string]string{"./gate.sh": sum("v2")}
	ok, last, err := c.Allowed(changed)
	if ok || err != nil || last == nil || last.Files["./gate.sh"] != sum("v1") {
		t.Fatalf("a changed script: %v %+v %v, want not allowed, the gate allowed before", ok, last, err)
	}
	if err := c.Allow(changed, time.Unix(2, 0)); err != nil {
		t.Fatal(err)
	}
	n, err := c.Revoke("/p")
	if n != 2 || err != nil {
		t.Fatalf("Revoke: %d, %v; want the 2 consents of /p", n, err)
	}
	if ok, last, _ := c.Allowed(gate); ok || last != nil {
		t.Error("a revoked gate is still allowed")
	}
	if ok, _, _ := c.Allowed(other); !ok {
		t.Error("Revoke of /p removed the consent of /q")
	}
}

// A consent file is never written through a symlink, and a symlink in
// its place is no consent.
func TestConsentNeverFollowsALink(t *testing.T) {
	c := Consent{Dir: filepath.Join(t.TempDir(), "allowed")}
	gate := Gate{Project: "/p", Argv: []string{"./gate.sh"}, Files: map[string]string{}}
	if err := c.Allow(gate, time.Unix(1, 0)); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(c.Dir, c.file(gate))
	data, _ := os.ReadFile(path)
	target := filepath.Join(t.TempDir(), "target")
	if err := os.WriteFile(target, data, 0o644); err != nil {
		t.Fatal(err)
	}
	os.Remove(path)
	if err := os.Symlink(target, path); err != nil {
		t.Fatal(err)
	}
	if ok, _, err := c.Allowed(gate); ok || err == nil {
		t.Errorf("a symlink as the consent: allowed %v, error %v; want refused with an error", ok, err)
	}
	if err := c.Allow(gate, time.Unix(2, 0)); err != nil {
		t.Fatal(err)
	}
	if info, err := os.Lstat(path); err != nil || !info.Mode().IsRegular() {
		t.Errorf("after Allow the consent is %v (%v), want a regular file", info.Mode(), err)
	}
	if now, _ := os.ReadFile(target); string(now) != string(data) {
		t.Error("Allow wrote through the symlink")
	}
}
