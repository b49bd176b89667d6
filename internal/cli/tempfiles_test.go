package cli

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ascvet/ascvet/internal/tempfile"
	"github.com/ascvet/ascvet/internal/testfs"
)

// TestFixRemovesStaleTemps checks that -fix sweeps the directories it
// writes in, and only those.
func TestFixRemovesStaleTemps(t *testing.T) {
	withAnalyzers(t, noBad)
	dir := t.TempDir()
	fixMe := filepath.Join(dir, "fix")
	clean := filepath.Join(dir, "clean")
	for _, d := range []string{fixMe, clean} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	k := kernel(t, fixMe, "k.cpp", "BAD\r\n")
	kernel(t, clean, "c.cpp", "good\r\n")
	staleFix := testfs.Put(t, fixMe, ".k.cpp.ascvet-77", "x")
	staleClean := testfs.Put(t, clean, ".c.cpp.ascvet-78", "x")
	testfs.Aged(t, staleFix, time.Hour)
	testfs.Aged(t, staleClean, time.Hour)

	code, _, errs := ascvet(t, "-fix", dir)
	if code != exitOK || errs != "ascvet: removed "+staleFix+", a temporary file left by an interrupted ascvet 0.2.0 or earlier\nascvet: fixed 1 finding in "+k+"\n" {
		t.Errorf("-fix: exit %d, stderr %q", code, errs)
	}
	if got := testfs.Names(t, fixMe); !slices.Equal(got, []string{"k.cpp"}) {
		t.Errorf("%s holds %q after -fix", fixMe, got)
	}
	if got := testfs.Names(t, clean); !slices.Equal(got, []string{".c.cpp.ascvet-78", "c.cpp"}) {
		t.Errorf("%s, where -fix wrote nothing, holds %q; want it untouched", clean, got)
	}
}

// TestOutputTempFile checks that -o writes through a temporary file named
// by the pattern and leaves none behind.
func TestOutputTempFile(t *testing.T) {
	withAnalyzers(t, noBad)
	dir := t.TempDir()
	kernel(t, dir, "k.cpp", "BAD\r\n")
	out := filepath.Join(t.TempDir(), "report.json")
	var seen []string
	tempfile.Created = func(path string) { seen = append(seen, path) }
	t.Cleanup(func() { tempfile.Created = nil })
	if code, _, errs := ascvet(t, "-f", "json", "-o", out, dir); code != exitFindings || errs != "" {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	if len(seen) != 1 || filepath.Dir(seen[0]) != filepath.Dir(out) ||
		!strings.HasPrefix(filepath.Base(seen[0]), ".report.json.ascvet-tmp-"+strconv.Itoa(os.Getpid())+"-") {
		t.Errorf("temporary files %q; want one .report.json.ascvet-tmp-PID-RAND beside %s", seen, out)
	}
	if got := testfs.Names(t, filepath.Dir(out)); !slices.Equal(got, []string{"report.json"}) {
		t.Errorf("output directory holds %q", got)
	}
}

// TestFixLongName checks that a file whose name leaves no room for the
// temporary file's suffix is fixed all the same.
func TestFixLongName(t *testing.T) {
	withAnalyzers(t, noBad)
	dir := t.TempDir()
	name := strings.Repeat("k", 240) + ".cpp"
	if err := os.WriteFile(filepath.Join(dir, name), nil, 0o644); err != nil {
		t.Skipf("this file system takes no %d-byte name: %v", len(name), err)
	}
	k := kernel(t, dir, name, "BAD\r\n")
	if code, _, errs := ascvet(t, "-fix", k); code != exitOK || errs != "ascvet: fixed 1 finding in "+k+"\n" {
		t.Errorf("-fix: exit %d, stderr %q", code, errs)
	}
	if got := testfs.Names(t, dir); !slices.Equal(got, []string{name}) {
		t.Errorf("%s holds %q", dir, got)
	}
}
