//go:build unix

package cli

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/ascvet/ascvet/internal/source"
	"github.com/ascvet/ascvet/internal/testfs"
)

// mkfifo makes a named pipe: opening it for reading would block until a
// writer comes, so ascvet must never open it.
func mkfifo(t *testing.T, path string) {
	t.Helper()
	if err := syscall.Mkfifo(path, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestHostileInputs runs ascvet over a tree of odd and hostile files. Each
// one that cannot be checked is named once on stderr, with why; the others
// are checked, with exact positions; the exit code is 2, an input skipped.
func TestHostileInputs(t *testing.T) {
	dir := t.TempDir()
	k := copyKernel(t)
	big := strings.Repeat("int host_table[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13};\n", (source.DefaultMaxFileSize+2<<20)/64) // 2 MiB over the limit
	testfs.Put(t, dir, "big_vf.asc", big+k)
	testfs.Put(t, dir, "big_host.h", big) // no VF marker: scanned in chunks, not refused
	testfs.Put(t, dir, "deep.asc", "__simd_vf__ void F() "+strings.Repeat("{", 10000)+strings.Repeat("}", 10000)+"\n")
	testfs.Put(t, dir, "blob.cpp", "__simd_vf__ \x00\x01\x02 not text")
	testfs.Put(t, dir, "u16le.asc", "\xFF\xFE_\x00_\x00s\x00")
	testfs.Put(t, dir, "u16be.asc", "\xFE\xFF\x00_\x00_")
	testfs.Put(t, dir, "u32.asc", "\xFF\xFE\x00\x00_\x00\x00\x00")
	testfs.Put(t, dir, "latin1.asc", strings.Replace(k, "scaling it", "scal\xefng \xff\xfe it", 1)) // invalid UTF-8 in a comment
	testfs.Put(t, dir, "bom.asc", "\xEF\xBB\xBF"+k)
	testfs.Put(t, dir, "crlf.asc", strings.ReplaceAll(k, "\n", "\r\n"))
	testfs.Put(t, dir, "cr.asc", strings.ReplaceAll(k, "\n", "\r"))
	testfs.Put(t, dir, "unbalanced.asc", "__simd_vf__ void F(__ubuf__ float* src) {\n    for (int i = 0; i < 4; i++) {\n        if (i) {\n            AscendC::Reg::LoadAlign(v, src);\n")
	locked := testfs.Put(t, dir, "locked.asc", k)
	lockedDir := filepath.Join(dir, "lockeddir")
	testfs.Put(t, lockedDir, "x.asc", k)
	if err := os.MkdirAll(filepath.Join(dir, "empty"), 0o755); err != nil {
		t.Fatal(err)
	}
	// A directory link to its parent, and a file link to itself: no walk
	// may loop.
	if err := os.Symlink("..", filepath.Join(dir, "empty", "up")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("self.h", filepath.Join(dir, "self.h")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("crlf.asc", filepath.Join(dir, "z_link.asc")); err != nil {
		t.Fatal(err) // the same file as crlf.asc: checked once
	}
	mkfifo(t, filepath.Join(dir, "fifo.cpp"))

	// Root reads any file whatever its mode: make two unreadable here.
	defer func(o func(string) (source.Input, error), r func(string) ([]os.DirEntry, error)) {
		source.OpenInput, source.ReadDir = o, r
	}(source.OpenInput, source.ReadDir)
	source.OpenInput = func(name string) (source.Input, error) {
		if name == locked {
			return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrPermission}
		}
		return os.Open(name)
	}
	source.ReadDir = func(name string) ([]os.DirEntry, error) {
		if name == lockedDir {
			return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrPermission}
		}
		return os.ReadDir(name)
	}

	missing := filepath.Join(dir, "no-such-file.asc")
	code, out, errs := ascvet(t, dir, missing, filepath.Join(dir, "empty"))
	if code != exitUsage {
		t.Errorf("exit %d, want %d (inputs skipped)", code, exitUsage)
	}
	wantErr := []string{
		missing + ": no such file or directory",
		filepath.Join(dir, "empty") + ": no source files (.asc .cpp .cc .cxx .h .hh .hpp .hxx .py) here",
		filepath.Join(dir, "big_vf.asc") + ": 34.0MiB, over the -max-file-size limit of 32MiB; skipped",
		filepath.Join(dir, "blob.cpp") + ": binary file (NUL byte at offset 12); skipped",
		filepath.Join(dir, "deep.asc") + ": brackets nested 10000 levels deep, deeper than the limit of 1000; skipped (raise -max-depth to check it)",
		filepath.Join(dir, "fifo.cpp") + ": not a regular file; skipped",
		locked + ": permission denied",
		lockedDir + ": permission denied",
		filepath.Join(dir, "self.h") + ": too many levels of symbolic links",
		filepath.Join(dir, "u16be.asc") + ": UTF-16BE text (byte order mark FE FF); ascvet reads UTF-8: convert it (iconv -f UTF-16BE -t UTF-8); skipped",
		filepath.Join(dir, "u16le.asc") + ": UTF-16LE text (byte order mark FF FE); ascvet reads UTF-8: convert it (iconv -f UTF-16LE -t UTF-8); skipped",
		filepath.Join(dir, "u32.asc") + ": UTF-32LE text (byte order mark FF FE 00 00)",
	}
	lines := strings.Split(strings.TrimSuffix(errs, "\n"), "\n")
	for _, w := range wantErr {
		n := 0
		for _, l := range lines {
			if strings.HasPrefix(l, "ascvet: "+w) {
				n++
			}
		}
		if n != 1 {
			t.Errorf("stderr names %q %d times, want once", w, n)
		}
	}
	if len(lines) != len(wantErr) {
		t.Errorf("stderr has %d lines, want %d", len(lines), len(wantErr))
	}
	if t.Failed() {
		t.Logf("stderr:\n%s", errs)
	}
	// The readable kernels are checked, positions exact whatever the line
	// ends, the byte order mark or the bytes that are not UTF-8.
	for _, name := range []string{"bom.asc", "cr.asc", "crlf.asc", "latin1.asc"} {
		for _, w := range []string{":17:9: warning:", ":21:9: warning:"} {
			if !strings.Contains(out, filepath.Join(dir, name)+w) {
				t.Errorf("no finding %s%s in:\n%s", name, w, out)
			}
		}
	}
	if !strings.Contains(out, filepath.Join(dir, "unbalanced.asc")+":4:45: info: VF region F does not parse here") {
		t.Errorf("the unbalanced kernel's gap does not show:\n%s", out)
	}
	if strings.Contains(out, "z_link.asc") {
		t.Errorf("a file reached twice is checked twice:\n%s", out)
	}
	// An unreadable directory argument is one problem, not also an empty
	// directory.
	if code, _, errs := ascvet(t, lockedDir); code != exitUsage || errs != "ascvet: "+lockedDir+": permission denied\n" {
		t.Errorf("ascvet %s: exit %d, stderr %q", lockedDir, code, errs)
	}
	// Checked: big_host.h, bom, cr, crlf, latin1, unbalanced.
	if !strings.Contains(out, " in 6 files\n") {
		t.Errorf("no summary of 6 files:\n%s", out)
	}
}
