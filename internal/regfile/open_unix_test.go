//go:build unix

package regfile

import (
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TestOpenFIFO: a path replaced by a FIFO between Read's check and its
// open does not block the open, and is refused.
func TestOpenFIFO(t *testing.T) {
	refusesFIFO(t, func(fifo string) error {
		_, err := readOpen(fifo, 1<<20)
		return err
	})
}

// refusesFIFO checks that read of a FIFO returns, within 10 s (its open
// does not block), the error that it is not a regular file.
func refusesFIFO(t *testing.T, read func(fifo string) error) {
	t.Helper()
	fifo := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatalf("mkfifo: %v", err)
	}
	done := make(chan error, 1)
	go func() { done <- read(fifo) }()
	select {
	case err := <-done:
		if want := "open " + fifo + ": not a regular file (a FIFO)"; err == nil || err.Error() != want {
			t.Errorf("error %v, want %q", err, want)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the open of a FIFO blocked for 10 s")
	}
}
