package changeset

import (
	"context"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/specdev/specdev/protocol"
)

// What a push carries. git gives the pre-push hook one line per ref it
// pushes; the push adds to the remote the commits of the pushed commit
// that the remote does not have yet (its old tip, when git knows it, and
// every remote-tracking branch of the remote), and with them the files
// those commits change, at their content in the pushed commit. A file a
// merge only brings over from commits the remote has, or that the pushed
// commits change and change back, is not carried. A push to a remote git
// knows nothing of (a URL, the first push) carries every commit.

// Push is one line of the pre-push hook's input.
type Push struct {
	LocalRef, LocalSHA, RemoteRef, RemoteSHA string
}

// Deletes reports whether the push deletes the remote ref.
func (p Push) Deletes() bool { return strings.Trim(p.LocalSHA, "0") == "" }

// Carried is what a push (or HEAD, for Unpushed) carries to a remote.
type Carried struct {
	Commits int      // the commits the remote does not have
	Files   []string // relative to the root, sorted
	Sums    Sums     // Pushed: the files' digests in the pushed commit
}

// maxPushInput bounds the hook's input ReadPushes reads.
const maxPushInput = 8 << 20

// isObjectID says whether s is a git object id: 40 (SHA-1) or 64
// (SHA-256) lower-case hex digits. (No regular expressions here: one
// compiled at start-up costs every command, and these are used by one.)
func isObjectID(s string) bool {
	return (len(s) == 40 || len(s) == 64) && strings.Trim(s, "0123456789abcdef") == ""
}

// ReadPushes reads the lines git gives the pre-push hook on stdin:
// "<local ref> <local sha> <remote ref> <remote sha>". Blank lines are
// skipped; anything else is a *protocol.InvalidError naming the line.
func ReadPushes(r io.Reader) ([]Push, error) {
	data, err := io.ReadAll(io.LimitReader(r, maxPushInput+1))
	if err != nil {
		return nil, fmt.Errorf("read the refs to push from stdin: %w", err)
	}
	const file, hint = "stdin (the refs git pushes)", "specdev gate --pre-push reads what git gives the pre-push hook: run it from the hook (specdev hook install pre-push)"
	if len(data) > maxPushInput {
		return nil, &protocol.InvalidError{File: file, Problem: "more than 8 MiB of refs", Hint: hint}
	}
	var pushes []Push
	for i, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSuffix(line, "\r")
		if strings.TrimSpace(line) == "" {
			continue
		}
		f := strings.Split(line, " ")
		if len(f) != 4 || !isObjectID(f[1]) || !isObjectID(f[3]) || !plainRef(f[0]) || !plainRef(f[2]) {
			return nil, &protocol.InvalidError{File: file, Field: fmt.Sprintf("line %d", i+1),
				Problem: fmt.Sprintf("%s is not \"<local ref> <local sha> <remote ref> <remote sha>\"", protocol.QuotePrefix(line)), Hint: hint}
		}
		pushes = append(pushes, Push{LocalRef: f[0], LocalSHA: f[1], RemoteRef: f[2], RemoteSHA: f[3]})
	}
	return pushes, nil
}

// plainRef: a ref name as git prints it (or "(delete)"), nothing else.
func plainRef(s string) bool {
	return s != "" && len(s) <= 1024 && strings.IndexFunc(s, func(r rune) bool { return r < 0x21 || r == 0x7f }) < 0
}

// Pushed is what pushing p to remote (the hook's first argument: a
// remote's name, or a URL) carries: see the comment at the top.
func Pushed(ctx context.Context, root, remote string, p Push) (Carried, error) {
	if p.Deletes() {
		return Carried{}, nil
	}
	repo, err := openRepo(ctx, root)
	if err != nil {
		return Carried{}, err
	}
	tip, ok, err := verifyCommit(ctx, root, p.LocalSHA)
	if err == nil && !ok {
		err = &protocol.UsageError{Msg: fmt.Sprintf("the pushed %s (%s) is not a commit in this repository", p.LocalRef, p.LocalSHA),
			Hint: "specdev gate judges commits; push tags and other objects with git push --no-verify, knowingly"}
	}
	if err != nil {
		return Carried{}, err
	}
	// The remote's tracking branches: a URL (or a remote git knows no
	// branches of) matches none, and its push carries every commit. An
	// empty pattern would match every remote's.
	var not []string
	if remote != "" {
		not = append(not, "--remotes="+remote)
	}
	if strings.Trim(p.RemoteSHA, "0") != "" && CommitExists(ctx, root, p.RemoteSHA) {
		not = append(not, p.RemoteSHA)
	}
	c, entries, err := repo.carried(ctx, tip, not)
	if err != nil {
		return Carried{}, err
	}
	c.Sums, err = repo.digestEntries(ctx, c.Files, entries)
	return c, err
}

