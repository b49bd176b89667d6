package source

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

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
