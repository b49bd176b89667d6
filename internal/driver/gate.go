package driver

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/ascvet/ascvet/internal/git"
	"github.com/ascvet/ascvet/internal/repo"
	"github.com/ascvet/ascvet/internal/report"
	"github.com/ascvet/ascvet/internal/source"
	"github.com/ascvet/ascvet/internal/tempfile"
	"github.com/ascvet/ascvet/ruleset/baseline"
	"github.com/ascvet/ascvet/ruleset/config"
)

// Gating only new findings, for a team adopting ascvet on a legacy tree:
// -new-from-rev keeps the findings on lines changed since a git revision;
// -baseline suppresses the findings recorded by -write-baseline, matched by
// a line-independent fingerprint, so code that moves keeps its entries.

// changedSince diffs the files against the git revision rev and returns
// whether an issue touches a line changed since. Each file is diffed in
// its own repository: the git work tree of each path given (paths), and of
// each file with an issue, is diffed once against rev. A path given
// outside any git work tree is an error, as is a rev that one of the
// repositories lacks. The issues are not dropped here: the baseline is
// matched against all of them first (applyBaseline), so that an entry
// whose finding is on a line the change left alone is not stale.
func changedSince(roots *repo.Roots, paths []string, issues []report.Issue, rev string) (func(*report.Issue) bool, error) {
	changed := map[string]map[string]*git.LineSet{} // by top-level, by absolute path
	diff := func(top string) error {
		if _, done := changed[top]; done {
			return nil
		}
		c, err := git.ChangedLines(top, rev)
		if err != nil {
			return err
		}
		changed[top] = c
		return nil
	}
	for _, p := range paths {
		abs := roots.Abs(strings.TrimSuffix(strings.TrimSuffix(p, "..."), "/"))
		dir := abs
		if fi, err := os.Stat(abs); err == nil && !fi.IsDir() {
			dir = filepath.Dir(abs)
		}
		top := roots.GitTop(dir)
		if top == "" {
			return nil, fmt.Errorf("%s is not in a git work tree", p)
		}
		if err := diff(top); err != nil {
			return nil, err
		}
	}
	for _, is := range issues {
		if top := roots.GitTop(filepath.Dir(roots.Abs(is.Pos.Filename))); top != "" {
			if err := diff(top); err != nil {
				return nil, err
			}
		}
	}
	return func(is *report.Issue) bool {
		abs := roots.Abs(is.Pos.Filename)
		top := roots.GitTop(filepath.Dir(abs))
		if top == "" {
			return false
		}
		ls := changed[top][abs]
		return ls != nil && ls.Overlaps(is.Pos.Line, max(is.End.Line, is.Pos.Line))
	}, nil
}

// keepIssues returns the issues for which keep is true, in order.
func keepIssues(issues []report.Issue, keep func(*report.Issue) bool) []report.Issue {
	var out []report.Issue
	for i := range issues {
		if keep(&issues[i]) {
			out = append(out, issues[i])
		}
	}
	return out
}

