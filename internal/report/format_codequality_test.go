package report

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ascvet/ascvet/internal/golden"
	"github.com/ascvet/ascvet/internal/repo"
	"github.com/ascvet/ascvet/internal/report/reporttest"
	"github.com/ascvet/ascvet/ruleset"
)

// The check must reject what GitLab rejects, or passing it proves nothing.
func TestCodeQualityCheckRejects(t *testing.T) {
	const ok = `{"description":"d","check_name":"ASC1001","fingerprint":"f","severity":"major","location":{"path":"k/a.asc","lines":{"begin":3}}}`
	mod := func(old, new string) string { return "[" + strings.Replace(ok, old, new, 1) + "]" }
	for _, tc := range []struct {
		doc   string
		valid bool
	}{
		{"[" + ok + "]", true},
		{"[]", true},
		{mod(`"lines":{"begin":3}`, `"positions":{"begin":{"line":3,"column":1}}`), true},
		{ok, false},                        // not an array
		{"\uFEFF[" + ok + "]", false},      // a byte order mark
		{"[" + ok + "," + ok + "]", false}, // the same fingerprint twice
		{mod(`"description":"d",`, ""), false},
		{mod(`"check_name":"ASC1001"`, `"check_name":""`), false},
		{mod(`"fingerprint":"f"`, `"fingerprint":3`), false},
		{mod(`"major"`, `"warning"`), false},
		{mod(`"k/a.asc"`, `"/abs/a.asc"`), false},
		{mod(`"k/a.asc"`, `"./k/a.asc"`), false},
		{mod(`"k/a.asc"`, `"C:/k/a.asc"`), false},
		{mod(`"k/a.asc"`, `"k\\a.asc"`), false},
		{mod(`"begin":3`, `"begin":0`), false},
		{mod(`"begin":3`, `"begin":"3"`), false},
		{mod(`"begin":3`, `"begin":2.5`), false},
		{mod(`,"lines":{"begin":3}`, ""), false},
	} {
		if got := reporttest.CheckCodeQuality(tc.doc) == nil; got != tc.valid {
			t.Errorf("check says valid=%v for %s (%v), want %v", got, tc.doc, reporttest.CheckCodeQuality(tc.doc), tc.valid)
		}
	}
}

// TestFormatCodeQualityGolden writes the hand-made report: the suppressed
// finding is left out, paths are relative to the working directory's root
// (the file outside it climbs out, never absolute), severities map as
// documented.
func TestFormatCodeQualityGolden(t *testing.T) {
	r := formatReport(t)
	out := render(t, func(b *bytes.Buffer) error { return WriteCodeQuality(b, r) })
	golden.Check(t, "format/codequality.golden", out)
	issues := reporttest.DecodeCodeQuality[CodeQualityIssue](t, out)
	if len(issues) != 4 {
		t.Fatalf("%d issues, want 4 (the suppressed one left out)", len(issues))
	}
	want := []struct{ path, sev, fp string }{
		{"kernels/a,b:c.cpp", "critical", "fp-a"},
		{"kernels/中文.cpp", "major", "fp-b"},
		{"kernels/b.cpp", "info", ""},
		{"../../opt/other/x.cpp", "major", ""},
	}
	for i, w := range want {
		is := issues[i]
		if is.Location.Path != w.path || is.Severity != w.sev || w.fp != "" && is.Fingerprint != w.fp {
			t.Errorf("issue %d: %s %s %s, want %s %s %s", i, is.Location.Path, is.Severity, is.Fingerprint, w.path, w.sev, w.fp)
		}
		if is.CheckName != r.Issues[i].RuleID() || is.Description != r.Issues[i].Message+" ["+r.Issues[i].RuleID()+"]" {
			t.Errorf("issue %d: check %s, description %q", i, is.CheckName, is.Description)
		}
	}
	if l := issues[2].Location.Lines; l.Begin != 7 || l.End != 9 {
		t.Errorf("multi-line finding: lines %+v, want 7 to 9", l)
	}
	if l := issues[3].Location.Lines; l.Begin != 5 || l.End != 5 {
		t.Errorf("finding without a column: lines %+v, want 5 to 5", l)
	}
	if empty := render(t, func(b *bytes.Buffer) error { return WriteCodeQuality(b, &Report{}) }); empty != "[]\n" {
		t.Errorf("empty report %q, want []", empty)
	}
}

