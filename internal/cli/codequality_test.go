package cli

import (
	"encoding/json"
	"path/filepath"
	"slices"
	"testing"

	"github.com/ascvet/ascvet/internal/golden"
	"github.com/ascvet/ascvet/internal/report"
	"github.com/ascvet/ascvet/internal/report/reporttest"
)

// TestCodeQualityEndToEnd runs the driver over the example kernels, the
// suppressed findings asked for: the report is valid, holds every
// unsuppressed finding of -f json with its fingerprint, paths from the
// repository root, and fails the run like every format.
func TestCodeQualityEndToEnd(t *testing.T) {
	code, out, errs := ascvet(t, "-f", "codequality", "-show-ignored", "../../testdata/kernels")
	if code != exitFindings || errs != "" {
		t.Errorf("exit %d, stderr %q; want %d and nothing", code, errs, exitFindings)
	}
	golden.Check(t, "kernels.codequality.golden", out)
	issues := reporttest.DecodeCodeQuality[report.CodeQualityIssue](t, out)

	_, js, _ := ascvet(t, "-f", "json", "-show-ignored", "../../testdata/kernels")
	var want []report.JSONFinding
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
		if is.CheckName != f.Rule || is.Location.Lines.Begin != f.Line || is.Severity != report.CodeQualitySeverity(f.Severity) ||
			is.Location.Path != "testdata/kernels/"+filepath.Base(f.File) || is.Fingerprint != f.Fingerprint && !repeated(want, i) {
			t.Errorf("issue %d %+v, want the finding %+v", i, is, f)
		}
	}
}

// repeated reports whether the finding i has the fingerprint of an
// earlier one.
func repeated(fs []report.JSONFinding, i int) bool {
	return slices.ContainsFunc(fs[:i], func(f report.JSONFinding) bool { return f.Fingerprint == fs[i].Fingerprint })
}

// validateFindingsJSONTyped checks -f json output and decodes it.
func validateFindingsJSONTyped(t *testing.T, out string) []report.JSONFinding {
	t.Helper()
	reporttest.ValidateFindingsJSON(t, out)
	var r report.JSONReport
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	return r.Findings
}
