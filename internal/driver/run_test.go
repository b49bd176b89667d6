package driver

import (
	"bytes"
	"errors"
	"fmt"
	"go/token"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"golang.org/x/tools/go/analysis"

	"github.com/ascvet/ascvet/analyzers/all"
	"github.com/ascvet/ascvet/analyzers/runner"
	"github.com/ascvet/ascvet/analyzers/settings"
	"github.com/ascvet/ascvet/internal/repo"
	"github.com/ascvet/ascvet/internal/report"
	"github.com/ascvet/ascvet/internal/resultcache"
	"github.com/ascvet/ascvet/internal/source"
	"github.com/ascvet/ascvet/internal/testfs"
	"github.com/ascvet/ascvet/ruleset/config"
	"github.com/ascvet/ascvet/simcheck"
)

// newPipeline is the pipeline of a run from dir with every rule, no
// configuration file and no cache.
func newPipeline(t *testing.T, dir string) *Pipeline {
	t.Helper()
	loader, err := config.NewLoader(config.Options{NoConfig: true, Chips: simcheck.Chips()})
	if err != nil {
		t.Fatal(err)
	}
	return &Pipeline{Analyzers: all.Analyzers(), Loader: loader, Lang: "en", Parallel: 2, Roots: repo.NewRoots(dir), WorkDir: dir}
}

// kernel copies the test kernel name into a new folder and returns its
// path there.
func kernel(t *testing.T, name string) string {
	t.Helper()
	return testfs.Put(t, t.TempDir(), name, testfs.Kernel(t, name))
}

// run runs Run over paths with o, and returns its outcome, stdout and
// stderr.
func run(t *testing.T, paths []string, o Options) (*Outcome, string, string, error) {
	t.Helper()
	if o.Jobs == 0 {
		o.Jobs = 2
	}
	if o.Limits == (source.Limits{}) {
		o.Limits = source.DefaultLimits()
	}
	// The run works from the first path's folder (the first path, when it
	// is one), as a user runs ascvet from the root of the tree.
	wd := paths[0]
	if st, err := os.Stat(wd); err != nil || !st.IsDir() {
		wd = filepath.Dir(wd)
	}
	var stdout, stderr bytes.Buffer
	out, err := Run(paths, newPipeline(t, wd), &o, &stdout, &stderr)
	return out, stdout.String(), stderr.String(), err
}

// reported counts the issues that are not suppressed.
func reported(out *Outcome) int { return countReported(out.Issues) }

// TestRun: the outcome of a plain run, of -diff (the issues as found, the
// file untouched, the diff on stdout), of -fix (the issues of the fixed
// text, the file written) and of a skipped input.
func TestRun(t *testing.T) {
	k := kernel(t, "unaligned_copy.asc")
	orig := testfs.Read(t, k)
	plain, _, errs, err := run(t, []string{k}, Options{})
	if err != nil || errs != "" || reported(plain) == 0 || plain.Inputs.Read != 1 || plain.Inputs.VFFiles != 1 || len(plain.Res.Errors) != 0 {
		t.Fatalf("plain run: %v, stderr %q, %d issues, inputs %+v; want issues in the one file read", err, errs, reported(plain), plain.Inputs)
	}
	if plain.Diffed || plain.BaselineWritten || plain.Broken+plain.Unwritten != 0 {
		t.Errorf("plain run: %+v; want nothing fixed, diffed or written", plain)
	}

	diff, stdout, _, err := run(t, []string{k}, Options{Diff: true})
	if err != nil || !diff.Diffed || !strings.Contains(stdout, "@@") || len(diff.Issues) != len(plain.Issues) || testfs.Read(t, k) != orig {
		t.Errorf("-diff: %v, diffed %v, %d issues (want %d), stdout %q; want the diff and the file untouched", err, diff.Diffed, len(diff.Issues), len(plain.Issues), stdout)
	}

	fixed, _, errs, err := run(t, []string{k}, Options{Fix: true})
	if err != nil || !strings.Contains(errs, "ascvet: fixed ") || testfs.Read(t, k) == orig || fixed.Unwritten != 0 || fixed.Broken != 0 {
		t.Fatalf("-fix: %v, stderr %q, outcome %+v; want the file written", err, errs, fixed)
	}
	if reported(fixed) >= reported(plain) {
		t.Errorf("-fix: %d issues remain of %d; want fewer", reported(fixed), reported(plain))
	}
	again, _, _, _ := run(t, []string{k}, Options{})
	if len(again.Issues) != len(fixed.Issues) {
		t.Errorf("-fix reported %d issues; a run over the fixed file finds %d", len(fixed.Issues), len(again.Issues))
	}

	missing := filepath.Join(t.TempDir(), "none.asc")
	out, _, errs, err := run(t, []string{missing}, Options{})
	if err != nil || out.Inputs.Skipped != 1 || !strings.Contains(errs, "none.asc") {
		t.Errorf("a missing input: %v, %d skipped, stderr %q; want it skipped and named", err, out.Inputs.Skipped, errs)
	}
}

