// Package regfile reads the small files ascvet is told to read, such as an
// ascvet.toml, a machine model (-machine FILE) or a baseline (-baseline
// FILE), only when they are regular files within a size limit. A path may
// be a symbolic link to /dev/zero (read whole, it never ends) or a named
// pipe (opening it blocks until a writer comes): neither may make ascvet
// hold gigabytes or hang.
//
// It is imported by every layer (cmd, analyzers, simcheck, ruleset), so it
// imports nothing of ascvet.
package regfile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"slices"
)

// NotRegularError is why a path that is no regular file is not read.
type NotRegularError struct {
	Mode fs.FileMode // the type bits of what the path names
}

func (e *NotRegularError) Error() string {
	if e.Mode.IsDir() {
		return "is a directory" // as os.ReadFile says
	}
	return "not a regular file (" + Kind(e.Mode) + ")"
}

// Kind names the type of a file that is not regular: "a FIFO", "a
// character device", ...
func Kind(m fs.FileMode) string {
	switch t := m.Type(); {
	case t&fs.ModeNamedPipe != 0:
		return "a FIFO"
	case t&fs.ModeSocket != 0:
		return "a socket"
	case t&fs.ModeCharDevice != 0:
		return "a character device"
	case t&fs.ModeDevice != 0:
		return "a block device"
	case t&fs.ModeDir != 0:
		return "a directory"
	case t&fs.ModeSymlink != 0:
		return "a symbolic link"
	default:
		return "an irregular file"
	}
}

// TooBigError is why a regular file over the limit is not read.
type TooBigError struct {
	Size  int64 // the file's size, or -1 when it grew over the limit while read
	Limit int64
}

func (e *TooBigError) Error() string {
	s := "over the limit of " + Size(e.Limit) + " for this file"
	if e.Size >= 0 {
		s += fmt.Sprintf(" (%d bytes)", e.Size)
	}
	return s
}

// Size formats n bytes as "4 MiB", "1.5 KiB" or "12 bytes".
func Size(n int64) string {
	for _, u := range []struct {
		name string
		v    int64
	}{{"GiB", 1 << 30}, {"MiB", 1 << 20}, {"KiB", 1 << 10}} {
		if n >= u.v {
			if n%u.v == 0 {
				return fmt.Sprintf("%d %s", n/u.v, u.name)
			}
			return fmt.Sprintf("%.1f %s", float64(n)/float64(u.v), u.name)
		}
	}
	return fmt.Sprintf("%d bytes", n)
}

// Read returns the content of the regular file at path (following
// symbolic links) when it is at most limit bytes. Otherwise it returns an
// *fs.PathError whose Err is a *NotRegularError or a *TooBigError, or the
// error of os.Stat or os.Open (an fs.ErrNotExist when path does not
// exist).
//
// A device or pipe is not opened: the path is checked before the open,
// and the open does not block (O_NONBLOCK on Unix) in case it was replaced
// by a pipe meanwhile; what was opened is checked again. At most limit+1
// bytes are read, whatever the file's size says.
func Read(path string, limit int64) ([]byte, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if err := check(path, st, limit); err != nil {
		return nil, err
	}
	return readOpen(path, limit)
}

// readOpen is Read after the check of path: what it opens may have been
// replaced since.
func readOpen(path string, limit int64) ([]byte, error) {
	f, err := openNonblock(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if err := check(path, st, limit); err != nil {
		return nil, err
	}
	// One byte more than the size, to see the end; the size may be wrong
	// (files of /proc say 0) and is only a hint.
	data := make([]byte, 0, min(st.Size(), limit)+1)
	for {
		n, err := f.Read(data[len(data):cap(data)])
		data = data[:len(data)+n]
		if int64(len(data)) > limit {
			return nil, &fs.PathError{Op: "read", Path: path, Err: &TooBigError{Size: -1, Limit: limit}}
		}
		if errors.Is(err, io.EOF) {
			return data, nil
		}
		if err != nil {
			return nil, err
		}
		if len(data) == cap(data) {
			grow := min(max(int64(cap(data)), 512), limit+1-int64(len(data)))
			data = slices.Grow(data, int(grow))
		}
	}
}

func check(path string, st fs.FileInfo, limit int64) error {
	if !st.Mode().IsRegular() {
		return &fs.PathError{Op: "open", Path: path, Err: &NotRegularError{Mode: st.Mode()}}
	}
	if st.Size() > limit {
		return &fs.PathError{Op: "open", Path: path, Err: &TooBigError{Size: st.Size(), Limit: limit}}
	}
	return nil
}
