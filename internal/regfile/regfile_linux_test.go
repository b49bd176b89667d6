package regfile_test

import (
	"errors"
	"io/fs"
	"strings"
	"syscall"
	"testing"

	"github.com/ascvet/ascvet/internal/regfile"
)

// TestReadProc: the files of /proc say they are empty, and are not. One
// over the limit is refused once more than the limit was read, without a
// size (it was not known); one within it is read whole; one whose read
// fails (/proc/self/mem at address 0) returns the error of the read, no
// bytes.
func TestReadProc(t *testing.T) {
	const status = "/proc/self/status"
	data, err := regfile.Read(status, 1<<20)
	if err != nil || !strings.HasPrefix(string(data), "Name:") || !strings.Contains(string(data), "\nPid:") {
		t.Errorf("Read(%s) = %q, %v; want its whole text", status, data, err)
	}
	data, err = regfile.Read(status, 8)
	var big *regfile.TooBigError
	if want := "read " + status + ": over the limit of 8 bytes for this file"; err == nil || err.Error() != want ||
		!errors.As(err, &big) || big.Size != -1 || data != nil {
		t.Errorf("Read(%s, 8) = %q, %v; want no data and %q (Size -1)", status, data, err, want)
	}

	data, err = regfile.Read("/proc/self/mem", 1<<20)
	var pe *fs.PathError
	if !errors.Is(err, syscall.EIO) || !errors.As(err, &pe) || pe.Op != "read" || data != nil {
		t.Errorf("Read(/proc/self/mem) = %q, %v; want no data and the read's EIO", data, err)
	}
}
