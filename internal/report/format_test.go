package report

import (
	"bufio"
	"bytes"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"go/token"
	"maps"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"

	_ "github.com/ascvet/ascvet/analyzers/all" // registers the rules the reports name
	"github.com/ascvet/ascvet/analyzers/fixes"
	"github.com/ascvet/ascvet/analyzers/runner"
	"github.com/ascvet/ascvet/analyzers/simcost"
	"github.com/ascvet/ascvet/internal/golden"
	"github.com/ascvet/ascvet/internal/report/reporttest"
	"github.com/ascvet/ascvet/ruleset"
)

// lookupRule returns a registered rule (the test imports analyzers/all).
func lookupRule(t *testing.T, id string) *ruleset.Rule {
	t.Helper()
	r, ok := ruleset.Lookup(id)
	if !ok {
		t.Fatalf("rule %s is not registered", id)
	}
	return r
}

// frozenRule is a copy of a registered rule with its documentation fixed,
// so that the goldens change with the writers, not with the rule texts
// (TestFormatSARIFAllRules checks the real ones).
func frozenRule(t *testing.T, id string) *ruleset.Rule {
	r := *lookupRule(t, id)
	r.Text = "What " + id + " checks, and why."
	r.Before, r.After = "Before(x);", "After(x);\n// ```fence```"
	r.Tags, r.Precision, r.Options = []string{"test", "tag"}, "high", nil
	return &r
}

// at is a position: file, line, byte column, byte offset.
func at(file string, line, col, off int) token.Position {
	return token.Position{Filename: file, Line: line, Column: col, Offset: off}
}

func mkIssue(r *ruleset.Rule, pos, end token.Position, msg, line string) Issue {
	return Issue{
		Finding: runner.Finding{Analyzer: r.Analyzer, Rule: r, Diagnostic: analysis.Diagnostic{Message: msg}, Pos: pos, End: end},
		Level:   r.Severity,
		Message: msg,
		Line:    line,
	}
}

// withRelated makes the writers see rel as the related locations of the
// issues of rule id.
//
// TODO(lead): when issue has a Related field, set it in formatReport
// instead and delete this.
func withRelated(t *testing.T, rel map[string][]Related) {
	old := issueRelated
	issueRelated = func(is *Issue) []Related { return rel[is.RuleID()] }
	t.Cleanup(func() { issueRelated = old })
}

// The line of the Chinese file: the finding starts at LoadUnAlignPre, byte
// column 19 but UTF-16 column 13 ("中", "文" are 3 bytes and 1 unit each,
// "😀" 4 bytes and 2 units).
const zhLine = `x = "中文😀"; LoadUnAlignPre(u0, src);`

