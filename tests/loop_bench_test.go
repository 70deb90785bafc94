package tests

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// loopRound is what one review round cost the reviewer.
type loopRound struct {
	briefing int // bytes of the claim's briefing: the reviewer's prompt
	toReview int // files to read
	calls    int // specdev calls of the reviewer: claim, one record per file, verdict
}

// BenchmarkReviewLoop measures what session reuse and delta re-review
// save: a realistic 30-file review, three rounds, one small fix between
// rounds (a finding in round 1 fixed for round 2, another in round 2
// fixed for round 3, a pass in round 3). "reuse": the same reviewer
// session claims every round (follow-up briefings); "fallback": a new
// session claims each round (full briefings). It prints, per round, the
// briefing's size, the files to review and the reviewer's calls.
func BenchmarkReviewLoop(b *testing.B) {
	var reuse, fallback []loopRound
	for b.Loop() {
		reuse = runLoop(b, true)
		fallback = runLoop(b, false)
	}
	fmt.Printf("\nreview loop, 30 files, 3 rounds, one small fix per round:\n")
	fmt.Printf("%-8s %-9s %15s %16s %14s\n", "round", "mode", "briefing bytes", "files to review", "reviewer calls")
	for i := range reuse {
		for _, m := range []struct {
			name string
			r    loopRound
		}{{"reuse", reuse[i]}, {"fallback", fallback[i]}} {
			fmt.Printf("%-8d %-9s %15d %16d %14d\n", i+1, m.name, m.r.briefing, m.r.toReview, m.r.calls)
		}
	}
	for i := 1; i < len(reuse); i++ {
		fmt.Printf("round %d follow-up: %.2f of round 1's briefing\n", i+1, float64(reuse[i].briefing)/float64(reuse[0].briefing))
		b.ReportMetric(float64(reuse[i].briefing)/float64(reuse[0].briefing), fmt.Sprintf("round%d-share-of-first", i+1))
	}
}

// runLoop runs the three rounds in a fresh repository.
func runLoop(b *testing.B, sameSession bool) []loopRound {
	root := b.TempDir()
	must := func(args ...string) string {
		cmd := exec.Command(args[0], args[1:]...)
		cmd.Dir = root
		cmd.Env = append(withoutSpecdevVars(os.Environ()), "GIT_AUTHOR_NAME=b", "GIT_AUTHOR_EMAIL=b@b", "GIT_COMMITTER_NAME=b", "GIT_COMMITTER_EMAIL=b@b")
		out, err := cmd.CombinedOutput()
		if err != nil {
			b.Fatalf("%v: %v\n%s", args, err, out)
		}
		return string(out)
	}
	sd := func(args ...string) string { return must(append([]string{specdevBin()}, args...)...) }
	must("git", "init", "-q", "-b", "main")
	must("git", "commit", "-q", "--allow-empty", "-m", "init")
	must("git", "checkout", "-q", "-b", "feature")
	sd("init")
	if err := os.MkdirAll(filepath.Join(root, ".specdev", "assignments", "00001_payments"), 0o755); err != nil {
		b.Fatal(err)
	}
	files := loopFiles(b, root)
	must("git", "add", "-A")
	must("git", "commit", "-q", "-m", "payments service")
	findings := []string{files[7], files[19], ""} // what each round finds; "" is a pass
	var rounds []loopRound
	for i, found := range findings {
		if i > 0 { // fix what the round before found, and commit it
			fixFile(b, root, findings[i-1])
			must("git", "commit", "-q", "-a", "-m", "fix")
		}
		sd("work", "request", "--notes", fmt.Sprintf("round %d of the payments service", i+1))
		session := "rv-a"
		if !sameSession {
			session = fmt.Sprintf("rv-%d", i)
		}
		briefing := sd("check", "--session", session)
		lease, remaining := claimState(b, root)
		for _, f := range remaining {
			args := []string{"check", "record", f, "--session", session, "--lease", lease}
			if f == found {
				args = append(args, "--finding", "important: the retry path pays twice", "--line", "3")
			}
			sd(args...)
		}
		verdict := "pass"
		if found != "" {
			verdict = "fail"
		}
		sd("check", "verdict", verdict, "--summary", "round done", "--session", session, "--lease", lease)
		rounds = append(rounds, loopRound{briefing: len(briefing), toReview: len(remaining), calls: len(remaining) + 2})
	}
	return rounds
}

// loopFiles writes 30 Go files under internal/payments/ and returns their
// paths.
func loopFiles(b *testing.B, root string) []string {
	dir := filepath.Join(root, "internal", "payments", "processor")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		b.Fatal(err)
	}
	var files []string
	for i := range 30 {
		name := fmt.Sprintf("internal/payments/processor/handler_%02d.go", i)
		body := fmt.Sprintf("package processor\n\n// handler %d\nfunc handle%d() error {\n\treturn pay(%d)\n}\n", i, i, i)
		if err := os.WriteFile(filepath.Join(root, name), []byte(body), 0o644); err != nil {
			b.Fatal(err)
		}
		files = append(files, name)
	}
	return files
}

// fixFile changes one line of a file: the one small fix of a round.
func fixFile(b *testing.B, root, file string) {
	path := filepath.Join(root, file)
	data, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(strings.Replace(string(data), "return pay(", "return payOnce(", 1)), 0o644); err != nil {
		b.Fatal(err)
	}
}

// claimState reads the lease and the files left to review from the
// progress file the claim wrote.
func claimState(b *testing.B, root string) (lease string, remaining []string) {
	data, err := os.ReadFile(filepath.Join(root, ".specdev", "assignments", "00001_payments", "review_progress.json"))
	if err != nil {
		b.Fatal(err)
	}
	var p struct {
		Lease     string   `json:"lease"`
		Remaining []string `json:"files_remaining"`
	}
	if err := json.Unmarshal(data, &p); err != nil {
		b.Fatal(err)
	}
	return p.Lease, p.Remaining
}
