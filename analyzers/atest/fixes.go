package atest

import (
	"bytes"
	"errors"
	"flag"
	"io/fs"
	"os"
	"strconv"
	"testing"

	"golang.org/x/tools/go/analysis"

	"github.com/ascvet/ascvet/analyzers/fixes"
	"github.com/ascvet/ascvet/analyzers/runner"
)

// update is the -update flag: rewrite the golden files of fixes.
var update = flag.Bool("update", false, "atest: write the fixed text of each fixture to its .golden file")

// checkFixes checks the suggested fixes of the findings res reported in
// files: each fixture whose findings offer fixes, or that has a golden file,
// is fixed as ascvet -fix would fix it, compared with the golden file (or
// the golden file is rewritten, with -update), and analysed again for the
// round trip.
func checkFixes(t testing.TB, a *analysis.Analyzer, files []runner.File, res *runner.Result) {
	t.Helper()
	byFile := map[string]runner.FileFixes{}
	for _, ff := range runner.Fixes(res.Findings) {
		byFile[ff.Name] = ff
	}
	found := map[string][]*runner.Finding{}
	for i := range res.Findings {
		f := &res.Findings[i]
		found[f.Pos.Filename] = append(found[f.Pos.Filename], f)
	}
	for _, f := range files {
		ff := byFile[f.Name]
		golden := f.Name + ".golden"
		want, err := os.ReadFile(golden)
		exists := err == nil
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("atest: %v", err)
			continue
		}
		if len(ff.Fixes) == 0 && !exists {
			continue
		}
		r := fixes.Apply(f.Src, ff.Fixes)
		for _, s := range r.Skipped {
			at := ff.Findings[s.Fix]
			if s.Err != nil {
				t.Errorf("%s: %v", at.Pos, s.Err)
				continue
			}
			other := ff.Findings[s.Overlap]
			t.Errorf("%s: fix %q overlaps fix %q of the finding at %d:%d; fixes must not overlap", at.Pos, ff.Fixes[s.Fix].Message, ff.Fixes[s.Overlap].Message, other.Pos.Line, other.Pos.Column)
		}
		switch {
		case *update:
			if err := os.WriteFile(golden, r.Src, 0o644); err != nil {
				t.Errorf("atest: %v", err)
			}
		case !exists:
			n := "a suggested fix"
			if len(ff.Fixes) > 1 {
				n = strconv.Itoa(len(ff.Fixes)) + " suggested fixes"
			}
			t.Errorf("%s: %s but no %s (go test -update writes it)", f.Name, n, golden)
		case !bytes.Equal(r.Src, want):
			t.Errorf("%s: fixed text differs from %s (go test -update rewrites it):\n%s", f.Name, golden, fixes.Diff(golden, want, r.Src))
		}
		if len(r.Applied) > 0 {
			roundTrip(t, a, f.Name, found[f.Name], ff, r)
		}
	}
}

// roundTrip analyses the fixed text of file name again and checks that
// every finding whose fix was applied is gone and no new finding appeared:
// each finding of the fixed text must be one of found (the findings of the
// original text) that was not fixed, of the same rule, on the line that its
// position maps to.
func roundTrip(t testing.TB, a *analysis.Analyzer, name string, found []*runner.Finding, ff runner.FileFixes, r *fixes.Result) {
	t.Helper()
	res, err := runner.Run([]*analysis.Analyzer{a}, []runner.File{{Name: name, Src: r.Src}}, runner.Options{})
	if err != nil {
		t.Fatalf("atest: %v", err)
	}
	for _, e := range res.Errors {
		t.Errorf("after fixing: %v\n%s", &e, e.Stack)
	}
	type place struct {
		rule string // rule ID
		line int    // line in the fixed text
	}
	line := func(off int) int { return bytes.Count(r.Src[:off], []byte("\n")) + 1 }
	applied := map[*runner.Finding]bool{}
	fixedLines := map[int]bool{}
	for _, i := range r.Applied {
		applied[ff.Findings[i]] = true
		fixedLines[line(r.MapOffset(ff.Findings[i].Pos.Offset))] = true
	}
	remaining := map[place]int{} // findings not fixed, where they should be now
	for _, f := range found {
		if !applied[f] {
			remaining[place{f.RuleID(), line(r.MapOffset(f.Pos.Offset))}]++
		}
	}
	for _, f := range res.Findings {
		p := place{f.RuleID(), f.Pos.Line}
		switch {
		case remaining[p] > 0:
			remaining[p]--
		case fixedLines[f.Pos.Line]:
			t.Errorf("%s (fixed text): the fix left a finding on its line: %s [%s]", f.Pos, f.Diagnostic.Message, f.RuleID())
		default:
			t.Errorf("%s (fixed text): fixing introduced a new finding: %s [%s]", f.Pos, f.Diagnostic.Message, f.RuleID())
		}
	}
}
