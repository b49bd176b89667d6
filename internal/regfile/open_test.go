package regfile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/ascvet/ascvet/internal/testfs"
)

// TestReadOpenReplaced: what readOpen opens after Read's check of the path
// is checked again. A path removed meanwhile is the open's fs.ErrNotExist;
// one replaced by a folder or a bigger file is refused as Read refuses it;
// the file there is left as it was.
func TestReadOpenReplaced(t *testing.T) {
	dir := t.TempDir()
	gone := filepath.Join(dir, "gone.toml")
	data, err := readOpen(gone, 10)
	var pe *fs.PathError
	if !errors.Is(err, fs.ErrNotExist) || !errors.As(err, &pe) || pe.Op != "open" || pe.Path != gone || data != nil {
		t.Errorf("readOpen(removed) = %q, %v; want no data and the open's fs.ErrNotExist", data, err)
	}

	sub := filepath.Join(dir, "sub")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	big := testfs.Put(t, dir, "big.toml", "01234567890")
	for path, want := range map[string]string{
		sub: "open " + sub + ": is a directory",
		big: "open " + big + ": over the limit of 10 bytes for this file (11 bytes)",
	} {
		data, err := readOpen(path, 10)
		if err == nil || err.Error() != want || data != nil {
			t.Errorf("readOpen(%s) = %q, %v; want %q", path, data, err, want)
		}
	}
	if got := testfs.Read(t, big); got != "01234567890" {
		t.Errorf("%s changed: %q", big, got)
	}
}