// formatReport is a report with the cases the writers must get right: a
// path with a comma and a colon, messages with "%", CR, LF, "|", markup,
// brackets and Chinese text, a multi-byte line, a multi-line finding, an
// unknown column, a file outside the working directory, a fix, a cost and
// a suppressed finding.
func formatReport(t *testing.T) *Report {
	e, w, i := frozenRule(t, "ASC2001"), frozenRule(t, "ASC1001"), frozenRule(t, "ASC3004")
	e.Text = strings.Repeat("A misaligned StoreAlign writes the wrong bytes. ", 30) // over GitHub's 1024
	w.Text = "Prime the stream once: LoadUnAlignPre<T> a*b*c | x_y [z] & 100%,\nwrapped line.\n\nSecond paragraph."
	w.Options = []ruleset.Option{{Name: "confidence", Default: "high", Doc: "high or low"}, {Name: "machine", Doc: "model file"}, {Name: "odd`name", Default: "`x`", Doc: "backticks"}}
	const wd = "/work/proj"
	zhCol := strings.Index(zhLine, "LoadUnAlignPre") + 1
	zhEnd := strings.LastIndex(zhLine, ")") + 2 // just after the call
	issues := []Issue{
		mkIssue(e, at("kernels/a,b:c.cpp", 12, 5, 300), at("kernels/a,b:c.cpp", 12, 19, 314),
			"stride 100% of VL is not 32-byte aligned [dist=NORM]\nuse a multiple of 32 | or DIST_UNPACK", "    Store(dst, r, 100); // a[i]"),
		mkIssue(w, at("kernels/中文.cpp", 3, zhCol, 60), at("kernels/中文.cpp", 3, zhEnd, 60+zhEnd-zhCol),
			"LoadUnAlignPre 在循环内重复初始化\r流；将它移到循环之前 <T> *x*", zhLine),
		mkIssue(i, at(wd+"/kernels/b.cpp", 7, 1, 90), at(wd+"/kernels/b.cpp", 9, 2, 140),
			"mask computed negated; use Not once", "for (...) {"),
		mkIssue(w, at("/opt/other/x.cpp", 5, 0, 0), at("/opt/other/x.cpp", 5, 0, 0),
			"position without a column", ""),
		mkIssue(i, at("kernels/b.cpp", 2, 3, 20), at("kernels/b.cpp", 2, 10, 27),
			"suppressed finding", "  Select(m);"),
	}
	issues[0].LineHash, issues[0].Fingerprint = "8d3f0c1a2b:1", "fp-a"
	issues[0].Fixes = []fixes.Fix{{Pos: 300, Rule: "ASC2001", Message: "use DIST_UNPACK", Edits: []fixes.Edit{
		{Start: 309, End: 312, New: []byte("128")}, {Start: 314, End: 314, New: []byte(" /* 中 */")}, {Start: 320, End: 325},
	}}}
	issues[1].LineHash, issues[1].Fingerprint = "77aa:1", "fp-b"
	issues[1].Cost = &simcost.Cost{Before: 1200, After: 1000, Iterations: 100}
	issues[4].Suppressed = []Suppression{{Kind: "inSource", Justification: "checked by hand, 50% margin"}}
	withRelated(t, map[string][]Related{
		"ASC2001": {{Pos: at("kernels/a,b:c.cpp", 10, 3, 250), End: at("kernels/a,b:c.cpp", 10, 9, 256), Message: "the stride [VL] is set here"}},
	})
	return &Report{
		Issues:    issues,
		Files:     4,
		Rules:     []*ruleset.Rule{w, e, i}, // sorted by ID
		Lang:      "en",
		Args:      []string{"-f", "sarif", "./kernels"},
		WorkDir:   wd,
		Exit:      exitFindings,
		Completed: true,
		Version:   "0.2.0",
	}
}

// The driver's exit codes for a run with findings and for a usage error,
// which the reports carry (SARIF invocations).
const (
	exitFindings = 1
	exitUsage    = 2
)

