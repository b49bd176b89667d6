package driver

import (
	"bytes"
	"errors"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"

	"github.com/ascvet/ascvet/analyzers/fixes"
	"github.com/ascvet/ascvet/analyzers/runner"
	"github.com/ascvet/ascvet/internal/testfs"
)

// TestFixRounds: a fix skipped in the first round for an overlap is
// applied in the next one, in its file only: a file whose fix does not
// remove its finding (stuck) is fixed once, not once a round, and a file
// whose findings offer no fix is neither written nor loses its issues.
func TestFixRounds(t *testing.T) {
	as := []*analysis.Analyzer{
		replacer("nobad", "BAD", "", 0),
		replacer("renew", "OLD BAD", "NEW BAD", 0), // overlaps nobad
		replacer("stuck", "STUCK", "STUCK STUCK", 0),
		noter("note", "NOTE"),
	}
	dir := t.TempDir()
	a := vfFile(t, dir, "a.asc", "OLD BAD\n")
	b := vfFile(t, dir, "b.asc", "STUCK\n")
	c := vfFile(t, dir, "c.asc", "NOTE\n")
	out, _, errs, err := runAs(t, as, []string{dir}, Options{Fix: true})
	if err != nil {
		t.Fatal(err)
	}
	if want := "ascvet: fixed 2 findings in " + a + "\nascvet: fixed 1 finding in " + b + "\n"; errs != want {
		t.Errorf("stderr %q, want %q", errs, want)
	}
	for _, f := range []struct{ path, want string }{{a, vfText("NEW \n")}, {b, vfText("STUCK STUCK\n")}, {c, vfText("NOTE\n")}} {
		if got := testfs.Read(t, f.path); got != f.want {
			t.Errorf("%s holds %q, want %q", filepath.Base(f.path), got, f.want)
		}
	}
	// The issues are those of the fixed texts, and c.asc's as found.
	if got, want := issueList(out), []string{"b.asc:2:1 stuck", "b.asc:2:7 stuck", "c.asc:2:1 note"}; !slices.Equal(got, want) {
		t.Errorf("issues %q, want %q", got, want)
	}
	if len(out.Res.Findings) != 3 || out.Unwritten != 0 || out.Broken != 0 {
		t.Errorf("%d findings, %d unwritten, %d broken; want 3, 0, 0", len(out.Res.Findings), out.Unwritten, out.Broken)
	}
}

// TestFixGivesUp: fixes that overlap in every round are given up after
// maxFixRounds; each file says how many were not applied, and, its text
// unchanged, is not written and keeps its findings.
func TestFixGivesUp(t *testing.T) {
	as := []*analysis.Analyzer{
		replacer("xy", "XY", "XY", 0), replacer("yz", "YZ", "YZ", 0), replacer("xyz", "XYZ", "XYZ", 0),
		replacer("pq", "PQ", "PQ", 0), replacer("qr", "QR", "QR", 0),
	}
	dir := t.TempDir()
	a := vfFile(t, dir, "a.asc", "XYZ\n")
	b := vfFile(t, dir, "b.asc", "PQR\n")
	out, _, errs, err := runAs(t, as, []string{dir}, Options{Fix: true})
	if err != nil {
		t.Fatal(err)
	}
	want := "ascvet: " + a + ": 2 fixes not applied: they overlap other fixes\n" +
		"ascvet: " + b + ": 1 fix not applied: it overlaps another fix\n"
	if errs != want {
		t.Errorf("stderr %q, want %q", errs, want)
	}
	if testfs.Read(t, a) != vfText("XYZ\n") || testfs.Read(t, b) != vfText("PQR\n") {
		t.Errorf("a file was written: %q, %q", testfs.Read(t, a), testfs.Read(t, b))
	}
	if reported(out) != 5 || len(out.Res.Findings) != 5 {
		t.Errorf("%d issues reported, %d findings; want the 5 found", reported(out), len(out.Res.Findings))
	}
}

// TestFixBroken: a fix that does not fit its file (the analyzer sized the
// file wrongly) is an internal error, reported once as a bug to report,
// and counted; the file is left as it was.
func TestFixBroken(t *testing.T) {
	dir := t.TempDir()
	k := vfFile(t, dir, "k.asc", "BROKEN\n")
	out, _, errs, err := runAs(t, []*analysis.Analyzer{replacer("broken", "BROKEN", "", 10)}, []string{k}, Options{Fix: true})
	if err != nil {
		t.Fatal(err)
	}
	if out.Broken != 1 || strings.Count(errs, "\n") != 1 || !strings.HasPrefix(errs, "ascvet: "+k+":2:1: internal error in analyzer broken: ") ||
		!strings.HasSuffix(errs, " (please report this bug)\n") {
		t.Errorf("%d broken, stderr %q; want the one broken fix reported as a bug", out.Broken, errs)
	}
	if got := testfs.Read(t, k); got != vfText("BROKEN\n") {
		t.Errorf("%s was changed: %q", k, got)
	}
	if reported(out) != 1 {
		t.Errorf("%d issues; want the finding of the broken fix", reported(out))
	}
}

