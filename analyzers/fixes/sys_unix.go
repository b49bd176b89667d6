//go:build unix

package fixes

import (
	"io/fs"
	"os"
	"syscall"
)

// keepOwner gives f the owner and group of the file described by info, where
// the OS allows it (root may; others may only pick one of their own groups).
// A failure leaves the process's own user and group, as any new file has.
func keepOwner(f *os.File, info fs.FileInfo) {
	st, ok := info.Sys().(*syscall.Stat_t)
	if !ok {
		return
	}
	if int(st.Uid) == os.Geteuid() && int(st.Gid) == os.Getegid() {
		return
	}
	_ = f.Chown(int(st.Uid), int(st.Gid))
}

// syncDir fsyncs the directory dir, so that a rename in it is durable.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	err = d.Sync()
	if cerr := d.Close(); err == nil {
		err = cerr
	}
	return err
}
