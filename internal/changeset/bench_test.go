package changeset

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// BenchmarkRequest is what specdev work request asks of this package
// for a change of 5,000 files: collect them, hash them, snapshot them.
// Each must grow with the files, not with their square (scripts/bench.sh
// times the whole command). The snapshot's runs find the files' content
// stored in git by a first, untimed one: what storing it costs shows in
// scripts/bench.sh.
func BenchmarkRequest(b *testing.B) {
	if _, err := exec.LookPath("git"); err != nil {
		b.Skip("git is not on PATH")
	}
	repo := b.TempDir()
	gitB(b, repo, "init", "-q")
	files := make([]string, 5000)
	for i := range files {
		files[i] = fmt.Sprintf("src/d%02d/f%04d.go", i%50, i)
		writeB(b, repo, files[i], fmt.Sprintf("package d // %d\n", i))
	}
	gitB(b, repo, "add", "-A")
	gitB(b, repo, "-c", "user.name=b", "-c", "user.email=b@localhost", "-c", "commit.gpgsign=false", "commit", "-q", "-m", "files")
	for i, f := range files {
		writeB(b, repo, f, fmt.Sprintf("package d // %d, changed\n", i))
	}
	ctx := context.Background()
	b.Run("collect", func(b *testing.B) {
		for b.Loop() {
			res, err := Collect(ctx, Options{Root: repo, Branch: true})
			if err != nil || len(res.Files) != len(files) {
				b.Fatalf("Collect: %d files, %v", len(res.Files), err)
			}
		}
	})
	b.Run("digest", func(b *testing.B) {
		for b.Loop() {
			if _, err := Digest(repo, files); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("snapshot", func(b *testing.B) {
		res, err := Collect(ctx, Options{Root: repo, Branch: true})
		if err != nil {
			b.Fatal(err)
		}
		if _, _, err := res.Snapshot(ctx, files); err != nil { // stores the content: the runs measure the rest
			b.Fatal(err)
		}
		for b.Loop() {
			if _, _, err := res.Snapshot(ctx, files); err != nil {
				b.Fatal(err)
			}
		}
	})
}

func gitB(b *testing.B, dir string, args ...string) {
	b.Helper()
	if out, err := exec.Command("git", append([]string{"-C", dir}, args...)...).CombinedOutput(); err != nil {
		b.Fatalf("git %v: %v\n%s", args, err, out)
	}
}

func writeB(b *testing.B, dir, rel, content string) {
	b.Helper()
	name := filepath.Join(dir, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(name, []byte(content), 0o644); err != nil {
		b.Fatal(err)
	}
}
