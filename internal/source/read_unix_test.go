//go:build unix

package source

import (
	"errors"
	"os"
	"strings"
	"syscall"
	"testing"

	"github.com/ascvet/ascvet/internal/testfs"
)

// TestReadSourceReadFails: a file whose read fails is skipped with the
// read's error, whether it is read whole or, over the size limit, scanned
// (the error then comes before any decision about its size); the file is
// left as it was.
func TestReadSourceReadFails(t *testing.T) {
	dir := t.TempDir()
	small := "__simd_vf__ inline void F() {}\n"
	big := strings.Repeat("// pad\n", 400) + small
	files := map[string]string{testfs.Put(t, dir, "k.asc", small): small, testfs.Put(t, dir, "big.asc", big): big}
	defer func(o func(string) (Input, error)) { OpenInput = o }(OpenInput)
	OpenInput = func(name string) (Input, error) { return os.OpenFile(name, os.O_WRONLY, 0) } // a read is EBADF
	lim := DefaultLimits()
	lim.MaxFileSize = 1024
	for name, content := range files {
		var buf []byte
		src, _, vf, err := ReadSource(name, &lim, &buf)
		if !errors.Is(err, syscall.EBADF) || src != nil || vf {
			t.Errorf("%s: %q, %v, %v; want no source and EBADF", name, src, vf, err)
		}
		if got := testfs.Read(t, name); got != content {
			t.Errorf("%s changed: %q", name, got)
		}
	}
}
