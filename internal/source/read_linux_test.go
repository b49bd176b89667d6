package source

import (
	"strings"
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
