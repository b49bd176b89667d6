//go:build unix

package tempfile

import (
	"errors"
	"os"
	"syscall"
)

// exitSignals are the signals that end ascvet, which remove its temporary
// files first (see tempfile.go).
var exitSignals = []os.Signal{syscall.SIGHUP, syscall.SIGINT, syscall.SIGQUIT, syscall.SIGTERM}

// processAlive reports whether a process pid exists: kill(pid, 0) succeeds,
// or fails for want of permission (another user's process). Any error but
// ESRCH counts as alive.
func processAlive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return !errors.Is(err, syscall.ESRCH)
}

// signalStatus is the exit status that tells the shell a signal ended the
// process: 128 plus its number.
func signalStatus(s os.Signal) int {
	if n, ok := s.(syscall.Signal); ok {
		return 128 + int(n)
	}
	return 128 + int(syscall.SIGTERM)
}
