package reporttest

import (
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// TestSchemasReject: each schema must reject what it forbids, or the
// validation tests prove nothing. SARIF: a column 0, byte columns, a
// suppression status GitHub does not know, a URI that is no URI. The
// findings of -f json: a finding without fixable, the old bare array,
// another version, an unknown severity.
func TestSchemasReject(t *testing.T) {
	const ok = `{"rule":"ASC1001","name":"n","severity":"warning","message":"m","file":"f","line":1,"column":1,"end_line":1,"end_column":2,"cycles_before":null,"cycles_after":null,"fingerprint":"x","fixable":false,"suppressed":[]}`
	for _, tc := range []struct {
		schema func() (*jsonschema.Schema, error)
		doc    string
		valid  bool
	}{
		{sarifSchemaOnce, `{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"x"}},"results":[]}]}`, true},
		{sarifSchemaOnce, `{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"x"}},"results":[{"message":{"text":"m"},"locations":[{"physicalLocation":{"region":{"startLine":1,"startColumn":0}}}]}]}]}`, false},
		{sarifSchemaOnce, `{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"x"}},"columnKind":"bytes"}]}`, false},
		{sarifSchemaOnce, `{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"x"}},"results":[{"message":{"text":"m"},"suppressions":[{"kind":"inSource","status":"ok"}]}]}]}`, false},
		{sarifSchemaOnce, `{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"x"}},"results":[{"message":{"text":"m"},"locations":[{"physicalLocation":{"artifactLocation":{"uri":"a b%zz"}}}]}]}]}`, false},
		{findingsSchema, `{"version":1,"tool":"ascvet","findings":[` + ok + `]}`, true},
		{findingsSchema, `{"version":1,"tool":"ascvet","findings":[` + strings.Replace(ok, `,"fixable":false`, "", 1) + `]}`, false},
		{findingsSchema, `[` + ok + `]`, false},
		{findingsSchema, `{"version":2,"tool":"ascvet","findings":[]}`, false},
		{findingsSchema, `{"version":1,"tool":"ascvet","findings":[` + strings.Replace(ok, `"severity":"warning"`, `"severity":"fatal"`, 1) + `]}`, false},
	} {
		sch, err := tc.schema()
		if err != nil {
			t.Fatal(err)
		}
		inst, err := jsonschema.UnmarshalJSON(strings.NewReader(tc.doc))
		if err != nil {
			t.Fatal(err)
		}
		if got := sch.Validate(inst) == nil; got != tc.valid {
			t.Errorf("schema says valid=%v for %s, want %v", got, tc.doc, tc.valid)
		}
	}
}

// TestValidators: the helpers pass what is right and decode it.
func TestValidators(t *testing.T) {
	sarif := `{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"ascvet","rules":[{"id":"ASC1001","name":"UnalignPreInLoop","shortDescription":{"text":"s"},"fullDescription":{"text":"f"},"help":{"text":"h","markdown":"h"},"helpUri":"https://x","properties":{"problem.severity":"warning"}}]}},"columnKind":"utf16CodeUnits","results":[{"ruleId":"ASC1001","ruleIndex":0,"level":"warning","message":{"text":"m"},"locations":[{"physicalLocation":{"artifactLocation":{"uri":"k.asc","uriBaseId":"%SRCROOT%"},"region":{"startLine":3,"startColumn":2,"endLine":3,"endColumn":5}}}]}]}]}`
	ValidateSARIF(t, sarif)
	s := ParseSARIF(t, sarif)
	CheckSARIF(t, s, 1024)
	if len(s.Runs[0].Results) != 1 || s.Runs[0].Results[0].RuleID != "ASC1001" {
		t.Errorf("parsed %+v", s.Runs[0].Results)
	}
	findings := ValidateFindingsJSON(t, `{"version":1,"tool":"ascvet","findings":[{"rule":"ASC1001","name":"n","severity":"warning","message":"m","file":"f","line":1,"column":1,"end_line":1,"end_column":2,"cycles_before":null,"cycles_after":null,"fingerprint":"x","fixable":false,"suppressed":[]}]}`)
	if len(findings) != 1 || findings[0]["rule"] != "ASC1001" {
		t.Errorf("findings %v", findings)
	}
	type issue struct {
		CheckName string `json:"check_name"`
	}
	cq := DecodeCodeQuality[issue](t, `[{"description":"d","check_name":"ASC1001","fingerprint":"f","severity":"major","location":{"path":"k/a.asc","lines":{"begin":3}}}]`)
	if len(cq) != 1 || cq[0].CheckName != "ASC1001" {
		t.Errorf("code quality %v", cq)
	}
	for _, bad := range []string{`{}`, `[{"check_name":"x"}]`, `[{"description":"d","check_name":"c","fingerprint":"f","severity":"bad","location":{"path":"/abs","lines":{"begin":0}}}]`} {
		if len(CheckCodeQuality(bad)) == 0 {
			t.Errorf("CheckCodeQuality passed %s", bad)
		}
	}
}