func TestCodeQualitySeverity(t *testing.T) {
	for s, want := range map[ruleset.Severity]string{ruleset.Error: "critical", ruleset.Warning: "major", ruleset.Info: "info"} {
		if got := CodeQualitySeverity(s); got != want {
			t.Errorf("%v: %s, want %s", s, got, want)
		}
	}
}

// TestCodeQualityFingerprints: identical findings get distinct
// fingerprints, the first its own; all stay when lines are added above
// them.
func TestCodeQualityFingerprints(t *testing.T) {
	rule := lookupRule(t, "ASC1001")
	issues := func(shift int) []CodeQualityIssue {
		var list []Issue
		for i, fp := range []string{"same", "same", "other", "same"} {
			is := mkIssue(rule, at("k.asc", 10+i+shift, 5, 0), at("k.asc", 10+i+shift, 9, 0), "m", "LoadUnAlignPre(u, s);")
			is.Fingerprint = fp
			list = append(list, is)
		}
		out := render(t, func(b *bytes.Buffer) error { return WriteCodeQuality(b, &Report{Issues: list, WorkDir: "/w"}) })
		return reporttest.DecodeCodeQuality[CodeQualityIssue](t, out)
	}
	before, after := issues(0), issues(20)
	var fps []string
	for i := range before {
		fps = append(fps, before[i].Fingerprint)
		if before[i].Fingerprint != after[i].Fingerprint {
			t.Errorf("issue %d: fingerprint %s became %s when lines were added above", i, before[i].Fingerprint, after[i].Fingerprint)
		}
	}
	if fps[0] != "same" || fps[2] != "other" || fps[1] == fps[0] || fps[3] == fps[0] || fps[3] == fps[1] {
		t.Errorf("fingerprints %q: want the first of each its own, the repeats distinct", fps)
	}
	// An issue made without a fingerprint still gets one.
	is := mkIssue(rule, at("k.asc", 3, 1, 0), at("k.asc", 3, 2, 0), "m", "x;")
	out := render(t, func(b *bytes.Buffer) error { return WriteCodeQuality(b, &Report{Issues: []Issue{is}}) })
	if got := reporttest.DecodeCodeQuality[CodeQualityIssue](t, out); len(got) != 1 || len(got[0].Fingerprint) != 32 {
		t.Errorf("issue without a fingerprint: %+v", got)
	}
}

// TestCodeQualityPaths: a path is from the repository root of the working
// directory, wherever in the repository ascvet runs and however the file
// was named; a file outside the repository climbs out of it.
func TestCodeQualityPaths(t *testing.T) {
	top := t.TempDir()
	checkout := filepath.Join(top, "repo")
	for _, d := range []string{filepath.Join(checkout, ".git"), filepath.Join(checkout, "sub", "k"), filepath.Join(top, "other")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	wd := filepath.Join(checkout, "sub")
	r := &Report{WorkDir: wd, Roots: repo.NewRoots(wd)}
	p := newCodeQualityPaths(r)
	for name, want := range map[string]string{
		"k/a.asc":                                 "sub/k/a.asc",
		"./k/../k/a.asc":                          "sub/k/a.asc",
		filepath.Join(wd, "k", "a.asc"):           "sub/k/a.asc",
		"../top.asc":                              "top.asc",
		filepath.Join(top, "other", "b.asc"):      "../other/b.asc",
		"bad\xffname.asc":                         `"sub/bad\377name.asc"`,
		filepath.Join(checkout, "nl\nname.asc"):   "nl\nname.asc",
		filepath.Join(checkout, "sp ace/ü.asc"):   "sp ace/ü.asc",
		filepath.Join(top, "other", "c.asc"):      "../other/c.asc",
		filepath.Join(checkout, "sub", "..", "x"): "x",
	} {
		if got := p.path(name); got != want {
			t.Errorf("path(%q) = %q, want %q", name, got, want)
		}
	}
}
