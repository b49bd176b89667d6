//go:build linux

package regfile

import (
	"errors"
	"io/fs"
	"slices"
	"syscall"
)

// readOpen is Read after the check of path: what it opens may have been
// replaced since. On Linux it reads through a bare descriptor, not an
// *os.File: os.OpenFile offers every file to the network poller, which for
// a regular file costs an epoll_ctl that fails and four fcntl calls. The
// project index reads thousands of headers and includer files a check; each
// now costs an open, an fstat, its reads and a close. The open does not
// block (O_NONBLOCK) in case the path was replaced by a FIFO; what it
// opened is checked again, by fstat, before a read.
func readOpen(path string, limit int64) ([]byte, error) {
	fd, st, err := openStat(path)
	if err != nil {
		return nil, err
	}
	defer syscall.Close(fd)
	if err := checkMode(path, FileMode(st.Mode), st.Size, limit); err != nil {
		return nil, err
	}
	// One byte more than the size, to see the end; the size may be wrong
	// (files of /proc say 0) and is only a hint.
	data := make([]byte, 0, min(st.Size, limit)+1)
	for {
		asked := cap(data) - len(data)
		n, err := syscall.Read(fd, data[len(data):cap(data)])
		if errors.Is(err, syscall.EINTR) {
			continue
		}
		if err != nil {
			return nil, &fs.PathError{Op: "read", Path: path, Err: err}
		}
		data = data[:len(data)+n]
		if int64(len(data)) > limit {
			return nil, &fs.PathError{Op: "read", Path: path, Err: &TooBigError{Size: -1, Limit: limit}}
		}
		// A read that returns 0, or less than asked once the size fstat
		// gave is read, is the end of a regular file: the read that would
		// return 0 to say so is spared.
		if n == 0 || n < asked && st.Size > 0 && int64(len(data)) >= st.Size {
			return data, nil
		}
		if len(data) == cap(data) {
			grow := min(max(int64(cap(data)), 512), limit+1-int64(len(data)))
			data = slices.Grow(data, int(grow))
		}
	}
}

// openStat opens path for reading without blocking (O_NONBLOCK: a FIFO
// that replaced the path) and returns its descriptor and fstat.
func openStat(path string) (int, *syscall.Stat_t, error) {
	var fd int
	for {
		var err error
		fd, err = syscall.Open(path, syscall.O_RDONLY|syscall.O_NONBLOCK|syscall.O_CLOEXEC, 0)
		if err == nil {
			break
		}
		if !errors.Is(err, syscall.EINTR) {
			return -1, nil, &fs.PathError{Op: "open", Path: path, Err: err}
		}
	}
	st := new(syscall.Stat_t)
	for {
		err := syscall.Fstat(fd, st)
		if err == nil {
			return fd, st, nil
		}
		if !errors.Is(err, syscall.EINTR) {
			syscall.Close(fd)
			return -1, nil, &fs.PathError{Op: "stat", Path: path, Err: err}
		}
	}
}

// ReadPrefix reads into buf the start of the regular file at path, up to
// len(buf) bytes, and returns how many it read. A path that is not a
// regular file (checked on what was opened, which does not block) is an
// error, as Read's.
func ReadPrefix(path string, buf []byte) (int, error) {
	fd, st, err := openStat(path)
	if err != nil {
		return 0, err
	}
	defer syscall.Close(fd)
	if m := FileMode(st.Mode); !m.IsRegular() {
		return 0, &fs.PathError{Op: "open", Path: path, Err: &NotRegularError{Mode: m}}
	}
	n := 0
	for n < len(buf) {
		k, err := syscall.Read(fd, buf[n:])
		if errors.Is(err, syscall.EINTR) {
			continue
		}
		if err != nil {
			return n, &fs.PathError{Op: "read", Path: path, Err: err}
		}
		if k == 0 || st.Size > 0 && int64(n+k) >= st.Size {
			return n + k, nil // the end: a read returning 0, or the size fstat gave read
		}
		n += k
	}
	return n, nil
}

// FileMode is the fs.FileMode of a stat mode (syscall.Stat_t.Mode), as
// os.Stat makes it: the permission bits, the type and the set-id and
// sticky bits. Readers of bare descriptors (here, and source's inputs)
// share it.
func FileMode(m uint32) fs.FileMode {
	mode := fs.FileMode(m & 0o777)
	switch m & syscall.S_IFMT {
	case syscall.S_IFBLK:
		mode |= fs.ModeDevice
	case syscall.S_IFCHR:
		mode |= fs.ModeDevice | fs.ModeCharDevice
	case syscall.S_IFDIR:
		mode |= fs.ModeDir
	case syscall.S_IFIFO:
		mode |= fs.ModeNamedPipe
	case syscall.S_IFLNK:
		mode |= fs.ModeSymlink
	case syscall.S_IFSOCK:
		mode |= fs.ModeSocket
	}
	if m&syscall.S_ISGID != 0 {
		mode |= fs.ModeSetgid
	}
	if m&syscall.S_ISUID != 0 {
		mode |= fs.ModeSetuid
	}
	if m&syscall.S_ISVTX != 0 {
		mode |= fs.ModeSticky
	}
	return mode
}
