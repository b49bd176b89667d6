package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/ascvet/ascvet/ruleset"
)

// codeQualitySeverities are the severities GitLab's Code Quality report
// format accepts.
var codeQualitySeverities = []string{"info", "minor", "major", "critical", "blocker"}

// checkCodeQuality returns what out lacks of GitLab's Code Quality report
// format (docs.gitlab.com/ci/testing/code_quality, "Code Quality report
// format"): a JSON array, without a byte order mark, of objects that each
// have a description, a check_name, a fingerprint unique in the report, a
// severity GitLab knows, a location.path relative to the repository root
// and a location.lines.begin (or location.positions.begin.line) that is a
// line number. It returns nil for a valid report.
func checkCodeQuality(out string) []string {
	var errs []string
	bad := func(format string, args ...any) { errs = append(errs, fmt.Sprintf(format, args...)) }
	if strings.HasPrefix(out, "\uFEFF") {
		bad("the report starts with a byte order mark")
	}
	dec := json.NewDecoder(strings.NewReader(out))
	dec.UseNumber()
	var doc any
	if err := dec.Decode(&doc); err != nil {
		return append(errs, "not JSON: "+err.Error())
	}
	if dec.More() {
		bad("more than one JSON value")
	}
	list, ok := doc.([]any)
	if !ok {
		return append(errs, fmt.Sprintf("the report is a %T, not an array", doc))
	}
	fingerprints := map[string]int{}
	for i, v := range list {
		obj, ok := v.(map[string]any)
		if !ok {
			bad("[%d] is a %T, not an object", i, v)
			continue
		}
		str := func(m map[string]any, key string) string {
			s, ok := m[key].(string)
			if !ok || s == "" {
				bad("[%d]: %s is %v, not a non-empty string", i, key, m[key])
			}
			return s
		}
		str(obj, "description")
		str(obj, "check_name")
		if fp := str(obj, "fingerprint"); fp != "" {
			if j, dup := fingerprints[fp]; dup {
				bad("[%d]: fingerprint %s is that of [%d] too (GitLab shows them as one finding)", i, fp, j)
			}
			fingerprints[fp] = i
		}
		if sev := str(obj, "severity"); sev != "" && !slices.Contains(codeQualitySeverities, sev) {
			bad("[%d]: severity %q is not one of %v", i, sev, codeQualitySeverities)
		}
		loc, ok := obj["location"].(map[string]any)
		if !ok {
			bad("[%d]: no location object", i)
			continue
		}
		if p := str(loc, "path"); p != "" && !relativeRepoPath(p) {
			bad("[%d]: location.path %q is not a relative slash path in the repository", i, p)
		}
		line := func(m map[string]any, keys ...string) (json.Number, bool) {
			for _, k := range keys[:len(keys)-1] {
				if m, _ = m[k].(map[string]any); m == nil {
					return "", false
				}
			}
			n, ok := m[keys[len(keys)-1]].(json.Number)
			return n, ok
		}
		n, ok := line(loc, "lines", "begin")
		if !ok {
			n, ok = line(loc, "positions", "begin", "line")
		}
		if v, err := n.Int64(); !ok || err != nil || v < 1 {
			bad("[%d]: neither location.lines.begin nor location.positions.begin.line is a line number (%v)", i, loc)
		}
	}
	return errs
}

// relativeRepoPath reports whether p is a path GitLab can take as relative
// to the repository: no leading slash or drive, no backslash, no "./".
var absPathRE = regexp.MustCompile(`^(/|[A-Za-z]:|\\)`)

