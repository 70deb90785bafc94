package checkpoint

import (
	"context"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/specdev/specdev/protocol"
)

func TestLockFileRemembersWhatWasWritten(t *testing.T) {
	a := testAssignment(t)
	if _, err := a.RequestReview(context.Background(), NewRequest{ChangedFiles: []string{"a.go"}}); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(a.path(protocol.RequestFile))
	if err != nil {
		t.Fatal(err)
	}
	cache, err := a.readCache()
	if err != nil || !cache.trusts(protocol.RequestFile, data) {
		t.Fatalf("cache %v (%v) does not trust the request specdev just wrote", cache, err)
	}
	lock, _ := os.ReadFile(a.path(LockFile))
	if first, _, _ := strings.Cut(string(lock), "\n"); first != "" {
		t.Fatalf("lock file's first line is %q after the lock was released, want it empty (no holder)", first)
	}
}

// A hand edit changes the bytes, so the cache no longer vouches for them
// and the full schema pass catches what the typed decode would accept.
func TestEditedFileIsValidatedInFull(t *testing.T) {
	a := testAssignment(t)
	ctx := context.Background()
	if _, err := a.RequestReview(ctx, NewRequest{ChangedFiles: []string{"a.go"}}); err != nil {
		t.Fatal(err)
	}
	path := a.path(protocol.RequestFile)
	data, _ := os.ReadFile(path)
	edited := strings.Replace(string(data), `"gate": "review"`, `"gate": "no spaces allowed"`, 1)
	if edited == string(data) {
		t.Fatal("the edit changed nothing")
	}
	if err := os.WriteFile(path, []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := a.Cancel(ctx)
	var inv *protocol.InvalidError
	if !errors.As(err, &inv) || inv.Field != "gate" {
		t.Fatalf("got %v, want an invalid gate", err)
	}
	after, _ := os.ReadFile(path)
	if string(after) != edited {
		t.Fatal("a malformed request was rewritten")
	}
	if _, err := a.Snapshot(); !errors.As(err, &inv) {
		t.Fatalf("Snapshot: got %v, want an *InvalidError", err)
	}
}

// A wrong or torn cache costs only a full validation.
func TestBadCacheFallsBackToFullValidation(t *testing.T) {
	a := testAssignment(t)
	ctx := context.Background()
	if _, err := a.RequestReview(ctx, NewRequest{ChangedFiles: []string{"a.go"}}); err != nil {
		t.Fatal(err)
	}
	bogus := "pid 1 (x)\nvalid review_request.json 00\nvalid review_progress.json\ngarbage"
	if err := os.WriteFile(a.path(LockFile), []byte(bogus), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Cancel(ctx); err != nil {
		t.Fatalf("a valid request with a bogus cache: %v", err)
	}
	data, _ := os.ReadFile(a.path(protocol.RequestFile))
	if cache, err := a.readCache(); err != nil || !cache.trusts(protocol.RequestFile, data) {
		t.Fatal("the cache was not rebuilt by the next transaction")
	}
}

func TestParseLockFile(t *testing.T) {
	holder, cache := parseLockFile([]byte("pid 7 (specdev check) since x\nvalid review_request.json ab\nvalid review_progress.json cd\n"))
	if holder != "pid 7 (specdev check) since x" || cache["review_request.json"] != "ab" || cache["review_progress.json"] != "cd" {
		t.Fatalf("got %q %v", holder, cache)
	}
	round := lockFileContent(holder, cache)
	h2, c2 := parseLockFile(round)
	if h2 != holder || len(c2) != 2 {
		t.Fatalf("round trip gave %q %v", h2, c2)
	}
}
