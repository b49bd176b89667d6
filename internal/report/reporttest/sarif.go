// Package reporttest checks ascvet's report formats for tests: SARIF
// against the official 2.1.0 schema and against what the schema cannot
// say (rule indexes, columns, URIs, GitHub's limits).
package reporttest

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// sarifSchema is the OASIS SARIF 2.1.0 JSON schema (see
// ../testdata/format/README.md for where it comes from).
//
//go:embed sarif-schema-2.1.0.json
var sarifSchema []byte

// sarifSchemaOnce compiles the official SARIF 2.1.0 schema once.
var sarifSchemaOnce = sync.OnceValues(func() (*jsonschema.Schema, error) {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(sarifSchema))
	if err != nil {
		return nil, err
	}
	c := jsonschema.NewCompiler()
	c.AssertFormat() // uri, uri-reference, date-time...
	const loc = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
	if err := c.AddResource(loc, doc); err != nil {
		return nil, err
	}
	return c.Compile(loc)
})

// ValidateSARIF checks out against the official schema.
func ValidateSARIF(t testing.TB, out string) {
	t.Helper()
	sch, err := sarifSchemaOnce()
	if err != nil {
		t.Fatalf("compiling the SARIF schema: %v", err)
	}
	validate(t, sch, "SARIF output", "the 2.1.0 schema", out)
}

// SARIF is a parsed SARIF log: the fields the semantic checks read.
type SARIF struct {
	Runs []struct {
		Tool struct {
			Driver struct {
				Rules []struct {
					ID, Name         string
					ShortDescription struct{ Text string }
					FullDescription  struct{ Text string }
					Help             struct{ Text, Markdown string }
					HelpURI          string
					Properties       map[string]any
				}
			}
		}
		ColumnKind         string
		OriginalURIBaseIDs map[string]struct{ URI string } `json:"originalUriBaseIds"`
		Results            []struct {
			RuleID    string
			RuleIndex *int
			Level     string
			Message   struct{ Text string }
			Locations []SARIFLocation
			Related   []SARIFLocation   `json:"relatedLocations"`
			Partial   map[string]string `json:"partialFingerprints"`
			Fixes     []struct {
				ArtifactChanges []struct {
					Replacements []struct {
						DeletedRegion   struct{ ByteOffset, ByteLength *int }
						InsertedContent *struct{ Text string }
					}
				}
			}
			Suppressions []struct{ Kind, Status, Justification string }
			Properties   map[string]any // numbers (cycles, iterations) and strings (trip, bound)
		}
	}
}

// SARIFLocation is a parsed SARIF location.
type SARIFLocation struct {
	ID               int
	PhysicalLocation struct {
		ArtifactLocation struct {
			URI       string
			URIBaseID string `json:"uriBaseId"`
		}
		Region struct{ StartLine, StartColumn, EndLine, EndColumn int }
	}
}

// ParseSARIF parses out, a SARIF log of one run.
func ParseSARIF(t testing.TB, out string) *SARIF {
	t.Helper()
	var s SARIF
	if err := json.Unmarshal([]byte(out), &s); err != nil {
		t.Fatal(err)
	}
	if len(s.Runs) != 1 {
		t.Fatalf("%d runs, want 1", len(s.Runs))
	}
	return &s
}

// CheckSARIF asserts what the schema cannot: rule indexes, columns,
// descriptions within GitHub's limits (maxDescription characters).
func CheckSARIF(t testing.TB, s *SARIF, maxDescription int) {
	t.Helper()
	run := s.Runs[0]
	if run.ColumnKind != "utf16CodeUnits" {
		t.Errorf("columnKind %q", run.ColumnKind)
	}
	rules := run.Tool.Driver.Rules
	for _, r := range rules {
		if r.Name == "" || r.Name == r.ID || !regexp.MustCompile(`^([A-Z][a-z0-9]*)+$`).MatchString(r.Name) {
			t.Errorf("rule %s: name %q is not a PascalCase name distinct from the ID", r.ID, r.Name)
		}
		if len([]rune(r.FullDescription.Text)) > maxDescription || len([]rune(r.ShortDescription.Text)) > maxDescription {
			t.Errorf("rule %s: description over %d characters", r.ID, maxDescription)
		}
		if r.Help.Text == "" || r.Help.Markdown == "" || !strings.HasPrefix(r.HelpURI, "https://") {
			t.Errorf("rule %s: help or helpUri missing", r.ID)
		}
		if sev, _ := r.Properties["problem.severity"].(string); sev != "error" && sev != "warning" && sev != "recommendation" {
			t.Errorf("rule %s: problem.severity %q", r.ID, sev)
		}
	}
	for _, res := range run.Results {
		if res.RuleIndex == nil || *res.RuleIndex < 0 || *res.RuleIndex >= len(rules) || rules[*res.RuleIndex].ID != res.RuleID {
			t.Errorf("result %s: ruleIndex %v does not point at its rule", res.RuleID, res.RuleIndex)
		}
		for _, l := range append(slices.Clone(res.Locations), res.Related...) {
			reg := l.PhysicalLocation.Region
			if reg.StartLine < 1 || reg.StartColumn < 1 || reg.EndLine < reg.StartLine ||
				(reg.EndColumn != 0 && reg.EndLine == reg.StartLine && reg.EndColumn < reg.StartColumn) {
				t.Errorf("result %s: bad region %+v", res.RuleID, reg)
			}
			u, err := url.Parse(l.PhysicalLocation.ArtifactLocation.URI)
			if err != nil {
				t.Errorf("result %s: uri %q: %v", res.RuleID, l.PhysicalLocation.ArtifactLocation.URI, err)
			} else if base := l.PhysicalLocation.ArtifactLocation.URIBaseID; (u.Scheme == "") != (base != "") {
				t.Errorf("result %s: uri %q with uriBaseId %q", res.RuleID, u, base)
			} else if _, ok := run.OriginalURIBaseIDs[base]; base != "" && run.OriginalURIBaseIDs != nil && !ok {
				t.Errorf("result %s: uriBaseId %q is not in originalUriBaseIds", res.RuleID, base)
			}
		}
		for _, rel := range res.Related {
			if !strings.Contains(res.Message.Text, fmt.Sprintf("](%d)", rel.ID)) {
				t.Errorf("result %s: related location %d not linked from the message %q", res.RuleID, rel.ID, res.Message.Text)
			}
		}
	}
}
