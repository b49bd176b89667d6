package cli

import (
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/ascvet/ascvet/internal/testfs"
)

// TestJobsIdentical: over a generated tree of many files, with odd ones
// among them, stdout, stderr and the exit code are byte for byte the same
// for -j 1 and -j N, in text, JSON, -diff and stats output.
func TestJobsIdentical(t *testing.T) {
	dir := t.TempDir()
	files := 400
	if raceEnabled {
		files = 100 // enough goroutines at once for the race detector
	}
	genTree(t, dir, files, 16)
	testfs.Put(t, dir, "cat00/odd/blob.h", "int x;\x00")
	testfs.Put(t, dir, "cat00/odd/deep.asc", "__simd_vf__ void F() "+strings.Repeat("{", 2000)+strings.Repeat("}", 2000))
	testfs.Put(t, dir, "cat00/odd/u16.cpp", "\xFF\xFEx\x00")
	testfs.Put(t, filepath.Join(dir, "zz"), "cr.asc", strings.ReplaceAll(copyKernel(t), "\n", "\r"))
	testfs.Put(t, filepath.Join(dir, "zz"), "fixable.asc", copyKernel(t))
	seconds := regexp.MustCompile(`"seconds": [0-9.e+-]+`)
	for _, args := range [][]string{
		{"-fail-on", "info"},
		{"-f", "json"},
		{"-diff"},
		{"stats"},
	} {
		var first string
		for _, j := range []string{"1", "4"} {
			a := append([]string{}, args...)
			if a[0] == "stats" {
				a = append(a, "-j", j, dir)
			} else {
				a = append([]string{"-j", j}, append(a, dir)...)
			}
			code, out, errs := ascvet(t, a...)
			got := seconds.ReplaceAllString(out, `"seconds": 0`) + "\n-- stderr --\n" + errs + "\n-- exit --\n" + string(rune('0'+code))
			if first == "" {
				first = got
				if len(out) < 100 || !strings.Contains(errs, "deep.asc") {
					t.Fatalf("ascvet %s: too little output to compare:\n%s", strings.Join(a, " "), got)
				}
				continue
			}
			if got != first {
				t.Errorf("ascvet %s differs from -j 1:\n%s\n--- -j 1:\n%s", strings.Join(a, " "), got, first)
			}
		}
	}
}
