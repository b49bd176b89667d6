//go:build unix

package testfs

import (
	"errors"
	"syscall"
	"testing"
)

// TestDeadPid is the id of no process.
func TestDeadPid(t *testing.T) {
	if err := syscall.Kill(DeadPid(t), 0); !errors.Is(err, syscall.ESRCH) {
		t.Errorf("kill(pid, 0) = %v, want ESRCH", err)
	}
}
