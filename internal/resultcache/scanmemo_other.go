//go:build !linux

package resultcache

import "os"

// keyOf returns what tells st's file unchanged: size and modification
// time (no change time or inode here).
func keyOf(st os.FileInfo) statKey {
	return statKey{Size: st.Size(), Mtime: st.ModTime().UnixNano()}
}
