//go:build unix

package testfs

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// TestDeadPid is the id of no process.
func TestDeadPid(t *testing.T) {
	if err := syscall.Kill(DeadPid(t), 0); !errors.Is(err, syscall.ESRCH) {
		t.Errorf("kill(pid, 0) = %v, want ESRCH", err)
	}
}

// TestDeadPidCannotRun: when the test binary cannot be run again, DeadPid
// stops the test with the error of running it.
func TestDeadPidCannotRun(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "no-such-test-binary")
	args := os.Args
	t.Cleanup(func() { os.Args = args })
	os.Args = append([]string{missing}, args[1:]...)
	s := stopped(t, func(tb testing.TB) { DeadPid(tb) })
	var pe *fs.PathError
	if err := s.err(); !errors.Is(err, fs.ErrNotExist) || !errors.As(err, &pe) || pe.Path != missing {
		t.Errorf("stopped by %s(%s), want the error of running %s", s.method, s.msg, missing)
	}
}