func relativeRepoPath(p string) bool {
	return !absPathRE.MatchString(p) && !strings.Contains(p, `\`) && !strings.HasPrefix(p, "./") && !strings.Contains(p, "//")
}

// validateCodeQuality fails t unless out is a valid Code Quality report,
// and returns its issues.
func validateCodeQuality(t *testing.T, out string) []codeQualityIssue {
	t.Helper()
	for _, e := range checkCodeQuality(out) {
		t.Errorf("-f codequality: %s", e)
	}
	var issues []codeQualityIssue
	if err := json.Unmarshal([]byte(out), &issues); err != nil {
		t.Fatalf("-f codequality: %v\n%s", err, out)
	}
	return issues
}

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
		if got := checkCodeQuality(tc.doc) == nil; got != tc.valid {
			t.Errorf("check says valid=%v for %s (%v), want %v", got, tc.doc, checkCodeQuality(tc.doc), tc.valid)
		}
	}
}

// TestFormatCodeQualityGolden writes the hand-made report: the suppressed
// finding is left out, paths are relative to the working directory's root
// (the file outside it climbs out, never absolute), severities map as
// documented.
func TestFormatCodeQualityGolden(t *testing.T) {
	r := formatReport(t)
	out := render(t, func(b *bytes.Buffer) error { return writeCodeQuality(b, r) })
	golden(t, "format/codequality.golden", out)
	issues := validateCodeQuality(t, out)
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
	if empty := render(t, func(b *bytes.Buffer) error { return writeCodeQuality(b, &report{}) }); empty != "[]\n" {
		t.Errorf("empty report %q, want []", empty)
	}
}

func TestCodeQualitySeverity(t *testing.T) {
	for s, want := range map[ruleset.Severity]string{ruleset.Error: "critical", ruleset.Warning: "major", ruleset.Info: "info"} {
		if got := codeQualitySeverity(s); got != want {
			t.Errorf("%v: %s, want %s", s, got, want)
		}
	}
}

// TestCodeQualityFingerprints: identical findings get distinct
// fingerprints, the first its own; all stay when lines are added above
// them.
func TestCodeQualityFingerprints(t *testing.T) {
	rule := lookupRule(t, "ASC1001")
	issues := func(shift int) []codeQualityIssue {
		var list []issue
		for i, fp := range []string{"same", "same", "other", "same"} {
			is := mkIssue(rule, at("k.asc", 10+i+shift, 5, 0), at("k.asc", 10+i+shift, 9, 0), "m", "LoadUnAlignPre(u, s);")
			is.Fingerprint = fp
			list = append(list, is)
		}
		out := render(t, func(b *bytes.Buffer) error { return writeCodeQuality(b, &report{Issues: list, WorkDir: "/w"}) })
		return validateCodeQuality(t, out)
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
	out := render(t, func(b *bytes.Buffer) error { return writeCodeQuality(b, &report{Issues: []issue{is}}) })
	if got := validateCodeQuality(t, out); len(got) != 1 || len(got[0].Fingerprint) != 32 {
		t.Errorf("issue without a fingerprint: %+v", got)
	}
}

// TestCodeQualityPaths: a path is from the repository root of the working
// directory, wherever in the repository ascvet runs and however the file
// was named; a file outside the repository climbs out of it.
func TestCodeQualityPaths(t *testing.T) {
	top := t.TempDir()
	repo := filepath.Join(top, "repo")
	for _, d := range []string{filepath.Join(repo, ".git"), filepath.Join(repo, "sub", "k"), filepath.Join(top, "other")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	wd := filepath.Join(repo, "sub")
	r := &report{WorkDir: wd, roots: newRootFinder(wd)}
	p := newCodeQualityPaths(r)
	for name, want := range map[string]string{
		"k/a.asc":                             "sub/k/a.asc",
		"./k/../k/a.asc":                      "sub/k/a.asc",
		filepath.Join(wd, "k", "a.asc"):       "sub/k/a.asc",
		"../top.asc":                          "top.asc",
		filepath.Join(top, "other", "b.asc"):  "../other/b.asc",
		"bad\xffname.asc":                     `"sub/bad\377name.asc"`,
		filepath.Join(repo, "nl\nname.asc"):   "nl\nname.asc",
		filepath.Join(repo, "sp ace/ü.asc"):   "sp ace/ü.asc",
		filepath.Join(top, "other", "c.asc"):  "../other/c.asc",
		filepath.Join(repo, "sub", "..", "x"): "x",
	} {
		if got := p.path(name); got != want {
			t.Errorf("path(%q) = %q, want %q", name, got, want)
		}
	}
}

// TestCodeQualityEndToEnd runs the driver over the example kernels, the
// suppressed findings asked for: the report is valid, holds every
// unsuppressed finding of -f json with its fingerprint, paths from the
// repository root, and fails the run like every format.
func TestCodeQualityEndToEnd(t *testing.T) {
	code, out, errs := ascvet(t, "-f", "codequality", "-show-ignored", "../../testdata/kernels")
	if code != exitFindings || errs != "" {
		t.Errorf("exit %d, stderr %q; want %d and nothing", code, errs, exitFindings)
	}
	golden(t, "kernels.codequality.golden", out)
	issues := validateCodeQuality(t, out)

	_, js, _ := ascvet(t, "-f", "json", "-show-ignored", "../../testdata/kernels")
	var want []jsonFinding
	suppressed := 0
	for _, f := range validateFindingsJSONTyped(t, js) {
		if len(f.Suppressed) > 0 {
			suppressed++
			continue
		}
		want = append(want, f)
	}
	if suppressed == 0 {
		t.Fatal("the examples should hold a suppressed finding")
	}
	if len(issues) != len(want) {
		t.Fatalf("%d issues, want the %d unsuppressed findings of -f json", len(issues), len(want))
	}
	for i, is := range issues {
		f := want[i]
		if is.CheckName != f.Rule || is.Location.Lines.Begin != f.Line || is.Severity != codeQualitySeverity(f.Severity) ||
			is.Location.Path != "testdata/kernels/"+filepath.Base(f.File) || is.Fingerprint != f.Fingerprint && !repeated(want, i) {
			t.Errorf("issue %d %+v, want the finding %+v", i, is, f)
		}
	}
}

// repeated reports whether the finding i has the fingerprint of an
// earlier one.
func repeated(fs []jsonFinding, i int) bool {
	return slices.ContainsFunc(fs[:i], func(f jsonFinding) bool { return f.Fingerprint == fs[i].Fingerprint })
}

// validateFindingsJSONTyped checks -f json output and decodes it.
func validateFindingsJSONTyped(t *testing.T, out string) []jsonFinding {
	t.Helper()
	validateFindingsJSON(t, out)
	var r jsonReport
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	return r.Findings
}
