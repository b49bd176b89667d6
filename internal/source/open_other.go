//go:build !linux

package source

import "os"

// openRead is os.Open (see open_linux.go).
func openRead(name string) (Input, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err // not a nil *os.File in an Input
	}
	return f, nil
}
