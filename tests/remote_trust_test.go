package tests

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestRemoteGateRefusesForgedPass: the change carries a pass in its state
// files that no reviewer pushed (made by a specdev without the remote).
// specdev gate opens on it, gate --remote does not: the remote holds the
// failed review.
func TestRemoteGateRefusesForgedPass(t *testing.T) {
	m := requested(t, configJSON(`"stale_after": "15m"`))
	_, lease := claimIn(t, m.b, "rv-b")
	want(t, m.b, 0, nil, asReviewer("rv-b", lease, "check", "record", "a.go", "--finding", "critical: wrong")...)
	want(t, m.b, 0, nil, asReviewer("rv-b", lease, "check", "verdict", "fail", "--summary", "wrong")...)

	want(t, m.a, 4, []string{"Review failed"}, "work")
	writeFiles(t, m.a, map[string]string{"a.go": "package a // unreviewed\n"})
	gitIn(t, m.a, "commit", "-q", "-am", "unreviewed")
	forge := filepath.Join(t.TempDir(), "forge")
	if out, err := exec.Command("cp", "-a", m.a, forge).CombinedOutput(); err != nil {
		t.Fatalf("cp: %v %s", err, out)
	}
	writeFiles(t, forge, map[string]string{".specdev/config.json": `{"version": 1}`})
	want(t, forge, 0, nil, "work", "request")
	_, flease := claimIn(t, forge, "rv-forger")
	want(t, forge, 0, nil, asReviewer("rv-forger", flease, "check", "record", "a.go")...)
	want(t, forge, 0, nil, asReviewer("rv-forger", flease, "check", "verdict", "pass", "--summary", "fine")...)
	for _, f := range []string{"review_request.json", "review_progress.json", "review_history.jsonl", "review_report.md"} {
		writeFiles(t, m.a, map[string]string{".specdev/assignments/00001_a/" + f: stateFile(t, forge, "00001_a", f)})
	}

	want(t, m.a, 0, []string{"Gate review open"}, "gate")
	want(t, m.a, 4, []string{"Gate review closed: 00001_a: failed", "Summary: wrong"}, "gate", "--remote", "origin")
}

// TestRemoteSignedVerdicts: with sign_verdicts the reviewer's machine
// signs each verdict commit with git's ssh signing; gate --remote
// --allowed-signers trusts a pass only if that commit's signer is
// allowed. An unsigned pass and one signed by another key are refused
// (exit 7).
func TestRemoteSignedVerdicts(t *testing.T) {
	if _, err := exec.LookPath("ssh-keygen"); err != nil {
		t.Skip("ssh-keygen is not installed")
	}
	keys := t.TempDir()
	allowed := map[string]string{}
	for _, name := range []string{"good", "other"} {
		key := filepath.Join(keys, name)
		if out, err := exec.Command("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", name, "-f", key).CombinedOutput(); err != nil {
			t.Fatalf("ssh-keygen: %v %s", err, out)
		}
		pub, err := os.ReadFile(key + ".pub")
		if err != nil {
			t.Fatal(err)
		}
		allowed[name] = filepath.Join(keys, name+".allowed")
		writeFiles(t, keys, map[string]string{name + ".allowed": "reviewer@example.com " + string(pub)})
	}
	m := requested(t, configJSON(`"stale_after": "15m"`))
	gitIn(t, m.b, "config", "gpg.format", "ssh")
	gitIn(t, m.b, "config", "user.signingkey", filepath.Join(keys, "good"))
	pass := func() {
		_, lease := claimIn(t, m.b, "rv-b")
		want(t, m.b, 0, nil, asReviewer("rv-b", lease, "check", "record", "a.go")...)
		want(t, m.b, 0, nil, asReviewer("rv-b", lease, "check", "verdict", "pass", "--summary", "fine")...)
	}

	pass() // sign_verdicts is off on the reviewer's machine
	want(t, m.a, 0, []string{"Gate review open"}, "gate", "--remote", "origin")
	want(t, m.a, 7, []string{"not trusted", "carries no signature"}, "gate", "--remote", "origin", "--allowed-signers", allowed["good"])

	writeFiles(t, m.b, map[string]string{".specdev/config.json": configJSON(`"sign_verdicts": true`)})
	writeFiles(t, m.a, map[string]string{"a.go": "package a // again\n"})
	gitIn(t, m.a, "commit", "-q", "-am", "again")
	want(t, m.a, 0, nil, "work", "request")
	pass()
	tip := remoteID(t, m.a, "00001_a")
	if sig := gitOut(t, m.b, "cat-file", "commit", tip); !strings.Contains(sig, "BEGIN SSH SIGNATURE") {
		t.Fatalf("the verdict commit is not signed:\n%s", sig)
	}
	want(t, m.a, 0, []string{"Gate review open"}, "gate", "--remote", "origin", "--allowed-signers", allowed["good"])
	want(t, m.a, 7, []string{"not trusted", fmt.Sprintf("commit %.12s", tip), "not signed by a key in"}, "gate", "--remote", "origin", "--allowed-signers", allowed["other"])
}