// Unpushed is what HEAD carries to the remotes git knows: the files the
// commits no remote-tracking branch has change, plus what is uncommitted
// or untracked. ok is false when there is no remote-tracking branch to
// compare with.
func Unpushed(ctx context.Context, root string) (c Carried, ok bool, err error) {
	repo, err := openRepo(ctx, root)
	if err != nil {
		return Carried{}, false, err
	}
	out, err := runGit(ctx, root, "for-each-ref", "--count=1", "--format=%(refname)", "refs/remotes/")
	if err != nil || len(out) == 0 {
		return Carried{}, false, err
	}
	paths, _, err := repo.status(ctx)
	if err != nil {
		return Carried{}, false, err
	}
	if repo.head != "" {
		c, _, err = repo.carried(ctx, repo.head, []string{"--remotes"})
	}
	if err != nil {
		return Carried{}, false, err
	}
	for _, f := range c.Files {
		paths = append(paths, repo.prefix+f)
	}
	c.Files, err = repo.keepReviewable(paths, nil)
	return c, true, err
}

// carried finds the commits of tip that are not in not (revisions and
// --remotes options), and the project files they change that differ
// between tip and where those commits start (each boundary commit, or
// the empty tree for commits with no parent outside them), with their
// entries in tip's tree (a file deleted in tip has none; every entry is
// of a file it lists).
func (r *repo) carried(ctx context.Context, tip string, not []string) (Carried, map[string]indexEntry, error) {
	rng := append([]string{tip, "--not"}, not...)
	out, err := runGit(ctx, r.root, append([]string{"rev-list", "--boundary"}, rng...)...)
	if err != nil {
		return Carried{}, nil, err
	}
	var c Carried
	var bounds []string
	for _, line := range strings.Fields(string(out)) {
		if b, ok := strings.CutPrefix(line, "-"); ok {
			bounds = append(bounds, b)
		} else {
			c.Commits++
		}
	}
	if c.Commits == 0 {
		return c, nil, nil
	}
	out, err = runGit(ctx, r.root, append([]string{"log", "--format=", "--name-only", "-z", "-c", "--no-renames", "--root", "--no-show-signature"}, rng...)...)
	if err != nil {
		return Carried{}, nil, err
	}
	touched := r.relative(splitNUL(out))
	if len(bounds) == 0 { // from the empty tree, as this repository's hash names it
		out, err := runGit(ctx, r.root, "hash-object", "-t", "tree", "--stdin")
		if err != nil {
			return Carried{}, nil, err
		}
		bounds = []string{strings.TrimSpace(string(out))}
	}
	files := map[string]bool{}
	entries := map[string]indexEntry{}
	for _, b := range bounds {
		out, err := runGit(ctx, r.root, "diff-tree", "-r", "-z", "--no-renames", "--no-abbrev", "--ignore-submodules=all", b, tip)
		if err != nil {
			return Carried{}, nil, err
		}
		diff, err := parseRawDiff(out)
		if err != nil {
			return Carried{}, nil, err
		}
		for _, d := range diff {
			if rel, ok := r.project(d.path); ok && touched[rel] {
				files[rel] = true
				if strings.Trim(d.mode, "0") != "" {
					entries[rel] = indexEntry{mode: d.mode, oid: d.oid, stage: "0"}
				}
			}
		}
	}
	c.Files = slices.Sorted(maps.Keys(files))
	return c, entries, nil
}
