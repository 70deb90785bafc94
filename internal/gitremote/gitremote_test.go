package gitremote

import (
	"context"
	"errors"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/specdev/specdev/checkpoint"
	"github.com/specdev/specdev/protocol"
)

// clone is a repository with origin set to a new bare one (file://).
func clone(t *testing.T) *Remote {
	t.Helper()
	base := t.TempDir()
	run(t, base, "", "init", "-q", "--bare", "srv.git")
	run(t, base, "", "init", "-q", "work")
	run(t, filepath.Join(base, "work"), "", "remote", "add", "origin", "file://"+filepath.Join(base, "srv.git"))
	return New(filepath.Join(base, "work"), "origin")
}

func run(t *testing.T, dir, stdin string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir, cmd.Stdin = dir, strings.NewReader(stdin)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

func state(request string) checkpoint.RemoteCommit {
	return checkpoint.RemoteCommit{Files: map[string][]byte{protocol.RequestFile: []byte(request)}, Message: "m", Time: time.Unix(1_700_000_000, 0)}
}

// TestPushIsCompareAndSwap: of two pushes made from the same state only
// the first lands; the second is ErrRaced and changes nothing, and one
// made from the new state lands again. A first push onto a ref that
// exists is a race too.
func TestPushIsCompareAndSwap(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	ctx := context.Background()
	r := clone(t)
	first, err := r.Push(ctx, "00001_a", nil, state("one"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.Push(ctx, "00001_a", nil, state("other first")); !errors.Is(err, checkpoint.ErrRaced) {
		t.Fatalf("a second first state: %v, want ErrRaced", err)
	}
	base, err := r.Fetch(ctx, "00001_a", "")
	if err != nil || base == nil || base.ID != first || string(base.Files[protocol.RequestFile]) != "one" || base.Parent != "" {
		t.Fatalf("Fetch: %+v, %v; want %s holding one", base, err, first)
	}
	if !base.Time.Equal(time.Unix(1_700_000_000, 0)) {
		t.Errorf("the state's time is %v", base.Time)
	}
	second, err := r.Push(ctx, "00001_a", base, state("two"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.Push(ctx, "00001_a", base, state("lost")); !errors.Is(err, checkpoint.ErrRaced) {
		t.Fatalf("a push from a state the remote moved on from: %v, want ErrRaced", err)
	}
	got, err := r.Fetch(ctx, "00001_a", "")
	if err != nil || got.ID != second || string(got.Files[protocol.RequestFile]) != "two" || got.Parent != first {
		t.Fatalf("after the race: %+v, %v; want %s (two, after %s)", got, err, second, first)
	}
	if refs, err := r.List(ctx); err != nil || len(refs) != 1 || refs["00001_a"] != second {
		t.Errorf("List: %v, %v", refs, err)
	}
	if author := run(t, r.root, "", "log", "-1", "--format=%an <%ae> %cn", second); author != "specdev <specdev@localhost> specdev" {
		t.Errorf("the state is by %q, want specdev's fixed identity", author)
	}
}

// TestReadRefusesWhatIsNoState: a ref at something that is not a commit,
// or a commit whose state file is a folder, is a *protocol.InvalidError
// naming the ref and the file; an unreachable remote is an error that
// names it, with a hint.
func TestReadRefusesWhatIsNoState(t *testing.T) {
	ctx := context.Background()
	r := clone(t)
	blob := run(t, r.root, "x", "hash-object", "-w", "--stdin")
	sub := run(t, r.root, "100644 blob "+blob+"\tx\n", "mktree")
	tree := run(t, r.root, "040000 tree "+sub+"\treview_request.json\n", "mktree")
	commit := run(t, r.root, "", "-c", "user.name=t", "-c", "user.email=t@t", "commit-tree", tree, "-m", "m")
	for _, tc := range []struct{ id, want string }{
		{blob, "is a blob, not a commit"},
		{commit, "review_request.json in origin refs/specdev/assignments/x (commit " + commit[:12] + "): is a tree, not a file"},
	} {
		_, err := r.Read(ctx, RefPrefix+"x", tc.id)
		var inv *protocol.InvalidError
		if !errors.As(err, &inv) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Read(%s): %v, want an InvalidError saying %q", tc.id, err, tc.want)
		}
	}
	gone := New(r.root, "nowhere")
	var down interface{ HintText() string }
	if _, err := gone.List(ctx); !errors.As(err, &down) || !strings.Contains(down.HintText(), "nothing was changed") ||
		!strings.Contains(err.Error(), "cannot reach the remote nowhere") {
		t.Errorf("List of a remote that is not there: %v, want it unreachable, with a hint", err)
	}
}
