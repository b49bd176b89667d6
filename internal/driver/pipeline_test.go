package driver

import (
	"bytes"
	"fmt"
	"go/token"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"golang.org/x/tools/go/analysis"

	"github.com/ascvet/ascvet/analyzers/cppir"
	"github.com/ascvet/ascvet/analyzers/regpressure"
	"github.com/ascvet/ascvet/analyzers/runner"
	"github.com/ascvet/ascvet/analyzers/settings"
	"github.com/ascvet/ascvet/analyzers/stop"
	"github.com/ascvet/ascvet/internal/repo"
	"github.com/ascvet/ascvet/internal/report"
	"github.com/ascvet/ascvet/internal/source"
	"github.com/ascvet/ascvet/internal/testfs"
	"github.com/ascvet/ascvet/regalloc"
	"github.com/ascvet/ascvet/ruleset/config"
	"github.com/ascvet/ascvet/simcheck"
)

// TestFileTimeoutAfterParse: -file-timeout bounds a file's whole analysis,
// not its parse alone: an analyzer after the parse that runs on (as the
// simulations and fix checks of a huge file do) is stopped when the limit
// passes, and the file is skipped with its message. Before, only the
// parse watched the clock, and a 31 MiB file ran past the 60 s default.
func TestFileTimeoutAfterParse(t *testing.T) {
	slow := &analysis.Analyzer{
		Name:     "slow",
		Doc:      "runs until its file's analysis is stopped (at most 20 s)",
		Requires: []*analysis.Analyzer{cppir.Analyzer, stop.Analyzer},
		Run: func(pass *analysis.Pass) (any, error) {
			for end := time.Now().Add(20 * time.Second); !stop.Set(pass) && time.Now().Before(end); {
				time.Sleep(time.Millisecond)
			}
			return nil, nil
		},
	}
	loader, err := config.NewLoader(config.Options{Chips: simcheck.Chips()})
	if err != nil {
		t.Fatal(err)
	}
	name := filepath.Join(t.TempDir(), "k.asc")
	src, err := os.ReadFile("../../testdata/kernels/unaligned_copy.asc")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, src, 0o644); err != nil {
		t.Fatal(err)
	}
	p := &Pipeline{Analyzers: []*analysis.Analyzer{slow}, Loader: loader, Lang: "en", Parallel: 1, Timeout: 50 * time.Millisecond}
	a := p.run(name, src)
	if want := name + ": analysing took longer than the limit of 50ms; skipped (raise -file-timeout to check it)"; a.Skip != want {
		t.Errorf("skip %q, want %q", a.Skip, want)
	}
	p.Timeout = 0
	fast := *slow
	fast.Run = func(*analysis.Pass) (any, error) { return nil, nil }
	p.Analyzers = []*analysis.Analyzer{&fast}
	if a := p.run(name, src); a.Skip != "" || a.Stopped {
		t.Errorf("no limit: skip %q, stopped %v", a.Skip, a.Stopped)
	}
}

// configPipeline is the pipeline of a run from dir with the analyzers as,
// reading the ascvet.toml files above each file.
func configPipeline(t *testing.T, dir string, as ...*analysis.Analyzer) *Pipeline {
	t.Helper()
	loader, err := config.NewLoader(config.Options{Chips: simcheck.Chips()})
	if err != nil {
		t.Fatal(err)
	}
	return &Pipeline{Analyzers: as, Loader: loader, Lang: "en", Parallel: 1, Roots: repo.NewRoots(dir), WorkDir: dir}
}

// TestPipelineSettings: a file is analysed with the defaults, the
// settings of its ascvet.toml over them (chip, machine model, iterations,
// confidence, budgets), and the command line's over those.
func TestPipelineSettings(t *testing.T) {
	dir := t.TempDir()
	testfs.Put(t, dir, "models/m.toml", testfs.Read(t, "../../simcheck/machines/ascend950.toml"))
	testfs.Put(t, dir, "ascvet.toml", "chip = \"ascend950\"\nmachine = \"models/m.toml\"\niterations = 3\nconfidence = \"low\"\n\n[budgets]\nvreg = 20\nmask = 6\n")
	k := vfFile(t, dir, "k.asc", "NOTE\n")
	p := configPipeline(t, dir, noter("note", "NOTE"))
	var given settings.Settings
	p.Override = func(s *settings.Settings) {
		given = *s
		s.Iterations = 5 // -iterations 5
	}
	a := p.RunStore(k, []byte(testfs.Read(t, k)), false, nil)
	if a.ConfigErr != "" || a.Skip != "" || len(a.Issues) != 1 {
		t.Fatalf("config error %q, skip %q, %d issues", a.ConfigErr, a.Skip, len(a.Issues))
	}
	want := settings.Defaults()
	want.Chip, want.Machine, want.Iterations, want.Confidence = "ascend950", filepath.Join(dir, "models", "m.toml"), 3, "low"
	want.Budget[regalloc.VReg], want.Budget[regalloc.Mask] = 20, 6
	if given != want {
		t.Errorf("the settings before the command line's: %+v, want %+v", given, want)
	}
	want.Iterations = 5
	if a.Settings != want {
		t.Errorf("the settings analysed with: %+v, want %+v", a.Settings, want)
	}
}

