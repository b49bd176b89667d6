package main

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

// readDir lists a directory during a walk; tests replace it to make one
// unreadable, which file modes cannot do for root.
var readDir = os.ReadDir

// walker expands path arguments into file names.
//
// Symbolic links: a link to a file is followed, a link to a directory is
// not (so no link can make the walk loop), except a path argument, which is
// walked whatever it is. A file reached twice, through a link or two
// overlapping arguments, is taken once, under the first name found: its
// key is its real path (filepath.EvalSymlinks). Only arguments and links
// are resolved; a file found by the walk gets its key from its directory's,
// with no system call.
type walker struct {
	names  []string                     // in walk order
	seen   map[string]bool              // real paths of the names
	bad    func(path string, err error) // a path that cannot be read: a skipped input
	note   func(path, msg string)       // a remark that changes nothing (an empty directory)
	failed int                          // calls of bad so far
}

// expand turns path arguments into file names, each once, in walk order. A
// directory (or "dir/...") is walked recursively for C++ sources in lexical
// order, skipping hidden directories and skipDirs; a file named explicitly is
// taken whatever its extension. bad is called for each path that cannot be
// read; it is a skipped input.
func expand(paths []string, bad func(path string, err error)) []string {
	return expandNoted(paths, bad, func(string, string) {})
}

// expandNoted is expand, with note called for each directory argument that
// holds no C++ source.
func expandNoted(paths []string, bad func(path string, err error), note func(path, msg string)) []string {
	w := &walker{seen: map[string]bool{}, note: note}
	w.bad = func(path string, err error) {
		w.failed++
		bad(path, err)
	}
	for _, p := range paths {
		if p == "..." {
			p = "."
		} else if rest, ok := strings.CutSuffix(p, "/..."); ok {
			p = rest
		}
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
			w.dir(p, real)
			if len(w.names) == before && w.failed == failed {
				note(p, "no source files ("+strings.Join(runner.Extensions, " ")+") here")
			}
		case info.Mode().IsRegular():
			w.add(p, real)
		default:
			bad(p, errNotRegular)
		}
	}
	return w.names
}

// add takes the file name, whose real path is real, unless already taken.
func (w *walker) add(name, real string) {
	if !w.seen[real] {
		w.seen[real] = true
		w.names = append(w.names, name)
	}
}

// dir walks the directory path, whose real path is real.
func (w *walker) dir(path, real string) {
	entries, err := readDir(path)
	if err != nil {
		w.bad(path, err)
		// os.ReadDir returns what it read before the error; go on with it.
	}
	for _, e := range entries {
		name := e.Name()
		p, r := filepath.Join(path, name), filepath.Join(real, name)
		switch t := e.Type(); {
		case t.IsDir():
			if !strings.HasPrefix(name, ".") && !skipDirs[name] {
				w.dir(p, r)
			}
		case !runner.IsSource(name):
		case t.IsRegular():
			w.add(p, r)
		case t&fs.ModeSymlink != 0:
			w.link(p)
		default:
			w.bad(p, errNotRegular) // a device, socket or pipe with a source name
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
		w.bad(p, errNotRegular)
		return
	}
	real, err := realPath(p)
	if err != nil {
		w.bad(p, err)
		return
	}
	w.add(p, real)
}

// realPath returns the absolute path of p with every link resolved.
func realPath(p string) (string, error) {
	abs, err := filepath.Abs(p)
	if err != nil {
		return "", err
	}
	return filepath.EvalSymlinks(abs)
}
