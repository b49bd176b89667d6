package tempfile

import (
	"errors"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"slices"
	"syscall"
	"testing"

	"github.com/ascvet/ascvet/internal/testfs"
)

// TestWriteAtomicSocket: a socket is no regular file, and cannot be
// opened: WriteAtomic returns the open's error and leaves the socket as it
// is, with no file beside it.
func TestWriteAtomicSocket(t *testing.T) {
	dir := t.TempDir()
	sock := filepath.Join(dir, "out.sock")
	if len(sock) >= 108 { // sun_path
		t.Skipf("%s is too long a name for a socket", sock)
	}
	l, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	err = WriteAtomic(sock, []byte("lost"))
	var pe *fs.PathError
	if !errors.As(err, &pe) || pe.Op != "open" || pe.Path != sock || !errors.Is(err, syscall.ENXIO) {
		t.Errorf("WriteAtomic(socket) = %v, want open's ENXIO", err)
	}
	if fi, err := os.Lstat(sock); err != nil || fi.Mode().Type() != os.ModeSocket {
		t.Errorf("the socket is now %v, %v", fi.Mode(), err)
	}
	if got := testfs.Names(t, dir); !slices.Equal(got, []string{"out.sock"}) {
		t.Errorf("%s holds %q", dir, got)
	}
}

// TestWriteAtomicDeviceFull: a device written in place that refuses the
// data (a copy of /dev/full made in the test's folder) fails the write
// with its error; the device stays, with no file beside it.
func TestWriteAtomicDeviceFull(t *testing.T) {
	dir := t.TempDir()
	full := filepath.Join(dir, "full")
	const dev = 1<<8 | 7 // major 1, minor 7: /dev/full
	if err := syscall.Mknod(full, syscall.S_IFCHR|0o666, dev); err != nil {
		t.Skipf("cannot make a device node (needs CAP_MKNOD): %v", err)
	}
	if f, err := os.OpenFile(full, os.O_WRONLY, 0); err != nil {
		t.Skipf("cannot open a device node in %s (mounted nodev?): %v", dir, err)
	} else {
		f.Close()
	}
	if err := WriteAtomic(full, []byte("lost")); !errors.Is(err, syscall.ENOSPC) {
		t.Errorf("WriteAtomic(full device) = %v, want ENOSPC", err)
	}
	fi, err := os.Lstat(full)
	if err != nil || fi.Mode().Type() != os.ModeDevice|os.ModeCharDevice {
		t.Fatalf("the device is now %v, %v", fi.Mode(), err)
	}
	if st, ok := fi.Sys().(*syscall.Stat_t); !ok || st.Rdev != dev {
		t.Errorf("the device is now %#v", fi.Sys())
	}
	if got := testfs.Names(t, dir); !slices.Equal(got, []string{"full"}) {
		t.Errorf("%s holds %q", dir, got)
	}
}
