package main

// This file parses the command lines of ascvet and of its subcommands.
//
// Flags may come before, between and after the paths, as with golangci-lint
// and ruff: "ascvet kernels -f json" is "ascvet -f json kernels". Flags are
// Go style, one dash ("-fix", "-f json", "-fail=error"), and two dashes work
// too ("--fix"). "--" ends the flags: every argument after it is a path,
// even one that starts with "-".
//
// The standard flag package stops at the first argument that is not a flag.
// parseArgs first splits the arguments into flags (with their values, in
// their order, which matters for the repeatable -f/-o pairs) and paths,
// then hands the flags to flag.FlagSet.Parse followed by "--" and the paths,
// so that fs.Args() is the paths as before:
//
//	kernels -f json -o out.json k2 -- -odd.asc
//	    flags: -f json -o out.json    paths: kernels k2 -odd.asc
//
// Mistakes get one line on stderr, not the usage: an unknown flag with the
// closest flag as a suggestion, a flag without its value, a bad value.

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
)

// parseArgs parses args with fs, flags anywhere. It returns ok when the
// caller should go on; otherwise the exit code: exitOK after -h (the usage
// printed by fs.Usage), exitUsage after a mistake (one line on stderr).
func parseArgs(fs *flag.FlagSet, args []string, stderr io.Writer) (code int, ok bool) {
	var flags, paths []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			paths = append(paths, args[i+1:]...)
			break
		}
		if len(a) < 2 || a[0] != '-' {
			paths = append(paths, a)
			continue
		}
		dashes, name, hasValue := splitFlag(a)
		if name == "" || name[0] == '-' || name[0] == '=' {
			return flagError(fs, stderr, fmt.Sprintf("bad flag syntax: %s", a)), false
		}
		f := fs.Lookup(name)
		if f == nil && (name == "h" || name == "help") {
			fs.Usage()
			return exitOK, false
		}
		if f == nil {
			msg := "unknown flag " + dashes + name
			if s := suggestFlag(fs, name); s != "" {
				msg += "; did you mean " + dashes + s + "?"
			}
			return flagError(fs, stderr, msg), false
		}
		flags = append(flags, a)
		if hasValue || isBoolFlag(f) {
			continue
		}
		if i+1 == len(args) {
			p, _ := flag.UnquoteUsage(f)
			if p == "" {
				p = "value"
			}
			msg := fmt.Sprintf("flag %s%s needs a %s", dashes, name, p)
			return flagError(fs, stderr, msg), false
		}
		i++
		flags = append(flags, args[i])
	}
	// Parse only meets known flags with their values now; what it can
	// still report is a bad value, which it says in one line.
	usage, out := fs.Usage, fs.Output()
	fs.Usage = func() {}
	fs.SetOutput(io.Discard)
	err := fs.Parse(append(append(flags, "--"), paths...))
	fs.Usage = usage
	fs.SetOutput(out)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) { // a flag's Set may return it
			fs.Usage()
			return exitOK, false
		}
		return flagError(fs, stderr, err.Error()), false
	}
	return 0, true
}

// splitFlag splits a flag argument "-name", "--name" or "-name=value" into
// its dashes, its name and whether the value is attached.
func splitFlag(a string) (dashes, name string, hasValue bool) {
	dashes, name = "-", a[1:]
	if strings.HasPrefix(name, "-") && len(name) > 1 {
		dashes, name = "--", name[1:]
	}
	if i := strings.IndexByte(name, '='); i > 0 {
		return dashes, name[:i], true
	}
	return dashes, name, false
}

// isBoolFlag reports whether f takes no value ("-fix", not "-fix true").
func isBoolFlag(f *flag.Flag) bool {
	b, ok := f.Value.(interface{ IsBoolFlag() bool })
	return ok && b.IsBoolFlag()
}

// flagError prints msg as the one line of a usage mistake of the command
// whose flags fs holds, and returns exitUsage.
func flagError(fs *flag.FlagSet, stderr io.Writer, msg string) int {
	fmt.Fprintf(stderr, "%s: %s (%s -h lists the flags)\n", fs.Name(), msg, fs.Name())
	return exitUsage
}

// suggestFlag returns the flag of fs that name most likely misspells or
// abbreviates (see suggest), or "".
func suggestFlag(fs *flag.FlagSet, name string) string {
	var names []string
	fs.VisitAll(func(f *flag.Flag) { names = append(names, f.Name) })
	return suggest(name, names)
}

// suggest returns the candidate s most likely stands for: the shortest
// that starts with s, when s has two letters or more ("confid" is
// -confidence, not -config); else the closest by edit distance, at most 2
// and less than len(s), so that a one-letter typo is not "corrected" into
// any other letter; else "". Of equals, the first candidate wins.
func suggest(s string, candidates []string) string {
	best := ""
	if len(s) >= 2 {
		for _, c := range candidates {
			if strings.HasPrefix(c, s) && (best == "" || len(c) < len(best)) {
				best = c
			}
		}
		if best != "" {
			return best
		}
	}
	dist := 3
	for _, c := range candidates {
		if d := editDistance(strings.ToLower(s), strings.ToLower(c)); d < dist && d < len(s) {
			best, dist = c, d
		}
	}
	return best
}

// editDistance is the optimal string alignment distance between a and b,
// in bytes: Levenshtein's insertions, deletions and substitutions, plus the
// transposition of two neighbours ("fial" is 1 from "fail"), each costing 1.
func editDistance(a, b string) int {
	d := make([][]int, len(a)+1)
	for i := range d {
		d[i] = make([]int, len(b)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(a)][len(b)]
}
