//go:build unix

package testfs

import (
	"errors"
	"os"
	"os/exec"
	"syscall"
	"testing"
)

// DeadPid returns the id of a process that has exited and been reaped: it
// runs the test binary, asked to run no test. The test is skipped when the
// id is in use again already.
func DeadPid(t testing.TB) int {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	pid := cmd.Process.Pid
	if err := syscall.Kill(pid, 0); !errors.Is(err, syscall.ESRCH) {
		t.Skipf("process %d exited, yet kill(%d, 0) finds a process (its id was reused)", pid, pid)
	}
	return pid
}
