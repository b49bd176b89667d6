package source

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/ascvet/ascvet/internal/testfs"
)

// TestContainsReader: the chunked scan of a file over the size limit finds
// a marker that straddles two chunks, and misses nothing at the ends.
func TestContainsReader(t *testing.T) {
	needle := []byte("vector_function")
	for _, at := range []int{0, 1<<20 - 7, 1 << 20, 3<<20 + 5} {
		data := make([]byte, 4<<20)
		for i := range data {
			data[i] = 'x'
		}
		copy(data[at:], needle)
		if ok, err := ContainsReader(strings.NewReader(string(data)), needle); !ok || err != nil {
			t.Errorf("marker at %d: %v, %v", at, ok, err)
		}
	}
	if ok, _ := ContainsReader(strings.NewReader(strings.Repeat("vector_functio ", 200000)), needle); ok {
		t.Error("found a marker that is not there")
	}
	// A read that fails: the marker read before it is found; without one,
	// the error is returned.
	errRead := errors.New("read failed")
	for head, want := range map[string]bool{"x = 1\n@vector_function\n": true, "x = 1\nvector_func": false} {
		ok, err := ContainsReader(io.MultiReader(strings.NewReader(head), iotest.ErrReader(errRead)), needle)
		if ok != want || (want && err != nil) || (!want && !errors.Is(err, errRead)) {
			t.Errorf("%q then a failed read: %v, %v; want %v", head, ok, err, want)
		}
	}
}

// TestReadSource: what a check reads and what it refuses, and why: a VF
// file, a file without VF code, a binary file, UTF-16 text, a file over
// the size limit with and without VF code (scanned, not held), a folder.
func TestReadSource(t *testing.T) {
	dir := t.TempDir()
	vf := testfs.Put(t, dir, "k.asc", "__simd_vf__ inline void F() {}\n")
	host := testfs.Put(t, dir, "h.cpp", "int main() { return 0; }\n")
	bin := testfs.Put(t, dir, "b.cpp", "int x;\x00\x01\x02")
	utf16 := testfs.Put(t, dir, "u.h", "\xFF\xFEi\x00n\x00t\x00")
	bigVF := testfs.Put(t, dir, "big.asc", strings.Repeat("// pad\n", 400)+"__simd_vf__ void G() {}\n")
	bigHost := testfs.Put(t, dir, "bighost.cpp", strings.Repeat("// pad\n", 400))
	// Over the limit (2 KiB): binary, UTF-16, Python with and without a
	// vector_function.
	pad := func(s string) string { return s + strings.Repeat("#", 2048-len(s)) }
	bigBin := testfs.Put(t, dir, "bigbin.cpp", pad("int x;\x00"))
	bigU16 := testfs.Put(t, dir, "bigu16.h", pad("\xFE\xFF\x00i\x00n\x00t"))
	bigPy := testfs.Put(t, dir, "big.py", pad("@vector_function\ndef f():\n    pass\n"))
	bigPyHost := testfs.Put(t, dir, "bighost.py", pad("def f():\n    pass\n"))
	lim := DefaultLimits()
	lim.MaxFileSize = 1024
	var buf []byte
	for _, c := range []struct {
		name string
		vf   bool
		err  string // "" for none
	}{
		{vf, true, ""},
		{host, false, ""},
		{bin, false, "binary file (NUL byte at offset 6); skipped"},
		{utf16, false, "UTF-16LE text (byte order mark FF FE); ascvet reads UTF-8: convert it (iconv -f UTF-16LE -t UTF-8); skipped"},
		{bigVF, false, "2.8KiB, over the -max-file-size limit of 1KiB; skipped"},
		{bigHost, false, ""},
		{bigBin, false, "binary file (NUL byte at offset 6); skipped"},
		{bigU16, false, "UTF-16BE text (byte order mark FE FF); ascvet reads UTF-8: convert it (iconv -f UTF-16BE -t UTF-8); skipped"},
		{bigPy, false, "2KiB, over the -max-file-size limit of 1KiB; skipped (parsing it would take seconds; raise the limit to check it)"},
		{bigPyHost, false, ""},
		{dir, false, ErrNotRegular.Error()},
	} {
		src, size, isVF, err := ReadSource(c.name, &lim, &buf)
		switch {
		case c.err == "" && err != nil:
			t.Errorf("%s: %v", c.name, err)
		case c.err != "" && (err == nil || !strings.HasPrefix(err.Error(), c.err)):
			t.Errorf("%s: error %v, want %q", c.name, err, c.err)
		case isVF != c.vf:
			t.Errorf("%s: vf %v, want %v", c.name, isVF, c.vf)
		case err == nil && size <= lim.MaxFileSize && int64(len(src)) != size:
			t.Errorf("%s: %d bytes read of %d", c.name, len(src), size)
		}
	}
	if _, _, _, err := ReadSource(filepath.Join(dir, "missing.asc"), &lim, &buf); err == nil ||
		Describe(filepath.Join(dir, "missing.asc"), err) != filepath.Join(dir, "missing.asc")+": no such file or directory" {
		t.Errorf("a missing file: %v, described %q", err, Describe(filepath.Join(dir, "missing.asc"), err))
	}
	if got := Describe("x", errors.New("plain")); got != "x: plain" {
		t.Errorf("Describe of a plain error: %q", got)
	}
}

