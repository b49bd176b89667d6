//go:build !unix

package fixes

import (
	"io/fs"
	"os"
)

// keepOwner does nothing where files have no Unix owner.
func keepOwner(*os.File, fs.FileInfo) {}

// syncDir does nothing where directories cannot be opened and fsynced
// (Windows); the rename itself is atomic there.
func syncDir(string) error { return nil }
