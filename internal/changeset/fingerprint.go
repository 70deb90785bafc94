package changeset

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"io/fs"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"syscall"

	"github.com/specdev/specdev/protocol"
)

// Sums is the fingerprint of a set of files together with each file's
// content digest, computed in one pass.
//
// The Fingerprint is "sha256:<64 hex>" over the files' paths and
// contents: it hashes, for each file in sorted order (duplicates once),
// the line "<path>\x00<hex sha256 of its content>\n", with the word
// "deleted" in place of the content hash for a file that does not exist.
type Sums struct {
	Fingerprint string
	Files       map[string]string // path -> hex sha256 of its content, or protocol.DigestDeleted
}

// Digest reads each file once and returns its content digest and the
// Fingerprint of them all. Paths are relative to root; a symlink is
// hashed by the content it leads to. A path that protocol.CheckPath
// refuses, or one that is not a regular file (a folder), is an error.
func Digest(root string, files []string) (Sums, error) { return digestAll(root, files, nil) }

// digestAll is Digest, with the content of each regular file store wants
// handed to it too.
func digestAll(root string, files []string, store *blobStore) (Sums, error) {
	content := newHasher()
	return digestEach(files, func(p string) (string, error) {
		return content.file(root, p, store.keeper(p))
	})
}

// digestEach is the Sums of files, each file's digest from sum.
func digestEach(files []string, sum func(p string) (string, error)) (Sums, error) {
	sums := make(map[string]string, len(files))
	for _, p := range sortedSet(files) {
		if err := protocol.CheckPath(p); err != nil {
			return Sums{}, refuse(p, err.Error(), "fingerprint only paths relative to the project root")
		}
		var err error
		if sums[p], err = sum(p); err != nil {
			return Sums{}, err
		}
	}
	return Sums{Fingerprint: fingerprintFrom(sums), Files: sums}, nil
}

// fingerprintFrom is the Fingerprint of files with these content digests.
func fingerprintFrom(sums map[string]string) string {
	h := sha256.New()
	for _, p := range slices.Sorted(maps.Keys(sums)) {
		io.WriteString(h, p+"\x00"+sums[p]+"\n")
	}
	return "sha256:" + hex.EncodeToString(h.Sum(nil))
}

// hasher hashes one file after another with one sha256 state and one
// read buffer: a review of thousands of files allocates neither per file.
type hasher struct {
	h     hash.Hash
	buf   []byte
	whole []byte // a whole file, for keep (see digest)
}

func newHasher() *hasher { return &hasher{h: sha256.New(), buf: make([]byte, 32<<10)} }

// file is digest of the file p relative to root, its error naming p.
func (h *hasher) file(root, p string, keep func([]byte)) (string, error) {
	sum, err := digest(h, filepath.Join(root, filepath.FromSlash(p)), keep)
	if err != nil {
		return "", fmt.Errorf("fingerprint %s: %w", p, err)
	}
	return sum, nil
}

// digest returns the hex sha256 of the file's content, or "deleted" if
// there is no such file. keep, unless nil, is given the whole content of
// a file of up to packMaxFile bytes too.
//
// The file is read with four plain system calls (open, fstat, read,
// close): os.Open adds five of its own (the poller's registration and
// the file's flags), which were a fifth of `work request` over 5,000
// files. It is opened non-blocking, so that a FIFO is refused, not
// waited on.
func digest(h *hasher, name string, keep func([]byte)) (string, error) {
	fd, err := uninterrupted(func() (int, error) {
		return syscall.Open(name, syscall.O_RDONLY|syscall.O_CLOEXEC|syscall.O_NONBLOCK, 0)
	})
	switch {
	case notExist(err):
		return protocol.DigestDeleted, nil
	case err != nil:
		return "", &fs.PathError{Op: "open", Path: name, Err: err}
	}
	defer syscall.Close(fd)
	var st syscall.Stat_t
	if err := syscall.Fstat(fd, &st); err != nil {
		return "", &fs.PathError{Op: "stat", Path: name, Err: err}
	}
	if st.Mode&syscall.S_IFMT != syscall.S_IFREG {
		return "", errors.New("not a regular file (a folder, a device or a pipe)")
	}
	keeping := keep != nil && st.Size <= packMaxFile
	h.h.Reset()
	h.whole = h.whole[:0]
	for {
		n, err := uninterrupted(func() (int, error) { return syscall.Read(fd, h.buf) })
		if err != nil {
			return "", &fs.PathError{Op: "read", Path: name, Err: err}
		}
		if n <= 0 {
			break
		}
		h.h.Write(h.buf[:n])
		if keeping {
			h.whole = append(h.whole, h.buf[:n]...)
		}
	}
	if keeping {
		keep(h.whole)
	}
	return hex.EncodeToString(h.h.Sum(nil)), nil
}

// uninterrupted makes a system call again while a signal interrupts it.
func uninterrupted(call func() (int, error)) (int, error) {
	for {
		n, err := call()
		if err != syscall.EINTR {
			return n, err
		}
	}
}

// Modes of index entries (see git's index-format).
const (
	modeSymlink = "120000"
	modeGitlink = "160000"
)