// TestPipelineConfigErrors: a file whose settings do not hold (a machine
// model that does not load, the command line's out of range) or whose
// -checks names no rule is not analysed: its configuration error names
// where the settings came from, and the run counts and reports it.
func TestPipelineConfigErrors(t *testing.T) {
	dir := t.TempDir()
	toml := testfs.Put(t, dir, "bad/ascvet.toml", "machine = \"m.toml\"\n")
	testfs.Put(t, dir, "bad/m.toml", "cycles = \"many\"\n")
	k := vfFile(t, dir, "bad/k.asc", "NOTE\n")
	p := configPipeline(t, dir, noter("note", "NOTE"))
	a := p.RunStore(k, []byte(testfs.Read(t, k)), false, nil)
	if !strings.HasPrefix(a.ConfigErr, toml+": ") || !strings.Contains(a.ConfigErr, "m.toml") || len(a.Issues) != 0 {
		t.Errorf("a machine model that does not load: config error %q, %d issues; want the error, after the ascvet.toml that set it", a.ConfigErr, len(a.Issues))
	}

	ok := vfFile(t, dir, "ok/k.asc", "NOTE\n")
	p = newPipeline(t, dir)
	p.Analyzers = []*analysis.Analyzer{noter("note", "NOTE")}
	p.Override = func(s *settings.Settings) { s.Iterations = 0 }
	if a := p.RunStore(ok, []byte(testfs.Read(t, ok)), false, nil); a.ConfigErr != "settings: iterations 0: want at least 1" || len(a.Issues) != 0 {
		t.Errorf("-iterations 0: config error %q, %d issues; want the settings' error", a.ConfigErr, len(a.Issues))
	}

	p = newPipeline(t, dir)
	p.Analyzers = []*analysis.Analyzer{noter("note", "NOTE")}
	p.Checks = []string{"ASC9999"}
	var stderr bytes.Buffer
	out, err := Run([]string{filepath.Join(dir, "ok")}, p, &Options{Jobs: 1, Limits: source.DefaultLimits()}, io.Discard, &stderr)
	if err != nil {
		t.Fatal(err)
	}
	if out.Inputs.BadConfig != 1 || len(out.Issues) != 0 || !strings.HasPrefix(stderr.String(), "ascvet: -checks: ASC9999") ||
		!strings.HasSuffix(stderr.String(), "ascvet: files under it are not checked until it is fixed\n") {
		t.Errorf("-checks ASC9999: %d bad config, %d issues, stderr %q; want the file not checked, and why", out.Inputs.BadConfig, len(out.Issues), stderr.String())
	}
}

// TestPipelineTimeoutNotReached: with a time limit the analysis does not
// reach, the file has the issues it has without one.
func TestPipelineTimeoutNotReached(t *testing.T) {
	dir := t.TempDir()
	k := vfFile(t, dir, "k.asc", "NOTE NOTE\n")
	p := newPipeline(t, dir)
	p.Analyzers = []*analysis.Analyzer{noter("note", "NOTE")}
	src := []byte(testfs.Read(t, k))
	free := p.run(k, src)
	p.Timeout = time.Hour
	limited := p.run(k, src)
	if limited.Skip != "" || limited.Stopped || len(limited.Issues) != 2 || len(free.Issues) != 2 {
		t.Fatalf("skip %q, stopped %v, %d issues (%d without a limit); want both NOTEs", limited.Skip, limited.Stopped, len(limited.Issues), len(free.Issues))
	}
	for i := range free.Issues {
		if f, l := free.Issues[i], limited.Issues[i]; f.Pos != l.Pos || f.Fingerprint != l.Fingerprint || f.Line != l.Line {
			t.Errorf("issue %d: %v %q with a limit, %v %q without", i, l.Pos, l.Line, f.Pos, f.Line)
		}
	}
}

