// Package repo finds the repository root of a file, on which the keys of
// findings, baselines and SARIF URIs are built.
package repo

// The repository root of a file, on which every key that names the file is
// built: the fingerprints of findings, baseline entries, SARIF URIs. Keyed
// on the root rather than on the working directory, the same finding has
// the same key whether ascvet runs as "ascvet .", "ascvet sub/..." from the
// parent directory or with an absolute path.
//
// The root of a file is the first of:
//
//  1. the git top-level of its directory: the nearest directory above it
//     that holds .git (a directory, or a file in a worktree or submodule);
//  2. the directory of the nearest ascvet.toml above it;
//  3. the working directory.
//
// Walking up for .git rather than running git keeps the path as the user
// spelled it (git resolves symbolic links) and needs no git binary. A key
// is the path from the root, slash-separated: "kernels/add.asc".

import (
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/ascvet/ascvet/ruleset/config"
)

// Roots finds and caches the roots of files; it is safe for
// concurrent use.
type Roots struct {
	wd    string // working directory, absolute: relative names start here, and the last resort root
	fixed string // when set, the root of every file (reports made by hand in tests)

	mu    sync.Mutex
	byDir map[string]string // the root of each directory looked at
	git   map[string]bool   // whether each directory looked at is a git top-level
}

// NewRoots returns the Roots of files for the working directory wd.
func NewRoots(wd string) *Roots {
	return &Roots{wd: wd, byDir: map[string]string{}, git: map[string]bool{}}
}

// Fixed returns Roots that make dir, also the working directory, the root
// of every file: for a report made by hand.
func Fixed(dir string) *Roots {
	rf := NewRoots(dir)
	rf.fixed = dir
	return rf
}

// WorkDir returns the working directory rf was made for.
func (rf *Roots) WorkDir() string { return rf.wd }

// Abs returns name as an absolute clean path.
func (rf *Roots) Abs(name string) string {
	if filepath.IsAbs(name) {
		return filepath.Clean(name)
	}
	return filepath.Join(rf.wd, name)
}

// RootOf returns the root of the file name (absolute, or relative to the
// working directory).
func (rf *Roots) RootOf(name string) string {
	return rf.RootOfDir(filepath.Dir(rf.Abs(name)))
}

// RootOfDir returns the root of the files in dir (absolute, clean).
func (rf *Roots) RootOfDir(dir string) string {
	if rf.fixed != "" {
		return rf.fixed
	}
	rf.mu.Lock()
	defer rf.mu.Unlock()
	if r, ok := rf.byDir[dir]; ok {
		return r
	}
	var seen []string
	root := ""
	if top := rf.gitTopLocked(dir); top != "" {
		root = top
	} else {
		for d := dir; ; d = filepath.Dir(d) {
			if r, ok := rf.byDir[d]; ok && d != dir {
				root = r // known from an earlier walk: d has no .git above it either
				break
			}
			seen = append(seen, d)
			if fi, err := os.Stat(filepath.Join(d, config.FileName)); err == nil && !fi.IsDir() {
				root = d
				break
			}
			if filepath.Dir(d) == d {
				root = rf.wd
				break
			}
		}
	}
	rf.byDir[dir] = root
	for _, d := range seen {
		// No .git above any of them, and no ascvet.toml between them
		// and root: the same answer.
		rf.byDir[d] = root
	}
	return root
}

// GitTop returns the git top-level above the file or directory path
// (absolute), or "" when it is in no git work tree.
func (rf *Roots) GitTop(dir string) string {
	rf.mu.Lock()
	defer rf.mu.Unlock()
	return rf.gitTopLocked(dir)
}

func (rf *Roots) gitTopLocked(dir string) string {
	for d := dir; ; d = filepath.Dir(d) {
		is, ok := rf.git[d]
		if !ok {
			_, err := os.Lstat(filepath.Join(d, ".git"))
			is = err == nil
			rf.git[d] = is
		}
		if is {
			return d
		}
		if filepath.Dir(d) == d {
			return ""
		}
	}
}

// Key returns the root of the file name and its path from the root,
// slash-separated. A file outside its root (possible only when the root is
// the working directory) keeps its absolute path, slash-separated.
func (rf *Roots) Key(name string) (root, rel string) {
	abs := rf.Abs(name)
	root = rf.RootOf(name)
	if r, ok := RelUnder(root, abs); ok {
		return root, r
	}
	return root, filepath.ToSlash(abs)
}

// RelUnder returns the slash path of abs relative to root, when abs is
// root or below it.
func RelUnder(root, abs string) (string, bool) {
	rel, err := filepath.Rel(root, abs)
	if err != nil {
		return "", false
	}
	rel = filepath.ToSlash(rel)
	if rel == ".." || strings.HasPrefix(rel, "../") {
		return "", false
	}
	return rel, true
}
