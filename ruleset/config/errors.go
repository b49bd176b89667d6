package config

import (
	"fmt"
	"slices"
	"strings"

	"github.com/ascvet/ascvet/ruleset"
)

// Error is one problem of a configuration file: a syntax error, an
// unknown key, a value of the wrong type or out of range, a rule or path
// pattern that matches nothing valid.
type Error struct {
	File string // the configuration file, absolute
	Line int    // 1-based; 0 when the problem has no line (the file cannot be read)
	Key  string // dotted key the problem is about ("budgets.vreg"); "" for syntax errors
	Msg  string // what is wrong, lowercase
}

// Error formats e as "FILE:LINE: KEY: MSG" (without the parts it lacks).
func (e *Error) Error() string { return e.Format(e.File) }

// Format is Error with the file called name (the driver prints names
// relative to the working directory).
func (e *Error) Format(name string) string {
	var b strings.Builder
	b.WriteString(name)
	if e.Line > 0 {
		fmt.Fprintf(&b, ":%d", e.Line)
	}
	b.WriteString(": ")
	if e.Key != "" && !strings.HasPrefix(e.Msg, "unknown key") {
		b.WriteString(e.Key + ": ")
	}
	b.WriteString(e.Msg)
	return b.String()
}

// ErrorList is every problem found in the configuration files of a path,
// sorted by file (root first) and line. Loader.For returns it as the error.
type ErrorList []*Error

func (l ErrorList) Error() string {
	s := make([]string, len(l))
	for i, e := range l {
		s[i] = e.Error()
	}
	return strings.Join(s, "\n")
}

// sortErrors orders the errors of one file by line, then key.
func sortErrors(l ErrorList) {
	slices.SortStableFunc(l, func(a, b *Error) int {
		if a.Line != b.Line {
			return a.Line - b.Line
		}
		return strings.Compare(a.Key, b.Key)
	})
}

// suggest returns ` (did you mean "x"?)` for the candidate closest to s, or
// "" when none is close.
func suggest(s string, candidates []string) string {
	best, bestD := "", 3
	for _, c := range candidates {
		if d := ruleset.EditDistance(strings.ToLower(s), strings.ToLower(c)); d < bestD {
			best, bestD = c, d
		}
	}
	if best == "" || bestD > len(s)/2 {
		return ""
	}
	return fmt.Sprintf(" (did you mean %s?)", best)
}
