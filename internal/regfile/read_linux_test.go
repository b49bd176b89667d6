package regfile

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
)

// TestFileMode: the mode of a bare descriptor's fstat is what os.Lstat
// says, for each kind of file a path can name.
func TestFileMode(t *testing.T) {
	dir := t.TempDir()
	reg := filepath.Join(dir, "f.h")
	if err := os.WriteFile(reg, []byte("x"), 0o640); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link")
	if err := os.Symlink(reg, link); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(dir, 0o1755); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{reg, dir, fifo, link, "/dev/null"} {
		var st syscall.Stat_t
		if err := syscall.Lstat(p, &st); err != nil {
			t.Fatal(err)
		}
		want, err := os.Lstat(p)
		if err != nil {
			t.Fatal(err)
		}
		if got := FileMode(st.Mode); got != want.Mode() {
			t.Errorf("%s: mode %v, os.Lstat says %v", p, got, want.Mode())
		}
	}
}

// TestReadOpenSizes: files of every size around a read's boundaries are
// read whole, a file over the limit is refused, and an empty one is empty.
func TestReadOpenSizes(t *testing.T) {
	dir := t.TempDir()
	for _, n := range []int{0, 1, 511, 512, 513, 4096, 70000} {
		p := filepath.Join(dir, "f"+strconv.Itoa(n))
		want := bytes.Repeat([]byte("ab\n"), n)[:n]
		if err := os.WriteFile(p, want, 0o644); err != nil {
			t.Fatal(err)
		}
		got, err := readOpen(p, 1<<20)
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("%d bytes: read %d, %v", n, len(got), err)
		}
		if n > 0 {
			if _, err := readOpen(p, int64(n-1)); err == nil {
				t.Errorf("%d bytes under a limit of %d: no error", n, n-1)
			}
		}
	}
}

// TestReadPrefixFIFO: a FIFO is refused, and its open does not block.
func TestReadPrefixFIFO(t *testing.T) {
	refusesFIFO(t, func(fifo string) error {
		_, err := ReadPrefix(fifo, make([]byte, 64))
		return err
	})
}
