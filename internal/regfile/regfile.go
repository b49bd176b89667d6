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
	"fmt"
	"io/fs"
	"os"
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

// ReadChecked is Read for a caller that has checked path already (with
// os.Stat: a regular file within limit): what it opens is checked again,
// as Read checks it, but the path is not stat'ed a second time.
func ReadChecked(path string, limit int64) ([]byte, error) {
	return readOpen(path, limit)
}

func check(path string, st fs.FileInfo, limit int64) error {
	return checkMode(path, st.Mode(), st.Size(), limit)
}

// checkMode is check of a file of mode and size.
func checkMode(path string, mode fs.FileMode, size, limit int64) error {
	if !mode.IsRegular() {
		return &fs.PathError{Op: "open", Path: path, Err: &NotRegularError{Mode: mode}}
	}
	if size > limit {
		return &fs.PathError{Op: "open", Path: path, Err: &TooBigError{Size: size, Limit: limit}}
	}
	return nil
}
