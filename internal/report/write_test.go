package report

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ascvet/ascvet/internal/golden"
	"github.com/ascvet/ascvet/ruleset"
)

// TestFormatTextGolden: the text format of the hand-made report, one line
// a finding gcc style, the suppressed one marked, then the summary.
func TestFormatTextGolden(t *testing.T) {
	r := formatReport(t)
	out := render(t, func(b *bytes.Buffer) error { return WriteText(b, r.Issues, r.Files, TextStyle{Lang: "en"}) })
	golden.Check(t, "format/text.golden", out)
	if !strings.Contains(out, "\nkernels/b.cpp:2:3: ignored: suppressed finding [ASC3004] (checked by hand, 50% margin)\n") {
		t.Errorf("the suppressed finding is not marked with its reason:\n%s", out)
	}
	if want := "\n4 findings (1 error, 2 warnings, 1 info), 1 ignored in 4 files\n"; !strings.HasSuffix(out, want) {
		t.Errorf("the summary is not %q:\n%s", want, out)
	}
	if strings.Contains(out, "\x1b[") {
		t.Error("ANSI colours without Color")
	}
}

// TestFormatTextStyle: Color paints the severity and dims the rule ID; zh
// prints the severity words and the summary in Chinese; a finding Spared
// adds the line that says why the run did not fail.
func TestFormatTextStyle(t *testing.T) {
	r := formatReport(t)
	colored := render(t, func(b *bytes.Buffer) error {
		return WriteText(b, r.Issues, r.Files, TextStyle{Lang: "en", Color: true})
	})
	for _, want := range []string{severityColor[ruleset.Error] + "error" + ansiReset, ansiDim + "ASC2001" + ansiReset, severityColor[ruleset.Warning] + "warning" + ansiReset} {
		if !strings.Contains(colored, want) {
			t.Errorf("coloured text lacks %q:\n%s", want, colored)
		}
	}
	zh := render(t, func(b *bytes.Buffer) error { return WriteText(b, r.Issues, r.Files, TextStyle{Lang: "zh"}) })
	if !strings.Contains(zh, ": "+ruleset.SeverityName(ruleset.Error, "zh")+": ") || zh == render(t, func(b *bytes.Buffer) error {
		return WriteText(b, r.Issues, r.Files, TextStyle{Lang: "en"})
	}) {
		t.Errorf("zh text is not in Chinese:\n%s", zh)
	}
	spared := render(t, func(b *bytes.Buffer) error {
		return WriteText(b, r.Issues, r.Files, TextStyle{Lang: "en", Spared: func(is *Issue) bool { return is.Level == ruleset.Warning }})
	})
	if !strings.HasSuffix(spared, "2 findings with no measurable saving did not fail the run (-fail-no-saving)\n") {
		t.Errorf("no line for the spared findings:\n%s", spared)
	}
	if empty := render(t, func(b *bytes.Buffer) error { return WriteText(b, nil, 1, TextStyle{Lang: "en"}) }); empty != "no findings in 1 file\n" {
		t.Errorf("empty report: %q", empty)
	}
}

