package changeset

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"github.com/specdev/specdev/protocol"
)

// repo is the git work tree the project lies in.
type repo struct {
	root   string // the project root, as given
	prefix string // the project root relative to the top level: "" or "sub/dir/"
	head   string // the full hash of HEAD, "" in a repository without commits
}

// openRepo finds the git work tree around root and its HEAD, in one git
// run. Outside one, or without git, it returns a *protocol.UsageError
// wrapping ErrNotGit.
func openRepo(ctx context.Context, root string) (*repo, error) {
	out, err := runGit(ctx, root, "rev-parse", "--show-prefix", "--verify", "-q", "HEAD^{commit}")
	gerr, failed := errors.AsType[*GitError](err)
	switch {
	case errors.Is(err, exec.ErrNotFound):
		return nil, notGitError(root, "git is not installed")
	case failed && strings.Contains(gerr.Stderr, "not a git repository"):
		return nil, notGitError(root, "")
	case err != nil && !(failed && gerr.Stderr == ""): // -q: no commit yet fails without a word
		return nil, err
	}
	prefix, head, _ := strings.Cut(string(out), "\n")
	return &repo{root: root, prefix: prefix, head: strings.TrimSpace(head)}, nil
}

// status lists the paths, relative to the top level, that git status
// reports as changed or untracked (not ignored), a rename or copy by its
// new name; origins are the original paths of the renames and copies.
func (r *repo) status(ctx context.Context) (paths, origins []string, err error) {
	out, err := runGit(ctx, r.root, "status", "--porcelain=v1", "-z", "--untracked-files=all", "--renames", "--ignore-submodules=all")
	if err != nil {
		return nil, nil, err
	}
	return parseStatus(out)
}

// diff lists the paths, relative to the top level, that a raw diff
// (git diff-tree or diff-index, with args) changes: a rename by its new
// name, a deletion kept, submodules left out.
func (r *repo) diff(ctx context.Context, command string, args ...string) ([]string, error) {
	out, err := runGit(ctx, r.root, append([]string{command, "-z", "-M", "--no-abbrev", "--ignore-submodules=all"}, args...)...)
	if err != nil {
		return nil, err
	}
	diff, err := parseRawDiff(out)
	paths := make([]string, len(diff))
	for i, d := range diff {
		paths[i] = d.path
	}
	return paths, err
}

// project turns a path relative to the top level into one relative to the
// project root; ok is false for paths outside the project or under .specdev/.
func (r *repo) project(p string) (rel string, ok bool) {
	rel, ok = strings.CutPrefix(p, r.prefix)
	if !ok || rel == "" || rel == protocol.StateDir || strings.HasPrefix(rel, protocol.StateDir+"/") {
		return "", false
	}
	return rel, true
}

// parseStatus reads `git status --porcelain=v1 -z`: entries "XY path\0",
// followed by "orig\0" for renames and copies, which goes to origins.
// Untracked folders (nested repositories, listed with a trailing slash)
// are left out.
func parseStatus(out []byte) (paths, origins []string, err error) {
	fields := splitNUL(out)
	for i := 0; i < len(fields); i++ {
		entry := fields[i]
		if len(entry) < 4 || entry[2] != ' ' {
			return nil, nil, fmt.Errorf("git status: unexpected entry %q", entry)
		}
		if strings.ContainsAny(entry[:2], "RC") && i+1 < len(fields) {
			i++
			origins = append(origins, fields[i])
		}
		if p := entry[3:]; !strings.HasSuffix(p, "/") {
			paths = append(paths, p)
		}
	}
	return paths, origins, nil
}

// splitNUL splits git's -z output into its non-empty fields.
func splitNUL(out []byte) []string {
	return strings.FieldsFunc(string(out), func(r rune) bool { return r == 0 })
}

// CommitExists reports whether rev names a commit in the repo at root.
func CommitExists(ctx context.Context, root, rev string) bool {
	_, ok, err := verifyCommit(ctx, root, rev)
	return ok && err == nil
}

