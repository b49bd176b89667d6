package cli

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/ascvet/ascvet/internal/testfs"
)

// copyKernel returns an example kernel with two findings: ASC1001 at 17:9 and
// ASC1002 at 21:9.
func copyKernel(t testing.TB) string {
	t.Helper()
	src, err := os.ReadFile("../../testdata/kernels/unaligned_copy.asc")
	if err != nil {
		t.Fatal(err)
	}
	return string(src)
}

// TestLimitFlags: each limit is a flag, checked, and applies.
func TestLimitFlags(t *testing.T) {
	dir := t.TempDir()
	k := testfs.Put(t, dir, "k.asc", copyKernel(t))
	var slow strings.Builder
	slow.WriteString("__simd_vf__ void F() {\n")
	for i := range 3000 {
		fmt.Fprintf(&slow, "    AscendC::Reg::Adds(v%d, v%d, %d);\n", i, i+1, i)
	}
	slow.WriteString("}\n")
	slowPath := testfs.Put(t, dir, "slow.asc", slow.String())
	for _, tc := range []struct {
		args   []string
		code   int
		stderr string
	}{
		{[]string{"-max-file-size", "1KiB", k}, exitUsage, k + ": 1.0KiB, over the -max-file-size limit of 1KiB; skipped"},
		{[]string{"-max-file-size", "1MB", k}, exitFindings, ""},
		{[]string{"-max-file-size", "0", k}, exitFindings, ""},
		{[]string{"-max-file-size", "lots", k}, exitUsage, `invalid value "lots" for flag -max-file-size`},
		{[]string{"-max-depth", "2", k}, exitUsage, k + ": brackets nested 3 levels deep, deeper than the limit of 2; skipped (raise -max-depth to check it)"},
		{[]string{"-max-depth", "0", k}, exitUsage, "-max-depth 0: want at least 1"},
		{[]string{"-file-timeout", "1ns", slowPath}, exitUsage, slowPath + ": analysing took longer than the limit of 1ns; skipped (raise -file-timeout to check it)"}, // stopped before its parse: the whole analysis is timed
		{[]string{"-file-timeout", "-1s", k}, exitUsage, "-file-timeout -1s: want 0 (no limit) or more"},
		{[]string{"stats", "-max-depth", "2", k}, exitUsage, "deeper than the limit of 2"},
	} {
		code, _, errs := ascvet(t, tc.args...)
		if code != tc.code || !strings.Contains(errs, tc.stderr) || tc.stderr == "" && errs != "" {
			t.Errorf("ascvet %s: exit %d, stderr %q; want %d, %q", strings.Join(tc.args, " "), code, errs, tc.code, tc.stderr)
		}
	}
}

// TestSubcommandLimits: ir, regs and sim parse by themselves; a file beyond
// the default nesting limit is skipped with the limit's message (exit 2),
// not reported as an internal error.
func TestSubcommandLimits(t *testing.T) {
	dir := t.TempDir()
	deep := "__simd_vf__ void F() {\n    int x = " + strings.Repeat("(", 1100) + "1" + strings.Repeat(")", 1100) + ";\n}\n"
	p := testfs.Put(t, dir, "deep.asc", deep)
	for _, args := range [][]string{{"ir", p}, {"regs", p}, {"sim", p}, {"sim", p + ":2"}} {
		code, _, errs := ascvet(t, args...)
		if code != exitUsage || !strings.Contains(errs, "deeper than the limit of 1000; skipped") || strings.Contains(errs, "internal error") {
			t.Errorf("ascvet %s: exit %d, stderr %q; want %d and the limit's message", strings.Join(args, " "), code, errs, exitUsage)
		}
	}
}