// TestFormatJSONGolden: the -f json object of the hand-made report; every
// field present, null cycles on a finding that is no performance finding,
// an empty (not null) list of suppressions. (The driver's -f json output is
// validated against docs/ascvet-findings.schema.json in cmd/ascvet: this
// report holds a finding without a column, which the schema does not
// allow and the driver never makes.)
func TestFormatJSONGolden(t *testing.T) {
	r := formatReport(t)
	out := render(t, func(b *bytes.Buffer) error { return WriteJSON(b, r.Issues) })
	golden.Check(t, "format/json.golden", out)
	var rep JSONReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	if rep.Version != JSONVersion || rep.Tool != "ascvet" || len(rep.Findings) != len(r.Issues) {
		t.Fatalf("version %d, tool %q, %d findings", rep.Version, rep.Tool, len(rep.Findings))
	}
	var raw struct{ Findings []map[string]any }
	if err := json.Unmarshal([]byte(out), &raw); err != nil {
		t.Fatal(err)
	}
	for i, f := range raw.Findings {
		for _, key := range []string{"rule", "name", "severity", "message", "file", "line", "column", "end_line", "end_column", "cycles_before", "cycles_after", "fingerprint", "fixable", "suppressed"} {
			if _, ok := f[key]; !ok {
				t.Errorf("finding %d has no %q", i, key)
			}
		}
		if s, ok := f["suppressed"].([]any); !ok || (i == 4) != (len(s) == 1) {
			t.Errorf("finding %d: suppressed %v", i, f["suppressed"])
		}
	}
	if f := rep.Findings[1]; f.CyclesBefore == nil || *f.CyclesBefore != 1200 || *f.CyclesAfter != 1000 || f.Iterations == nil || *f.Iterations != 100 {
		t.Errorf("the performance finding's cycles: %+v", f)
	}
	if f := rep.Findings[0]; f.CyclesBefore != nil || !f.Fixable || f.Name != "misaligned-store" && f.Name == "" {
		t.Errorf("the fixable finding: %+v", f)
	}
	if empty := render(t, func(b *bytes.Buffer) error { return WriteJSON(b, nil) }); !strings.Contains(empty, `"findings": []`) {
		t.Errorf("no empty findings array: %s", empty)
	}
}

// TestWrite: Write gives each format its writer's output, text (the
// default) in the report's language, and -f github its step summary when
// GITHUB_STEP_SUMMARY names a file.
func TestWrite(t *testing.T) {
	r := formatReport(t)
	summary := filepath.Join(t.TempDir(), "summary.md")
	t.Setenv("GITHUB_STEP_SUMMARY", summary)
	direct := map[string]func(*bytes.Buffer) error{
		"text": func(b *bytes.Buffer) error {
			return WriteText(b, r.Issues, r.Files, TextStyle{Lang: r.Lang, Spared: r.Spared})
		},
		"json":        func(b *bytes.Buffer) error { return WriteJSON(b, r.Issues) },
		"sarif":       func(b *bytes.Buffer) error { return WriteSARIF(b, r) },
		"github":      func(b *bytes.Buffer) error { return WriteGitHub(b, r, nil) },
		"checkstyle":  func(b *bytes.Buffer) error { return WriteCheckstyle(b, r) },
		"codequality": func(b *bytes.Buffer) error { return WriteCodeQuality(b, r) },
	}
	if len(direct) != len(Formats) {
		t.Fatalf("Formats %v, the test knows %d", Formats, len(direct))
	}
	for _, f := range Formats {
		got := render(t, func(b *bytes.Buffer) error { return Write(b, f, r, false) })
		if want := render(t, direct[f]); got != want {
			t.Errorf("Write %s differs from its writer:\n%s\nwant\n%s", f, got, want)
		}
	}
	md, err := os.ReadFile(summary)
	if err != nil || !strings.Contains(string(md), "ASC2001") {
		t.Errorf("step summary %q, %v", md, err)
	}
	t.Setenv("GITHUB_STEP_SUMMARY", filepath.Join(t.TempDir(), "no", "such", "dir", "s.md"))
	if err := Write(&bytes.Buffer{}, "github", r, false); err == nil || !strings.Contains(err.Error(), "GITHUB_STEP_SUMMARY") {
		t.Errorf("an unwritable step summary: %v", err)
	}
}

// TestSARIFRoot is the first base the SARIF URIs are relative to, and
// none for a report with neither files nor a working directory.
func TestSARIFRoot(t *testing.T) {
	if got := SARIFRoot(&Report{}); got != "" {
		t.Errorf("SARIFRoot of an empty report = %q", got)
	}
	r := formatReport(t)
	if got := SARIFRoot(r); got != "/work/proj" {
		t.Errorf("SARIFRoot = %q, want the working directory /work/proj", got)
	}
}

// TestPlural says one thing and many.
func TestPlural(t *testing.T) {
	for n, want := range map[int]string{0: "0 files", 1: "1 file", 2: "2 files"} {
		if got := Plural(n, "file"); got != want {
			t.Errorf("Plural(%d) = %q, want %q", n, got, want)
		}
	}
}
