package cli

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
// closest flag as a suggestion, a flag without its value, a bad value with
// what the flag wants. -h, -help and --help, anywhere before a mistake,
// print the usage on stdout and exit 0, as ascvet help does (answerHelp).

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"regexp"
	"strings"
	"time"

	"github.com/ascvet/ascvet/ruleset/config"
)

// parseArgs parses args with fs, flags anywhere. It returns ok when the
// caller should go on; otherwise the exit code: exitOK after -h (the usage
// printed by fs.Usage; run answers -h before, on stdout, see answerHelp),
// exitUsage after a mistake (one line on stderr).
func parseArgs(fs *flag.FlagSet, args []string, stderr io.Writer) (code int, ok bool) {
	flags, paths, help, msg := scanArgs(fs, args)
	switch {
	case help:
		fs.Usage()
		return exitOK, false
	case msg != "":
		return flagError(fs, stderr, msg), false
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
		return flagError(fs, stderr, badValue(fs, err.Error())), false
	}
	return 0, true
}

// scanArgs splits args into the flags of fs, each with its value, in
// order, and the paths. help is set when -h, -help or --help comes before
// any mistake; msg is the first mistake (an unknown flag, with the closest
// one, a flag without its value, bad syntax), "" when there is none.
func scanArgs(fs *flag.FlagSet, args []string) (flags, paths []string, help bool, msg string) {
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
			return nil, nil, false, fmt.Sprintf("bad flag syntax: %s", a)
		}
		f := fs.Lookup(name)
		if f == nil && (name == "h" || name == "help") {
			return nil, nil, true, ""
		}
		if f == nil {
			msg := "unknown flag " + dashes + name
			if s := suggestFlag(fs, name); s != "" {
				msg += "; did you mean " + dashes + s + "?"
			}
			return nil, nil, false, msg
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
			return nil, nil, false, fmt.Sprintf("flag %s%s needs a %s", dashes, name, p)
		}
		i++
		flags = append(flags, args[i])
	}
	return flags, paths, false, ""
}

// wantsHelp reports whether args, the arguments of the command whose
// flags fs holds, ask for its usage (-h, -help or --help before any
// mistake).
func wantsHelp(fs *flag.FlagSet, args []string) bool {
	_, _, help, _ := scanArgs(fs, args)
	return help
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

// badValue rewrites the flag package's message for a value that does not
// parse, `invalid value "abc" for flag -j: parse error`, to say what the
// flag wants: `... for flag -j: want a whole number, as in -j N: analyse
// N files in parallel`. Any other message is returned as it is.
func badValue(fs *flag.FlagSet, msg string) string {
	m := parseError.FindStringSubmatch(msg)
	if m == nil {
		return msg
	}
	f := fs.Lookup(m[1])
	if f == nil {
		return msg
	}
	g, ok := f.Value.(flag.Getter)
	if !ok {
		return msg
	}
	var want string
	switch g.Get().(type) {
	case int, int64, uint, uint64:
		want = "a whole number"
	case float64:
		want = "a number"
	case time.Duration:
		want = "a duration with its unit (500ms, 60s, 2m)"
	case bool:
		return strings.TrimSuffix(msg, "parse error") + "want true or false"
	default:
		return msg
	}
	if p, usage := flag.UnquoteUsage(f); p != "" {
		usage = strings.TrimSpace(defaultNote.ReplaceAllString(usage, ""))
		want += ", as in -" + f.Name + " " + p + ": " + usage
	}
	return strings.TrimSuffix(msg, "parse error") + "want " + want
}

// parseError is the flag package's message for a value its parser rejects
// (strconv's syntax error, or time.ParseDuration's): the flag's name.
var parseError = regexp.MustCompile(`^invalid (?:boolean )?value ".*" for (?:flag )?-(\S+): parse error$`)

// defaultNote is the default a flag's usage ends with, "(default: ...)".
var defaultNote = regexp.MustCompile(`\s*\(default[^)]*\)\s*$`)

// failError is the usage error of -fail SPEC that config.ParseFail
// rejected: for an entry that misspells a severity ("errors"), the
// command line that was most likely meant.
func failError(spec string, err error) string {
	var typo *config.SeverityTypo
	if !errors.As(err, &typo) {
		return "-fail: " + err.Error()
	}
	items := config.SplitList(spec)
	for i, it := range items {
		if it == typo.Entry {
			items[i] = typo.Want
		}
	}
	what := ", the severity"
	if typo.Want == "none" {
		what = ""
	}
	return fmt.Sprintf("-fail %s: unknown rule %s; did you mean -fail %s%s?", spec, typo.Entry, strings.Join(items, ","), what)
}