// TestRunBaseline: -write-baseline writes every issue and says so; a run
// with that baseline has every issue suppressed, and reports none stale.
func TestRunBaseline(t *testing.T) {
	k := kernel(t, "masks.asc")
	base := filepath.Join(t.TempDir(), "baseline.json")
	first, _, errs, err := run(t, []string{k}, Options{WriteBaseline: base})
	if err != nil || !first.BaselineWritten || !strings.HasPrefix(errs, "ascvet: wrote ") || reported(first) == 0 {
		t.Fatalf("-write-baseline: %v, written %v, stderr %q, %d issues", err, first.BaselineWritten, errs, reported(first))
	}
	second, _, errs, err := run(t, []string{k}, Options{Baseline: base})
	if err != nil || reported(second) != 0 || len(second.Issues) != len(first.Issues) || errs != "" {
		t.Errorf("-baseline: %v, %d of %d issues reported, stderr %q; want all suppressed, none stale", err, reported(second), len(second.Issues), errs)
	}
}

// TestRunErrors: what stops a run is an *Error that says whether the
// command line should add its usage hint (a bad argument) or the run
// failed inside (an analyzer set that does not validate).
func TestRunErrors(t *testing.T) {
	k := kernel(t, "masks.asc")
	usage := func(what string, o Options, want string) {
		t.Helper()
		_, _, _, err := run(t, []string{k}, o)
		var de *Error
		if !errors.As(err, &de) || !de.Usage || de.Internal || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v; want a usage error naming %q", what, err, want)
		}
	}
	usage("-baseline of a missing file", Options{Baseline: filepath.Join(t.TempDir(), "none.json")}, "-baseline: ")
	usage("-new-from-rev outside git", Options{NewFromRev: "HEAD"}, "is not in a git work tree")

	_, _, _, err := run(t, []string{k}, Options{WriteBaseline: filepath.Join(t.TempDir(), "no", "such", "dir", "b.json")})
	var de *Error
	if !errors.As(err, &de) || de.Usage || de.Internal || !strings.HasPrefix(err.Error(), "-write-baseline: ") {
		t.Errorf("-write-baseline into a missing folder: %v; want a failure to write, without the usage hint", err)
	}

	a := &analysis.Analyzer{Name: "a", Doc: "d", Run: func(*analysis.Pass) (any, error) { return nil, nil }}
	b := &analysis.Analyzer{Name: "b", Doc: "d", Run: a.Run, Requires: []*analysis.Analyzer{a}}
	a.Requires = []*analysis.Analyzer{b} // a cycle: analysis.Validate fails
	p := newPipeline(t, filepath.Dir(k))
	p.Analyzers = []*analysis.Analyzer{a}
	_, err = Run([]string{k}, p, &Options{Jobs: 1, Limits: source.DefaultLimits()}, io.Discard, io.Discard)
	if !errors.As(err, &de) || !de.Internal || !strings.HasPrefix(err.Error(), "internal error: ") {
		t.Errorf("analyzers that do not validate: %v; want an internal error", err)
	}
}

