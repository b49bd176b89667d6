package regfile

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// TestReadPrefix: the start of a file, up to the buffer; all of a shorter
// file; and no read of a directory.
func TestReadPrefix(t *testing.T) {
	dir := t.TempDir()
	text := bytes.Repeat([]byte("#include \"a.h\"\n"), 100)
	p := filepath.Join(dir, "f.h")
	if err := os.WriteFile(p, text, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, size := range []int{1, 15, 1000, len(text), len(text) + 1, 4096} {
		buf := make([]byte, size)
		n, err := ReadPrefix(p, buf)
		if want := min(size, len(text)); err != nil || n != want || !bytes.Equal(buf[:n], text[:want]) {
			t.Errorf("buffer of %d: read %d, %v; want %d", size, n, err, want)
		}
	}
	if n, err := ReadPrefix(dir, make([]byte, 10)); err == nil || n != 0 {
		t.Errorf("a directory: read %d, %v; want an error", n, err)
	}
	if n, err := ReadPrefix(filepath.Join(dir, "none"), make([]byte, 10)); err == nil || n != 0 {
		t.Errorf("a missing file: read %d, %v; want an error", n, err)
	}
}