// TestDiffFixedTextFails: -diff prints the diff of the fixed text, writes
// nothing, and adds an analyzer's failure on the fixed text to the
// errors, saying so; the issues are those found.
func TestDiffFixedTextFails(t *testing.T) {
	panicky := &analysis.Analyzer{
		Name: "panicky",
		Doc:  "panics on NEWTEXT",
		Run: func(pass *analysis.Pass) (any, error) {
			if src, _ := pass.ReadFile(pass.OtherFiles[0]); bytes.Contains(src, []byte("NEWTEXT")) {
				panic("boom")
			}
			return nil, nil
		},
	}
	dir := t.TempDir()
	k := vfFile(t, dir, "k.asc", "OLD\n")
	out, stdout, errs, err := runAs(t, []*analysis.Analyzer{replacer("mk", "OLD", "NEWTEXT", 0), panicky}, []string{k}, Options{Diff: true})
	if err != nil {
		t.Fatal(err)
	}
	name := strings.TrimPrefix(filepath.ToSlash(k), "/")
	want := "--- a/" + name + "\n+++ b/" + name + "\n@@ -1,3 +1,3 @@\n __simd_vf__ void f() {\n-OLD\n+NEWTEXT\n }\n"
	if stdout != want || errs != "" || !out.Diffed {
		t.Errorf("-diff: stdout %q, stderr %q, diffed %v; want\n%q", stdout, errs, out.Diffed, want)
	}
	if len(out.Res.Errors) != 1 || out.Res.Errors[0].File != k || !strings.Contains(out.Res.Errors[0].Err.Error(), "on the fixed text: ") ||
		!strings.Contains(out.Res.Errors[0].Err.Error(), "boom") {
		t.Errorf("errors %v; want panicky's on the fixed text", out.Res.Errors)
	}
	if got := issueList(out); !slices.Equal(got, []string{"k.asc:2:1 mk"}) {
		t.Errorf("issues %q; want mk's as found", got)
	}
	if got := testfs.Read(t, k); got != vfText("OLD\n") {
		t.Errorf("-diff wrote %s: %q", k, got)
	}
}

// TestDiffWriteFails: a diff that cannot be printed stops the run with an
// internal error, and leaves the file as it was.
func TestDiffWriteFails(t *testing.T) {
	dir := t.TempDir()
	k := vfFile(t, dir, "k.asc", "BAD\n")
	broken := errors.New("stdout closed")
	p := newPipeline(t, dir)
	p.Analyzers = []*analysis.Analyzer{replacer("nobad", "BAD", "", 0)}
	_, _, err := runPipeTo(t, p, []string{k}, Options{Diff: true}, &failWriter{broken})
	var de *Error
	if !errors.As(err, &de) || !de.Internal || de.Usage || !errors.Is(err, broken) {
		t.Errorf("-diff to a failing stdout: %v; want an internal error wrapping the write's", err)
	}
	if got := testfs.Read(t, k); got != vfText("BAD\n") {
		t.Errorf("%s was changed: %q", k, got)
	}
}

// TestFixUnwritable: a read-only file is not written and is named; it
// keeps the findings and issues it had, while the other file is fixed.
// When no file could be written, the issues are those found.
func TestFixUnwritable(t *testing.T) {
	as := []*analysis.Analyzer{replacer("nobad", "BAD", "", 0)}
	dir := t.TempDir()
	ro := vfFile(t, dir, "a.asc", "BAD\n")
	ok := vfFile(t, dir, "b.asc", "BAD\n")
	if err := os.Chmod(ro, 0o444); err != nil {
		t.Fatal(err)
	}
	out, _, errs, err := runAs(t, as, []string{dir}, Options{Fix: true})
	if err != nil {
		t.Fatal(err)
	}
	want := "ascvet: " + ro + ": file is read-only; not fixed (ascvet does not change permissions)\n" +
		"ascvet: fixed 1 finding in " + ok + "\n"
	if errs != want || out.Unwritten != 1 {
		t.Errorf("stderr %q, %d unwritten; want\n%q", errs, out.Unwritten, want)
	}
	if testfs.Read(t, ro) != vfText("BAD\n") || testfs.Read(t, ok) != vfText("\n") {
		t.Errorf("files hold %q and %q; want the read-only one unchanged, the other fixed", testfs.Read(t, ro), testfs.Read(t, ok))
	}
	if got := issueList(out); !slices.Equal(got, []string{"a.asc:2:1 nobad"}) {
		t.Errorf("issues %q; want the read-only file's", got)
	}
	if len(out.Res.Findings) != 1 || out.Res.Findings[0].Pos.Filename != ro {
		t.Errorf("findings %v; want the read-only file's, restored", out.Res.Findings)
	}

	// Only the read-only file: nothing written, the issues as found.
	alone, _, errs, err := runAs(t, as, []string{ro}, Options{Fix: true})
	if err != nil || alone.Unwritten != 1 || !strings.Contains(errs, "file is read-only") || !slices.Equal(issueList(alone), []string{"a.asc:2:1 nobad"}) {
		t.Errorf("the read-only file alone: %v, %d unwritten, stderr %q, issues %q", err, alone.Unwritten, errs, issueList(alone))
	}
}

