// Package source finds and reads the sources a run checks: the walk of
// the path arguments, and the reading of each file under the input limits
// (size, binary and encoding checks).
package source

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"

	"github.com/ascvet/ascvet/analyzers/cppir"
	"github.com/ascvet/ascvet/cppfront"
)

// Reading an input file: what ascvet refuses, and why.
//
//   - Not a regular file (a device, a pipe): never opened for reading past
//     its mode, so a FIFO cannot block the run.
//   - Larger than -max-file-size: the front end handles about 1.3 MB/s,
//     and checking a 10 MB file of kernels took 30 s and 0.6 GB. Such a
//     file is not held in memory: it is scanned in chunks for a VF marker,
//     and refused only if it has one (then it would have to be parsed);
//     one without VF code is simply done.
//   - Binary: a NUL byte in the first sniffLen bytes, as git decides.
//   - UTF-16 or UTF-32, recognised by their byte order mark: refused with
//     the iconv command that converts it. Transcoding would make every
//     position and every -fix edit refer to bytes that are not the file's.
//
// Invalid UTF-8 is read as it is (tree-sitter works on bytes and positions
// are byte offsets), and a UTF-8 byte order mark is kept (the front end
// blanks it for parsing; columns on the first line count its 3 bytes).

// sniffLen is how much of a file the binary and encoding checks look at.
const sniffLen = 8000

// Input is an open input file, as ReadSourceStat reads it (an *os.File is
// one).
type Input interface {
	io.Reader
	io.Closer
	Stat() (fs.FileInfo, error)
}

// OpenInput opens an input file; tests replace it to make a file
// unreadable, which file modes cannot do for root.
var OpenInput = openRead

var ErrNotRegular = errors.New("not a regular file; skipped")

// skipError is why a file that could be read is not analysed.
type skipError struct {
	msg string // "binary file (...); skipped"
}

func (e *skipError) Error() string { return e.msg }

// ReadSource reads the file name into *buf (reusing its memory) within the
// limits, and reports whether it has a VF marker. When it has, the bytes
// are in src, valid until the next call with buf; otherwise src may be
// empty (a file over the size limit is only scanned). err is why the file
// is skipped.
func ReadSource(name string, lim *Limits, buf *[]byte) (src []byte, size int64, vf bool, err error) {
	src, size, vf, _, err = ReadSourceStat(name, lim, buf)
	return src, size, vf, err
}

// ReadSourceStat is ReadSource that also returns the file's status as it
// was before it was read (nil when it was not read whole).
func ReadSourceStat(name string, lim *Limits, buf *[]byte) (src []byte, size int64, vf bool, info os.FileInfo, err error) {
	f, err := OpenInput(name)
	if err != nil {
		return nil, 0, false, nil, err
	}
	defer f.Close()
	info, err = f.Stat()
	if err != nil {
		return nil, 0, false, nil, err
	}
	if !info.Mode().IsRegular() {
		return nil, 0, false, nil, ErrNotRegular
	}
	size = info.Size()
	if lim.MaxFileSize > 0 && size > lim.MaxFileSize {
		return nil, size, false, info, scanBig(name, f, size, lim)
	}
	src, err = readAll(f, size, lim.MaxFileSize, buf)
	if err != nil {
		return nil, 0, false, nil, err
	}
	if lim.MaxFileSize > 0 && int64(len(src)) > lim.MaxFileSize { // it grew since Stat
		return nil, int64(len(src)), false, nil, TooBig(int64(len(src)), lim)
	}
	if err := Sniff(src); err != nil {
		return nil, 0, false, nil, err
	}
	return src, int64(len(src)), cppir.HasVFMarker(name, src), info, nil
}

