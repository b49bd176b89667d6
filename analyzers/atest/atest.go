// Package atest is ascvet's fixture harness for analyzers, in the manner of
// golang.org/x/tools/go/analysis/analysistest but for C++ files: it reads
// every C++ file of a testdata directory (.asc included), runs an analyzer
// and its prerequisites through the same runner as the ascvet driver, and
// checks the diagnostics against the file's want comments.
//
// A want comment holds one or more expectations, each a Go string literal
// holding a regular expression that must match the message, optionally
// preceded by the expected 1-based byte column and a colon:
//
//	LoadAlign(v, src + 1); // want "unaligned address" 5:"second finding"
//
// An expectation is met by one diagnostic that starts on the comment's line
// (at that column, when given) and whose message matches. Each expectation
// must be met, and each diagnostic must meet an expectation; a file without
// want comments, conventionally good.cpp, must therefore stay silent.
//
// Suggested fixes are checked too. When the findings in a fixture offer
// fixes, Run applies the first fix of each, as ascvet -fix does, and
//
//   - compares the result with the golden file beside the fixture, named
//     after it with ".golden" appended (bad.cpp.golden), byte for byte; a
//     golden file must exist, and a fixture without fixes that has one must
//     equal it. go test -update writes the golden files instead (the flag is
//     atest's: a test that imports atest must not define its own -update);
//   - requires that no two fixes overlap (ascvet -fix would apply only one);
//   - runs the analyzer again on the fixed text (the round trip) and requires
//     that every fixed finding is gone and no new one appears: each finding
//     of the fixed text must be a finding of the original that had no fix
//     applied, of the same rule, on the line its position moved to.
package atest

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"

	"github.com/ascvet/ascvet/analyzers/runner"
)

// Run checks analyzer a against the fixture files in dir.
func Run(t testing.TB, dir string, a *analysis.Analyzer) {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatalf("atest: %v", err)
	}
	var files []runner.File
	wants := map[key][]*expectation{}
	for _, e := range entries {
		if e.IsDir() || !runner.IsSource(e.Name()) {
			continue
		}
		name := filepath.Join(dir, e.Name())
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatalf("atest: %v", err)
		}
		files = append(files, runner.File{Name: name, Src: src})
		if err := parseWants(name, src, wants); err != nil {
			t.Errorf("atest: %v", err)
		}
	}
	if len(files) == 0 {
		t.Fatalf("atest: no C++ fixture (%s) in %s", strings.Join(runner.Extensions, " "), dir)
	}
	res, err := runner.Run([]*analysis.Analyzer{a}, files, runner.Options{})
	if err != nil {
		t.Fatalf("atest: %v", err)
	}
	for _, e := range res.Errors {
		t.Errorf("%v\n%s", &e, e.Stack)
	}
	for _, f := range res.Findings {
		if !meet(wants[key{f.Pos.Filename, f.Pos.Line}], f.Pos.Column, f.Diagnostic.Message) {
			t.Errorf("%s:%d:%d: unexpected diagnostic: %s [%s]", f.Pos.Filename, f.Pos.Line, f.Pos.Column, f.Diagnostic.Message, f.RuleID())
		}
	}
	keys := make([]key, 0, len(wants))
	for k := range wants {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b key) int {
		if c := strings.Compare(a.file, b.file); c != 0 {
			return c
		}
		return a.line - b.line
	})
	for _, k := range keys {
		for _, w := range wants[k] {
			if w.met {
				continue
			}
			if w.col > 0 {
				t.Errorf("%s:%d:%d: no diagnostic matching %q", k.file, k.line, w.col, w.re)
			} else {
				t.Errorf("%s:%d: no diagnostic matching %q", k.file, k.line, w.re)
			}
		}
	}
	checkFixes(t, a, files, res)
}

// key is a line of a fixture.
type key struct {
	file string // fixture path
	line int    // 1-based line
}

// expectation is one regular expression of a want comment.
type expectation struct {
	col int            // expected column, 0 for any
	re  *regexp.Regexp // must match the message
	met bool           // a diagnostic has met it
}

// meet marks the first unmet expectation that a diagnostic at col with msg
// satisfies, and reports whether there was one.
func meet(ws []*expectation, col int, msg string) bool {
	for _, w := range ws {
		if !w.met && (w.col == 0 || w.col == col) && w.re.MatchString(msg) {
			w.met = true
			return true
		}
	}
	return false
}

// wantRx finds the start of a want comment (// in C++, # in Python).
var wantRx = regexp.MustCompile(`(?://|#)\s*want\s`)

// parseWants adds the expectations of every want comment of src to wants.
func parseWants(name string, src []byte, wants map[key][]*expectation) error {
	for i, line := range strings.Split(string(src), "\n") {
		loc := wantRx.FindStringIndex(line)
		if loc == nil {
			continue
		}
		k := key{name, i + 1}
		ws, err := parseExpectations(line[loc[1]:])
		if err != nil {
			return fmt.Errorf("%s:%d: bad want comment: %w", name, k.line, err)
		}
		wants[k] = append(wants[k], ws...)
	}
	return nil
}

// parseExpectations parses `"re" 12:"re" ...` up to the end of the line.
func parseExpectations(s string) ([]*expectation, error) {
	var ws []*expectation
	for s = strings.TrimSpace(s); s != ""; s = strings.TrimSpace(s) {
		col := 0
		if n := strings.IndexFunc(s, func(r rune) bool { return r < '0' || r > '9' }); n > 0 && s[n] == ':' {
			col, _ = strconv.Atoi(s[:n])
			if col == 0 {
				return nil, fmt.Errorf("column 0 (columns are 1-based)")
			}
			s = s[n+1:]
		}
		lit, err := strconv.QuotedPrefix(s)
		if err != nil || lit[0] == '\'' {
			return nil, fmt.Errorf("want a quoted regular expression at %q", s)
		}
		s = s[len(lit):]
		pat, _ := strconv.Unquote(lit)
		re, err := regexp.Compile(pat)
		if err != nil {
			return nil, err
		}
		ws = append(ws, &expectation{col: col, re: re})
	}
	if len(ws) == 0 {
		return nil, fmt.Errorf("no expectation")
	}
	return ws, nil
}
