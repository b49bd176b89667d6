// Package suppress parses ascvet's suppression directives and applies them to
// findings.
//
// A directive is a comment. In C and C++ files:
//
//	code; // ascvet:ignore ASC1001[,ASC1002] reason   this line
//	// ascvet:ignore unalign-pre-in-loop reason       alone on its line: the next line of code
//	// ascvet:file-ignore ASC1* reason                the whole file
//	// ascvet:begin-ignore ASC3001 reason             the lines from here...
//	// ascvet:end-ignore                              ...to here
//	code; // NOLINT(ascvet-ASC1001): reason           clang-tidy's forms: this line,
//	// NOLINTNEXTLINE(ascvet-ASC1001)                 the next line,
//	// NOLINTBEGIN(ascvet-*) ... // NOLINTEND(ascvet-*)  a block (same arguments)
//
// Python files use # comments and the ascvet: forms only. Rules are named by
// ID, name or glob (path.Match), ignoring case. The ascvet: forms require a
// reason, which becomes the justification of what they suppress; NOLINT
// does not (clang-tidy's rule). NOLINT names ascvet's rules as clang-tidy
// checks "ascvet-<ID or name>"; a bare NOLINT or NOLINT(*) covers every
// rule, and NOLINT for other tools' checks only (NOLINT(readability-*)) is
// not an ascvet directive at all.
//
// Parse finds the directives of a file and what is wrong with them (rule
// InvalidDirective); Apply matches them against the file's findings and
// finds the directives that suppressed nothing (rule UnusedDirective).
package suppress

import (
	"path"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/ascvet/ascvet/ruleset"
)

// Syntax is the comment syntax of a file.
type Syntax int8

// The syntaxes.
const (
	CPP    Syntax = iota // C and C++: // and /* */ comments, ascvet: and NOLINT forms
	Python               // # comments, ascvet: forms
)

// SyntaxFor returns the syntax of a file by its name: Python for .py and
// .pyi files, CPP for everything else.
func SyntaxFor(filename string) Syntax {
	switch strings.ToLower(filepath.Ext(filename)) {
	case ".py", ".pyi":
		return Python
	}
	return CPP
}

// Kind is the form of a directive.
type Kind int8

// The kinds of directive. An end directive (ascvet:end-ignore, NOLINTEND)
// is not a directive of its own: it closes the block of its begin.
const (
	Ignore         Kind = iota // ascvet:ignore: its line, or the next line of code when alone on its line
	FileIgnore                 // ascvet:file-ignore: the whole file
	BeginIgnore                // ascvet:begin-ignore ... ascvet:end-ignore: a block of lines
	Nolint                     // NOLINT: its line
	NolintNextLine             // NOLINTNEXTLINE: the next line
	NolintBegin                // NOLINTBEGIN ... NOLINTEND: a block of lines
)

// PlaceholderReason is the text the editor's "suppress" quick fix puts
// where the reason goes, for the user to replace ("REASON: " before it). A
// directive whose reason still holds it suppresses nothing and is an
// ASC0002 finding: the placeholder is no justification.
const PlaceholderReason = "say why this finding does not apply"

var kindNames = [...]string{"ascvet:ignore", "ascvet:file-ignore", "ascvet:begin-ignore", "NOLINT", "NOLINTNEXTLINE", "NOLINTBEGIN"}

// String returns the directive keyword of k ("ascvet:ignore", "NOLINT").
func (k Kind) String() string {
	if k >= 0 && int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "kind(" + strconv.Itoa(int(k)) + ")"
}

// Span is a piece of one line of a file.
type Span struct {
	Line, Col         int // 1-based; columns count bytes, as runner.Finding's do
	EndCol            int // the column just after the span
	Offset, EndOffset int // byte offsets of the span, [Offset, EndOffset)
}

// Directive is one suppression directive.
type Directive struct {
	Kind     Kind     // the form
	Text     string   // the directive without its reason: "ascvet:ignore ASC1001,ASC1002", "NOLINT(ascvet-*)"
	Patterns []string // rule patterns as written; for NOLINT the checks that name ascvet rules ("ascvet-ASC1001", "*"); nil for a bare NOLINT
	Rules    []string // IDs of the rules the patterns match, sorted
	Reason   string   // the justification; may be empty for NOLINT forms only
	Span              // the directive's text, from "ascvet:" or "NOLINT" to the end of its comment line
	EndSpan  Span     // a block's end directive; zero for other kinds
	From, To int      // the lines the directive covers, inclusive; To is maxLine for a file directive
	Explicit bool     // names ascvet's rules; false for a bare NOLINT or NOLINT(*), which other tools read too
}

// maxLine is the last line a file directive covers.
const maxLine = int(^uint(0) >> 1)

// Problem is something wrong with a directive: a finding of InvalidDirective.
type Problem struct {
	Span           // where: the directive, or the offending rule pattern
	Message string // lowercase, no final period; says what is wrong and how to fix it
}

// Covers reports whether d suppresses findings of rule id whose first
// line is line and whose last line is endLine: d names the rule and one
// end of the finding lies within d's lines. (One end, not any line: a
// directive inside a loop body must not hide a finding about the whole
// loop, but one on the line before a statement or after its last line
// should hide a finding about the statement.)
func (d *Directive) Covers(id string, line, endLine int) bool {
	if !d.names(id) {
		return false
	}
	if endLine < line {
		endLine = line
	}
	return d.From <= line && line <= d.To || d.From <= endLine && endLine <= d.To
}

func (d *Directive) names(id string) bool {
	for _, r := range d.Rules {
		if r == id {
			return true
		}
	}
	return false
}

// rank orders directives from the most specific (a line) to the least (the file).
func (d *Directive) rank() int {
	switch d.Kind {
	case FileIgnore:
		return 2
	case BeginIgnore, NolintBegin:
		return 1
	}
	return 0
}

// matchRules returns the IDs of the rules whose ID or name matches pattern,
// ignoring case, each prefixed with prefix ("ascvet-" for NOLINT checks).
func matchRules(rules []*ruleset.Rule, pattern, prefix string) ([]string, error) {
	pattern = strings.ToLower(pattern)
	if _, err := path.Match(pattern, ""); err != nil {
		return nil, err
	}
	var ids []string
	for _, r := range rules {
		id, name := prefix+strings.ToLower(r.ID), prefix+r.Name
		okID, _ := path.Match(pattern, id)
		okName, _ := path.Match(pattern, name)
		if okID || okName {
			ids = append(ids, r.ID)
		}
	}
	return ids, nil
}
