package driver

import (
	"bytes"
	"errors"
	"io"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"

	"github.com/ascvet/ascvet/analyzers/all"
	"github.com/ascvet/ascvet/internal/repo"
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
	var stdout, stderr bytes.Buffer
	out, err := Run(paths, newPipeline(t, filepath.Dir(paths[0])), &o, &stdout, &stderr)
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
