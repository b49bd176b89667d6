package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/ascvet/ascvet/analyzers/runner"
	"github.com/ascvet/ascvet/cppfront"
)

// skipDirs are directory names that a walk never enters, besides hidden
// directories (a name starting with "."): build trees and dependencies.
var skipDirs = map[string]bool{"build": true, "out": true, "output": true, "node_modules": true}

// inputs is what ascvet read from its path arguments.
type inputs struct {
	files   []runner.File // files with a VF marker, to analyse
	read    int           // C++ files read, with or without a marker
	bytes   int64         // their total size
	vfBytes int64         // total size of the files with a VF marker
	skipped int           // paths and files that could not be read; each was reported
}

// load expands the path arguments into files, reads them with jobs
// goroutines, and keeps those with a VF marker. Problems are reported on
// stderr, one line each, and counted in skipped.
func load(paths []string, jobs int, stderr io.Writer) *inputs {
	in := &inputs{}
	names := expand(paths, func(path string, err error) {
		in.skipped++
		fmt.Fprintf(stderr, "ascvet: %s\n", describe(path, err))
	})

	srcs := make([][]byte, len(names))
	errs := make([]error, len(names))
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(jobs, max(len(names), 1)) {
		wg.Go(func() {
			for i := range next {
				srcs[i], errs[i] = os.ReadFile(names[i])
			}
		})
	}
	for i := range names {
		next <- i
	}
	close(next)
	wg.Wait()

	for i, name := range names {
		if errs[i] != nil {
			in.skipped++
			fmt.Fprintf(stderr, "ascvet: %s\n", describe(name, errs[i]))
			continue
		}
		in.read++
		in.bytes += int64(len(srcs[i]))
		if cppfront.HasVFMarker(srcs[i]) {
			in.vfBytes += int64(len(srcs[i]))
			in.files = append(in.files, runner.File{Name: name, Src: srcs[i]})
		}
	}
	return in
}

// expand turns path arguments into file names, each once, in walk order. A
// directory (or "dir/...") is walked recursively for C++ sources, skipping
// hidden directories and skipDirs; a file named explicitly is taken whatever
// its extension. bad is called for each path that cannot be read.
func expand(paths []string, bad func(path string, err error)) []string {
	var names []string
	seen := map[string]bool{}
	add := func(name string) {
		if key := filepath.Clean(name); !seen[key] {
			seen[key] = true
			names = append(names, name)
		}
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
		if !info.IsDir() {
			add(p)
			continue
		}
		root := p
		err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				bad(path, err)
				return nil // a directory that cannot be read is skipped; the walk goes on
			}
			if d.IsDir() {
				if path != root && (strings.HasPrefix(d.Name(), ".") || skipDirs[d.Name()]) {
					return filepath.SkipDir
				}
				return nil
			}
			if runner.IsSource(d.Name()) {
				add(path)
			}
			return nil
		})
		if err != nil {
			bad(root, err)
		}
	}
	return names
}

// describe formats a file error as "path: reason", without the operation
// name that os errors carry ("open", "stat", "lstat").
func describe(path string, err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return fmt.Sprintf("%s: %v", pe.Path, pe.Err)
	}
	return fmt.Sprintf("%s: %v", path, err)
}
