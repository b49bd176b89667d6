package suppress

import (
	"strconv"
	"strings"
)

// Target is what Apply needs to know of a finding.
type Target struct {
	Rule    string // rule ID, "ASC1001"
	Line    int    // first line, 1-based
	EndLine int    // last line; a value below Line means Line
}

// Suppression is a finding that a directive suppressed.
type Suppression struct {
	Finding   int    // index in the targets given to Apply
	Directive int    // index in the directives of the directive that suppressed it
	Reason    string // that directive's reason: the justification (SARIF's suppressions[].justification)
}

// Unused is a directive that suppressed nothing: a finding of
// UnusedDirective, unless By says another directive suppresses that finding.
type Unused struct {
	Directive int    // index in the directives
	Message   string // the finding's message
	By        int    // index of the directive naming UnusedDirective that suppresses this report, or -1
}

// Result is what Apply found.
type Result struct {
	Suppressed []Suppression // in the order of the findings
	Unused     []Unused      // in the order of the directives
}

// Apply matches the directives of one file against the findings of the
// same file. ran holds the IDs of the rules that ran on the file; nil means
// every rule did.
//
// A finding covered by several directives is suppressed by the most
// specific (a line, then the innermost block, then the file), and every
// one of them counts as used. A directive is unused when it suppressed
// nothing; it is reported only when it names ascvet's rules explicitly
// (not a bare NOLINT, which other tools read too), when one of its rules
// ran (a directive for a disabled rule is not unused, merely idle), and
// when UnusedDirective itself is enabled. A report is itself suppressed by
// a directive that names UnusedDirective and covers the directive's line,
// the directive itself included (ascvet:ignore ASC1001,unused-directive
// reason: "ignore ASC1001 here if it fires").
//
// To let directives suppress InvalidDirective, pass the problems of Parse
// among the findings.
func Apply(dirs []Directive, findings []Target, ran []string) Result {
	var res Result
	used := make([]bool, len(dirs))
	for fi, f := range findings {
		best := best(dirs, f.Rule, f.Line, f.EndLine, used)
		if best >= 0 {
			res.Suppressed = append(res.Suppressed, Suppression{Finding: fi, Directive: best, Reason: dirs[best].Reason})
		}
	}
	enabled := func(string) bool { return true }
	if ran != nil {
		set := make(map[string]bool, len(ran))
		for _, id := range ran {
			set[id] = true
		}
		enabled = func(id string) bool { return set[id] }
	}
	if !enabled(UnusedDirective.ID) {
		return res
	}
	var candidates []int
	for i := range dirs {
		d := &dirs[i]
		if used[i] || !d.Explicit || !anyEnabled(d.Rules, enabled) {
			continue
		}
		candidates = append(candidates, i)
	}
	// A directive may be used by suppressing the report of another, so
	// decide every report's suppressor before deciding what is unused.
	by := make([]int, len(candidates))
	for k, i := range candidates {
		by[k] = -1
		if dirs[i].names(UnusedDirective.ID) {
			by[k] = i
			continue
		}
		by[k] = best(dirs, UnusedDirective.ID, dirs[i].Line, dirs[i].Line, used)
	}
	for k, i := range candidates {
		if used[i] {
			continue
		}
		res.Unused = append(res.Unused, Unused{Directive: i, Message: unusedMessage(&dirs[i]), By: by[k]})
	}
	return res
}

// best returns the index of the most specific directive that covers a
// finding of rule id on lines [line, endLine], or -1, and marks every
// directive that covers it used.
func best(dirs []Directive, id string, line, endLine int, used []bool) int {
	best := -1
	for i := range dirs {
		d := &dirs[i]
		if !d.Covers(id, line, endLine) {
			continue
		}
		used[i] = true
		if best < 0 || d.rank() < dirs[best].rank() ||
			d.rank() == dirs[best].rank() && d.To-d.From < dirs[best].To-dirs[best].From {
			best = i
		}
	}
	return best
}

func anyEnabled(ids []string, enabled func(string) bool) bool {
	for _, id := range ids {
		if enabled(id) {
			return true
		}
	}
	return false
}

func unusedMessage(d *Directive) string {
	switch d.Kind {
	case Nolint, NolintNextLine, NolintBegin:
		checks := strings.Join(d.Patterns, ", ")
		where := ""
		if d.Kind == NolintBegin {
			where = " up to line " + strconv.Itoa(d.To)
		}
		return d.Text + " suppressed no finding of " + checks + where + "; remove it (or only " + checks + ", if other tools' checks need it)"
	case FileIgnore:
		return d.Text + " suppressed no finding in this file; remove the directive"
	case BeginIgnore:
		return d.Text + " suppressed no finding up to line " + strconv.Itoa(d.To) + "; remove it and its ascvet:end-ignore"
	}
	return d.Text + " suppressed no finding; remove the directive"
}