// TestPipelineBigFile: a file of 1 MiB or more has its directives, lines
// and line hashes scanned while the analyzers run (scanAhead): its issues
// are those of the same kernel, small, with their suppressions, lines and
// fingerprints.
func TestPipelineBigFile(t *testing.T) {
	k := testfs.Kernel(t, "directives.asc")
	pad := strings.Repeat("// padding\n", scanAheadMin/len("// padding\n")+1)
	if len(k+pad) < scanAheadMin {
		t.Fatalf("the big file has %d bytes", len(k+pad))
	}
	small := testfs.Put(t, t.TempDir(), "k.asc", k)
	big := testfs.Put(t, t.TempDir(), "k.asc", k+pad)
	issues := func(name string) []report.Issue {
		t.Helper()
		p := newPipeline(t, filepath.Dir(name))
		a := p.run(name, []byte(testfs.Read(t, name)))
		if a.Skip != "" || a.ConfigErr != "" {
			t.Fatalf("%s: skip %q, config error %q", name, a.Skip, a.ConfigErr)
		}
		return a.Issues
	}
	want, got := issues(small), issues(big)
	if len(want) == 0 || len(got) != len(want) {
		t.Fatalf("%d issues in the big file, %d in the small one", len(got), len(want))
	}
	for i := range want {
		w, g := want[i], got[i]
		if g.RuleID() != w.RuleID() || g.Pos.Line != w.Pos.Line || g.Pos.Column != w.Pos.Column || g.Line != w.Line || g.LineHash != w.LineHash ||
			g.Fingerprint != w.Fingerprint || len(g.Suppressed) != len(w.Suppressed) {
			t.Errorf("issue %d: big %s %d:%d %q %v, small %s %d:%d %q %v", i, g.RuleID(), g.Pos.Line, g.Pos.Column, g.Line, g.Suppressed, w.RuleID(), w.Pos.Line, w.Pos.Column, w.Line, w.Suppressed)
		}
		if g.Line == "" {
			t.Errorf("issue %d (%s) has no source line", i, g.RuleID())
		}
	}
	if !slices.ContainsFunc(got, func(is report.Issue) bool { return is.RuleID() == "ASC0002" }) {
		t.Errorf("issues %v; want the directive problems (ASC0002) found in the big file too", got)
	}
}

// TestPipelineUnusedSuppressed: an unused directive is reported (ASC0003)
// suppressed when a directive naming unused-directive covers it.
func TestPipelineUnusedSuppressed(t *testing.T) {
	dir := t.TempDir()
	k := testfs.Put(t, dir, "k.asc", "// ascvet:file-ignore unused-directive legacy code\n__simd_vf__ void f() {\n  x = 1; // ascvet:ignore ASC1001 never fires here\n}\n")
	p := newPipeline(t, dir)
	p.Analyzers = []*analysis.Analyzer{noter("note", "NOTE")}
	a := p.run(k, []byte(testfs.Read(t, k)))
	if len(a.Issues) != 1 {
		t.Fatalf("issues %v; want the one unused directive", a.Issues)
	}
	is := a.Issues[0]
	if is.RuleID() != "ASC0003" || is.Pos.Line != 3 || len(is.Suppressed) != 1 || is.Suppressed[0].Kind != "inSource" || is.Suppressed[0].Justification != "legacy code" {
		t.Errorf("%s at line %d, suppressed %+v; want ASC0003 at line 3, suppressed in source for \"legacy code\"", is.RuleID(), is.Pos.Line, is.Suppressed)
	}
	if len(a.reported()) != 0 {
		t.Errorf("reported %v; want nothing", a.reported())
	}
}

// TestSortIssues: issues sort by file, line, column and rule; equal ones
// keep their order.
func TestSortIssues(t *testing.T) {
	at := func(file string, line, col int, rule, msg string) report.Issue {
		return report.Issue{Finding: runner.Finding{Analyzer: &analysis.Analyzer{Name: rule}, Pos: token.Position{Filename: file, Line: line, Column: col}, Diagnostic: analysis.Diagnostic{Message: msg}}}
	}
	issues := []report.Issue{
		at("b.asc", 1, 1, "A", "b1"),
		at("a.asc", 2, 5, "B", "a5B-first"),
		at("a.asc", 2, 5, "A", "a5A"),
		at("a.asc", 2, 3, "C", "a3"),
		at("a.asc", 1, 9, "Z", "a1"),
		at("a.asc", 2, 5, "B", "a5B-second"),
	}
	sortIssues(issues)
	var got []string
	for _, is := range issues {
		got = append(got, is.Diagnostic.Message)
	}
	if want := []string{"a1", "a3", "a5A", "a5B-first", "a5B-second", "b1"}; !slices.Equal(got, want) {
		t.Errorf("sorted %q, want %q", got, want)
	}
}

