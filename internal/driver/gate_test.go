package driver

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"

	"github.com/ascvet/ascvet/analyzers/runner"
	"github.com/ascvet/ascvet/internal/repo"
	"github.com/ascvet/ascvet/internal/report"
	"github.com/ascvet/ascvet/internal/testfs"
	"github.com/ascvet/ascvet/ruleset/baseline"
)

// readBaseline reads a baseline file the test expects to be valid.
func readBaseline(t *testing.T, path string) *baseline.Baseline {
	t.Helper()
	b, err := baseline.Read(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// writeLegacy writes a version 1 baseline of entries to path, as an
// ascvet of that version did, and returns its path.
func writeLegacy(t *testing.T, path string, entries []baseline.Entry) string {
	t.Helper()
	data, err := json.MarshalIndent(baseline.Baseline{Version: baseline.LegacyVersion, Tool: baseline.Tool, Entries: entries}, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return testfs.Put(t, filepath.Dir(path), filepath.Base(path), string(data)+"\n")
}

// legacyEntries returns the version 1 entries of the reported issues of
// out, each keyed on the path p: as a run from another working
// directory named the file.
func legacyEntries(out *Outcome, p string) []baseline.Entry {
	var es []baseline.Entry
	for _, is := range out.Issues {
		if len(is.Suppressed) == 0 {
			es = append(es, baseline.Entry{Rule: is.RuleID(), Path: p, Fingerprint: baseline.Fingerprint(is.RuleID(), p, is.Snippet), Message: is.Message, Line: is.Pos.Line})
		}
	}
	return es
}

// staleEntry is an entry of path that no finding matches.
func staleEntry(path string, line int) baseline.Entry {
	return baseline.Entry{Rule: "ASC1001", Path: path, Fingerprint: fmt.Sprintf("%032x", line), Message: "gone", Line: line}
}

// TestRunBaselineLegacy: a version 1 baseline, whose paths are relative
// to the working directory of the run that wrote it, matches from the
// baseline's folder, from the working directory, or by an absolute path;
// an entry of a file gone from the folder walked is stale, one of a file
// outside it, which exists, is not.
func TestRunBaselineLegacy(t *testing.T) {
	parent := t.TempDir()
	sub := filepath.Join(parent, "sub")
	k := testfs.Put(t, sub, "k.asc", testfs.Kernel(t, "masks.asc"))
	plain, _, _, err := run(t, []string{sub}, Options{})
	if err != nil || reported(plain) == 0 {
		t.Fatalf("%v, %d issues", err, reported(plain))
	}
	n := reported(plain)
	testfs.Put(t, parent, "other/x.asc", testfs.Kernel(t, "masks.asc"))

	// Written from parent on "sub": its paths are sub/..., from the
	// baseline's folder.
	fromParent := append(legacyEntries(plain, "sub/k.asc"), staleEntry("sub/gone.asc", 7), staleEntry("other/x.asc", 9))
	base := writeLegacy(t, filepath.Join(parent, "old.json"), fromParent)
	out, _, errs, err := run(t, []string{sub}, Options{Baseline: base})
	if err != nil || reported(out) != 0 || len(out.Issues) != n {
		t.Fatalf("version 1 baseline from the parent: %v, %d of %d issues reported; want all %d suppressed", err, reported(out), len(out.Issues), n)
	}
	want := "ascvet: baseline " + base + ": 1 entry no longer found (fixed, or the code changed); rewrite it with -write-baseline to drop them:\n" +
		"ascvet:   sub/gone.asc:7: [ASC1001] gone\n"
	if errs != want {
		t.Errorf("stderr %q, want %q", errs, want)
	}
	for _, is := range out.Issues {
		if len(is.Suppressed) != 1 || is.Suppressed[0].Justification != "in baseline "+base {
			t.Errorf("%s: suppressed %+v; want by the baseline", is.RuleID(), is.Suppressed)
		}
	}

	// Written on absolute paths, kept in another folder: they match too.
	abs := writeLegacy(t, filepath.Join(t.TempDir(), "abs.json"), legacyEntries(plain, filepath.ToSlash(k)))
	if out, _, errs, err := run(t, []string{sub}, Options{Baseline: abs}); err != nil || reported(out) != 0 || errs != "" {
		t.Errorf("version 1 baseline of absolute paths: %v, %d reported, stderr %q; want none, nothing stale", err, reported(out), errs)
	}

	// Written in the working directory, below the root (an ascvet.toml
	// above it), and kept elsewhere: its paths are from the working
	// directory, not from the root ("k.asc", not "sub/k.asc").
	rooted := t.TempDir()
	testfs.Put(t, rooted, "ascvet.toml", "")
	rsub := filepath.Join(rooted, "sub")
	testfs.Put(t, rsub, "k.asc", testfs.Kernel(t, "masks.asc"))
	if below, _, _, err := run(t, []string{rsub}, Options{}); err != nil || reported(below) != n || below.Issues[0].Key != "sub/k.asc" {
		t.Fatalf("below the root: %v, %d issues, key %q; want %d, keyed sub/k.asc", err, reported(below), below.Issues[0].Key, n)
	}
	fromWD := writeLegacy(t, filepath.Join(t.TempDir(), "wd.json"), legacyEntries(plain, "k.asc"))
	if out, _, errs, err := run(t, []string{rsub}, Options{Baseline: fromWD}); err != nil || reported(out) != 0 || errs != "" {
		t.Errorf("version 1 baseline from the working directory: %v, %d reported, stderr %q; want none, nothing stale", err, reported(out), errs)
	}
}

// TestRunWriteBaselineLegacy: -write-baseline over a version 1 baseline
// whose entries the run does not all cover fails, naming why, and leaves
// the file as it was; a run that covers them all rewrites it as version 2.
func TestRunWriteBaselineLegacy(t *testing.T) {
	parent := t.TempDir()
	sub := filepath.Join(parent, "sub")
	k := testfs.Put(t, sub, "k.asc", testfs.Kernel(t, "masks.asc"))
	plain, _, _, err := run(t, []string{sub}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	entries := append(legacyEntries(plain, "sub/k.asc"), staleEntry("sub/gone.asc", 3))
	base := filepath.Join(parent, "old.json")
	v1 := testfs.Read(t, writeLegacy(t, base, entries))

	// On the file alone, the gone file's entry is not covered.
	_, _, errs, err := run(t, []string{k}, Options{WriteBaseline: base})
	var de *Error
	if !errors.As(err, &de) || de.Usage || de.Internal || !strings.Contains(err.Error(), "is a version 1 baseline") ||
		!strings.Contains(err.Error(), "does not cover 1 of its entries (sub/gone.asc, ...)") {
		t.Errorf("a version 1 baseline written in part: %v; want the error of the entries not covered", err)
	}
	if got := testfs.Read(t, base); got != v1 || errs != "" {
		t.Errorf("stderr %q, the baseline now %q; want it unchanged", errs, got)
	}

	// On the folder, the gone file's entry is covered: dropped.
	out, _, errs, err := run(t, []string{sub}, Options{WriteBaseline: base})
	if err != nil || !out.BaselineWritten || errs != fmt.Sprintf("ascvet: wrote %s to %s\n", report.Plural(reported(plain), "finding"), base) {
		t.Fatalf("a version 1 baseline written whole: %v, stderr %q", err, errs)
	}
	b := readBaseline(t, base)
	if b.Version != baseline.Version || len(b.Entries) != reported(plain) {
		t.Errorf("rewritten: version %d, %d entries; want version %d with the %d findings", b.Version, len(b.Entries), baseline.Version, reported(plain))
	}
	for _, e := range b.Entries {
		if e.Path != "k.asc" {
			t.Errorf("entry path %q; want k.asc, from the root", e.Path)
		}
	}
}

// TestRunWriteBaselineUnreadable: an old baseline that cannot be read is
// replaced, with a warning, by one of the run's findings; those a
// directive suppresses are not written.
func TestRunWriteBaselineUnreadable(t *testing.T) {
	k := kernel(t, "directives_fixed.asc")
	base := testfs.Put(t, t.TempDir(), "base.json", "{not json")
	out, _, errs, err := run(t, []string{k}, Options{WriteBaseline: base})
	if err != nil || !out.BaselineWritten {
		t.Fatalf("%v, written %v", err, out != nil && out.BaselineWritten)
	}
	if !strings.HasPrefix(errs, "ascvet: -write-baseline: replacing "+base+", whose entries cannot be kept: ") ||
		!strings.HasSuffix(errs, fmt.Sprintf("ascvet: wrote %s to %s\n", report.Plural(reported(out), "finding"), base)) {
		t.Errorf("stderr %q; want the warning, then what was written", errs)
	}
	if len(out.Issues) == reported(out) {
		t.Fatalf("%d issues, none suppressed: the test needs a suppressed one", len(out.Issues))
	}
	var want []string
	for _, is := range out.Issues {
		if len(is.Suppressed) == 0 {
			want = append(want, is.Fingerprint)
		}
	}
	var got []string
	for _, e := range readBaseline(t, base).Entries {
		got = append(got, e.Fingerprint)
	}
	slices.Sort(want)
	slices.Sort(got)
	if !slices.Equal(got, want) {
		t.Errorf("baseline fingerprints %q; want the reported issues' %q", got, want)
	}
}

// TestRunBaselineManyStale: past ten stale entries, the rest are counted,
// not listed.
func TestRunBaselineManyStale(t *testing.T) {
	dir := t.TempDir()
	testfs.Put(t, dir, "k.asc", testfs.Kernel(t, "masks.asc"))
	var es []baseline.Entry
	for line := 1; line <= 12; line++ {
		es = append(es, staleEntry("gone.asc", line))
	}
	base := filepath.Join(t.TempDir(), "base.json")
	if err := baseline.Write(base, es); err != nil {
		t.Fatal(err)
	}
	out, _, errs, err := run(t, []string{dir}, Options{Baseline: base})
	if err != nil || reported(out) == 0 {
		t.Fatalf("%v, %d reported; want k.asc's findings", err, reported(out))
	}
	lines := strings.Split(strings.TrimSuffix(errs, "\n"), "\n")
	if len(lines) != 12 || !strings.Contains(lines[0], ": 12 entries no longer found") || lines[1] != "ascvet:   gone.asc:1: [ASC1001] gone" ||
		lines[10] != "ascvet:   gone.asc:10: [ASC1001] gone" || lines[11] != "ascvet:   ... and 2 more" {
		t.Errorf("stderr:\n%s\nwant the count, ten entries and '... and 2 more'", errs)
	}
}

// TestRunBaselineUnanalysed: the entries of a file the walk took but could
// not analyse (binary now) are neither stale nor dropped by
// -write-baseline: its findings are unknown.
func TestRunBaselineUnanalysed(t *testing.T) {
	dir := t.TempDir()
	testfs.Put(t, dir, "a.asc", testfs.Kernel(t, "masks.asc"))
	bsrc := testfs.Kernel(t, "unaligned_copy.asc")
	b := testfs.Put(t, dir, "b.asc", bsrc)
	base := filepath.Join(t.TempDir(), "base.json")
	whole, _, _, err := run(t, []string{dir}, Options{WriteBaseline: base})
	if err != nil {
		t.Fatal(err)
	}
	full := testfs.Read(t, base)
	bEntries := 0
	for _, e := range readBaseline(t, base).Entries {
		if e.Path == "b.asc" {
			bEntries++
		}
	}
	if bEntries == 0 || bEntries == reported(whole) {
		t.Fatalf("%d of %d entries of b.asc; want some of each file", bEntries, reported(whole))
	}
	testfs.Put(t, dir, "b.asc", "\x00"+bsrc)
	out, _, errs, err := run(t, []string{dir}, Options{Baseline: base})
	if err != nil || reported(out) != 0 || out.Inputs.Skipped != 1 || !strings.HasPrefix(errs, "ascvet: "+b) || strings.Contains(errs, "no longer found") {
		t.Errorf("b.asc binary, against the baseline: %v, %d reported, %d skipped, stderr %q; want b.asc skipped, its entries not stale", err, reported(out), out.Inputs.Skipped, errs)
	}
	_, _, errs, err = run(t, []string{dir}, Options{WriteBaseline: base})
	if err != nil || !strings.Contains(errs, fmt.Sprintf("kept its %d %s of files or rules outside this run", bEntries, report.PluralWord(bEntries, "entry", "entries"))) {
		t.Errorf("b.asc binary, -write-baseline: %v, stderr %q; want its %d entries kept", err, errs, bEntries)
	}
	if got := testfs.Read(t, base); got != full {
		t.Errorf("the baseline rewritten with b.asc binary differs from the whole tree's:\n%s\nwant\n%s", got, full)
	}
}

// TestRunBaselineChecks: a run of some rules (-checks) covers only their
// entries: -write-baseline keeps the other rules' entries of the files it
// analysed, and -baseline does not call them stale.
func TestRunBaselineChecks(t *testing.T) {
	dir := t.TempDir()
	testfs.Put(t, dir, "k.asc", testfs.Kernel(t, "unaligned_copy.asc"))
	base := filepath.Join(t.TempDir(), "base.json")
	if _, _, _, err := run(t, []string{dir}, Options{WriteBaseline: base}); err != nil {
		t.Fatal(err)
	}
	full := testfs.Read(t, base)
	others := 0
	for _, e := range readBaseline(t, base).Entries {
		if e.Rule != "ASC1001" {
			others++
		}
	}
	if others == 0 || others == len(readBaseline(t, base).Entries) {
		t.Fatalf("%d entries of rules other than ASC1001; the test needs both kinds", others)
	}
	p := newPipeline(t, dir)
	p.Checks = []string{"ASC1001"}
	out, errs, err := runPipe(t, p, []string{dir}, Options{Baseline: base})
	if err != nil || errs != "" || reported(out) != 0 || slices.ContainsFunc(out.Issues, func(is report.Issue) bool { return is.RuleID() != "ASC1001" }) {
		t.Errorf("-checks ASC1001 against the baseline: %v, stderr %q, issues %v; want ASC1001's suppressed, nothing stale", err, errs, ruleIDs(out, true))
	}
	p = newPipeline(t, dir)
	p.Checks = []string{"ASC1001"}
	_, errs, err = runPipe(t, p, []string{dir}, Options{WriteBaseline: base})
	if err != nil || !strings.Contains(errs, fmt.Sprintf("kept its %d ", others)) {
		t.Errorf("-checks ASC1001 -write-baseline: %v, stderr %q; want the %d other entries kept", err, errs, others)
	}
	if got := testfs.Read(t, base); got != full {
		t.Errorf("the baseline rewritten by -checks ASC1001 differs:\n%s\nwant\n%s", got, full)
	}
}

// TestRunBaselineDots: a folder given as DIR/... or ... is walked as DIR
// or ".": the entries of a file deleted from it are stale.
func TestRunBaselineDots(t *testing.T) {
	dir := t.TempDir()
	testfs.Put(t, dir, "k.asc", testfs.Kernel(t, "masks.asc"))
	base := filepath.Join(t.TempDir(), "base.json")
	if err := baseline.Write(base, []baseline.Entry{staleEntry("gone.asc", 4)}); err != nil {
		t.Fatal(err)
	}
	stale := "ascvet:   gone.asc:4: [ASC1001] gone\n"
	p := newPipeline(t, dir)
	out, errs, err := runPipe(t, p, []string{dir + "/..."}, Options{Baseline: base})
	if err != nil || reported(out) == 0 || !strings.HasSuffix(errs, stale) {
		t.Errorf("DIR/...: %v, %d reported, stderr %q; want k.asc's findings and gone.asc's entry stale", err, reported(out), errs)
	}
	t.Chdir(dir)
	p = newPipeline(t, dir)
	out, errs, err = runPipe(t, p, []string{"..."}, Options{Baseline: base})
	if err != nil || reported(out) == 0 || !strings.HasSuffix(errs, stale) {
		t.Errorf("...: %v, %d reported, stderr %q; want k.asc's findings and gone.asc's entry stale", err, reported(out), errs)
	}
	// The file alone walks no folder: the entry is not known stale.
	p = newPipeline(t, dir)
	if _, errs, err := runPipe(t, p, []string{"k.asc"}, Options{Baseline: base}); err != nil || errs != "" {
		t.Errorf("k.asc alone: %v, stderr %q; want nothing stale", err, errs)
	}
}

// TestApplyBaselineLate: among findings of one fingerprint, those for
// which late is true match the baseline last: with -new-from-rev, a copy
// of an old finding on a changed line is the new one, wherever it is in
// the file.
func TestApplyBaselineLate(t *testing.T) {
	dir := t.TempDir()
	k := filepath.Join(dir, "k.asc")
	an := &analysis.Analyzer{Name: "x"}
	issue := func(line int) report.Issue {
		return report.Issue{Finding: runner.Finding{Analyzer: an, Pos: token.Position{Filename: k, Line: line}}, Key: "k.asc", Fingerprint: "f00d"}
	}
	base := filepath.Join(dir, "base.json")
	if err := baseline.Write(base, []baseline.Entry{{Rule: "x", Path: "k.asc", Fingerprint: "f00d", Message: "m", Line: 5}}); err != nil {
		t.Fatal(err)
	}
	roots := repo.NewRoots(dir)
	scope := newRunScope(roots, []string{k}, []string{k}, nil)
	suppressedLines := func(late func(*report.Issue) bool) []int {
		t.Helper()
		var stderr bytes.Buffer
		issues, err := ApplyBaseline(&stderr, scope, base, []report.Issue{issue(2), issue(5)}, late)
		if err != nil || stderr.Len() != 0 {
			t.Fatalf("%v, stderr %q", err, stderr.String())
		}
		var lines []int
		for _, is := range issues {
			if len(is.Suppressed) > 0 {
				lines = append(lines, is.Pos.Line)
			}
		}
		return lines
	}
	if got := suppressedLines(nil); !slices.Equal(got, []int{2}) {
		t.Errorf("no late issues: lines %v suppressed; want the first, 2", got)
	}
	if got := suppressedLines(func(is *report.Issue) bool { return is.Pos.Line == 2 }); !slices.Equal(got, []int{5}) {
		t.Errorf("line 2 late: lines %v suppressed; want 5", got)
	}
}

// TestRunNewFromRevBaseline: with -new-from-rev and a baseline, a finding
// the change copied above the old one is reported, the old one matched
// by the baseline and, its line unchanged, dropped.
func TestRunNewFromRevBaseline(t *testing.T) {
	testfs.NeedGit(t, "git not installed: cannot check -new-from-rev with a baseline")
	dir := t.TempDir()
	as := []*analysis.Analyzer{noter("note", "NOTE")}
	k := vfFile(t, dir, "k.asc", "  x = NOTE;\n")
	testfs.Git(t, dir, "init", "-q")
	testfs.Git(t, dir, "add", ".")
	testfs.Git(t, dir, "commit", "-q", "-m", "old")
	base := filepath.Join(t.TempDir(), "base.json")
	if _, _, _, err := runAs(t, as, []string{dir}, Options{WriteBaseline: base}); err != nil {
		t.Fatal(err)
	}
	testfs.Put(t, dir, "k.asc", "__simd_vf__ void g() {\n  x = NOTE;\n}\n"+testfs.Read(t, k))
	out, _, errs, err := runAs(t, as, []string{dir}, Options{NewFromRev: "HEAD", Baseline: base})
	if err != nil || errs != "" {
		t.Fatalf("%v, stderr %q", err, errs)
	}
	if got := issueList(out); !slices.Equal(got, []string{"k.asc:2:7 note"}) {
		t.Errorf("issues %q; want the copy on line 2, reported", got)
	}
}

// TestRunNewFromRevErrors: a revision the repository lacks, of the path
// given or of a nested repository a finding is in, is a usage error that
// names it.
func TestRunNewFromRevErrors(t *testing.T) {
	testfs.NeedGit(t, "git not installed: cannot check -new-from-rev's errors")
	dir := t.TempDir()
	as := []*analysis.Analyzer{noter("note", "NOTE")}
	vfFile(t, dir, "k.asc", "NOTE\n")
	testfs.Git(t, dir, "init", "-q")
	testfs.Git(t, dir, "add", ".")
	testfs.Git(t, dir, "commit", "-q", "-m", "old")
	testfs.Git(t, dir, "tag", "v1")
	usage := func(what string, paths []string, rev, want string) {
		t.Helper()
		_, _, _, err := runAs(t, as, paths, Options{NewFromRev: rev})
		var de *Error
		if !errors.As(err, &de) || !de.Usage || de.Internal || !strings.HasPrefix(err.Error(), "-new-from-rev "+rev+": ") || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v; want a usage error naming %q", what, err, want)
		}
	}
	usage("a revision the repository lacks", []string{dir}, "nosuchrev", "nosuchrev")

	// A repository nested in the folder, without the tag: the findings
	// of its files cannot be dated.
	nested := filepath.Join(dir, "nested")
	vfFile(t, nested, "n.asc", "NOTE\n")
	testfs.Git(t, nested, "init", "-q")
	testfs.Git(t, nested, "add", ".")
	testfs.Git(t, nested, "commit", "-q", "-m", "nested")
	usage("a nested repository without the revision", []string{dir}, "v1", "v1")
	if out, _, _, err := runAs(t, as, []string{filepath.Join(dir, "k.asc")}, Options{NewFromRev: "v1"}); err != nil || len(out.Issues) != 0 {
		t.Errorf("the outer file alone since v1: %v, %d issues; want none", err, len(out.Issues))
	}
}

// TestChangedSinceOutside: an issue in a file outside any git work tree is
// not on a changed line; one on a line added since the revision is.
func TestChangedSinceOutside(t *testing.T) {
	testfs.NeedGit(t, "git not installed: cannot check changedSince")
	dir := t.TempDir()
	k := vfFile(t, dir, "k.asc", "x;\n")
	testfs.Git(t, dir, "init", "-q")
	testfs.Git(t, dir, "add", ".")
	testfs.Git(t, dir, "commit", "-q", "-m", "old")
	vfFile(t, dir, "k.asc", "x;\ny;\n")
	outside := filepath.Join(t.TempDir(), "o.asc")
	at := func(file string, line int) report.Issue {
		return report.Issue{Finding: runner.Finding{Analyzer: &analysis.Analyzer{Name: "x"}, Pos: token.Position{Filename: file, Line: line}}}
	}
	issues := []report.Issue{at(k, 2), at(k, 3), at(outside, 3)}
	touched, err := changedSince(repo.NewRoots(dir), []string{dir}, issues, "HEAD")
	if err != nil {
		t.Fatal(err)
	}
	if got := []bool{touched(&issues[0]), touched(&issues[1]), touched(&issues[2])}; !slices.Equal(got, []bool{false, true, false}) {
		t.Errorf("touched: %v; want only k.asc's added line 3", got)
	}
}

// TestRunErrorUnwrap: a run's *Error wraps its cause: a missing baseline
// is fs.ErrNotExist to errors.Is.
func TestRunErrorUnwrap(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "none.json")
	_, _, _, err := run(t, []string{kernel(t, "masks.asc")}, Options{Baseline: missing})
	var de *Error
	if !errors.As(err, &de) || !errors.Is(err, fs.ErrNotExist) || !strings.Contains(err.Error(), "create it with -write-baseline "+missing) {
		t.Errorf("-baseline of a missing file: %v; want an *Error that is fs.ErrNotExist", err)
	}
	if _, err := os.Stat(missing); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("-baseline made %s: %v", missing, err)
	}
}
