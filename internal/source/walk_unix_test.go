//go:build unix

package source

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"syscall"
	"testing"

	"github.com/ascvet/ascvet/internal/testfs"
)

// TestWalkTakesOnce: a file reached through links and overlapping
// arguments is taken once, under the first name the walk meets, without the
// walker keeping every file's real path.
func TestWalkTakesOnce(t *testing.T) {
	dir := t.TempDir()
	mk := func(p string) {
		p = filepath.Join(dir, p)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("int x;\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	link := func(target, p string) {
		if err := os.Symlink(target, filepath.Join(dir, p)); err != nil {
			t.Fatal(err)
		}
	}
	mk("d/a.cpp")
	mk("d/sub/b.h")
	mk("d/.hid/c.h")
	mk("d/build/e.h")
	link("sub/b.h", "d/a_link.h")   // met before sub/b.h: taken under its name
	link(".hid/c.h", "d/l_hid.h")   // its target is in a directory the walk skips
	link("sub/b.h", "d/z_link.cpp") // met after sub/b.h
	if err := os.MkdirAll(filepath.Join(dir, "out"), 0o755); err != nil {
		t.Fatal(err)
	}
	link("../d/a.cpp", "out/x.cpp")   // into an argument walked before
	link("../d/build/e.h", "out/y.h") // into a directory the first walk skipped, an argument later
	t.Chdir(dir)
	got := Expand([]string{"d", "d/sub", "d/sub/b.h", "out", "d/build", "d/a.cpp"}, func(p string, err error) { t.Errorf("%s: %v", p, err) })
	want := []string{"d/a.cpp", "d/a_link.h", "d/l_hid.h", "out/y.h"}
	if !slices.Equal(got, want) {
		t.Errorf("expand = %q, want %q", got, want)
	}
}

// TestExpandNotRegular: a FIFO given as an argument, found by the walk
// with a source name, or the target of a link with a source name, is a
// bad path (ErrNotRegular), never opened; one without a source name is
// left alone; the FIFOs stay.
func TestExpandNotRegular(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	testfs.Put(t, dir, "k/a.cpp", "")
	fifos := []string{"k/p.cpp", "k/p.txt", "arg.fifo"}
	for _, p := range fifos {
		if err := syscall.Mkfifo(filepath.Join(dir, p), 0o600); err != nil {
			t.Skipf("mkfifo: %v", err)
		}
	}
	for link, to := range map[string]string{"k/l.cpp": "p.txt", "k/null.h": os.DevNull} {
		if err := os.Symlink(to, filepath.Join(dir, link)); err != nil {
			t.Fatal(err)
		}
	}
	var bad []string
	got := Expand([]string{"k", "arg.fifo"}, func(p string, err error) {
		if !errors.Is(err, ErrNotRegular) {
			t.Errorf("%s: %v, want ErrNotRegular", p, err)
		}
		bad = append(bad, p)
	})
	if want := []string{"k/a.cpp"}; !slices.Equal(got, want) {
		t.Errorf("walked %q, want %q", got, want)
	}
	if want := []string{"k/l.cpp", "k/null.h", "k/p.cpp", "arg.fifo"}; !slices.Equal(bad, want) {
		t.Errorf("bad %q, want %q", bad, want)
	}
	for _, p := range fifos {
		if fi, err := os.Lstat(filepath.Join(dir, p)); err != nil || fi.Mode().Type() != fs.ModeNamedPipe {
			t.Errorf("%s: %v, %v; want the FIFO still there", p, fi, err)
		}
	}
}

// TestExpandDeletedFolder: run in a folder that was removed, the walk of
// "." is a bad path with the error of finding where it is; nothing is
// taken and nothing noted.
func TestExpandDeletedFolder(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "gone")
	testfs.Put(t, dir, "k.cpp", "")
	t.Chdir(dir)
	if err := os.RemoveAll(dir); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Getwd(); err == nil {
		t.Skip("the removed working folder still has a path here")
	}
	var bad []string
	got := ExpandNoted([]string{"."},
		func(p string, err error) {
			if !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("%s: %v, want fs.ErrNotExist", p, err)
			}
			bad = append(bad, p)
		},
		func(p, msg string) { t.Errorf("note %s: %s", p, msg) })
	if len(got) != 0 || !slices.Equal(bad, []string{"."}) {
		t.Errorf("walked %q, bad %q; want nothing walked, . bad", got, bad)
	}
}