// TestRemoteClockSkew: a state dated two hours ahead of this clock, and
// one dated two hours before this machine last saw the state it replaced,
// each make specdev warn on stderr that the clocks disagree.
func TestRemoteClockSkew(t *testing.T) {
	m := requested(t, configJSON(`"remote_poll": "200ms"`))
	_, lease := claimIn(t, m.b, "rv-b")
	redate := func(offset time.Duration) {
		ref := "refs/specdev/assignments/00001_a"
		gitIn(t, m.a, "fetch", "-q", "origin", ref)
		tip := gitOut(t, m.a, "rev-parse", "FETCH_HEAD")
		cmd := exec.Command("git", "commit-tree", tip+"^{tree}", "-p", tip, "-m", "redated")
		cmd.Dir = m.a
		cmd.Env = append(os.Environ(), fmt.Sprintf("GIT_COMMITTER_DATE=%d +0000", time.Now().Add(offset).Unix()))
		out, err := cmd.Output()
		if err != nil {
			t.Fatal(err)
		}
		gitIn(t, m.a, "push", "-q", "--force-with-lease="+ref+":"+tip, "origin", strings.TrimSpace(string(out))+":"+ref)
	}

	redate(2 * time.Hour)
	_, errText, code := runSpecdev(t, m.b, asReviewer("rv-b", lease, "check", "record", "a.go")...)
	if code != 0 || !strings.Contains(errText, "clock skew") || !strings.Contains(errText, "ahead of this machine's clock") {
		t.Errorf("a state from the future: exit %d, want 0 and a warning:\n%s", code, errText)
	}

	waiting := startSpecdev(t, m.b, "check", "--session", "rv-c", "--timeout", "3s")
	time.Sleep(time.Second) // it has seen the state
	redate(-2 * time.Hour)
	if code := waiting.wait(); code != 3 || !strings.Contains(waiting.errText(), "before this machine saw the state before it") {
		t.Errorf("a state from the past: exit %d, want 3 and a warning:\n%s", code, waiting.errText())
	}
}

// TestRemoteFencing: a review taken over on one machine is no longer the
// other machine's: its session's next record is refused, naming who took
// it.
func TestRemoteFencing(t *testing.T) {
	m := requested(t, configJSON(`"stale_after": "1s"`))
	_, lease := claimIn(t, m.b, "rv-b")
	time.Sleep(1100 * time.Millisecond)
	want(t, m.a, 0, []string{"Taken over from session rv-b"}, "check", "--session", "rv-a")
	_, errText, code := runSpecdev(t, m.b, asReviewer("rv-b", lease, "check", "record", "a.go")...)
	if code != 8 || !strings.Contains(errText, "taken over by rv-a") {
		t.Errorf("record after the takeover: exit %d, want 8 naming rv-a:\n%s", code, errText)
	}
}
