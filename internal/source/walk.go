package source

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/ascvet/ascvet/analyzers/runner"
)

// skipDirs are directory names that a walk never enters, besides hidden
// directories (a name starting with "."): build trees and dependencies.
var skipDirs = map[string]bool{"build": true, "out": true, "output": true, "node_modules": true}

// ReadDir lists a directory during a walk; tests replace it to make one
// unreadable, which file modes cannot do for root.
var ReadDir = os.ReadDir

// walker expands path arguments into file names.
//
// Symbolic links: a link to a file is followed, a link to a directory is
// not (so no link can make the walk loop), except a path argument, which is
// walked whatever it is. A file reached twice, through a link or two
// overlapping arguments, is taken once, under the first name found: its
// key is its real path (filepath.EvalSymlinks). Only arguments and links
// are resolved; a file found by the walk gets its key from its directory's,
// with no system call.
//
// The walker does not keep the key of every file, so that its memory does
// not grow with the tree. A directory walk takes a file by name alone (taken
// and walked below): so a file found by walking is taken before iff it was
// taken through a link or named explicitly (the keys kept, one per such
// file), or lies where an earlier directory argument's walk took it; and a
// file reached through a link or named explicitly is taken before iff its
// key is kept, or a directory argument's walk took it.
type walker struct {
	names   []string                     // in walk order
	seen    map[string]bool              // real paths of the files taken through a link or named explicitly
	roots   []string                     // real paths of the directory arguments walked, the one being walked last
	bad     func(path string, err error) // a path that cannot be read: a skipped input
	note    func(path, msg string)       // a remark that changes nothing (an empty directory)
	failed  int                          // calls of bad so far
	listing *Listing                     // the directories listed, with the names of interest they hold; nil: not kept
	abs     string                       // the absolute path of the directory argument being walked ("" when unknown: its directories are not recorded)
	walking bool                         // a link found by walking the last root is being resolved
	at      string                       // its path below that root (real up to its directory)
}

// Expand turns path arguments into file names, each once, in walk order. A
// directory (or "dir/...") is walked recursively for C++ sources in lexical
// order, skipping hidden directories and skipDirs; a file named explicitly is
// taken whatever its extension. bad is called for each path that cannot be
// read; it is a skipped input.
func Expand(paths []string, bad func(path string, err error)) []string {
	return ExpandNoted(paths, bad, func(string, string) {})
}

// ExpandNoted is Expand, with note called for each directory argument that
// holds no C++ source.
func ExpandNoted(paths []string, bad func(path string, err error), note func(path, msg string)) []string {
	return ExpandListed(paths, bad, note, nil)
}

// ExpandListed is ExpandNoted, recording in listing (when not nil) what
// each directory it lists whole holds of the listing's names.
func ExpandListed(paths []string, bad func(path string, err error), note func(path, msg string), listing *Listing) []string {
	w := &walker{seen: map[string]bool{}, note: note, listing: listing}
	w.bad = func(path string, err error) {
		w.failed++
		bad(path, err)
	}
	for _, p := range paths {
		p = WalkedPath(p)
		info, err := os.Stat(p)
		if err != nil {
			bad(p, err)
			continue
		}
		real, err := realPath(p)
		if err != nil {
			bad(p, err)
			continue
		}
		switch {
		case info.IsDir():
			before, failed := len(w.names), w.failed
			w.roots = append(w.roots, real)
			w.abs = ""
			if listing != nil {
				if abs, err := filepath.Abs(p); err == nil {
					w.abs = abs
				}
			}
			w.dir(p, real, w.abs)
			if len(w.names) == before && w.failed == failed {
				note(p, "no source files ("+strings.Join(runner.Extensions, " ")+") here")
			}
		case info.Mode().IsRegular():
			w.addResolved(p, real)
		default:
			bad(p, ErrNotRegular)
		}
	}
	return w.names
}

// walked takes the file name found by walking, whose real path is real,
// unless already taken.
func (w *walker) walked(name, real string) {
	if w.seen[real] {
		return
	}
	for _, r := range w.roots[:len(w.roots)-1] { // the roots walked before this one
		if walkTakes(r, real) {
			return
		}
	}
	w.names = append(w.names, name)
}

