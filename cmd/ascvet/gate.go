package main

import (
	"fmt"
	"io"
	"path/filepath"

	"github.com/ascvet/ascvet/ruleset/baseline"
)

// Gating only new findings, for a team adopting ascvet on a legacy tree:
// -new-from-rev keeps the findings on lines changed since a git revision;
// -baseline suppresses the findings recorded by -write-baseline, matched by
// a line-independent fingerprint, so code that moves keeps its entries.

// onlyChanged drops the issues that touch no line changed since rev.
func onlyChanged(issues []issue, rev string) ([]issue, error) {
	changed, err := changedLines(".", rev)
	if err != nil {
		return nil, err
	}
	var out []issue
	for _, is := range issues {
		abs, err := filepath.Abs(is.Pos.Filename)
		if err != nil {
			continue
		}
		if ls := changed[filepath.Clean(abs)]; ls != nil && ls.overlaps(is.Pos.Line, max(is.End.Line, is.Pos.Line)) {
			out = append(out, is)
		}
	}
	return out, nil
}

// entries returns the baseline entries of the reported issues, in order.
func entries(issues []issue) (out []baseline.Entry, index []int) {
	for i := range issues {
		is := &issues[i]
		if len(is.Suppressed) > 0 {
			continue
		}
		out = append(out, baseline.Entry{Rule: is.RuleID(), Path: filepath.ToSlash(is.Pos.Filename), Fingerprint: is.Fingerprint, Message: is.Diagnostic.Message, Line: is.Pos.Line})
		index = append(index, i)
	}
	return out, index
}

// saveBaseline writes the reported issues to a baseline file.
func saveBaseline(path string, issues []issue) error {
	es, _ := entries(issues)
	return baseline.Write(path, es)
}

// applyBaseline marks the issues the baseline holds as suppressed and
// reports its stale entries (findings that are gone) on stderr.
func applyBaseline(stderr io.Writer, path string, issues []issue) ([]issue, error) {
	b, err := baseline.Read(path)
	if err != nil {
		return nil, err
	}
	es, index := entries(issues)
	_, matched, stale := baseline.Filter(b, es)
	for _, m := range matched {
		is := &issues[index[m]]
		is.Suppressed = append(is.Suppressed, suppression{Kind: "external", Justification: "in baseline " + path})
	}
	if len(stale) > 0 {
		fmt.Fprintf(stderr, "ascvet: baseline %s: %d %s no longer found (fixed, or the code changed); rewrite it with -write-baseline to drop them:\n", path, len(stale), map[bool]string{true: "entry", false: "entries"}[len(stale) == 1])
		for i, e := range stale {
			if i == 10 {
				fmt.Fprintf(stderr, "ascvet:   ... and %d more\n", len(stale)-10)
				break
			}
			fmt.Fprintf(stderr, "ascvet:   %s:%d: [%s] %s\n", e.Path, e.Line, e.Rule, e.Message)
		}
	}
	return issues, nil
}
