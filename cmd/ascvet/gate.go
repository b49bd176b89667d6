package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/ascvet/ascvet/ruleset/baseline"
)

// Gating only new findings, for a team adopting ascvet on a legacy tree:
// -new-from-rev keeps the findings on lines changed since a git revision;
// -baseline suppresses the findings recorded by -write-baseline, matched by
// a line-independent fingerprint, so code that moves keeps its entries.

// onlyChanged drops the issues that touch no line changed since rev. Each
// file is diffed in its own repository: the git work tree of each path
// given (paths), and of each file with an issue, is diffed once against
// rev. A path given outside any git work tree is an error, as is a rev
// that one of the repositories lacks.
func onlyChanged(roots *rootFinder, paths []string, issues []issue, rev string) ([]issue, error) {
	changed := map[string]map[string]*lineSet{} // by top-level, by absolute path
	diff := func(top string) error {
		if _, done := changed[top]; done {
			return nil
		}
		c, err := changedLines(top, rev)
		if err != nil {
			return err
		}
		changed[top] = c
		return nil
	}
	for _, p := range paths {
		abs := roots.abs(strings.TrimSuffix(strings.TrimSuffix(p, "..."), "/"))
		dir := abs
		if fi, err := os.Stat(abs); err == nil && !fi.IsDir() {
			dir = filepath.Dir(abs)
		}
		top := roots.gitTop(dir)
		if top == "" {
			return nil, fmt.Errorf("%s is not in a git work tree", p)
		}
		if err := diff(top); err != nil {
			return nil, err
		}
	}
	var out []issue
	for _, is := range issues {
		abs := roots.abs(is.Pos.Filename)
		top := roots.gitTop(filepath.Dir(abs))
		if top == "" {
			continue
		}
		if err := diff(top); err != nil {
			return nil, err
		}
		if ls := changed[top][abs]; ls != nil && ls.overlaps(is.Pos.Line, max(is.End.Line, is.Pos.Line)) {
			out = append(out, is)
		}
	}
	return out, nil
}

// entries returns the baseline entries of the reported issues, in order:
// each keyed on its file's path from the repository root.
func entries(issues []issue) (out []baseline.Entry, index []int) {
	for i := range issues {
		is := &issues[i]
		if len(is.Suppressed) > 0 {
			continue
		}
		out = append(out, baseline.Entry{Rule: is.RuleID(), Path: is.Key, Fingerprint: is.Fingerprint, Message: is.Diagnostic.Message, Line: is.Pos.Line})
		index = append(index, i)
	}
	return out, index
}

// saveBaseline writes the reported issues to a baseline file, through a
// temporary file of ascvet's (tempfiles.go): a signal removes it, and the
// stale ones a SIGKILL left beside the baseline are removed first.
func saveBaseline(stderr io.Writer, path string, issues []issue) error {
	es, _ := entries(issues)
	removeStaleTemps(stderr, filepath.Dir(path), time.Now())
	return baseline.WriteVia(path, es, temps.Create, temps.Gone)
}

// applyBaseline marks the issues the baseline holds as suppressed and
// reports its stale entries (findings that are gone) on stderr.
func applyBaseline(stderr io.Writer, roots *rootFinder, path string, issues []issue) ([]issue, error) {
	b, err := baseline.Read(path)
	if err != nil {
		return nil, err
	}
	es, index := entries(issues)
	if b.Version == baseline.LegacyVersion {
		legacyAliases(roots, path, b, es, issues, index)
	}
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

// legacyAliases lets a version 1 baseline, whose paths are relative to the
// working directory of the run that wrote it, match where it can: an
// entry's path is resolved against the baseline file's directory and
// against the working directory, and a finding in a file it resolves to
// also answers to the fingerprint keyed on that path.
func legacyAliases(roots *rootFinder, path string, b *baseline.Baseline, es []baseline.Entry, issues []issue, index []int) {
	baseDir := filepath.Dir(roots.abs(path))
	byFile := map[string][]string{} // legacy paths by the absolute file they resolve to
	seen := map[string]bool{}
	for _, e := range b.Entries {
		if seen[e.Path] {
			continue
		}
		seen[e.Path] = true
		p := filepath.FromSlash(e.Path)
		for _, abs := range []string{filepath.Join(baseDir, p), roots.abs(p)} {
			if filepath.IsAbs(p) {
				abs = filepath.Clean(p)
			}
			if !slices.Contains(byFile[abs], e.Path) {
				byFile[abs] = append(byFile[abs], e.Path)
			}
		}
	}
	for k := range es {
		is := &issues[index[k]]
		for _, legacy := range byFile[roots.abs(is.Pos.Filename)] {
			if legacy != es[k].Path {
				es[k].Aliases = append(es[k].Aliases, baseline.Fingerprint(is.RuleID(), legacy, is.snippet))
			}
		}
	}
}