// indexEntry is one line of `git ls-files -s`.
type indexEntry struct {
	mode, oid string
	stage     string // "0" unless the path is unmerged
}

// staged lists the paths, relative to the top level, that the index
// changes against HEAD: exactly what `git commit` would commit. It asks
// git diff --cached, which compares with the empty tree in a repository
// without commits, and is told to leave its paths as they are.
func (r *repo) staged(ctx context.Context) ([]string, error) {
	return r.diff(ctx, "diff", "--cached", "--raw", "--no-relative")
}

// rawDiff is one entry of a raw diff: the path (the new name of a
// rename) and its mode and object on the new side (mode 000000: gone).
type rawDiff struct{ path, mode, oid string }

// parseRawDiff reads `git diff-index --raw -z` (or diff-tree): ":srcmode
// dstmode srcoid dstoid status\0path\0", with a second path for renames
// and copies. Submodules are left out.
func parseRawDiff(out []byte) ([]rawDiff, error) {
	fields := splitNUL(out)
	var paths []rawDiff
	for i := 0; i < len(fields); i++ {
		meta := fields[i]
		parts := strings.Fields(strings.TrimPrefix(meta, ":"))
		if len(parts) == 5 && strings.ContainsAny(parts[4][:1], "RC") {
			i++ // the old name: a rename or copy is listed by its new one
		}
		if !strings.HasPrefix(meta, ":") || len(parts) != 5 || i+1 >= len(fields) {
			return nil, fmt.Errorf("git diff-index: unexpected entry %q", meta)
		}
		i++
		p := fields[i]
		if parts[0] == modeGitlink || parts[1] == modeGitlink {
			continue
		}
		paths = append(paths, rawDiff{path: p, mode: parts[1], oid: parts[3]})
	}
	return paths, nil
}

// DigestStaged is Digest for the content the index holds: what `git
// commit` would commit (see digestEntries).
func DigestStaged(ctx context.Context, root string, files []string) (Sums, error) {
	repo, err := openRepo(ctx, root)
	if err != nil {
		return Sums{}, err
	}
	return repo.digestEntries(ctx, files, nil)
}

// digestEntries is Digest for the content of the given tree entries, or
// with entries nil the index's (keyed by path relative to the root). A
// file without an entry is "deleted". A file whose entry is the index's,
// with a work-tree copy git sees as unchanged from the index, is read
// from the work tree, exactly as Digest reads it (so a review of the work tree and a check of
// what is committed or pushed agree); any other is read from git through
// the checkout filters of its path. A symlink whose entry differs from
// the work tree is hashed by "symlink\x00<target>".
func (r *repo) digestEntries(ctx context.Context, files []string, entries map[string]indexEntry) (Sums, error) {
	index, err := r.index(ctx)
	if err != nil {
		return Sums{}, err
	}
	if entries == nil {
		entries = index
	}
	// the paths whose work-tree copy differs from the index
	out, err := runGit(ctx, r.root, "diff", "--no-relative", "--no-ext-diff", "--name-only", "-z", "--ignore-submodules=all")
	if err != nil {
		return Sums{}, err
	}
	dirty := r.relative(splitNUL(out))
	content := newHasher()
	return digestEach(files, func(p string) (string, error) {
		e, ok := entries[p]
		switch {
		case !ok:
			return protocol.DigestDeleted, nil
		case e.stage != "0":
			return "", &protocol.UsageError{Msg: fmt.Sprintf("%s is unmerged in the index", p),
				Hint: "resolve the merge conflict and git add the file first"}
		case e.mode == modeGitlink:
			return "", refuse(p, fmt.Sprintf("path %q is a submodule", p), "review the submodule in its own repository")
		case !dirty[p] && index[p] == e:
			return content.file(r.root, p, nil)
		}
		return r.blobDigest(ctx, p, e)
	})
}

// index reads the index entries under the project root, keyed by their
// path relative to it. An unmerged path has entries of stages 1-3 and
// none of stage 0 (git keeps no index that mixes them): one of them stands
// for it, and says it is unmerged.
func (r *repo) index(ctx context.Context) (map[string]indexEntry, error) {
	out, err := runGit(ctx, r.root, "ls-files", "-s", "-z")
	if err != nil {
		return nil, err
	}
	entries := map[string]indexEntry{}
	for _, line := range splitNUL(out) {
		meta, p, ok := strings.Cut(line, "\t")
		parts := strings.Fields(meta)
		if !ok || len(parts) != 3 {
			return nil, fmt.Errorf("git ls-files: unexpected entry %q", line)
		}
		entries[p] = indexEntry{mode: parts[0], oid: parts[1], stage: parts[2]}
	}
	return entries, nil
}

// blobDigest hashes the staged content of p as a checkout would write it,
// streamed from git.
func (r *repo) blobDigest(ctx context.Context, p string, e indexEntry) (string, error) {
	args := []string{"cat-file", "--filters", "--path=" + r.prefix + p, e.oid}
	h := sha256.New()
	if e.mode == modeSymlink {
		args = []string{"cat-file", "blob", e.oid}
		io.WriteString(h, "symlink\x00")
	}
	if _, err := Git(ctx, r.root, nil, nil, h, args...); err != nil {
		return "", fmt.Errorf("read the staged %s: %w", p, err)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}