// ruleIDs returns the rule IDs of issues, reported ones only unless all.
func ruleIDs(out *Outcome, all bool) []string {
	var ids []string
	for i := range out.Issues {
		if all || len(out.Issues[i].Suppressed) == 0 {
			ids = append(ids, out.Issues[i].RuleID())
		}
	}
	return ids
}

// TestRunDirectives: a directive without a reason or of a rule that does
// not exist is a problem (ASC0002), one that suppresses nothing is unused
// (ASC0003), and the finding the reasonless one meant to hide stays.
func TestRunDirectives(t *testing.T) {
	out, _, _, err := run(t, []string{kernel(t, "directives.asc")}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Join(ruleIDs(out, false), " ")
	for _, want := range []string{"ASC0002", "ASC0003", "ASC1001"} {
		if !strings.Contains(got, want) {
			t.Errorf("issues %s; want %s among them", got, want)
		}
	}
	fixed, _, _, _ := run(t, []string{kernel(t, "directives_fixed.asc")}, Options{})
	if ids := ruleIDs(fixed, false); slices.Contains(ids, "ASC0002") || slices.Contains(ids, "ASC0003") {
		t.Errorf("the fixed directives: %v; want no directive problems", ids)
	}
}

// TestRunPython: a pypto_pro kernel's messages and fix titles name the
// DSL's calls, not the C++ API's.
func TestRunPython(t *testing.T) {
	out, _, _, err := run(t, []string{kernel(t, "scale_rows.py")}, Options{})
	if err != nil || len(out.Issues) == 0 {
		t.Fatalf("%v, %d issues", err, len(out.Issues))
	}
	for _, is := range out.Issues {
		if strings.Contains(is.Message, "LoadUnAlignPre") || strings.Contains(is.Message, "StoreUnAlignPost") {
			t.Errorf("%s names the C++ call: %s", is.RuleID(), is.Message)
		}
	}
	if !strings.Contains(out.Issues[0].Message+out.Issues[len(out.Issues)-1].Message, "vf.") {
		t.Errorf("no message names a vf. call: %q", out.Issues[0].Message)
	}
}

// TestRunNewFromRev: with a revision, only the issues on lines changed
// since it are kept: a file committed unchanged has none, a new one all.
func TestRunNewFromRev(t *testing.T) {
	testfs.NeedGit(t, "git not installed")
	dir := t.TempDir()
	testfs.Put(t, dir, "old.asc", testfs.Kernel(t, "masks.asc"))
	testfs.Git(t, dir, "init", "-q")
	testfs.Git(t, dir, "add", ".")
	testfs.Git(t, dir, "commit", "-q", "-m", "old")
	testfs.Put(t, dir, "new.asc", testfs.Kernel(t, "unaligned_copy.asc"))
	all, _, _, err := run(t, []string{dir}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	changed, _, _, err := run(t, []string{dir}, Options{NewFromRev: "HEAD"})
	if err != nil {
		t.Fatal(err)
	}
	want := 0
	for _, is := range all.Issues {
		if filepath.Base(is.Pos.Filename) == "new.asc" {
			want++
		}
	}
	if want == 0 || len(changed.Issues) != want || len(all.Issues) == want {
		t.Fatalf("%d issues since HEAD, want the %d of new.asc (of %d)", len(changed.Issues), want, len(all.Issues))
	}
	for _, is := range changed.Issues {
		if filepath.Base(is.Pos.Filename) != "new.asc" {
			t.Errorf("an issue of the unchanged file: %s %s", is.Pos, is.RuleID())
		}
	}
}

// TestRunSameOverrun: two kernels that inline one helper of their header
// overrunning the masks report it once, at the first; the second's is
// kept, suppressed as the same overrun. Alone, the second reports it.
func TestRunSameOverrun(t *testing.T) {
	dir := t.TempDir()
	testfs.Put(t, dir, "sibling_common.h", testfs.Read(t, "../../analyzers/asc3002/testdata/sibling_common.h"))
	k := testfs.Read(t, "../../analyzers/asc3002/testdata/sibling_kernel.asc")
	a, b := testfs.Put(t, dir, "a_kernel.asc", k), testfs.Put(t, dir, "b_kernel.asc", k)
	overrun := func(paths ...string) *Outcome {
		t.Helper()
		p := newPipeline(t, dir)
		p.Checks = []string{"ASC3002"}
		out, err := Run(paths, p, &Options{Jobs: 2, Limits: source.DefaultLimits()}, io.Discard, io.Discard)
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	both := overrun(dir)
	if ids := ruleIDs(both, true); len(ids) != 2 || reported(both) != 1 {
		t.Fatalf("the folder: %v, %d reported; want two findings, one reported", ids, reported(both))
	}
	first, second := both.Issues[0], both.Issues[1]
	if first.Pos.Filename != a || len(first.Suppressed) != 0 || second.Pos.Filename != b || len(second.Suppressed) != 1 ||
		!strings.Contains(second.Suppressed[0].Justification, "the same overrun as") {
		t.Errorf("want a_kernel.asc's reported and b_kernel.asc's suppressed as the same overrun; got %+v", both.Issues)
	}
	if alone := overrun(b); reported(alone) != 1 || alone.Issues[0].Pos.Filename != b {
		t.Errorf("b_kernel.asc alone: %+v; want its finding reported", alone.Issues)
	}
}

// TestLoad: the files with VF code, read whole; a path that does not
// exist is counted as skipped and named; ParseAsCheck lowers a file with
// the project index as a check does.
func TestLoad(t *testing.T) {
	dir := t.TempDir()
	testfs.Put(t, dir, "k.asc", testfs.Kernel(t, "masks.asc"))
	testfs.Put(t, dir, "host.cpp", "int f(int x) { return x; }\n")
	var stderr bytes.Buffer
	in := Load([]string{dir, filepath.Join(dir, "none.asc")}, 2, &stderr)
	if len(in.Files) != 1 || in.Read != 2 || in.VFFiles != 1 || in.Skipped != 1 || !strings.Contains(stderr.String(), "none.asc") {
		t.Fatalf("%d files, %d read, %d VF, %d skipped, stderr %q", len(in.Files), in.Read, in.VFFiles, in.Skipped, stderr.String())
	}
	f, err := ParseAsCheck(token.NewFileSet(), in.Files[0].Name, in.Files[0].Src)
	if err != nil || len(f.Funcs) == 0 {
		t.Errorf("ParseAsCheck: %v, %d regions", err, len(f.Funcs))
	}
}

// TestRunBaselineScope: -write-baseline on part of a tree keeps the
// entries of the files it did not analyse; a baseline whose file is gone
// from a folder the run walked has its entries stale, and says so, while
// those of a file the run did not walk are not.
func TestRunBaselineScope(t *testing.T) {
	dir := t.TempDir()
	a := testfs.Put(t, dir, "a.asc", testfs.Kernel(t, "masks.asc"))
	b := testfs.Put(t, dir, "b.asc", testfs.Kernel(t, "unaligned_copy.asc"))
	base := filepath.Join(t.TempDir(), "base.json")
	wrote := func(errs string) int {
		t.Helper()
		var n int
		if _, err := fmt.Sscanf(errs, "ascvet: wrote %d ", &n); err != nil {
			t.Fatalf("-write-baseline said %q", errs)
		}
		return n
	}
	_, _, errs, err := run(t, []string{dir}, Options{WriteBaseline: base})
	if err != nil {
		t.Fatal(err)
	}
	total := wrote(errs)
	_, _, errs, err = run(t, []string{a}, Options{WriteBaseline: base})
	bIssues := total - wrote(errs)
	if err != nil || bIssues == 0 || !strings.Contains(errs, fmt.Sprintf("kept its %d ", bIssues)) {
		t.Fatalf("a.asc alone: %v, stderr %q; want b.asc's %d entries kept", err, errs, bIssues)
	}
	if _, _, errs, _ := run(t, []string{a}, Options{Baseline: base}); errs != "" {
		t.Errorf("a.asc alone against the baseline: stderr %q; want b.asc's entries not stale", errs)
	}
	if err := os.Remove(b); err != nil {
		t.Fatal(err)
	}
	out, _, errs, err := run(t, []string{dir}, Options{Baseline: base})
	if err != nil || reported(out) != 0 || !strings.Contains(errs, fmt.Sprintf("%d %s no longer found", bIssues, report.PluralWord(bIssues, "entry", "entries"))) || !strings.Contains(errs, "b.asc") {
		t.Errorf("b.asc deleted: %v, %d reported, stderr %q; want its entries stale", err, reported(out), errs)
	}
}

// TestCheckLimits: a file over the size limit and one nested deeper than
// the limit are skipped, each named with its reason and counted, and not
// analysed; without a pipeline (ascvet stats) the analyzers alone run,
// and Visit sees the file analysed.
func TestCheckLimits(t *testing.T) {
	dir := t.TempDir()
	testfs.Put(t, dir, "k.asc", testfs.Kernel(t, "masks.asc"))
	testfs.Put(t, dir, "deep.asc", "__simd_vf__ void D() { int x = "+strings.Repeat("(", 40)+"1"+strings.Repeat(")", 40)+"; }\n")
	testfs.Put(t, dir, "big.asc", "__simd_vf__ void B() {}\n"+strings.Repeat("// padding\n", 2000))
	as := all.Analyzers()
	lim := source.DefaultLimits()
	lim.MaxDepth, lim.MaxFileSize = 16, 8<<10
	if err := lim.Apply(as); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		d := source.DefaultLimits()
		_ = d.Apply(as)
	})
	var visited []string
	var mu sync.Mutex
	var stderr bytes.Buffer
	in, err := Check([]string{dir}, as, CheckConfig{Jobs: 2, Limits: lim, Visit: func(f runner.File, _ map[*analysis.Analyzer]any) {
		mu.Lock()
		visited = append(visited, filepath.Base(f.Name))
		mu.Unlock()
	}}, &stderr)
	if err != nil {
		t.Fatal(err)
	}
	errs := stderr.String()
	if in.Skipped != 2 || !strings.Contains(errs, "big.asc") || !strings.Contains(errs, "deep.asc") || !strings.Contains(errs, "-max-depth") {
		t.Errorf("%d skipped, stderr %q; want big.asc and deep.asc skipped, with the flags to raise", in.Skipped, errs)
	}
	if !slices.Contains(visited, "k.asc") || len(in.Res.Findings) == 0 || len(in.Res.Errors) != 0 {
		t.Errorf("visited %v, %d findings, %d errors; want k.asc analysed and its findings", visited, len(in.Res.Findings), len(in.Res.Errors))
	}
	for _, f := range in.Res.Findings {
		if b := filepath.Base(f.Pos.Filename); b != "k.asc" {
			t.Errorf("a finding in the skipped %s", b)
		}
	}
}

// TestRunConfig: each file takes the ascvet.toml files above it (a
// severity, a rule turned off), the command line's settings over them
// (Override); a folder whose configuration does not load is reported,
// its files counted and not analysed.
func TestRunConfig(t *testing.T) {
	dir := t.TempDir()
	testfs.Put(t, dir, "ascvet.toml", "[severity]\nASC1001 = \"error\"\n")
	testfs.Put(t, dir, "quiet/ascvet.toml", "checks = [\"inherit\", \"-ASC1002\"]\n")
	testfs.Put(t, dir, "broken/ascvet.toml", "checks = [\n")
	k := testfs.Kernel(t, "unaligned_copy.asc")
	a, b := testfs.Put(t, dir, "a.asc", k), testfs.Put(t, dir, "quiet/b.asc", k)
	testfs.Put(t, dir, "broken/c.asc", k)
	loader, err := config.NewLoader(config.Options{Chips: simcheck.Chips()})
	if err != nil {
		t.Fatal(err)
	}
	overridden := 0
	var mu sync.Mutex
	p := &Pipeline{Analyzers: all.Analyzers(), Loader: loader, Lang: "en", Parallel: 2, Roots: repo.NewRoots(dir), WorkDir: dir,
		Override: func(s *settings.Settings) {
			mu.Lock()
			overridden++
			mu.Unlock()
		}}
	var stderr bytes.Buffer
	out, err := Run([]string{dir}, p, &Options{Jobs: 2, Limits: source.DefaultLimits()}, io.Discard, &stderr)
	if err != nil {
		t.Fatal(err)
	}
	if out.Inputs.BadConfig != 1 || !strings.Contains(stderr.String(), filepath.Join("broken", "ascvet.toml")) {
		t.Errorf("%d files without a configuration, stderr %q; want broken/c.asc, with its ascvet.toml named", out.Inputs.BadConfig, stderr.String())
	}
	rules := map[string][]string{}
	for _, is := range out.Issues {
		rules[is.Pos.Filename] = append(rules[is.Pos.Filename], is.RuleID()+":"+is.Level.String())
	}
	if got := strings.Join(rules[a], " "); !strings.Contains(got, "ASC1001:error") || !strings.Contains(got, "ASC1002") {
		t.Errorf("a.asc: %s; want ASC1001 an error, and ASC1002", got)
	}
	if got := strings.Join(rules[b], " "); !strings.Contains(got, "ASC1001:error") || strings.Contains(got, "ASC1002") {
		t.Errorf("quiet/b.asc: %s; want ASC1001 an error and no ASC1002", got)
	}
	if overridden < 2 {
		t.Errorf("the command line's settings applied %d times; want once a file at least", overridden)
	}
}

// TestRunCache: a second run over an unchanged tree takes every file's
// findings from the result cache and reports the same issues; a run that
// writes fixes takes none of a file whose findings carry fixes.
func TestRunCache(t *testing.T) {
	dir, cacheDir := t.TempDir(), t.TempDir()
	testfs.Put(t, dir, "a.asc", testfs.Kernel(t, "unaligned_copy.asc"))
	testfs.Put(t, dir, "b.asc", testfs.Kernel(t, "masks.asc"))
	cached := func(o Options) (*Outcome, *resultcache.Counters) {
		t.Helper()
		p := newPipeline(t, dir)
		p.Cache = resultcache.Open(cacheDir, p.Analyzers, dir, io.Discard)
		if p.Cache == nil {
			t.Fatal("the cache did not open")
		}
		defer p.Cache.Close()
		o.Jobs, o.Limits = 2, source.DefaultLimits()
		out, err := Run([]string{dir}, p, &o, io.Discard, io.Discard)
		if err != nil {
			t.Fatal(err)
		}
		return out, p.Cache.Stats()
	}
	cold, st := cached(Options{})
	if st.Misses.Load() != 2 || st.Hits.Load() != 0 {
		t.Fatalf("cold: %d hits, %d misses; want both files analysed", st.Hits.Load(), st.Misses.Load())
	}
	warm, st := cached(Options{})
	if st.Misses.Load() != 0 || st.Hits.Load() != 2 || len(warm.Issues) != len(cold.Issues) {
		t.Errorf("warm: %d hits, %d misses, %d issues (cold %d); want every file from the cache, the same issues", st.Hits.Load(), st.Misses.Load(), len(warm.Issues), len(cold.Issues))
	}
	for i := range min(len(warm.Issues), len(cold.Issues)) {
		if w, c := warm.Issues[i], cold.Issues[i]; w.Fingerprint != c.Fingerprint || w.Message != c.Message || w.Pos != c.Pos {
			t.Errorf("issue %d: warm %s %v %q, cold %s %v %q", i, w.RuleID(), w.Pos, w.Message, c.RuleID(), c.Pos, c.Message)
		}
	}
	if _, st := cached(Options{Diff: true}); st.Misses.Load() == 0 {
		t.Errorf("-diff: %d hits, %d misses; want the file with fixes analysed afresh", st.Hits.Load(), st.Misses.Load())
	}
}