// TestScanBigReadError: a read of a file over the size limit that fails
// past its first bytes is the read's error, unless a VF marker came
// before it: that file is refused for its size either way.
func TestScanBigReadError(t *testing.T) {
	errRead := errors.New("read failed")
	lim := Limits{MaxFileSize: 1024}
	pad := strings.Repeat("// pad\n", 2000) // past the bytes Sniff looks at
	for _, c := range []struct {
		name, head string
		want       string // the error
	}{
		{"k.asc", pad, errRead.Error()},
		{"k.py", pad, errRead.Error()},
		{"k.asc", pad + "__simd_vf__ void F() {}\n", "13.7KiB, over the -max-file-size limit of 1KiB; skipped"},
		{"k.py", pad + "@vector_function\n", "13.7KiB, over the -max-file-size limit of 1KiB; skipped"},
	} {
		r := io.MultiReader(strings.NewReader(c.head), iotest.ErrReader(errRead))
		err := scanBig(c.name, r, 14000, &lim)
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%s, %d bytes then a failed read: %v, want %q", c.name, len(c.head), err, c.want)
		}
	}
}

// TestReadSourceStatFails: a file whose status cannot be read after its
// open is skipped with that error; nothing is read.
func TestReadSourceStatFails(t *testing.T) {
	name := testfs.Put(t, t.TempDir(), "k.asc", "__simd_vf__ inline void F() {}\n")
	defer func(o func(string) (Input, error)) { OpenInput = o }(OpenInput)
	OpenInput = func(name string) (Input, error) {
		f, err := os.Open(name)
		if err == nil {
			err = f.Close() // so that Stat fails
		}
		return f, err
	}
	lim := DefaultLimits()
	var buf []byte
	src, size, vf, info, err := ReadSourceStat(name, &lim, &buf)
	if !errors.Is(err, os.ErrClosed) || src != nil || size != 0 || vf || info != nil || buf != nil {
		t.Errorf("ReadSourceStat = %q, %d, %v, %v, %v; want only the error of Stat", src, size, vf, info, err)
	}
	if got := testfs.Read(t, name); got != "__simd_vf__ inline void F() {}\n" {
		t.Errorf("%s changed: %q", name, got)
	}
}

// chunkReader returns its data in reads of at most chunk bytes, counting
// the reads that return nothing (the end).
type chunkReader struct {
	data  []byte
	chunk int
	ends  int
}

func (r *chunkReader) Read(b []byte) (int, error) {
	if len(r.data) == 0 {
		r.ends++
		return 0, io.EOF
	}
	n := copy(b[:min(len(b), r.chunk)], r.data)
	r.data = r.data[n:]
	return n, nil
}

// TestReadAllReads: a file read to the size it had, by a read that
// returns less than asked, needs no read more to see its end: none that
// returns 0. A file that grew is read on to its end; where the size says
// nothing (0, a /proc file) or the file is shorter than its size, the
// reads go on to the one that returns 0.
func TestReadAllReads(t *testing.T) {
	data := []byte(strings.Repeat("x", 10000))
	for _, tc := range []struct {
		name        string
		size, chunk int
		wantEnds    int
	}{
		{"read whole", 10000, 1 << 20, 0},
		{"grew since stat", 6000, 1 << 20, 0}, // fills the 6,001 asked, then reads on
		{"no size", 0, 4096, 1},
		{"short reads", 10000, 4096, 0}, // 4096, 4096, then 1808: short, at the size
		{"shorter than its size", 12000, 1 << 20, 1},
	} {
		r := &chunkReader{data: data, chunk: tc.chunk}
		var buf []byte // readAll asks for the size and one byte more
		if tc.size > 0 {
			buf = make([]byte, 0, tc.size+1)
		}
		got, err := readAll(r, int64(tc.size), 0, &buf)
		if err != nil || string(got) != string(data) {
			t.Errorf("%s: %d bytes, %v; want all %d", tc.name, len(got), err, len(data))
		}
		if r.ends != tc.wantEnds {
			t.Errorf("%s: %d reads returned nothing, want %d", tc.name, r.ends, tc.wantEnds)
		}
	}
}