// entries returns the baseline entries of the reported issues, in order:
// each keyed on its file's path from the repository root.
func entries(issues []report.Issue) (out []baseline.Entry, index []int) {
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
// temporary file of ascvet's (internal/tempfile): a signal removes it, and the
// stale ones a SIGKILL left beside the baseline are removed first.
//
// A run on part of the tree (one folder, the files pre-commit names, some
// rules with -checks) knows nothing of the findings elsewhere, so the
// entries of the old file that the run does not cover (RunScope.covers)
// are kept: written is the number of entries of the run's issues, kept the
// number of old ones carried over. An old file that cannot be read is
// replaced, with a warning: it holds nothing to keep. An old version 1
// file whose entries the run does not all cover is an error, as their
// paths, relative to another working directory, cannot be carried into
// version 2.
func saveBaseline(stderr io.Writer, scope *RunScope, path string, issues []report.Issue) (written, kept int, err error) {
	es, _ := entries(issues)
	var carried []baseline.Entry
	switch old, err := baseline.Read(path); {
	case err != nil && !errors.Is(err, fs.ErrNotExist):
		fmt.Fprintf(stderr, "ascvet: -write-baseline: replacing %s, whose entries cannot be kept: %v\n", path, err)
	case err == nil:
		covered := scope.covers(path, old)
		for _, e := range old.Entries {
			if !covered(e) {
				carried = append(carried, e)
			}
		}
		if len(carried) > 0 && old.Version == baseline.LegacyVersion {
			return 0, 0, fmt.Errorf("%s is a version 1 baseline, whose paths cannot be carried into version 2, and this run does not cover %d of its entries (%s, ...): write it once from a run on the whole tree", path, len(carried), carried[0].Path)
		}
		// An old entry the run's findings hold already (a file an
		// analyzer failed on keeps its entries, and gives some findings)
		// is not written twice.
		added, _, _ := baseline.Filter(&baseline.Baseline{Entries: es}, carried)
		for _, i := range added {
			es = append(es, carried[i])
		}
		kept = len(added)
	}
	tempfile.RemoveStale(stderr, filepath.Dir(path), time.Now())
	if err := baseline.WriteVia(path, es, tempfile.Create, tempfile.Gone); err != nil {
		return 0, 0, err
	}
	return countReported(issues), kept, nil
}

// ApplyBaseline marks the issues the baseline holds as suppressed and
// reports its stale entries on stderr: those the run covers (scope) whose
// finding is gone. An entry of a file the run did not analyse is not
// stale, whatever the run found. Issues for which late is true (nil: none)
// match the baseline after the others: with -new-from-rev, a line the
// change copied is the new finding, not the old one it copies.
func ApplyBaseline(stderr io.Writer, scope *RunScope, path string, issues []report.Issue, late func(*report.Issue) bool) ([]report.Issue, error) {
	b, err := baseline.Read(path)
	if err != nil {
		return nil, err
	}
	es, index := entries(issues)
	if late != nil {
		order := make([]int, len(es))
		for k := range order {
			order[k] = k
		}
		slices.SortStableFunc(order, func(x, y int) int {
			return cmp.Compare(b2i(late(&issues[index[x]])), b2i(late(&issues[index[y]])))
		})
		es2, index2 := make([]baseline.Entry, len(es)), make([]int, len(es))
		for k, o := range order {
			es2[k], index2[k] = es[o], index[o]
		}
		es, index = es2, index2
	}
	if b.Version == baseline.LegacyVersion {
		legacyAliases(scope.Roots, path, b, es, issues, index)
	}
	_, matched, stale := baseline.Filter(b, es)
	for _, m := range matched {
		is := &issues[index[m]]
		is.Suppressed = append(is.Suppressed, report.Suppression{Kind: "external", Justification: "in baseline " + path})
	}
	covered := scope.covers(path, b)
	stale = slices.DeleteFunc(stale, func(e baseline.Entry) bool { return !covered(e) })
	if len(stale) > 0 {
		fmt.Fprintf(stderr, "ascvet: baseline %s: %d %s no longer found (fixed, or the code changed); rewrite it with -write-baseline to drop them:\n", path, len(stale), report.PluralWord(len(stale), "entry", "entries"))
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

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// RunScope is what a run looked at, which decides what it can say about a
// baseline's entries. A run on one folder, on the files pre-commit names,
// or in the language server on one open file, finds nothing of the
// findings of the other files: their entries are neither stale nor
// dropped by -write-baseline. An entry is covered when the run ran its
// rule and either analysed its file, or walked the folder its file was in
// and the file no longer exists (it was deleted or renamed: its entries
// can never match again). A file the walk took but did not analyse (over a
// limit, binary, unreadable, its ascvet.toml broken, an analyzer failed)
// is not covered: its findings are unknown.
type RunScope struct {
	Roots *repo.Roots
	Files []string        // the files analysed to the end, as named (Inputs.analysed)
	dirs  []string        // the directory arguments walked, absolute and clean
	rules map[string]bool // the rules that ran, by ID (-checks); nil: every rule
}

// newRunScope returns the scope of a run on the path arguments paths that
// analysed files to the end and ran the rules -checks selected (checks;
// nil when -checks was not given).
func newRunScope(roots *repo.Roots, paths []string, files []string, checks []string) *RunScope {
	sc := &RunScope{Roots: roots, Files: files}
	for _, p := range paths {
		p = source.WalkedPath(p)
		if fi, err := os.Stat(p); err == nil && fi.IsDir() {
			sc.dirs = append(sc.dirs, roots.Abs(p))
		}
	}
	if checks != nil {
		// The list was checked before the run; it cannot fail here.
		sc.rules, _ = config.Select(checks, config.AllRules())
	}
	return sc
}

// covers returns whether the run covers each entry of the baseline b, read
// from the file path: see RunScope. It looks at each analysed file once,
// and at the file system only for the entries of files it did not
// analyse.
func (sc *RunScope) covers(path string, b *baseline.Baseline) func(baseline.Entry) bool {
	legacy := b.Version == baseline.LegacyVersion
	baseDir := filepath.Dir(sc.Roots.Abs(path))
	byPath := map[string]bool{} // an entry's path: whether the run covers its file
	byAbs := map[string][]string{}
	for _, e := range b.Entries {
		if _, ok := byPath[e.Path]; ok {
			continue
		}
		byPath[e.Path] = false
		if legacy {
			for _, abs := range legacyPaths(sc.Roots, baseDir, e.Path) {
				byAbs[abs] = append(byAbs[abs], e.Path)
			}
		}
	}
	roots := map[string]bool{}
	for _, name := range sc.Files {
		if legacy {
			for _, p := range byAbs[sc.Roots.Abs(name)] {
				byPath[p] = true
			}
			continue
		}
		root, key := sc.Roots.Key(name)
		roots[root] = true
		if _, ok := byPath[key]; ok {
			byPath[key] = true
		}
	}
	for _, d := range sc.dirs {
		roots[sc.Roots.RootOfDir(d)] = true
	}
	for p, analysed := range byPath {
		if analysed || len(sc.dirs) == 0 {
			continue
		}
		var where []string // the files the entry can name
		if legacy {
			where = legacyPaths(sc.Roots, baseDir, p)
		} else {
			for root := range roots {
				abs := filepath.FromSlash(p)
				if !filepath.IsAbs(abs) {
					abs = filepath.Join(root, abs)
				}
				// In a repository nested in root, the file's key is
				// from the nested root: not this entry's file.
				if _, key := sc.Roots.Key(abs); key == p {
					where = append(where, abs)
				}
			}
		}
		byPath[p] = gone(where, sc.dirs)
	}
	return func(e baseline.Entry) bool {
		return byPath[e.Path] && (sc.rules == nil || sc.rules[e.Rule])
	}
}

// gone reports whether none of the files where exists, and one of them is
// below a directory of dirs: a walk of it would have found the file.
func gone(where, dirs []string) bool {
	below := false
	for _, abs := range where {
		if _, err := os.Lstat(abs); !errors.Is(err, fs.ErrNotExist) {
			return false
		}
		for _, d := range dirs {
			if _, ok := repo.RelUnder(d, abs); ok {
				below = true
			}
		}
	}
	return below
}

// legacyPaths returns the files a version 1 entry's path p can name: p
// taken from the baseline file's directory baseDir, and from the working
// directory (p itself, when absolute).
func legacyPaths(roots *repo.Roots, baseDir, p string) []string {
	fp := filepath.FromSlash(p)
	if filepath.IsAbs(fp) {
		return []string{filepath.Clean(fp)}
	}
	out := []string{filepath.Join(baseDir, fp)}
	if abs := roots.Abs(fp); abs != out[0] {
		out = append(out, abs)
	}
	return out
}

// legacyAliases lets a version 1 baseline, whose paths are relative to the
// working directory of the run that wrote it, match where it can: an
// entry's path is resolved against the baseline file's directory and
// against the working directory, and a finding in a file it resolves to
// also answers to the fingerprint keyed on that path.
func legacyAliases(roots *repo.Roots, path string, b *baseline.Baseline, es []baseline.Entry, issues []report.Issue, index []int) {
	baseDir := filepath.Dir(roots.Abs(path))
	byFile := map[string][]string{} // legacy paths by the absolute file they resolve to
	seen := map[string]bool{}
	for _, e := range b.Entries {
		if seen[e.Path] {
			continue
		}
		seen[e.Path] = true
		for _, abs := range legacyPaths(roots, baseDir, e.Path) {
			if !slices.Contains(byFile[abs], e.Path) {
				byFile[abs] = append(byFile[abs], e.Path)
			}
		}
	}
	for k := range es {
		is := &issues[index[k]]
		for _, legacy := range byFile[roots.Abs(is.Pos.Filename)] {
			if legacy != es[k].Path {
				es[k].Aliases = append(es[k].Aliases, baseline.Fingerprint(is.RuleID(), legacy, is.Snippet))
			}
		}
	}
}

func countReported(issues []report.Issue) int {
	n := 0
	for i := range issues {
		if len(issues[i].Suppressed) == 0 {
			n++
		}
	}
	return n
}