// verifyCommit resolves rev to a commit hash; ok is false when rev names
// no commit (including a repository without commits and rev "HEAD").
func verifyCommit(ctx context.Context, root, rev string) (hash string, ok bool, err error) {
	if rev == "" || strings.HasPrefix(rev, "-") || strings.ContainsAny(rev, "\x00\n") {
		return "", false, nil
	}
	return gitLine(ctx, root, "rev-parse", "-q", "--verify", rev+"^{commit}")
}

// gitLine runs a git command that answers with one line; found is false
// when git fails: there is none of what it asks for (no such commit, no
// common ancestor, no upstream, no tag).
func gitLine(ctx context.Context, root string, args ...string) (line string, found bool, err error) {
	out, err := runGit(ctx, root, args...)
	if errors.As(err, new(*GitError)) {
		return "", false, nil
	}
	return strings.TrimSpace(string(out)), err == nil, err
}

// GitError is a git command that ran and failed, with what it said.
type GitError struct {
	Args   []string
	Stderr string // trimmed
	Err    error
}

func (e *GitError) Error() string {
	return fmt.Sprintf("git %s: %s", subcommand(e.Args), strings.ReplaceAll(cmp.Or(e.Stderr, e.Err.Error()), "\n", "; "))
}

func (e *GitError) Unwrap() error { return e.Err }

// subcommand is the git subcommand of args (after any -c settings).
func subcommand(args []string) string {
	for len(args) > 2 && args[0] == "-c" {
		args = args[2:]
	}
	return args[0]
}

// runGit runs `git -C root args…` and returns its stdout.
func runGit(ctx context.Context, root string, args ...string) ([]byte, error) {
	return Git(ctx, root, nil, nil, nil, args...)
}

// Git is how specdev runs git: `git -C root args…` without a shell, in
// gitEnv and with the extra environment variables env (they win), stdin
// unless nil, and its stdout written to stdout, or else returned (also
// when it fails). A git that ran and failed is a *GitError.
func Git(ctx context.Context, root string, env []string, stdin io.Reader, stdout io.Writer, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, "git", append([]string{"-C", root}, args...)...)
	wd, _ := os.Getwd() // "" if it cannot be found
	cmd.Env = append(append(gitEnv(os.Environ(), wd), "GIT_OPTIONAL_LOCKS=0", "LC_ALL=C"), env...)
	var out, stderr bytes.Buffer
	cmd.Stdin, cmd.Stdout, cmd.Stderr = stdin, &out, &stderr
	if stdout != nil {
		cmd.Stdout = stdout
	}
	err := cmd.Run()
	_, exited := errors.AsType[*exec.ExitError](err)
	switch {
	case err == nil:
	case ctx.Err() != nil:
		err = fmt.Errorf("git %s: %w", subcommand(args), ctx.Err())
	case exited:
		err = &GitError{Args: args, Stderr: strings.TrimSpace(stderr.String()), Err: err}
	default:
		err = fmt.Errorf("git %s: %w", subcommand(args), err)
	}
	return out.Bytes(), err
}

// gitLocations are the variables that tell git where the repository, its
// work tree and its index are.
var gitLocations = []string{"GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_OBJECT_DIRECTORY", "GIT_COMMON_DIR"}

// gitEnv is environ with git's location variables made absolute against
// cwd. Git runs hooks with some of them set relative to the top level
// (GIT_INDEX_FILE=.git/index, or .git/index.lock during commit -a), and
// `git -C root` would read them relative to root instead. With GIT_DIR set
// and GIT_WORK_TREE not, git takes the current folder as the top level of
// the work tree; that is made explicit for the same reason.
func gitEnv(environ []string, cwd string) []string {
	out := make([]string, 0, len(environ)+1)
	set := map[string]bool{}
	for _, kv := range environ {
		k, v, _ := strings.Cut(kv, "=")
		if slices.Contains(gitLocations, k) && v != "" {
			set[k] = true
			if !filepath.IsAbs(v) && cwd != "" {
				kv = k + "=" + filepath.Join(cwd, v)
			}
		}
		out = append(out, kv)
	}
	if set["GIT_DIR"] && !set["GIT_WORK_TREE"] && cwd != "" {
		out = append(out, "GIT_WORK_TREE="+cwd)
	}
	return out
}
