//go:build unix

package cli

import (
	"io"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/ascvet/ascvet/internal/tempfile"
)

// TestOutputSpecialFiles: -o onto a pipe (as onto /dev/null or
// /dev/stdout) writes into it and leaves it a pipe, where a rename would
// have put a regular file in its place; -o onto a link replaces the file it
// names and keeps the link.
func TestOutputSpecialFiles(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "out.fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	got := make(chan []byte, 1)
	go func() {
		f, err := os.Open(fifo)
		if err != nil {
			got <- nil
			return
		}
		defer f.Close()
		b, _ := io.ReadAll(f)
		got <- b
	}()
	if err := tempfile.WriteAtomic(fifo, []byte("findings\n")); err != nil {
		t.Fatal(err)
	}
	if b := <-got; string(b) != "findings\n" {
		t.Errorf("read %q from the pipe", b)
	}
	if fi, err := os.Lstat(fifo); err != nil || fi.Mode()&os.ModeNamedPipe == 0 {
		t.Errorf("the pipe is no longer a pipe: %v %v", fi.Mode(), err)
	}

	target := filepath.Join(dir, "report.json")
	link := filepath.Join(dir, "latest.json")
	if err := os.WriteFile(target, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("report.json", link); err != nil {
		t.Skipf("symlink: %v", err)
	}
	if err := tempfile.WriteAtomic(link, []byte("new")); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the link was replaced: %v %v", fi.Mode(), err)
	}
	if b, _ := os.ReadFile(target); string(b) != "new" {
		t.Errorf("the file the link names holds %q", b)
	}
}
