//go:build unix && !linux

package regfile

import (
	"os"
	"syscall"
)

// openNonblock opens path for reading without blocking when it is a FIFO
// (which would wait for a writer); on a regular file O_NONBLOCK does
// nothing.
func openNonblock(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
}
