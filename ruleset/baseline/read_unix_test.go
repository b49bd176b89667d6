//go:build unix

package baseline

import (
	"os"
	"path/filepath"
	"runtime"
	"syscall"
	"testing"
	"time"
)

// TestReadSpecial: a baseline that is a link to /dev/zero or a FIFO is an
// error at once, without being read (the link took 6-16 GB, the FIFO
// blocked forever).
func TestReadSpecial(t *testing.T) {
	dir := t.TempDir()
	zero, fifo := filepath.Join(dir, "zero.json"), filepath.Join(dir, "fifo.json")
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
		go func() {
			_, err := Read(path)
			done <- err
		}()
		select {
		case err := <-done:
			runtime.ReadMemStats(&after)
			if want := "cannot read baseline file " + path + ": not a regular file (" + kind + ")"; err == nil || err.Error() != want {
				t.Errorf("error %v, want %s", err, want)
			}
			if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 1<<20 {
				t.Errorf("%s: allocated %d bytes", kind, alloc)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("%s: still reading after 10 s", kind)
		}
	}
}