// addResolved takes the file name, reached through a link or named
// explicitly, whose real path is real, unless already taken.
func (w *walker) addResolved(name, real string) {
	if w.seen[real] {
		return
	}
	for k, r := range w.roots {
		// The root being walked took the file only if the walk is past it:
		// its directories are walked in lexical order, so the file is
		// taken before when its path sorts before the link's.
		if walkTakes(r, real) && (k < len(w.roots)-1 || !w.walking || walkOrder(r, real, w.at)) {
			return
		}
	}
	w.seen[real] = true
	w.names = append(w.names, name)
}

// walkTakes reports whether walking the directory whose real path is root
// takes the file whose real path is real: it lies below root, under
// directories the walk enters, with a source name. (Every directory of a
// real path is a directory, not a link, so the walk reaches it by name.)
func walkTakes(root, real string) bool {
	rel, err := filepath.Rel(root, real)
	if err != nil || rel == "." || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return false
	}
	parts := strings.Split(rel, string(filepath.Separator))
	for _, d := range parts[:len(parts)-1] {
		if strings.HasPrefix(d, ".") || skipDirs[d] {
			return false
		}
	}
	return runner.IsSource(parts[len(parts)-1])
}

// walkOrder reports whether the walk of root reaches the file real before
// the path at (both real paths below root): os.ReadDir lists a directory
// sorted by name, and the walk goes depth first.
func walkOrder(root, real, at string) bool {
	a, _ := filepath.Rel(root, real)
	b, _ := filepath.Rel(root, at)
	pa, pb := strings.Split(a, string(filepath.Separator)), strings.Split(b, string(filepath.Separator))
	for k := 0; k < len(pa) && k < len(pb); k++ {
		if pa[k] != pb[k] {
			return pa[k] < pb[k]
		}
	}
	return len(pa) < len(pb)
}

// dir walks the directory path, whose real path is real and absolute
// path abs ("" when not recorded).
func (w *walker) dir(path, real, abs string) {
	entries, err := ReadDir(path)
	if err != nil {
		w.bad(path, err)
		// os.ReadDir returns what it read before the error; go on with it.
	} else if abs != "" {
		w.listing.record(abs, entries)
	}
	for _, e := range entries {
		name := e.Name()
		p, r := filepath.Join(path, name), filepath.Join(real, name)
		switch t := e.Type(); {
		case t.IsDir():
			if !strings.HasPrefix(name, ".") && !skipDirs[name] {
				a := ""
				if abs != "" {
					a = filepath.Join(abs, name)
				}
				w.dir(p, r, a)
			}
		case !runner.IsSource(name):
		case t.IsRegular():
			w.walked(p, r)
		case t&fs.ModeSymlink != 0:
			w.walking, w.at = true, r
			w.link(p)
			w.walking = false
		default:
			w.bad(p, ErrNotRegular) // a device, socket or pipe with a source name
		}
	}
}

// link takes a symbolic link with a source name found by the walk, when it
// leads to a regular file; one to a directory is not followed.
func (w *walker) link(p string) {
	info, err := os.Stat(p)
	if err != nil {
		w.bad(p, err) // dangling, or a loop of links
		return
	}
	if info.IsDir() {
		return
	}
	if !info.Mode().IsRegular() {
		w.bad(p, ErrNotRegular)
		return
	}
	real, err := realPath(p)
	if err != nil {
		w.bad(p, err)
		return
	}
	w.addResolved(p, real)
}

// realPath returns the absolute path of p with every link resolved.
func realPath(p string) (string, error) {
	abs, err := filepath.Abs(p)
	if err != nil {
		return "", err
	}
	return filepath.EvalSymlinks(abs)
}

// WalkedPath is the path a command-line argument names: "dir/..." is dir,
// "..." is ".", as go's tools read them; any other is itself.
func WalkedPath(p string) string {
	if p == "..." {
		return "."
	}
	if rest, ok := strings.CutSuffix(p, "/..."); ok {
		return rest
	}
	return p
}
