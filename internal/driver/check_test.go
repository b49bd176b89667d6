package driver

import (
	"bytes"
	"errors"
	"io"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"golang.org/x/tools/go/analysis"

	"github.com/ascvet/ascvet/analyzers/all"
	"github.com/ascvet/ascvet/analyzers/runner"
	"github.com/ascvet/ascvet/internal/repo"
	"github.com/ascvet/ascvet/internal/report"
	"github.com/ascvet/ascvet/internal/resultcache"
	"github.com/ascvet/ascvet/internal/source"
	"github.com/ascvet/ascvet/internal/testfs"
	"github.com/ascvet/ascvet/ruleset/config"
	"github.com/ascvet/ascvet/simcheck"
)

// failer is an analyzer that fails on a file holding FAIL.
var failer = &analysis.Analyzer{
	Name: "failer",
	Doc:  "fails on FAIL",
	Run: func(pass *analysis.Pass) (any, error) {
		if src, _ := pass.ReadFile(pass.OtherFiles[0]); bytes.Contains(src, []byte("FAIL")) {
			return nil, errors.New("cannot cope with FAIL")
		}
		return nil, nil
	},
}

// bases returns the base names of the files named.
func bases(names []string) []string {
	var out []string
	for _, n := range names {
		out = append(out, filepath.Base(n))
	}
	return out
}

// TestCheckWalk: without a pipeline (ascvet stats), a folder argument
// with no source is noted; test code the walk found is left out and
// counted; a file free of VF code is read and counted only; an analyzer
// that fails on a file is an internal error, and leaves the file
// unanalysed; a file whose findings offer fixes is kept whole for -fix.
func TestCheckWalk(t *testing.T) {
	dir, empty := t.TempDir(), t.TempDir()
	testfs.Put(t, empty, "notes.txt", "not C++\n")
	host := testfs.Put(t, dir, "host.cpp", "int f(int x) { return x; }\n")
	k := vfFile(t, dir, "k.asc", "BAD\n")
	bad := vfFile(t, dir, "m.asc", "FAIL\n")
	vfFile(t, dir, "tests/t_test.asc", "BAD\n")
	var stderr bytes.Buffer
	in, err := Check([]string{dir, empty}, []*analysis.Analyzer{replacer("nobad", "BAD", "", 0), failer},
		CheckConfig{Jobs: 2, Limits: source.DefaultLimits(), KeepFixes: true}, &stderr)
	if err != nil {
		t.Fatal(err)
	}
	if want := "ascvet: " + empty + ": no source files (" + strings.Join(runner.Extensions, " ") + ") here\n"; stderr.String() != want {
		t.Errorf("stderr %q, want %q", stderr.String(), want)
	}
	if in.Tests != 1 || in.Read != 3 || in.VFFiles != 2 || in.Skipped != 0 {
		t.Errorf("%d tests, %d read, %d VF, %d skipped; want 1, 3 (host.cpp, k.asc, m.asc), 2, 0", in.Tests, in.Read, in.VFFiles, in.Skipped)
	}
	if len(in.Res.Findings) != 1 || in.Res.Findings[0].Pos.Filename != k {
		t.Errorf("findings %v; want k.asc's BAD", in.Res.Findings)
	}
	if len(in.Res.Errors) != 1 || in.Res.Errors[0].File != bad || !strings.Contains(in.Res.Errors[0].Err.Error(), "cannot cope with FAIL") {
		t.Errorf("errors %v; want failer's on m.asc", in.Res.Errors)
	}
	if len(in.Files) != 1 || in.Files[0].Name != k || string(in.Files[0].Src) != vfText("BAD\n") {
		t.Errorf("kept %v; want k.asc whole", in.Files)
	}
	if got := in.analysed(); !slices.Equal(got, []string{host, k}) {
		t.Errorf("analysed %q; want host.cpp and k.asc, not m.asc", bases(got))
	}
}

// TestCheckTests: test code a walk finds is checked when its
// configuration says tests = true, and left out otherwise; a test file
// named on the command line is always checked.
func TestCheckTests(t *testing.T) {
	dir := t.TempDir()
	tst := vfFile(t, dir, "with/tests/t_test.asc", "BAD\n")
	vfFile(t, dir, "without/test_x.asc", "BAD\n")
	testfs.Put(t, dir, "with/ascvet.toml", "tests = true\n")
	loader, err := config.NewLoader(config.Options{Chips: simcheck.Chips()})
	if err != nil {
		t.Fatal(err)
	}
	p := &Pipeline{Analyzers: []*analysis.Analyzer{replacer("nobad", "BAD", "", 0)}, Loader: loader, Lang: "en", Parallel: 1, Roots: repo.NewRoots(dir), WorkDir: dir}
	check := func(paths ...string) *Inputs {
		t.Helper()
		in, err := Check(paths, p.Analyzers, CheckConfig{Jobs: 2, Limits: source.DefaultLimits(), Pipe: p}, io.Discard)
		if err != nil {
			t.Fatal(err)
		}
		return in
	}
	in := check(dir)
	if in.Tests != 1 || in.VFFiles != 1 || len(in.Issues) != 1 || in.Issues[0].Pos.Filename != tst {
		t.Errorf("the tree: %d tests left out, %d VF files, issues %v; want without/test_x.asc left out, with/tests/t_test.asc checked", in.Tests, in.VFFiles, in.Issues)
	}
	named := filepath.Join(dir, "without", "test_x.asc")
	if in := check(named); in.Tests != 0 || len(in.Issues) != 1 {
		t.Errorf("test_x.asc named: %d tests left out, %d issues; want it checked", in.Tests, len(in.Issues))
	}
}

