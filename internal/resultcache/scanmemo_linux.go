//go:build linux

package resultcache

import (
	"os"
	"syscall"
)

// keyOf returns what tells st's file unchanged: size, modification and
// change times, inode.
func keyOf(st os.FileInfo) statKey {
	k := statKey{Size: st.Size(), Mtime: st.ModTime().UnixNano()}
	if s, ok := st.Sys().(*syscall.Stat_t); ok {
		k.Ctime = s.Ctim.Nano()
		k.Ino = int64(s.Ino)
	}
	return k
}
