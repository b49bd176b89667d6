//go:build unix

// Package regfiletest checks, for the tests of the packages that read a
// user's file through regfile.Read (a machine file, a baseline), that a
// link to /dev/zero or a FIFO in its place is an error at once, without
// being read: the link took 6-16 GB, the FIFO blocked forever.
package regfiletest

import (
	"os"
	"path/filepath"
	"runtime"
	"syscall"
	"testing"
	"time"
)

// CheckSpecial makes a link to /dev/zero and a FIFO, each named with the
// extension ext, and calls read on each: it must return at once, having
// allocated under 1 MiB, with the error want gives for the path and its
// kind ("a character device", "a FIFO").
func CheckSpecial(t *testing.T, ext string, read func(path string) error, want func(path, kind string) string) {
	t.Helper()
	dir := t.TempDir()
	zero, fifo := filepath.Join(dir, "zero"+ext), filepath.Join(dir, "fifo"+ext)
	if err := os.Symlink("/dev/zero", zero); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	for path, kind := range map[string]string{zero: "a character device", fifo: "a FIFO"} {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		done := make(chan error, 1)
		go func() { done <- read(path) }()
		select {
		case err := <-done:
			runtime.ReadMemStats(&after)
			if w := want(path, kind); err == nil || err.Error() != w {
				t.Errorf("error %v, want %s", err, w)
			}
			if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 1<<20 {
				t.Errorf("%s: allocated %d bytes", kind, alloc)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("%s: still reading after 10 s", kind)
		}
	}
}
