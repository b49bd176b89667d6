//go:build unix

package resultcache

import (
	"os"
	"syscall"
)

// fileOwner returns the uid that owns st's file.
func fileOwner(st os.FileInfo) (int, bool) {
	if s, ok := st.Sys().(*syscall.Stat_t); ok {
		return int(s.Uid), true
	}
	return 0, false
}
