//go:build unix

package regfile_test

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"syscall"
	"testing"
	"time"

	"github.com/ascvet/ascvet/internal/regfile"
)

// TestReadSpecial: a link to /dev/zero and a FIFO are refused at once,
// without reading them (a FIFO without writer would block the open).
func TestReadSpecial(t *testing.T) {
	dir := t.TempDir()
	zero := filepath.Join(dir, "zero")
	if err := os.Symlink("/dev/zero", zero); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	for path, want := range map[string]string{
		zero: "open " + zero + ": not a regular file (a character device)",
		fifo: "open " + fifo + ": not a regular file (a FIFO)",
	} {
		alloc, err := readWithin(t, path, 4<<20)
		var nr *regfile.NotRegularError
		if err == nil || err.Error() != want || !errors.As(err, &nr) {
			t.Errorf("%s: error %v, want %q", filepath.Base(path), err, want)
		}
		if alloc > 1<<20 {
			t.Errorf("%s: allocated %d bytes", filepath.Base(path), alloc)
		}
	}
}

// readWithin reads path in a goroutine, so that a read that blocks fails
// the test after 10 s instead of hanging it, and returns the bytes
// allocated meanwhile and its error.
func readWithin(t *testing.T, path string, limit int64) (uint64, error) {
	t.Helper()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	done := make(chan error, 1)
	go func() {
		_, err := regfile.Read(path, limit)
		done <- err
	}()
	select {
	case err := <-done:
		runtime.ReadMemStats(&after)
		return after.TotalAlloc - before.TotalAlloc, err
	case <-time.After(10 * time.Second):
		t.Fatalf("%s: still reading after 10 s", path)
		return 0, nil
	}
}
