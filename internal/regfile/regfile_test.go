package regfile_test

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ascvet/ascvet/internal/regfile"
)

func TestRead(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, n int) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(strings.Repeat("x", n)), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	for _, tc := range []struct {
		path  string
		limit int64
		n     int    // bytes read
		err   string // the error, "" for none
	}{
		{write("empty", 0), 10, 0, ""},
		{write("small", 10), 10, 10, ""},
		{write("big", 11), 10, 0, "open " + filepath.Join(dir, "big") + ": over the limit of 10 bytes for this file (11 bytes)"},
		{write("large", 5<<20+1), 4 << 20, 0, "over the limit of 4 MiB for this file (5242881 bytes)"},
		{write("exact", 4<<20), 4 << 20, 4 << 20, ""},
		{dir, 10, 0, "open " + dir + ": is a directory"},
		{filepath.Join(dir, "none"), 10, 0, "no such file or directory"},
	} {
		data, err := regfile.Read(tc.path, tc.limit)
		switch {
		case tc.err == "" && err != nil:
			t.Errorf("%s: %v", tc.path, err)
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("%s: error %v, want %q", tc.path, err, tc.err)
		case len(data) != tc.n:
			t.Errorf("%s: read %d bytes, want %d", tc.path, len(data), tc.n)
		}
	}
	if _, err := regfile.Read(filepath.Join(dir, "none"), 10); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing file: %v is no fs.ErrNotExist", err)
	}
	// A file that says it is empty but is not (as those of /proc) is read
	// within the limit.
	if data, err := regfile.Read("/proc/self/status", 1<<20); err == nil && len(data) == 0 {
		t.Errorf("/proc/self/status: read nothing")
	}
	if _, err := regfile.Read("/proc/self/status", 8); err == nil {
		t.Errorf("/proc/self/status over a limit of 8 bytes: read")
	}
}

func TestSize(t *testing.T) {
	for n, want := range map[int64]string{0: "0 bytes", 1023: "1023 bytes", 1024: "1 KiB", 1536: "1.5 KiB", 64 << 20: "64 MiB", 3 << 30: "3 GiB"} {
		if got := regfile.Size(n); got != want {
			t.Errorf("Size(%d) = %q, want %q", n, got, want)
		}
	}
}
