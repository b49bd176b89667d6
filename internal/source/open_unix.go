//go:build unix

package source

import (
	"errors"
	"io/fs"
	"os"
	"syscall"
)

// openRead opens name for reading, as os.Open does, but as a file the
// runtime does not poll: os.Open offers every file it opens to the
// network poller, which for a regular file costs four fcntl calls and an
// epoll_ctl that fails, ten system calls a file instead of six. A check
// of the CANN repositories opens 40,000 files. Reads of an input are
// blocking reads either way (a regular file is never polled), and
// readSourceStat refuses any other kind of file before it reads.
func openRead(name string) (*os.File, error) {
	for {
		fd, err := syscall.Open(name, syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
		if err == nil {
			return os.NewFile(uintptr(fd), name), nil
		}
		if !errors.Is(err, syscall.EINTR) {
			return nil, &fs.PathError{Op: "open", Path: name, Err: err}
		}
	}
}
