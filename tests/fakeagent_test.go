package tests

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// The fake agent: the test binary, linked into binDir as claude and as
// codex, speaks both command lines (claude -p --output-format json
// [--resume ID] PROMPT; codex exec --json [resume ID] PROMPT) and prints
// their documented JSON. It reviews as an agent would, by running specdev
// check record and verdict from its environment. $FAKE_AGENT_DIR holds
// its script, one step a line, each run taking the next (the last one
// repeats):
//
//	pass                 record every file to review, then verdict pass
//	fail TEXT            record the first file with an important finding TEXT, the rest clean, verdict fail
//	partial N            record N files, exit 0 without a verdict
//	crash N              record N files, exit 3 without output
//	hang N               record N files, start a child (sleep), hang
//	lost                 resumed: say the session is unknown and exit 1 (else as pass)
//	implement FILE TEXT  append TEXT to FILE (an implementer)
//
// with delay=D after the step's words to work for D first. Each run N
// writes call-N.argv (an argument a line, the prompt left out) and
// call-N.prompt, and appends
// "start end" (unix ns) to spans. Tokens are made up as a model's would
// be: a fresh session reads its whole prompt; a resumed one reads its
// transcript from the cache and only the new prompt afresh.
var fakeAgents = []string{"claude", "codex"}

// linkFakeAgents puts the fake agent into binDir (on the scenarios' PATH).
func linkFakeAgents() error {
	self, err := os.Executable()
	if err != nil {
		return err
	}
	for _, name := range fakeAgents {
		if err := os.Symlink(self, filepath.Join(binDir, name)); err != nil {
			return err
		}
	}
	return nil
}

