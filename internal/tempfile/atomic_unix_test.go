//go:build unix

package tempfile

import (
	"io"
	"os"
	"path/filepath"
	"slices"
	"syscall"
	"testing"

	"github.com/ascvet/ascvet/internal/testfs"
)

// TestWriteAtomicPipe: a named pipe, named or reached through a link, is
// written in place: the reader gets the data, and the pipe and the link
// stay, with no temporary file beside them.
func TestWriteAtomicPipe(t *testing.T) {
	dir := t.TempDir()
	pipe := filepath.Join(dir, "out.pipe")
	if err := syscall.Mkfifo(pipe, 0o600); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "out.json")
	if err := os.Symlink("out.pipe", link); err != nil {
		t.Fatal(err)
	}
	// A reader opened first: the writer's open does not wait for one.
	r, err := os.OpenFile(pipe, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	for _, name := range []string{pipe, link} {
		if err := WriteAtomic(name, []byte("report of "+filepath.Base(name)+"\n")); err != nil {
			t.Fatalf("WriteAtomic(%s): %v", name, err)
		}
		// The writer closed: the reader reads what it wrote, then EOF.
		got, err := io.ReadAll(r)
		if want := "report of " + filepath.Base(name) + "\n"; err != nil || string(got) != want {
			t.Errorf("through %s the pipe gave %q, %v; want %q", name, got, err, want)
		}
	}
	if fi, err := os.Lstat(pipe); err != nil || fi.Mode().Type() != os.ModeNamedPipe {
		t.Errorf("the pipe is now %v, %v", fi.Mode(), err)
	}
	if target, err := os.Readlink(link); err != nil || target != "out.pipe" {
		t.Errorf("the link is now %q, %v", target, err)
	}
	if got := testfs.Names(t, dir); !slices.Equal(got, []string{"out.json", "out.pipe"}) {
		t.Errorf("%s holds %q", dir, got)
	}
}

// TestWriteAtomicLinkLoop: a link that names itself resolves to no file:
// WriteAtomic fails, and the link stays as it was, alone.
func TestWriteAtomicLinkLoop(t *testing.T) {
	dir := t.TempDir()
	loop := filepath.Join(dir, "loop.json")
	if err := os.Symlink("loop.json", loop); err != nil {
		t.Fatal(err)
	}
	if err := WriteAtomic(loop, []byte("lost")); err == nil {
		t.Error("writing through a link loop did not fail")
	}
	if target, err := os.Readlink(loop); err != nil || target != "loop.json" {
		t.Errorf("the link is now %q, %v", target, err)
	}
	if got := testfs.Names(t, dir); !slices.Equal(got, []string{"loop.json"}) {
		t.Errorf("%s holds %q", dir, got)
	}
}

// TestWriteAtomicKeepsMode: replacing a file keeps its permissions, as the
// shell's > does and as the other writers through a temporary file do
// (fixes.ReplaceFileVia, baseline.Write): a report kept private stays so.
func TestWriteAtomicKeepsMode(t *testing.T) {
	dir := t.TempDir()
	for _, mode := range []os.FileMode{0o600, 0o640, 0o664} {
		name := testfs.Put(t, dir, "report.sarif", "old")
		if err := os.Chmod(name, mode); err != nil {
			t.Fatal(err)
		}
		if err := WriteAtomic(name, []byte("new")); err != nil {
			t.Fatal(err)
		}
		if fi, err := os.Stat(name); err != nil || fi.Mode().Perm() != mode || testfs.Read(t, name) != "new" {
			t.Errorf("a %v file replaced is %v (%v), holds %q", mode, fi.Mode().Perm(), err, testfs.Read(t, name))
		}
	}
}
