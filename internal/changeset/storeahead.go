package changeset

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
)

// Storing a snapshot's content. git update-index stores each new file as
// a loose object, one file of its own in .git/objects: for a request of
// 5,000 changed files that was 500-600 ms of a `work request` whose
// target is 250 ms. So a large snapshot's content is first written into
// one pack by git fast-import, from the same read of each file that
// digests it; update-index then finds each object stored and writes
// none, and still decides every index entry itself (with the clean
// filters and line-ending rules it applies: an object stored here that
// it does not use is only an unreferenced one, which git gc removes).
// Storing ahead is only ever faster: if it fails, update-index stores
// what is missing as before.

// packMin is the fewest files stored ahead: below it fast-import would
// unpack them into loose objects anyway (git's fastimport.unpackLimit
// defaults to 100), and update-index writing them is as fast.
const packMin = 100

// packMaxFile is the largest file stored ahead (it is read whole into
// memory); a larger one is left to update-index.
const packMaxFile = 32 << 20

// keepHeap keeps glibc's malloc from giving the top of the heap back to
// the system after every object: fast-import sets up zlib for each blob
// (about 256 KiB, freed after it), and trimming that each time had the
// kernel zero the same pages 5,000 times, three quarters of its time.
var keepHeap = []string{"MALLOC_TRIM_THRESHOLD_=67108864"}

// blobStore feeds the files it wants to a git fast-import that writes
// them into one pack.
type blobStore struct {
	want map[string]bool
	w    *bufio.Writer
	pipe *io.PipeWriter
	done chan struct{}
}

// storeAhead starts storing the content of paths (relative to root), or
// returns nil when there are fewer than packMin.
func storeAhead(ctx context.Context, root string, paths []string) *blobStore {
	if len(paths) < packMin {
		return nil
	}
	r, w := io.Pipe()
	s := &blobStore{want: make(map[string]bool, len(paths)), w: bufio.NewWriterSize(w, 64<<10), pipe: w, done: make(chan struct{})}
	for _, p := range paths {
		s.want[p] = true
	}
	go func() {
		Git(ctx, root, keepHeap, r, nil, "fast-import", "--quiet", "--done")
		r.CloseWithError(errors.New("fast-import stopped")) // a write after it fails, instead of waiting
		close(s.done)
	}()
	return s
}

// keeper is what takes the content of p when s wants it, else nil.
func (s *blobStore) keeper(p string) func([]byte) {
	if s == nil || !s.want[p] {
		return nil
	}
	return func(data []byte) {
		fmt.Fprintf(s.w, "blob\ndata %d\n", len(data))
		s.w.Write(data)
		s.w.WriteByte('\n')
	}
}

// finish ends the stream and waits for fast-import to write its pack.
func (s *blobStore) finish() {
	if s == nil {
		return
	}
	s.w.WriteString("done\n")
	s.w.Flush()
	s.pipe.Close()
	<-s.done
}
