//go:build !linux

package regfile

import (
	"errors"
	"io"
	"io/fs"
	"slices"
)

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

// ReadPrefix reads into buf the start of the regular file at path, up to
// len(buf) bytes, and returns how many it read. A path that is not a
// regular file (checked on what was opened, which does not block) is an
// error, as Read's.
func ReadPrefix(path string, buf []byte) (int, error) {
	f, err := openNonblock(path)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return 0, err
	}
	if !st.Mode().IsRegular() {
		return 0, &fs.PathError{Op: "open", Path: path, Err: &NotRegularError{Mode: st.Mode()}}
	}
	n, err := io.ReadFull(f, buf)
	if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
		err = nil
	}
	return n, err
}
