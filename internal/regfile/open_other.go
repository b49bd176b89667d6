//go:build !unix

package regfile

import "os"

// openNonblock opens path for reading; Read has checked it is a regular
// file just before.
func openNonblock(path string) (*os.File, error) { return os.Open(path) }
