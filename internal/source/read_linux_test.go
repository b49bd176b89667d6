package source

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestReadSourceProc: the files of /proc say they are empty, and are not.
// One is read whole, past the size its status gave, growing the buffer;
// when it proves over the size limit as it is read, it is refused with
// the size read.
func TestReadSourceProc(t *testing.T) {
	const status = "/proc/self/status"
	lim := DefaultLimits()
	lim.MaxFileSize = 1 << 20
	buf := make([]byte, 0, 16)
	src, size, vf, info, err := ReadSourceStat(status, &lim, &buf)
	switch {
	case err != nil:
		t.Fatalf("ReadSourceStat(%s): %v", status, err)
	case info == nil || info.Size() != 0:
		t.Errorf("%s: status %v; want the size 0 it says before the read", status, info)
	case !strings.HasPrefix(string(src), "Name:") || !strings.Contains(string(src), "\nPid:") || size != int64(len(src)) || vf:
		t.Errorf("%s: read %d bytes, size %d, vf %v:\n%s", status, len(src), size, vf, src)
	case cap(buf) < len(src):
		t.Errorf("buffer of %d bytes kept, for %d read", cap(buf), len(src))
	}

	lim.MaxFileSize = 8
	buf = make([]byte, 0, 16)
	src, size, vf, info, err = ReadSourceStat(status, &lim, &buf)
	if want := "16B, over the -max-file-size limit of 8B; skipped"; err == nil || !strings.HasPrefix(err.Error(), want) ||
		src != nil || size != 16 || vf || info != nil {
		t.Errorf("over a limit of 8 bytes: %q, %d, %v, %v, %v; want %q", src, size, vf, info, err, want)
	}
}

// TestRawInputStat: an input opened by its descriptor tells what os.Stat
// tells of the same file (the result cache keys a file by its size, times
// and inode, from Sys), a directory is told apart from a regular file, and
// a closed input refuses to be used again. (A FIFO never reaches it: the
// walk and the arguments' check refuse it by its mode, unopened.)
func TestRawInputStat(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "k.asc")
	if err := os.WriteFile(file, []byte("__simd_vf__ inline void F() {}\n"), 0o640); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{file, dir} {
		want, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		in, err := openRead(p)
		if err != nil {
			t.Fatal(err)
		}
		got, err := in.Stat()
		if err != nil {
			t.Fatal(err)
		}
		ws, gs := want.Sys().(*syscall.Stat_t), got.Sys().(*syscall.Stat_t)
		if got.Name() != want.Name() || got.Size() != want.Size() || got.Mode() != want.Mode() || !got.ModTime().Equal(want.ModTime()) ||
			got.IsDir() != want.IsDir() || gs.Ino != ws.Ino || gs.Ctim != ws.Ctim {
			t.Errorf("%s: Stat = %s %d %v %v, want %s %d %v %v", p, got.Name(), got.Size(), got.Mode(), got.ModTime(), want.Name(), want.Size(), want.Mode(), want.ModTime())
		}
		if err := in.Close(); err != nil {
			t.Fatal(err)
		}
		if _, err := in.Read(make([]byte, 8)); !errors.Is(err, os.ErrClosed) {
			t.Errorf("%s: a read after Close: %v, want os.ErrClosed", p, err)
		}
		if _, err := in.Stat(); !errors.Is(err, os.ErrClosed) {
			t.Errorf("%s: Stat after Close: %v, want os.ErrClosed", p, err)
		}
		if err := in.Close(); !errors.Is(err, os.ErrClosed) {
			t.Errorf("%s: Close twice: %v, want os.ErrClosed", p, err)
		}
	}
}
