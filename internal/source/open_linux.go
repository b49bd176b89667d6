//go:build linux

package source

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"time"

	"github.com/ascvet/ascvet/internal/regfile"
)

// openRead opens name for reading as a bare descriptor, not an *os.File:
// os.Open offers every file it opens to the network poller, which for a
// regular file costs four fcntl calls and an epoll_ctl that fails, and
// os.NewFile still asks fcntl whether the descriptor blocks. A check of
// the CANN repositories opens 40,000 files; each now costs an open, an
// fstat, its reads and a close. Reads of an input are blocking reads
// either way (a regular file is never polled), and ReadSourceStat refuses
// any other kind of file before it reads.
func openRead(name string) (Input, error) {
	for {
		fd, err := syscall.Open(name, syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
		if err == nil {
			return &rawInput{fd: fd, name: name}, nil
		}
		if !errors.Is(err, syscall.EINTR) {
			return nil, &fs.PathError{Op: "open", Path: name, Err: err}
		}
	}
}

// rawInput is an open input file by its descriptor.
type rawInput struct {
	fd   int // -1 once closed
	name string
}

func (f *rawInput) Read(b []byte) (int, error) {
	if f.fd < 0 {
		return 0, &fs.PathError{Op: "read", Path: f.name, Err: os.ErrClosed}
	}
	if len(b) == 0 {
		return 0, nil
	}
	for {
		n, err := syscall.Read(f.fd, b)
		switch {
		case errors.Is(err, syscall.EINTR):
			continue
		case err != nil:
			return 0, &fs.PathError{Op: "read", Path: f.name, Err: err}
		case n == 0:
			return 0, io.EOF
		}
		return n, nil
	}
}

func (f *rawInput) Close() error {
	if f.fd < 0 {
		return &fs.PathError{Op: "close", Path: f.name, Err: os.ErrClosed}
	}
	err := syscall.Close(f.fd)
	f.fd = -1
	if err != nil {
		return &fs.PathError{Op: "close", Path: f.name, Err: err}
	}
	return nil
}

func (f *rawInput) Stat() (fs.FileInfo, error) {
	if f.fd < 0 {
		return nil, &fs.PathError{Op: "stat", Path: f.name, Err: os.ErrClosed}
	}
	var st syscall.Stat_t
	for {
		err := syscall.Fstat(f.fd, &st)
		if errors.Is(err, syscall.EINTR) {
			continue
		}
		if err != nil {
			return nil, &fs.PathError{Op: "stat", Path: f.name, Err: err}
		}
		return &statInfo{name: filepath.Base(f.name), st: st}, nil
	}
}

// statInfo is the fs.FileInfo of a Stat_t, as os.Stat makes it: Sys is
// the *syscall.Stat_t.
type statInfo struct {
	name string
	st   syscall.Stat_t
}

func (s *statInfo) Name() string       { return s.name }
func (s *statInfo) Size() int64        { return s.st.Size }
func (s *statInfo) ModTime() time.Time { return time.Unix(s.st.Mtim.Unix()) }
func (s *statInfo) IsDir() bool        { return s.Mode().IsDir() }
func (s *statInfo) Sys() any           { return &s.st }

// Mode is the file's type and permission bits, as os.Stat gives them.
func (s *statInfo) Mode() fs.FileMode { return regfile.FileMode(s.st.Mode) }
