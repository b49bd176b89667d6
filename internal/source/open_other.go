//go:build !unix

package source

import "os"

// openRead is os.Open (see openinput_unix.go).
func openRead(name string) (*os.File, error) { return os.Open(name) }