// TestSameOverrunMostLive: of the findings of one overrun, the one whose
// kernel has the most registers live is reported, the others suppressed
// as its related locations, whatever their order; one already suppressed
// is left alone, and another overrun is its own.
func TestSameOverrunMostLive(t *testing.T) {
	at := func(file string, line int, cat string, suppressed bool) report.Issue {
		is := report.Issue{Finding: runner.Finding{Analyzer: &analysis.Analyzer{Name: "x"}, Pos: token.Position{Filename: file, Line: line}, Diagnostic: analysis.Diagnostic{Category: cat}}, Line: file + " line"}
		if suppressed {
			is.Suppressed = []report.Suppression{{Kind: "inSource", Justification: "known"}}
		}
		return is
	}
	helper := regpressure.OverrunCategory + "vreg h.h:21 Helper"
	issues := []report.Issue{
		at("a.asc", 3, helper+"#3", false),
		at("b.asc", 4, helper+"#7", false),
		at("c.asc", 5, helper+"#5", false),
		at("d.asc", 6, helper+"#9", true),
		at("e.asc", 7, regpressure.OverrunCategory+"vreg h.h:40 Other#2", false),
	}
	sameOverrun(issues, "en")
	var got []string
	for _, is := range issues {
		s := fmt.Sprintf("%s %d related", is.Pos.Filename, len(is.Related))
		for _, sp := range is.Suppressed {
			s += ", " + sp.Justification
		}
		got = append(got, s)
	}
	want := []string{
		"a.asc 0 related, the same overrun as b.asc:4",
		"b.asc 2 related",
		"c.asc 0 related, the same overrun as b.asc:4",
		"d.asc 0 related, known",
		"e.asc 0 related",
	}
	if !slices.Equal(got, want) {
		t.Errorf("got\n%q\nwant\n%q", got, want)
	}
	if r := issues[1].Related; len(r) == 2 && (r[0].Pos.Filename != "a.asc" || r[1].Pos.Filename != "c.asc" || r[0].Line != "a.asc line") {
		t.Errorf("b.asc's related %+v; want a.asc's and c.asc's locations, with their lines", r)
	}
}

// TestDescribeRelatedOtherFile: a related location in another file than
// the finding's (a header) has that file's line, or none ("" when
// unknown, report.Related.Line), never the line of the same number in the
// finding's file.
func TestDescribeRelatedOtherFile(t *testing.T) {
	dir := t.TempDir()
	k := vfFile(t, dir, "k.asc", "  x = NOTE;\n")
	related := &analysis.Analyzer{
		Name: "related",
		Doc:  "reports NOTE with a related location at line 2 of h.h",
		Run: func(pass *analysis.Pass) (any, error) {
			src, err := pass.ReadFile(pass.OtherFiles[0])
			if err != nil {
				return nil, err
			}
			tf := pass.Fset.AddFile(pass.OtherFiles[0], -1, len(src))
			tf.SetLinesForContent(src)
			hdr := []byte("// h.h\nint helper();\n")
			hf := pass.Fset.AddFile(filepath.Join(filepath.Dir(pass.OtherFiles[0]), "h.h"), -1, len(hdr))
			hf.SetLinesForContent(hdr)
			off := bytes.Index(src, []byte("NOTE"))
			pass.Report(analysis.Diagnostic{Pos: tf.Pos(off), End: tf.Pos(off + 4), Message: "found NOTE",
				Related: []analysis.RelatedInformation{{Pos: hf.Pos(7), End: hf.Pos(19), Message: "the helper"}}})
			return nil, nil
		},
	}
	p := newPipeline(t, dir)
	p.Analyzers = []*analysis.Analyzer{related}
	a := p.run(k, []byte(testfs.Read(t, k)))
	if len(a.Issues) != 1 || len(a.Issues[0].Related) != 1 {
		t.Fatalf("issues %+v; want one, with its related location", a.Issues)
	}
	if r := a.Issues[0].Related[0]; filepath.Base(r.Pos.Filename) != "h.h" || r.Pos.Line != 2 || (r.Line != "" && r.Line != "int helper();") {
		t.Errorf("the related location in h.h:%d has the line %q, which is line 2 of k.asc; want h.h's line or none", r.Pos.Line, r.Line)
	}
}