// readAll reads f, of about size bytes, into *buf, stopping after limit+1
// bytes when limit > 0.
//
// A read that returns fewer bytes than asked for, once the size the file
// had is read, is its end: a regular file on Linux returns less only
// there, and the read that would return 0 to say so is spared (one system
// call a file, 39 thousand over the CANN repositories). A file that grew
// fills the one byte more asked for and is read on. Where the size says
// nothing (0: a /proc file, which returns a page a read), the reads go on
// to the one that returns 0.
func readAll(f io.Reader, size, limit int64, buf *[]byte) ([]byte, error) {
	want := int(size) + 1 // one more, to see the end of the file
	if cap(*buf) < want {
		*buf = make([]byte, 0, max(want, 64<<10))
	}
	b := (*buf)[:0]
	for {
		if len(b) == cap(b) {
			if limit > 0 && int64(len(b)) > limit {
				return b, nil
			}
			b = append(b, 0)[:len(b)] // grow: the file grew since Stat
		}
		asked := cap(b) - len(b)
		n, err := f.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if err == nil && size > 0 && n > 0 && n < asked && int64(len(b)) >= size {
			err = io.EOF
		}
		if err == io.EOF {
			*buf = b
			return b, nil
		}
		if err != nil {
			return nil, err
		}
	}
}

// scanBig decides about a file over the size limit without holding it: it
// is refused if it is binary or has a VF marker, and otherwise done with.
func scanBig(name string, f io.Reader, size int64, lim *Limits) error {
	head := make([]byte, sniffLen)
	n, err := io.ReadFull(f, head)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
		return err
	}
	head = head[:n]
	if err := Sniff(head); err != nil {
		return err
	}
	r := io.MultiReader(bytes.NewReader(head), f)
	var vf bool
	if cppir.IsPython(name) {
		vf, err = ContainsReader(r, []byte("vector_function"))
	} else {
		vf, err = cppfront.HasVFMarkerReader(r, 1<<20)
	}
	if err != nil {
		return err
	}
	if vf {
		return TooBig(size, lim)
	}
	return nil
}

// ContainsReader reports whether r holds needle, reading it in chunks.
func ContainsReader(r io.Reader, needle []byte) (bool, error) {
	buf := make([]byte, 1<<20+len(needle))
	have := 0
	for {
		n, err := r.Read(buf[have:])
		have += n
		if bytes.Contains(buf[:have], needle) {
			return true, nil
		}
		if err == io.EOF {
			return false, nil
		}
		if err != nil {
			return false, err
		}
		if have > len(needle) { // keep a tail that may start the needle
			have = copy(buf, buf[have-len(needle)+1:have])
		}
	}
}

// TooBig is the error of a file of size bytes over lim's -max-file-size.
func TooBig(size int64, lim *Limits) error {
	return &skipError{fmt.Sprintf("%s, over the -max-file-size limit of %s; skipped (parsing it would take seconds; raise the limit to check it)",
		FormatSize(size), FormatSize(lim.MaxFileSize))}
}

// byteOrderMarks are the UTF-16 and UTF-32 byte order marks, longest first.
var byteOrderMarks = []struct {
	bom  string
	name string
}{
	{"\xFF\xFE\x00\x00", "UTF-32LE"}, {"\x00\x00\xFE\xFF", "UTF-32BE"},
	{"\xFF\xFE", "UTF-16LE"}, {"\xFE\xFF", "UTF-16BE"},
}

// Sniff refuses UTF-16 and UTF-32 text and binary files.
func Sniff(src []byte) error {
	for _, m := range byteOrderMarks {
		if bytes.HasPrefix(src, []byte(m.bom)) {
			return &skipError{fmt.Sprintf("%s text (byte order mark % X); ascvet reads UTF-8: convert it (iconv -f %s -t UTF-8); skipped",
				m.name, m.bom, m.name)}
		}
	}
	if k := bytes.IndexByte(src[:min(len(src), sniffLen)], 0); k >= 0 {
		return &skipError{fmt.Sprintf("binary file (NUL byte at offset %d); skipped", k)}
	}
	return nil
}

// Describe formats a file error as "path: reason", without the operation
// name that os errors carry ("open", "stat", "lstat").
func Describe(path string, err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return fmt.Sprintf("%s: %v", pe.Path, pe.Err)
	}
	return fmt.Sprintf("%s: %v", path, err)
}
