package report

import (
	"encoding/json"
	"io"

	"github.com/ascvet/ascvet/ruleset"
)

// JSONVersion is the version of the -f json shape, in its "version"
// field. Adding a field keeps it; removing, renaming or retyping one bumps
// it. docs/ascvet-findings.schema.json describes the shape.
const JSONVersion = 1

// JSONReport is the -f json output: one object.
type JSONReport struct {
	Version  int           `json:"version"`  // JSONVersion
	Tool     string        `json:"tool"`     // "ascvet"
	Findings []JSONFinding `json:"findings"` // in report order (file, line, column, rule)
}

// JSONFinding is one finding in -f json output. Lines and columns are 1-based;
// columns count bytes. Every field is always present: a finding that is not a
// performance finding has null cycles, an unsuppressed one an empty list.
type JSONFinding struct {
	Rule      string           `json:"rule"`       // rule ID, "ASC0001"
	Name      string           `json:"name"`       // rule name, "vf-parse-error"
	Severity  ruleset.Severity `json:"severity"`   // "info", "warning" or "error", as configured
	Message   string           `json:"message"`    // the diagnostic, in the output language
	File      string           `json:"file"`       // path as found from the arguments
	Line      int              `json:"line"`       // start line
	Column    int              `json:"column"`     // start column
	EndLine   int              `json:"end_line"`   // end line
	EndColumn int              `json:"end_column"` // end column (exclusive)
	// For performance findings: the loop simulated before and after the fix;
	// null for the others.
	CyclesBefore *int `json:"cycles_before"`
	CyclesAfter  *int `json:"cycles_after"`
	// For performance findings: the iterations simulated (1 for a region)
	// and where their count came from (known, capped, once, default,
	// region), and, when the fix saves nothing, what binds the loop.
	Iterations *int   `json:"iterations,omitempty"`
	Trip       string `json:"trip,omitempty"`
	Bound      string `json:"bound,omitempty"`
	// For performance findings whose fix saves cycles in its loop: one
	// call of the VF function simulated whole, before and after the fix.
	CallBefore  *int   `json:"call_cycles_before,omitempty"`
	CallAfter   *int   `json:"call_cycles_after,omitempty"`
	Fingerprint string `json:"fingerprint"` // line-independent (the baseline's key)
	Fixable     bool   `json:"fixable"`     // -fix can fix it
	// Why the finding is suppressed (suppressed findings are listed with
	// -show-ignored only); empty when it is not.
	Suppressed []Suppression `json:"suppressed"`
}

// WriteJSON writes the issues as the -f json object (JSONReport), indented.
func WriteJSON(w io.Writer, issues []Issue) error {
	out := JSONReport{Version: JSONVersion, Tool: "ascvet", Findings: make([]JSONFinding, 0, len(issues))}
	for i := range issues {
		is := &issues[i]
		name := is.RuleID()
		if is.Rule != nil {
			name = is.Rule.Name
		}
		jf := JSONFinding{
			Rule: is.RuleID(), Name: name, Severity: is.Level, Message: is.Message,
			File: is.Pos.Filename, Line: is.Pos.Line, Column: is.Pos.Column, EndLine: is.End.Line, EndColumn: is.End.Column,
			Fingerprint: is.Fingerprint, Fixable: len(is.Fixes) > 0, Suppressed: is.Suppressed,
		}
		if jf.Suppressed == nil {
			jf.Suppressed = []Suppression{}
		}
		if is.Cost != nil {
			jf.CyclesBefore, jf.CyclesAfter = &is.Cost.Before, &is.Cost.After
			jf.Iterations, jf.Trip, jf.Bound = &is.Cost.Iterations, is.Cost.Trip, is.Cost.Bound
			if is.Cost.CallBefore > 0 {
				jf.CallBefore, jf.CallAfter = &is.Cost.CallBefore, &is.Cost.CallAfter
			}
		}
		out.Findings = append(out.Findings, jf)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}