func fakeAgentMain(name string, args []string) int {
	dir := os.Getenv("FAKE_AGENT_DIR")
	if dir == "" {
		fmt.Fprintln(os.Stderr, "fake agent: FAKE_AGENT_DIR is not set")
		return 2
	}
	resume, prompt := fakeArgs(name, args)
	n, step := takeStep(dir)
	begin := time.Now()
	os.WriteFile(filepath.Join(dir, fmt.Sprintf("call-%d.argv", n)), []byte(strings.Join(args[:max(len(args)-1, 0)], "\n")+"\n"), 0o644)
	os.WriteFile(filepath.Join(dir, fmt.Sprintf("call-%d.prompt", n)), []byte(prompt), 0o644)
	words, delay := stepWords(step)
	if words[0] == "lost" && resume != "" {
		fmt.Fprintf(os.Stderr, "No conversation found with session ID: %s\n", resume)
		return 1
	}
	session := resume
	if session == "" {
		session = fmt.Sprintf("%s-session-%d", name, n)
	}
	if name == "codex" {
		fmt.Printf("{\"type\":\"thread.started\",\"thread_id\":%q}\n{\"type\":\"turn.started\"}\n", session)
	}
	time.Sleep(delay)
	read, code := fakeWork(dir, words)
	if code != 0 {
		return code
	}
	fakeOutput(dir, name, session, resume != "", len(prompt), read)
	f, _ := os.OpenFile(filepath.Join(dir, "spans"), os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	fmt.Fprintf(f, "%d %d\n", begin.UnixNano(), time.Now().UnixNano())
	f.Close()
	return 0
}

// fakeArgs finds the session to resume and the prompt in either command line.
func fakeArgs(name string, args []string) (resume, prompt string) {
	for i := 0; i < len(args); i++ {
		switch {
		case name == "claude" && args[i] == "--resume" && i+1 < len(args),
			name == "codex" && args[i] == "resume" && i+1 < len(args):
			resume = args[i+1]
			i++
		case i == len(args)-1:
			prompt = args[i]
		}
	}
	return resume, prompt
}

// takeStep takes the next step of the script, under a lock (agents run
// side by side), and numbers the run.
func takeStep(dir string) (int, string) {
	lock, _ := os.OpenFile(filepath.Join(dir, "lock"), os.O_RDWR|os.O_CREATE, 0o644)
	defer lock.Close()
	syscall.Flock(int(lock.Fd()), syscall.LOCK_EX)
	data, _ := os.ReadFile(filepath.Join(dir, "count"))
	n, _ := strconv.Atoi(strings.TrimSpace(string(data)))
	os.WriteFile(filepath.Join(dir, "count"), []byte(strconv.Itoa(n+1)), 0o644)
	script, _ := os.ReadFile(filepath.Join(dir, "script"))
	var steps []string
	for _, line := range strings.Split(string(script), "\n") {
		if line = strings.TrimSpace(line); line != "" && !strings.HasPrefix(line, "#") {
			steps = append(steps, line)
		}
	}
	if len(steps) == 0 {
		return n + 1, "pass"
	}
	return n + 1, steps[min(n, len(steps)-1)]
}

func stepWords(step string) ([]string, time.Duration) {
	var words []string
	var delay time.Duration
	for _, w := range strings.Fields(step) {
		if d, ok := strings.CutPrefix(w, "delay="); ok {
			delay, _ = time.ParseDuration(d)
			continue
		}
		words = append(words, w)
	}
	return words, delay
}

// fakeWork does the step's work and returns how many files it read, or an
// exit code to end with at once.
func fakeWork(dir string, words []string) (read, code int) {
	count := func() int {
		if len(words) > 1 {
			n, _ := strconv.Atoi(words[1])
			return n
		}
		return 0
	}
	switch words[0] {
	case "implement":
		f, err := os.OpenFile(words[1], os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
		if err != nil {
			return 0, 4
		}
		fmt.Fprintln(f, strings.Join(words[2:], " "))
		f.Close()
		return 1, 0
	case "partial", "crash", "hang":
		read = recordFiles(count(), "")
		switch words[0] {
		case "crash":
			return read, 3
		case "hang":
			child := exec.Command("sleep", "3600")
			child.Start()
			os.WriteFile(filepath.Join(dir, "hang.pid"), []byte(strconv.Itoa(child.Process.Pid)), 0o644)
			time.Sleep(time.Hour)
		}
		return read, 0
	case "fail":
		read = recordFiles(-1, strings.Join(words[1:], " "))
		return read, specdev("check", "verdict", "fail", "--summary", strings.Join(words[1:], " "))
	}
	read = recordFiles(-1, "")
	return read, specdev("check", "verdict", "pass", "--summary", "looks right")
}

// recordFiles records up to n of the files still to review (all: n < 0),
// the first with finding, and returns how many it recorded.
func recordFiles(n int, finding string) int {
	out, err := exec.Command("specdev", "check", "--json").Output()
	var got struct {
		Data struct {
			Remaining []string `json:"remaining"`
		} `json:"data"`
	}
	if err != nil || json.Unmarshal(out, &got) != nil {
		fmt.Fprintf(os.Stderr, "fake agent: specdev check: %v\n%s", err, out)
		os.Exit(4)
	}
	files := got.Data.Remaining
	if n >= 0 && n < len(files) {
		files = files[:n]
	}
	for i, f := range files {
		args := []string{"check", "record", f}
		if i == 0 && finding != "" {
			args = append(args, "--finding", "important: "+finding, "--line", "1")
		}
		if code := specdev(args...); code != 0 {
			os.Exit(code)
		}
	}
	return len(files)
}

func specdev(args ...string) int {
	cmd := exec.Command("specdev", args...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		fmt.Fprintf(os.Stderr, "fake agent: specdev %s: %v\n%s", strings.Join(args, " "), err, out.String())
		return 4
	}
	return 0
}

// fakeOutput prints the run's result as the agent documents it. A
// session's transcript (its token count, kept in the fake's folder)
// grows by the prompt, the files read and the answer.
func fakeOutput(dir, name, session string, resumed bool, promptBytes, read int) {
	path := filepath.Join(dir, "transcript-"+session)
	data, _ := os.ReadFile(path)
	cached, _ := strconv.Atoi(strings.TrimSpace(string(data)))
	if !resumed {
		cached = 0
	}
	fresh := promptBytes/4 + read*300 // the new prompt, and each file read
	output := 40 + read*25
	os.WriteFile(path, []byte(strconv.Itoa(cached+fresh+output)), 0o644)
	if name == "codex" {
		fmt.Printf("{\"type\":\"item.completed\",\"item\":{\"id\":\"item_0\",\"type\":\"agent_message\",\"text\":\"done\"}}\n")
		fmt.Printf("{\"type\":\"turn.completed\",\"usage\":{\"input_tokens\":%d,\"cached_input_tokens\":%d,\"output_tokens\":%d}}\n",
			cached+fresh, cached, output)
		return
	}
	cost := (float64(fresh)*3 + float64(cached)*0.3 + float64(output)*15) / 1e6
	fmt.Printf("{\"type\":\"result\",\"subtype\":\"success\",\"is_error\":false,\"duration_ms\":12,\"num_turns\":2,\"result\":\"done\","+
		"\"session_id\":%q,\"total_cost_usd\":%.6f,\"usage\":{\"input_tokens\":%d,\"cache_creation_input_tokens\":0,"+
		"\"cache_read_input_tokens\":%d,\"output_tokens\":%d}}\n", session, cost, fresh, cached, output)
}
