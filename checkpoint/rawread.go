package checkpoint

import (
	"errors"
	"fmt"
	"syscall"

	"github.com/specdev/specdev/protocol"
)

// rawRead reads a whole regular file of at most limit bytes with plain
// system calls: open (O_NOFOLLOW, O_NONBLOCK, O_CLOEXEC), fstat, read,
// close. os.OpenFile costs five more calls a file (it tries to register
// the file with the network poller, which a regular file refuses), and a
// poll over a hundred assignments reads a hundred files or more.
//
// ok is false when the fast path does not apply — the file is missing,
// is not a regular file, or the open failed — and the caller then takes
// the os path, which names the problem; data and err are for a regular
// file that was opened.
func rawRead(path, rel string, limit int64) (data []byte, ok bool, err error) {
	fd, err := openRetry(path)
	if err != nil {
		return nil, false, nil
	}
	defer syscall.Close(fd)
	var st syscall.Stat_t
	if err := fstatRetry(fd, &st); err != nil || st.Mode&syscall.S_IFMT != syscall.S_IFREG {
		return nil, false, nil
	}
	if st.Nlink > 1 {
		return nil, true, hardLinkError(rel, uint64(st.Nlink))
	}
	if st.Size > limit {
		return nil, true, &protocol.InvalidError{File: rel,
			Problem: fmt.Sprintf("is %d bytes, more than the limit of %d", st.Size, limit),
			Hint:    "restore the file from git or remove it"}
	}
	// read to the end, not just st.Size bytes (a file replaced by rename
	// is never written in place, so this is the size, but a reader need
	// not trust that): a buffer one byte larger tells a file that grew
	data = make([]byte, 0, st.Size+1)
	for {
		if len(data) == cap(data) {
			if int64(len(data)) > limit {
				return nil, true, &protocol.InvalidError{File: rel,
					Problem: fmt.Sprintf("is more than the limit of %d bytes", limit),
					Hint:    "restore the file from git or remove it"}
			}
			data = append(data, 0)[:len(data)]
		}
		n, err := syscall.Read(fd, data[len(data):cap(data)])
		if errors.Is(err, syscall.EINTR) {
			continue
		}
		if err != nil {
			return nil, true, fmt.Errorf("read %s: %w", rel, err)
		}
		if n == 0 {
			return data, true, nil
		}
		data = data[:len(data)+n]
		if len(data) < cap(data) {
			// a short read of a regular file is its end: one read
			// call, not two, for a file that did not grow
			return data, true, nil
		}
	}
}

func openRetry(path string) (int, error) {
	for {
		fd, err := syscall.Open(path, syscall.O_RDONLY|syscall.O_CLOEXEC|noFollow, 0)
		if !errors.Is(err, syscall.EINTR) {
			return fd, err
		}
	}
}

func fstatRetry(fd int, st *syscall.Stat_t) error {
	for {
		err := syscall.Fstat(fd, st)
		if !errors.Is(err, syscall.EINTR) {
			return err
		}
	}
}
