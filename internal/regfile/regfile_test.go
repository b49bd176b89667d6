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

// TestKind: each type of file that is not regular is named, and the error
// of a path that names one says which.
func TestKind(t *testing.T) {
	for m, want := range map[fs.FileMode]string{
		fs.ModeNamedPipe | 0o600:                  "a FIFO",
		fs.ModeSocket | 0o755:                     "a socket",
		fs.ModeDevice | fs.ModeCharDevice | 0o666: "a character device",
		fs.ModeDevice | 0o660:                     "a block device",
		fs.ModeDir | 0o755:                        "a directory",
		fs.ModeSymlink | 0o777:                    "a symbolic link",
		fs.ModeIrregular:                          "an irregular file",
	} {
		if got := regfile.Kind(m); got != want {
			t.Errorf("Kind(%v) = %q, want %q", m, got, want)
		}
	}
	for m, want := range map[fs.FileMode]string{
		fs.ModeSocket:      "not a regular file (a socket)",
		fs.ModeDevice:      "not a regular file (a block device)",
		fs.ModeDir | 0o700: "is a directory",
	} {
		if got := (&regfile.NotRegularError{Mode: m}).Error(); got != want {
			t.Errorf("NotRegularError{%v} = %q, want %q", m, got, want)
		}
	}
}

// TestTooBigError: the size is told when it was known before the read,
// not when the file grew over the limit while read (Size -1).
func TestTooBigError(t *testing.T) {
	for _, c := range []struct {
		err  regfile.TooBigError
		want string
	}{
		{regfile.TooBigError{Size: 1536, Limit: 1024}, "over the limit of 1 KiB for this file (1536 bytes)"},
		{regfile.TooBigError{Size: -1, Limit: 1536}, "over the limit of 1.5 KiB for this file"},
		{regfile.TooBigError{Size: 0, Limit: 0}, "over the limit of 0 bytes for this file (0 bytes)"},
	} {
		if got := c.err.Error(); got != c.want {
			t.Errorf("%+v: %q, want %q", c.err, got, c.want)
		}
	}
}