// TestCheckPipelineLimits: through the pipeline, a file beyond a limit of
// the parse is skipped with the flag to raise, and counted; it is neither
// analysed nor a file whose configuration failed.
func TestCheckPipelineLimits(t *testing.T) {
	dir := t.TempDir()
	k := testfs.Put(t, dir, "k.asc", testfs.Kernel(t, "masks.asc"))
	testfs.Put(t, dir, "deep.asc", "__simd_vf__ void D() { int x = "+strings.Repeat("(", 40)+"1"+strings.Repeat(")", 40)+"; }\n")
	p := newPipeline(t, dir)
	lim := source.DefaultLimits()
	lim.MaxDepth = 16
	if err := lim.Apply(p.Analyzers); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		d := source.DefaultLimits()
		_ = d.Apply(all.Analyzers())
	})
	var stderr bytes.Buffer
	out, err := Run([]string{dir}, p, &Options{Jobs: 2, Limits: lim}, io.Discard, &stderr)
	if err != nil {
		t.Fatal(err)
	}
	errs := stderr.String()
	if out.Inputs.Skipped != 1 || out.Inputs.BadConfig != 0 || out.Inputs.VFFiles != 1 || !strings.HasPrefix(errs, "ascvet: "+filepath.Join(dir, "deep.asc")+": ") || !strings.Contains(errs, "-max-depth") {
		t.Errorf("%d skipped, %d bad config, %d VF files, stderr %q; want deep.asc skipped with -max-depth named", out.Inputs.Skipped, out.Inputs.BadConfig, out.Inputs.VFFiles, errs)
	}
	if reported(out) == 0 || slices.ContainsFunc(out.Issues, func(is report.Issue) bool { return is.Pos.Filename != k }) {
		t.Errorf("issues %v; want k.asc's only", ruleIDs(out, true))
	}
}

// TestRunScanMemo: with a result cache, a file found free of VF code is
// not read again while it is unchanged, and still counted; once changed
// (it holds VF code now), it is read and analysed.
func TestRunScanMemo(t *testing.T) {
	dir, cacheDir := t.TempDir(), t.TempDir()
	host := testfs.Put(t, dir, "host.cpp", "int f(int x) { return x; }\n")
	testfs.Aged(t, host, time.Hour) // older than the memo's racy window
	vfFile(t, dir, "k.asc", "NOTE\n")
	as := []*analysis.Analyzer{noter("note", "NOTE")}
	cached := func() (*Outcome, int64) {
		t.Helper()
		p := newPipeline(t, dir)
		p.Analyzers = as
		p.Cache = resultcache.Open(cacheDir, as, dir, io.Discard)
		if p.Cache == nil {
			t.Fatal("the cache did not open")
		}
		defer p.Cache.Close()
		out, _, err := runPipe(t, p, []string{dir}, Options{})
		if err != nil {
			t.Fatal(err)
		}
		return out, p.Cache.Stats().Unread.Load()
	}
	cold, unread := cached()
	if unread != 0 || cold.Inputs.Read != 2 || cold.Inputs.VFFiles != 1 {
		t.Fatalf("cold: %d unread, %d read, %d VF; want both read, k.asc with VF code", unread, cold.Inputs.Read, cold.Inputs.VFFiles)
	}
	warm, unread := cached()
	if unread != 1 || warm.Inputs.Read != 2 || warm.Inputs.Bytes != cold.Inputs.Bytes || len(warm.Issues) != 1 {
		t.Errorf("warm: %d unread, %d read, %d bytes (cold %d), %d issues; want host.cpp not read, counted as before", unread, warm.Inputs.Read, warm.Inputs.Bytes, cold.Inputs.Bytes, len(warm.Issues))
	}
	vfFile(t, dir, "host.cpp", "NOTE\n")
	testfs.Aged(t, host, time.Hour)
	changed, unread := cached()
	if unread != 0 || changed.Inputs.VFFiles != 2 || len(changed.Issues) != 2 {
		t.Errorf("host.cpp changed: %d unread, %d VF files, %d issues; want it read and analysed", unread, changed.Inputs.VFFiles, len(changed.Issues))
	}
}

// TestLoadTests: Load leaves out the test code a walk finds unless its
// configuration includes tests, and names and counts a file it cannot
// read (binary).
func TestLoadTests(t *testing.T) {
	dir := t.TempDir()
	vfFile(t, dir, "a/tests/t.asc", "x\n")
	kept := vfFile(t, dir, "b/tests/t.asc", "x\n")
	testfs.Put(t, dir, "b/ascvet.toml", "tests = true\n")
	bin := testfs.Put(t, dir, "bin.asc", "\x00"+vfText("x\n"))
	var stderr bytes.Buffer
	in := Load([]string{dir}, 2, &stderr)
	if in.Tests != 1 || len(in.Files) != 1 || in.Files[0].Name != kept {
		t.Errorf("%d tests left out, files %v; want a/tests/t.asc left out, b/tests/t.asc loaded", in.Tests, in.Files)
	}
	if in.Skipped != 1 || in.Read != 1 || !strings.HasPrefix(stderr.String(), "ascvet: "+bin) || strings.Count(stderr.String(), "\n") != 1 {
		t.Errorf("%d skipped, %d read, stderr %q; want bin.asc skipped and named", in.Skipped, in.Read, stderr.String())
	}
}