// TestWriteFixesRestores: a fixed file that is gone when -fix writes is
// named, not written, and keeps its findings and errors from before the
// fixes (only); the other file's are those after.
func TestWriteFixesRestores(t *testing.T) {
	dir := t.TempDir()
	gone := filepath.Join(dir, "gone.asc")
	kept := vfFile(t, dir, "kept.asc", "BAD\n")
	finding := func(file string, line int, msg string) runner.Finding {
		return runner.Finding{Analyzer: &analysis.Analyzer{Name: "a"}, Pos: token.Position{Filename: file, Line: line, Column: 1}, Diagnostic: analysis.Diagnostic{Message: msg}}
	}
	boom := runner.InternalError{File: gone, Analyzer: "a", Err: errors.New("boom")}
	before := &runner.Result{
		Findings: []runner.Finding{finding(gone, 2, "gone before"), finding(kept, 2, "kept before")},
		Errors:   []runner.InternalError{boom, {File: kept, Analyzer: "a", Err: errors.New("kept's")}},
	}
	after := &runner.Result{Findings: []runner.Finding{finding(kept, 3, "kept after")}}
	out := &fixOutcome{res: after, files: []fixedFile{
		{name: gone, old: []byte(vfText("BAD\n")), new: []byte(vfText("\n")), fixed: 1},
		{name: kept, old: []byte(vfText("BAD\n")), new: []byte(vfText("\n")), fixed: 1},
	}}
	var stderr bytes.Buffer
	res, written, failed := writeFixes(&stderr, out, before)
	if failed != 1 || len(written) != 1 || written[0].name != kept {
		t.Fatalf("%d failed, written %v; want kept.asc written, gone.asc not", failed, written)
	}
	if errs := stderr.String(); !strings.HasPrefix(errs, "ascvet: "+gone+": ") || !strings.Contains(errs, "no such file") ||
		!strings.HasSuffix(errs, "ascvet: fixed 1 finding in "+kept+"\n") {
		t.Errorf("stderr %q; want gone.asc named, kept.asc fixed", errs)
	}
	var msgs []string
	for _, f := range res.Findings {
		msgs = append(msgs, f.Diagnostic.Message)
	}
	if !slices.Equal(msgs, []string{"gone before", "kept after"}) || len(res.Errors) != 1 || !errors.Is(res.Errors[0].Err, boom.Err) {
		t.Errorf("findings %q, errors %v; want gone.asc's from before and kept.asc's after", msgs, res.Errors)
	}
	if _, err := os.Stat(gone); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("gone.asc was made: %v", err)
	}
	if got := testfs.Read(t, kept); got != vfText("\n") {
		t.Errorf("kept.asc holds %q", got)
	}
}

// TestFixAllAnalyseFails: when the analysis of a fixed text fails, fixAll
// returns its error and no outcome.
func TestFixAllAnalyseFails(t *testing.T) {
	name := "k.asc"
	src := []byte(vfText("BAD\n"))
	res := &runner.Result{Findings: []runner.Finding{{
		Analyzer: &analysis.Analyzer{Name: "nobad"},
		Pos:      token.Position{Filename: name, Line: 2, Column: 1, Offset: 23},
		Fixes:    []fixes.Fix{{Pos: 23, Message: "drop", Edits: []fixes.Edit{{Start: 23, End: 26}}}},
	}}}
	fail := errors.New("no analysis")
	calls := 0
	out, err := fixAll(func(files []runner.File) (*runner.Result, error) {
		calls++
		if len(files) != 1 || string(files[0].Src) != vfText("\n") {
			t.Errorf("analysed %v; want the fixed text", files)
		}
		return nil, fail
	}, []runner.File{{Name: name, Src: src}}, res)
	if out != nil || !errors.Is(err, fail) || calls != 1 {
		t.Errorf("fixAll: %v, %v after %d analyses; want the analysis's error", out, err, calls)
	}
}
