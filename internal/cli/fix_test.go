package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"

	"github.com/ascvet/ascvet/internal/driver/drivertest"
	"github.com/ascvet/ascvet/internal/report/reporttest"
	"github.com/ascvet/ascvet/internal/testfs"
)

// replacer is drivertest.Replacer.
var replacer = drivertest.Replacer

var (
	noBad  = replacer("nobad", "BAD", "", 0)              // deletes BAD
	noSemi = replacer("nosemi", ";;", ";", 0)             // collapses ;;
	renew  = replacer("renew", "OLD BAD", "NEW BAD", 0)   // overlaps noBad
	noBadS = replacer("nobads", "BAD ", "", 0)            // overlaps noBad, and fixes the same
	broken = replacer("broken", "BROKEN", "", 10)         // a fix past the end of the file
	stuck  = replacer("stuck", "STUCK", "STUCK STUCK", 0) // its fix does not remove what it flags
)

// withAnalyzers makes the driver run as for the rest of the test.
func withAnalyzers(t *testing.T, as ...*analysis.Analyzer) {
	saved := analyzers
	t.Cleanup(func() { analyzers = saved })
	analyzers = func() []*analysis.Analyzer { return as }
}

// kernel writes a file with a VF marker (so ascvet reads it) and returns its path.
func kernel(t *testing.T, dir, name, body string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte("__simd_vf__ void f() {\r\n"+body+"}\r\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestFix(t *testing.T) {
	withAnalyzers(t, noBad, noSemi)
	dir := t.TempDir()
	k := kernel(t, dir, "k.cpp", "  x = BAD;;\r\n  // BAD: comment kept\r\n")
	clean := kernel(t, dir, "clean.cpp", "  x = 1;\r\n")
	cleanInfo, err := os.Stat(clean)
	if err != nil {
		t.Fatal(err)
	}

	code, out, errs := ascvet(t, "-fix", dir)
	if code != exitOK || out != "no findings in 2 files\n" || errs != "ascvet: fixed 3 findings in "+k+"\n" {
		t.Errorf("ascvet -fix: exit %d\nstdout %q\nstderr %q", code, out, errs)
	}
	if got, want := testfs.Read(t, k), "__simd_vf__ void f() {\r\n  x = ;\r\n  // : comment kept\r\n}\r\n"; got != want {
		t.Errorf("fixed file holds %q, want %q", got, want)
	}
	if info, err := os.Stat(clean); err != nil || !info.ModTime().Equal(cleanInfo.ModTime()) {
		t.Errorf("%s was written (%v)", clean, err)
	}

	fixed := testfs.Read(t, k)
	code, out, errs = ascvet(t, "-fix", dir)
	if code != exitOK || out != "no findings in 2 files\n" || errs != "" || testfs.Read(t, k) != fixed {
		t.Errorf("second ascvet -fix changed something: exit %d, stdout %q, stderr %q", code, out, errs)
	}
}

// TestFixOverlap checks that a fix skipped for an overlap is applied in a
// later round, so a second -fix has nothing left to do.
func TestFixOverlap(t *testing.T) {
	withAnalyzers(t, noBad, renew)
	dir := t.TempDir()
	k := kernel(t, dir, "k.cpp", "OLD BAD\r\n")
	code, out, errs := ascvet(t, "-fix", k)
	if code != exitOK || out != "no findings in 1 file\n" || errs != "ascvet: fixed 2 findings in "+k+"\n" {
		t.Errorf("ascvet -fix: exit %d\nstdout %q\nstderr %q", code, out, errs)
	}
	if got, want := testfs.Read(t, k), "__simd_vf__ void f() {\r\nNEW \r\n}\r\n"; got != want {
		t.Errorf("fixed file holds %q, want %q", got, want)
	}
}

// TestFixOverlapResolved checks that a skipped fix whose finding the other
// fix resolved is not reported.
func TestFixOverlapResolved(t *testing.T) {
	withAnalyzers(t, noBad, noBadS)
	dir := t.TempDir()
	k := kernel(t, dir, "k.cpp", "BAD x\r\n")
	code, out, errs := ascvet(t, "-fix", k)
	if code != exitOK || out != "no findings in 1 file\n" || errs != "ascvet: fixed 1 finding in "+k+"\n" {
		t.Errorf("ascvet -fix: exit %d\nstdout %q\nstderr %q", code, out, errs)
	}
	if got, want := testfs.Read(t, k), "__simd_vf__ void f() {\r\n x\r\n}\r\n"; got != want {
		t.Errorf("fixed file holds %q, want %q", got, want)
	}
}

// TestFixGivesUp checks that fixes that conflict in every round stop after
// maxFixRounds, and that the skipped one is reported.
func TestFixGivesUp(t *testing.T) {
	withAnalyzers(t, replacer("aa", "XY", "XY", 0), replacer("bb", "YZ", "YZ", 0))
	dir := t.TempDir()
	k := kernel(t, dir, "k.cpp", "XYZ\r\n")
	code, out, errs := ascvet(t, "-fix", k)
	if code != exitFindings || !strings.HasSuffix(out, "2 findings (2 warnings) in 1 file\n") || errs != "ascvet: "+k+": 1 fix not applied: it overlaps another fix\n" {
		t.Errorf("ascvet -fix: exit %d\nstdout %q\nstderr %q", code, out, errs)
	}
}

// TestFixRemaining checks that findings whose fix does not remove them are
// reported after fixing, and set the exit code; and that the rounds stop.
func TestFixRemaining(t *testing.T) {
	withAnalyzers(t, stuck, noBad)
	dir := t.TempDir()
	k := kernel(t, dir, "k.cpp", "STUCK BAD\r\n")
	code, out, errs := ascvet(t, "-fix", k)
	wantOut := k + ":2:1: warning: found STUCK [stuck]\n" + k + ":2:7: warning: found STUCK [stuck]\n2 findings (2 warnings) in 1 file\n"
	if code != exitFindings || out != wantOut || errs != "ascvet: fixed 2 findings in "+k+"\n" {
		t.Errorf("ascvet -fix: exit %d\nstdout %q\nstderr %q", code, out, errs)
	}
	if got, want := testfs.Read(t, k), "__simd_vf__ void f() {\r\nSTUCK STUCK \r\n}\r\n"; got != want {
		t.Errorf("fixed file holds %q, want %q", got, want)
	}
}

func TestDiff(t *testing.T) {
	withAnalyzers(t, noBad, noSemi)
	dir := t.TempDir()
	k := kernel(t, dir, "k.cpp", "  x = BAD;;\r\n  y = 1;\r\n")
	before := testfs.Read(t, k)
	code, out, errs := ascvet(t, "-diff", k)
	name := strings.TrimPrefix(filepath.ToSlash(k), "/")
	want := "--- a/" + name + "\n+++ b/" + name + "\n@@ -1,4 +1,4 @@\n __simd_vf__ void f() {\r\n-  x = BAD;;\r\n+  x = ;\r\n   y = 1;\r\n }\r\n"
	if code != exitFindings || out != want || errs != "" {
		t.Errorf("ascvet -diff: exit %d\nstdout %q\nwant   %q\nstderr %q", code, out, want, errs)
	}
	if testfs.Read(t, k) != before {
		t.Errorf("-diff wrote %s", k)
	}
	code, out, _ = ascvet(t, "-diff", "-fail-on", "error", k)
	if code != exitOK || out != want {
		t.Errorf("ascvet -diff -fail-on error: exit %d, stdout %q", code, out)
	}
}

func TestFixReadOnly(t *testing.T) {
	withAnalyzers(t, noBad)
	dir := t.TempDir()
	k := kernel(t, dir, "k.cpp", "BAD\r\n")
	ok := kernel(t, dir, "ok.cpp", "BAD\r\n")
	if err := os.Chmod(k, 0o444); err != nil {
		t.Fatal(err)
	}
	code, out, errs := ascvet(t, "-fix", k, ok)
	wantErr := "ascvet: " + k + ": file is read-only; not fixed (ascvet does not change permissions)\n" +
		"ascvet: fixed 1 finding in " + ok + "\n"
	wantOut := k + ":2:1: warning: found BAD [nobad]\n1 finding (1 warning) in 2 files\n"
	if code != exitUsage || errs != wantErr || out != wantOut {
		t.Errorf("ascvet -fix: exit %d\nstdout %q\nstderr %q", code, out, errs)
	}
	if testfs.Read(t, k) != "__simd_vf__ void f() {\r\nBAD\r\n}\r\n" {
		t.Errorf("read-only %s was changed", k)
	}
}

func TestFixBrokenFix(t *testing.T) {
	withAnalyzers(t, broken)
	dir := t.TempDir()
	k := kernel(t, dir, "k.cpp", "BROKEN\r\n")
	code, _, errs := ascvet(t, "-fix", k)
	if code != exitInternal || !strings.Contains(errs, "internal error in analyzer broken") || !strings.Contains(errs, "is outside the file") {
		t.Errorf("exit %d, stderr %q", code, errs)
	}
	if testfs.Read(t, k) != "__simd_vf__ void f() {\r\nBROKEN\r\n}\r\n" {
		t.Errorf("%s was changed", k)
	}
}

func TestFixUsage(t *testing.T) {
	for _, args := range [][]string{{"-fix", "-diff", "."}, {"-diff", "-f", "json", "."}} {
		code, _, errs := ascvet(t, args...)
		if code != exitUsage || !strings.Contains(errs, "-diff") {
			t.Errorf("ascvet %s: exit %d, stderr %q", strings.Join(args, " "), code, errs)
		}
	}
}

// TestFixJSON checks that -fix -f json lists the findings that remain.
func TestFixJSON(t *testing.T) {
	withAnalyzers(t, noBad, stuck)
	dir := t.TempDir()
	k := kernel(t, dir, "k.cpp", "BAD\r\n")
	code, out, _ := ascvet(t, "-fix", "-f", "json", k)
	if code != exitOK || len(reporttest.ValidateFindingsJSON(t, out)) != 0 {
		t.Errorf("exit %d, stdout %q", code, out)
	}
}

// TestFixCrashOnFixedText checks that an analyzer failing on a fixed text is
// reported by -diff as well as by -fix.
func TestFixCrashOnFixedText(t *testing.T) {
	panicky := &analysis.Analyzer{
		Name: "panicky",
		Doc:  "panic on NEWTEXT",
		Run: func(pass *analysis.Pass) (any, error) {
			if src, _ := pass.ReadFile(pass.OtherFiles[0]); bytes.Contains(src, []byte("NEWTEXT")) {
				panic("boom")
			}
			return nil, nil
		},
	}
	withAnalyzers(t, replacer("mk", "OLD", "NEWTEXT", 0), panicky)
	dir := t.TempDir()
	k := kernel(t, dir, "k.cpp", "OLD\r\n")
	code, out, errs := ascvet(t, "-diff", k)
	if code != exitInternal || !strings.Contains(out, "+NEWTEXT") || !strings.Contains(errs, k+": internal error in analyzer panicky: on the fixed text: panic: boom") {
		t.Errorf("ascvet -diff: exit %d\nstdout %q\nstderr %q", code, out, errs)
	}
	code, _, errs = ascvet(t, "-fix", k)
	if code != exitInternal || !strings.Contains(errs, k+": internal error in analyzer panicky: panic: boom") || !strings.Contains(testfs.Read(t, k), "NEWTEXT") {
		t.Errorf("ascvet -fix: exit %d\nstderr %q", code, errs)
	}
}