func render(t *testing.T, write func(*bytes.Buffer) error) string {
	t.Helper()
	var b bytes.Buffer
	if err := write(&b); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func TestFormatSARIFGolden(t *testing.T) {
	r := formatReport(t)
	out := render(t, func(b *bytes.Buffer) error { return WriteSARIF(b, r) })
	reporttest.ValidateSARIF(t, out)
	golden.Check(t, "format/sarif.golden", out)
	if again := render(t, func(b *bytes.Buffer) error { return WriteSARIF(b, r) }); again != out {
		t.Error("two runs over one report wrote different SARIF")
	}
}

func TestFormatSARIFSemantics(t *testing.T) {
	r := formatReport(t)
	s := reporttest.ParseSARIF(t, render(t, func(b *bytes.Buffer) error { return WriteSARIF(b, r) }))
	reporttest.CheckSARIF(t, s, MaxDescription)
	run := s.Runs[0]
	if len(run.Results) != len(r.Issues) {
		t.Fatalf("%d results for %d issues", len(run.Results), len(r.Issues))
	}
	if got := run.OriginalURIBaseIDs[SrcRoot].URI; got != "file:///work/proj/" {
		t.Errorf("%%SRCROOT%% is %q", got)
	}
	res := run.Results

	// Paths: escaped relative URIs under the working directory, file://
	// outside it.
	for k, want := range map[int]string{0: "kernels/a%2Cb%3Ac.cpp", 1: "kernels/%E4%B8%AD%E6%96%87.cpp", 2: "kernels/b.cpp", 3: "file:///opt/other/x.cpp"} {
		if got := res[k].Locations[0].PhysicalLocation.ArtifactLocation.URI; got != want {
			t.Errorf("result %d: uri %q, want %q", k, got, want)
		}
	}
	if u, _ := url.Parse(res[0].Locations[0].PhysicalLocation.ArtifactLocation.URI); u.Path != "kernels/a,b:c.cpp" {
		t.Errorf("uri decodes to %q", u.Path)
	}

	// Columns: UTF-16 on the multi-byte line, 1 for an unknown column, no
	// endColumn for a multi-line region.
	reg := res[1].Locations[0].PhysicalLocation.Region
	// The call ends before the final ";": all runes but that one, one of
	// them two units wide, and the end column is exclusive.
	if want := len([]rune(zhLine)) + 1; reg.StartColumn != 13 || reg.EndColumn != want {
		t.Errorf("UTF-16 region %+v, want columns 13..%d", reg, want)
	}
	if reg := res[3].Locations[0].PhysicalLocation.Region; reg.StartColumn != 1 || reg.EndColumn != 1 {
		t.Errorf("unknown column: region %+v", reg)
	}
	if reg := res[2].Locations[0].PhysicalLocation.Region; reg.EndLine != 9 || reg.EndColumn != 0 {
		t.Errorf("multi-line region %+v, want endLine 9 and no endColumn", reg)
	}

	// The message: brackets escaped, the related location linked.
	if want := "stride 100% of VL is not 32-byte aligned \\[dist=NORM\\]\nuse a multiple of 32 | or DIST_UNPACK\n[the stride \\[VL\\] is set here](1)"; res[0].Message.Text != want {
		t.Errorf("message %q, want %q", res[0].Message.Text, want)
	}
	if len(res[0].Related) != 1 || res[0].Related[0].ID != 1 || res[0].Related[0].PhysicalLocation.Region.StartLine != 10 {
		t.Errorf("related locations %+v", res[0].Related)
	}

	// Fingerprints, fixes, suppressions, cost.
	if p := res[0].Partial; p["primaryLocationLineHash"] != "8d3f0c1a2b:1" || p["ascvet/v1"] != "fp-a" {
		t.Errorf("partialFingerprints %v", p)
	}
	if res[2].Partial != nil {
		t.Errorf("partialFingerprints %v for an issue without any", res[2].Partial)
	}
	reps := res[0].Fixes[0].ArtifactChanges[0].Replacements
	if len(reps) != 3 || *reps[0].DeletedRegion.ByteOffset != 309 || *reps[0].DeletedRegion.ByteLength != 3 || reps[0].InsertedContent.Text != "128" ||
		*reps[1].DeletedRegion.ByteLength != 0 || reps[1].InsertedContent.Text != " /* 中 */" || reps[2].InsertedContent != nil {
		t.Errorf("fix replacements %+v", reps)
	}
	if sup := res[4].Suppressions; len(sup) != 1 || sup[0].Kind != "inSource" || sup[0].Status != "accepted" || sup[0].Justification != "checked by hand, 50% margin" {
		t.Errorf("suppressions %+v", sup)
	}
	if sup := res[0].Suppressions; sup == nil || len(sup) != 0 {
		t.Errorf("unsuppressed result: suppressions %v, want []", sup)
	}
	if p := res[1].Properties; p["cycles_before"] != 1200.0 || p["cycles_after"] != 1000.0 || p["cycles_saved_per_iteration"] != 2.0 {
		t.Errorf("cost properties %v", p)
	}
	if res[0].Properties != nil {
		t.Errorf("cost properties %v without a cost", res[0].Properties)
	}
	if res[0].Level != "error" || res[1].Level != "warning" || res[2].Level != "note" {
		t.Errorf("levels %s %s %s", res[0].Level, res[1].Level, res[2].Level)
	}
}

// Every registered rule, each with a finding: all rule help validates and
// every ruleIndex is right.
func TestFormatSARIFAllRules(t *testing.T) {
	r := &Report{Rules: ruleset.All(), Lang: "zh", WorkDir: "/w", Exit: exitUsage}
	for k, rule := range r.Rules {
		is := mkIssue(rule, at("k.cpp", k+1, 1, 0), at("k.cpp", k+1, 4, 3), "m "+rule.ID, "abcd")
		is.Level = ruleset.Severity(k % 3) // whatever the config says
		r.Issues = append(r.Issues, is)
	}
	out := render(t, func(b *bytes.Buffer) error { return WriteSARIF(b, r) })
	reporttest.ValidateSARIF(t, out)
	s := reporttest.ParseSARIF(t, out)
	reporttest.CheckSARIF(t, s, MaxDescription)
	if got := len(s.Runs[0].Tool.Driver.Rules); got != len(r.Rules) || got == 0 {
		t.Errorf("%d rules in the driver, want %d", got, len(r.Rules))
	}
	for k, res := range s.Runs[0].Results {
		if want := sarifLevel(ruleset.Severity(k % 3)); res.Level != want {
			t.Errorf("result %d: level %s, want the issue's %s", k, res.Level, want)
		}
	}
	var inv struct {
		Runs []struct {
			Invocations []struct {
				ExecutionSuccessful bool
				ExitCode            int
			}
			AutomationDetails struct{ ID string }
		}
	}
	if err := json.Unmarshal([]byte(out), &inv); err != nil {
		t.Fatal(err)
	}
	if i := inv.Runs[0].Invocations[0]; i.ExecutionSuccessful || i.ExitCode != exitUsage {
		t.Errorf("invocation %+v for exit %d", i, exitUsage)
	}
	if inv.Runs[0].AutomationDetails.ID != "ascvet/" {
		t.Errorf("automationDetails.id %q", inv.Runs[0].AutomationDetails.ID)
	}
}

// An empty run is still a valid log, with results present and empty.
func TestFormatSARIFEmpty(t *testing.T) {
	out := render(t, func(b *bytes.Buffer) error { return WriteSARIF(b, &Report{}) })
	reporttest.ValidateSARIF(t, out)
	if !strings.Contains(out, `"results": []`) {
		t.Errorf("no empty results array:\n%s", out)
	}
}

// The primaryLocationLineHash of a finding stays when lines are inserted
// above it, as does the whole result but for the line numbers.
func TestFormatSARIFFingerprintsMove(t *testing.T) {
	src := "void f() {\n  for (int i = 0; i < n; ++i) {\n    LoadUnAlignPre(u0, src + i * VL);\n  }\n}\n"
	rule := lookupRule(t, "ASC1001")
	result := func(src string, line int) (map[string]string, int) {
		lines := strings.Split(src, "\n")
		is := mkIssue(rule, at("k.cpp", line, 5, 0), at("k.cpp", line, 19, 0), "m", lines[line-1])
		is.LineHash = lineHashes([]byte(src))[line-1]
		is.Fingerprint = "fp"
		s := reporttest.ParseSARIF(t, render(t, func(b *bytes.Buffer) error {
			return WriteSARIF(b, &Report{Issues: []Issue{is}, Rules: []*ruleset.Rule{rule}})
		}))
		res := s.Runs[0].Results[0]
		return res.Partial, res.Locations[0].PhysicalLocation.Region.StartLine
	}
	before, l1 := result(src, 3)
	after, l2 := result("// Copyright\n#include \"k.h\"\n\n"+src, 6)
	if l1 != 3 || l2 != 6 {
		t.Fatalf("lines %d, %d", l1, l2)
	}
	if before["primaryLocationLineHash"] == "" || !maps.Equal(before, after) {
		t.Errorf("fingerprints changed when lines were inserted above: %v, then %v", before, after)
	}
	edited, _ := result(strings.Replace(src, "src + i * VL", "src", 1), 3)
	if edited["primaryLocationLineHash"] == before["primaryLocationLineHash"] {
		t.Errorf("primaryLocationLineHash kept when the line changed: %v", edited)
	}
}

func TestFormatCapIssues(t *testing.T) {
	var issues []Issue
	for _, s := range []ruleset.Severity{ruleset.Info, ruleset.Error, ruleset.Warning, ruleset.Error, ruleset.Info} {
		issues = append(issues, Issue{Level: s})
	}
	keep, dropped := capIssues(issues, 3)
	if !slices.Equal(keep, []int{1, 2, 3}) || dropped != 2 {
		t.Errorf("capIssues kept %v, dropped %d; want [1 2 3], 2", keep, dropped)
	}
	if keep, dropped := capIssues(issues, 5); len(keep) != 5 || dropped != 0 {
		t.Errorf("capIssues under the cap kept %v, dropped %d", keep, dropped)
	}
}

// The addresses of a rule's sources reach SARIF's help.markdown as
// written, for GitHub to link; the prose around them is escaped, and so is
// a "URL" that holds markup.
func TestFormatSARIFHelpURLs(t *testing.T) {
	urlRE := regexp.MustCompile(`https://\S+`)
	n := 0
	for _, r := range ruleset.All() {
		for _, lang := range []string{"en", "zh"} {
			md := helpMarkdown(r, lang)
			for _, u := range urlRE.FindAllString(r.Doc(lang).Text, -1) {
				n++
				if !strings.Contains(md, " "+u) {
					t.Errorf("%s (%s): help.markdown changes %s", r.ID, lang, u)
				}
			}
		}
	}
	if n == 0 {
		t.Error("no rule text has a URL")
	}
	for in, want := range map[string]string{
		"see https://x.org/a_b*c now_":  `see https://x.org/a_b*c now\_`,
		"https://x.org/a|b <https://y>": `https://x.org/a\|b \<https://y\>`,
		"xhttps://a_b":                  `xhttps://a\_b`,
	} {
		if got := escapeProse(in); got != want {
			t.Errorf("escapeProse(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestFormatTruncateText(t *testing.T) {
	long := strings.Repeat("这是一个很长的句子。", 120) + "tail"
	got := truncateText(long, MaxDescription)
	if n := len([]rune(got)); n > MaxDescription || !strings.HasSuffix(got, "。 …") {
		t.Errorf("truncateText: %d characters, ends %q", n, got[len(got)-12:])
	}
	if got := DirURI("/"); got != "file:///" {
		t.Errorf("DirURI(/) = %q", got)
	}
	if got := DirURI("/a b/c"); got != "file:///a%20b/c/" {
		t.Errorf("DirURI = %q", got)
	}
	if truncateText("short", 10) != "short" {
		t.Error("truncateText changed a short text")
	}
	if got := pascalCase("unalign-pre-in-loop"); got != "UnalignPreInLoop" {
		t.Errorf("pascalCase: %q", got)
	}
}

func TestFormatUTF16Col(t *testing.T) {
	for _, tt := range []struct {
		line      string
		col, want int
	}{
		{"abc", 1, 1}, {"abc", 3, 3}, {"abc", 0, 1}, {"abc", 5, 5}, // past the end: bytes of the line ending
		{"中x", 4, 2}, {"中x", 5, 3}, {"😀x", 5, 3}, {"😀x", 6, 4},
		{"", 7, 7},      // unknown line: bytes
		{"\xffa", 2, 2}, // invalid UTF-8: a unit per byte
		{"é中😀", 10, 5},  // 2+3+4 bytes, 1+1+2 units
	} {
		if got := utf16Col(tt.line, tt.col); got != tt.want {
			t.Errorf("utf16Col(%q, %d) = %d, want %d", tt.line, tt.col, got, tt.want)
		}
	}
}

// --- github ---

func TestFormatGitHubGolden(t *testing.T) {
	r := formatReport(t)
	var summary bytes.Buffer
	out := render(t, func(b *bytes.Buffer) error { return WriteGitHub(b, r, &summary) })
	golden.Check(t, "format/github.golden", out)
	golden.Check(t, "format/github-summary.golden", summary.String())
	if strings.Contains(out, "suppressed finding") {
		t.Error("a suppressed finding was annotated")
	}
}

func TestFormatGitHubEscape(t *testing.T) {
	for _, tt := range []struct{ in, data, prop string }{
		{"100%", "100%25", "100%25"},
		{"a\nb\r\nc", "a%0Ab%0D%0Ac", "a%0Ab%0D%0Ac"},
		{"a,b:c", "a,b:c", "a%2Cb%3Ac"},
		{"%0A", "%250A", "%250A"}, // percent first: no double meaning
		{"中文::x", "中文::x", "中文%3A%3Ax"},
	} {
		if got := escapeData(tt.in); got != tt.data {
			t.Errorf("escapeData(%q) = %q, want %q", tt.in, got, tt.data)
		}
		if got := escapeProperty(tt.in); got != tt.prop {
			t.Errorf("escapeProperty(%q) = %q, want %q", tt.in, got, tt.prop)
		}
	}
}

// command is a parsed workflow command line.
type command struct {
	name  string
	props map[string]string
	msg   string
}

// parseCommands parses workflow commands as the runner does, unescaping.
func parseCommands(t *testing.T, out string) []command {
	t.Helper()
	unData := strings.NewReplacer("%0D", "\r", "%0A", "\n", "%25", "%")
	unProp := strings.NewReplacer("%0D", "\r", "%0A", "\n", "%3A", ":", "%2C", ",", "%25", "%")
	var cmds []command
	sc := bufio.NewScanner(strings.NewReader(out))
	for sc.Scan() {
		line := sc.Text()
		if !strings.HasPrefix(line, "::") {
			t.Fatalf("not a workflow command: %q", line)
		}
		head, msg, ok := strings.Cut(line[2:], "::")
		if !ok {
			t.Fatalf("no message: %q", line)
		}
		name, props, _ := strings.Cut(head, " ")
		c := command{name: name, props: map[string]string{}, msg: unData.Replace(msg)}
		if props != "" {
			for p := range strings.SplitSeq(props, ",") {
				k, v, ok := strings.Cut(p, "=")
				if !ok {
					t.Fatalf("property %q in %q", p, line)
				}
				c.props[k] = unProp.Replace(v)
			}
		}
		cmds = append(cmds, c)
	}
	return cmds
}

func TestFormatGitHubRoundTrip(t *testing.T) {
	r := formatReport(t)
	cmds := parseCommands(t, render(t, func(b *bytes.Buffer) error { return WriteGitHub(b, r, nil) }))
	want := []struct {
		name, file, msg string
		props           map[string]string
	}{
		{"error", "kernels/a,b:c.cpp", r.Issues[0].Message, map[string]string{"line": "12", "endLine": "12", "col": "5", "endColumn": "19", "title": "ASC2001 dist-alignment"}},
		{"warning", "kernels/中文.cpp", r.Issues[1].Message, map[string]string{"col": "13", "title": "ASC1001 unalign-pre-in-loop"}},
		{"warning", "/opt/other/x.cpp", r.Issues[3].Message, map[string]string{"col": "1", "endColumn": "1"}},
		{"notice", "kernels/b.cpp", r.Issues[2].Message, map[string]string{"line": "7", "endLine": "9"}},
	}
	if len(cmds) != len(want) {
		t.Fatalf("%d commands, want %d: %+v", len(cmds), len(want), cmds)
	}
	for k, w := range want {
		c := cmds[k]
		if c.name != w.name || c.props["file"] != w.file || c.msg != w.msg {
			t.Errorf("command %d: %s file=%q %q; want %s file=%q %q", k, c.name, c.props["file"], c.msg, w.name, w.file, w.msg)
		}
		for p, v := range w.props {
			if c.props[p] != v {
				t.Errorf("command %d: %s=%q, want %q", k, p, c.props[p], v)
			}
		}
	}
	if _, ok := cmds[3].props["col"]; ok {
		t.Error("a multi-line annotation has a column")
	}
}

// capReport has n errors, n warnings and n notices, interleaved in file order.
func capReport(t *testing.T, errs, warns, notes int) *Report {
	rules := map[ruleset.Severity]*ruleset.Rule{
		ruleset.Error: lookupRule(t, "ASC2001"), ruleset.Warning: lookupRule(t, "ASC1001"), ruleset.Info: lookupRule(t, "ASC3004"),
	}
	r := &Report{Files: 1}
	left := map[ruleset.Severity]int{ruleset.Error: errs, ruleset.Warning: warns, ruleset.Info: notes}
	for line := 1; left[ruleset.Error]+left[ruleset.Warning]+left[ruleset.Info] > 0; line++ {
		s := []ruleset.Severity{ruleset.Info, ruleset.Warning, ruleset.Error}[line%3]
		if left[s] == 0 {
			continue
		}
		left[s]--
		r.Issues = append(r.Issues, mkIssue(rules[s], at("k.cpp", line, 1, 0), at("k.cpp", line, 2, 1), fmt.Sprintf("%s at line %d", s, line), "x"))
	}
	return r
}

func TestFormatGitHubCap(t *testing.T) {
	for _, tt := range []struct {
		errs, warns, notes  int
		wantE, wantW, wantN int
		more                string // the last notice, "" for none
	}{
		{25, 3, 12, 10, 3, 9, "18 more findings not annotated (15 errors, 3 notices)"},
		{4, 11, 10, 4, 10, 9, "2 more findings not annotated (1 warning, 1 notice)"},
		{10, 10, 10, 10, 10, 10, ""},
		{0, 0, 11, 0, 0, 9, "2 more findings not annotated (2 notices)"},
		{0, 0, 0, 0, 0, 0, ""},
	} {
		r := capReport(t, tt.errs, tt.warns, tt.notes)
		cmds := parseCommands(t, render(t, func(b *bytes.Buffer) error { return WriteGitHub(b, r, nil) }))
		count := map[string]int{}
		order := []string{}
		for _, c := range cmds {
			if c.props["title"] == "ascvet" {
				continue
			}
			count[c.name]++
			if len(order) == 0 || order[len(order)-1] != c.name {
				order = append(order, c.name)
			}
		}
		if count["error"] != tt.wantE || count["warning"] != tt.wantW || count["notice"] != tt.wantN {
			t.Errorf("%d/%d/%d findings: annotated %v, want %d/%d/%d", tt.errs, tt.warns, tt.notes, count, tt.wantE, tt.wantW, tt.wantN)
		}
		if !slices.IsSortedFunc(order, func(a, b string) int { return rank(a) - rank(b) }) || len(order) > 3 {
			t.Errorf("annotation levels not most severe first: %v", order)
		}
		var last command
		if len(cmds) > 0 {
			last = cmds[len(cmds)-1]
		}
		switch {
		case tt.more == "" && last.props["title"] == "ascvet":
			t.Errorf("%d/%d/%d findings: unexpected %q", tt.errs, tt.warns, tt.notes, last.msg)
		case tt.more != "" && (last.name != "notice" || !strings.HasPrefix(last.msg, tt.more)):
			t.Errorf("%d/%d/%d findings: last command %s %q, want a notice starting %q", tt.errs, tt.warns, tt.notes, last.name, last.msg, tt.more)
		}
		if n := count["notice"]; tt.more != "" && n+1 > maxAnnotations {
			t.Errorf("the 'more' notice is notice number %d: GitHub drops it", n+1)
		}
		// Within a level, file order.
		lines := map[string][]int{}
		for _, c := range cmds {
			if l := c.props["line"]; l != "" {
				n, err := strconv.Atoi(l)
				if err != nil {
					t.Fatalf("line=%q", l)
				}
				lines[c.name] = append(lines[c.name], n)
			}
		}
		for lv, ls := range lines {
			if !slices.IsSorted(ls) {
				t.Errorf("%s annotations not in file order: %v", lv, ls)
			}
		}
	}
}

func rank(cmd string) int { return map[string]int{"error": 0, "warning": 1, "notice": 2}[cmd] }

func TestFormatGitHubSummary(t *testing.T) {
	r := capReport(t, 12, 1, 3)
	r.Issues[0].Message = "a | b\nc <T> *x*"
	r.Issues = append(r.Issues, Issue{Finding: r.Issues[1].Finding, Level: ruleset.Error, Message: "ignored one",
		Suppressed: []Suppression{{Kind: "external", Justification: "baseline ascvet-baseline.json"}}})
	var summary bytes.Buffer
	if err := WriteGitHub(&bytes.Buffer{}, r, &summary); err != nil {
		t.Fatal(err)
	}
	s := summary.String()
	var rows []string
	for line := range strings.SplitSeq(s, "\n") {
		if strings.HasPrefix(line, "| ") && !strings.HasPrefix(line, "| Severity") {
			rows = append(rows, line)
		}
	}
	if len(rows) != len(r.Issues) {
		t.Errorf("%d table rows for %d issues:\n%s", len(rows), len(r.Issues), s)
	}
	for _, row := range rows {
		// Four cells: five unescaped bars.
		if n := len(regexp.MustCompile(`(^|[^\\])\|`).FindAllString(row, -1)); n != 5 {
			t.Errorf("row has %d cell separators: %q", n, row)
		}
	}
	if !strings.Contains(s, `a \| b<br>c \<T\> \*x\*`) {
		t.Errorf("message cell not escaped:\n%s", s)
	}
	if !strings.Contains(s, "**16 findings** (12 errors, 1 warning, 3 info) in 1 file; 1 suppressed") {
		t.Errorf("totals missing:\n%s", s)
	}
	if !strings.HasPrefix(rows[len(rows)-1], "| suppressed |") || !strings.HasPrefix(rows[0], "| error |") || !strings.HasPrefix(rows[12], "| warning |") {
		t.Errorf("rows not most severe first, suppressed last:\n%s", s)
	}
}

func TestFormatGitHubSummaryLimit(t *testing.T) {
	r := capReport(t, 0, 6000, 0)
	for i := range r.Issues {
		r.Issues[i].Message = strings.Repeat("long message ", 20)
	}
	var summary bytes.Buffer
	if err := WriteGitHub(&bytes.Buffer{}, r, &summary); err != nil {
		t.Fatal(err)
	}
	if n := summary.Len(); n > 1<<20 {
		t.Errorf("step summary is %d bytes, over GitHub's 1 MiB", n)
	}
	if !regexp.MustCompile(`\n\d+ more findings not listed`).MatchString(summary.String()) {
		t.Errorf("a cut summary does not say so:\n...%s", summary.String()[summary.Len()-300:])
	}
}

// --- checkstyle ---

type checkstyleIn struct {
	XMLName xml.Name `xml:"checkstyle"`
	Version string   `xml:"version,attr"`
	Files   []struct {
		Name   string `xml:"name,attr"`
		Errors []struct {
			Line     int    `xml:"line,attr"`
			Column   int    `xml:"column,attr"`
			Severity string `xml:"severity,attr"`
			Message  string `xml:"message,attr"`
			Source   string `xml:"source,attr"`
		} `xml:"error"`
	} `xml:"file"`
}

func TestFormatCheckstyle(t *testing.T) {
	r := formatReport(t)
	r.Issues[2].Message = "ctl\x01\x1b chars & <tags> \"q\" 'a'\nline2\ttab"
	out := render(t, func(b *bytes.Buffer) error { return WriteCheckstyle(b, r) })
	golden.Check(t, "format/checkstyle.golden", out)
	if !strings.HasPrefix(out, `<?xml version="1.0" encoding="UTF-8"?>`+"\n<checkstyle version=\"4.3\">") {
		t.Errorf("header:\n%s", out)
	}
	var got checkstyleIn
	if err := xml.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("checkstyle output does not parse: %v\n%s", err, out)
	}
	var names []string
	total := 0
	for _, f := range got.Files {
		names = append(names, f.Name)
		total += len(f.Errors)
		for _, e := range f.Errors {
			if e.Line < 1 || e.Column < 1 || !strings.HasPrefix(e.Source, "ascvet.ASC") {
				t.Errorf("%s: error %+v", f.Name, e)
			}
		}
	}
	if !slices.IsSorted(names) || len(names) != 4 {
		t.Errorf("files %q, want 4 sorted", names)
	}
	if total != 4 {
		t.Errorf("%d errors, want 4 (the suppressed issue left out)", total)
	}
	found := false
	for _, f := range got.Files {
		for _, e := range f.Errors {
			if strings.HasPrefix(e.Message, "ctl") {
				found = true
				if want := "ctl chars & <tags> \"q\" 'a'\nline2\ttab"; e.Message != want || e.Severity != "info" {
					t.Errorf("message %q (%s), want %q (info)", e.Message, e.Severity, want)
				}
			}
			if e.Source == "ascvet.ASC1001" && f.Name == "kernels/中文.cpp" && e.Message != r.Issues[1].Message {
				t.Errorf("message %q, want %q", e.Message, r.Issues[1].Message)
			}
		}
	}
	if !found {
		t.Error("the message with control characters is missing")
	}
	empty := render(t, func(b *bytes.Buffer) error { return WriteCheckstyle(b, &Report{}) })
	var none checkstyleIn
	if err := xml.Unmarshal([]byte(empty), &none); err != nil || len(none.Files) != 0 || none.Version != "4.3" {
		t.Errorf("empty report: %v, %d files:\n%s", err, len(none.Files), empty)
	}
}
