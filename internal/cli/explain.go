package cli

import (
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/ascvet/ascvet/ruleset"
	"github.com/ascvet/ascvet/ruleset/i18n"
)

// explainFlags defines the flags of ascvet explain, -lang and -f; its
// usage goes to stderr.
func explainFlags(stderr io.Writer) (fs *flag.FlagSet, lang, format *string) {
	fs = flag.NewFlagSet("ascvet explain", flag.ContinueOnError)
	fs.SetOutput(stderr)
	lang = fs.String("lang", "", "language `LANG`: en or zh (default: zh when LC_ALL, LC_MESSAGES or LANG starts with zh, else en)")
	format = fs.String("f", "text", "output `FORMAT`: text (wrapped for a terminal) or markdown")
	fs.Usage = func() {
		fmt.Fprint(stderr, `usage: ascvet explain [-lang zh] [-f text|markdown] [RULE...]

Prints the documentation of each RULE, named by ID (ASC1001, in any case)
or by name (unalign-pre-in-loop): what it checks, why, an example it
reports and the example fixed, its severity, options and help URI. Without
a RULE, lists the rules.

Flags:
`)
		fs.PrintDefaults()
		fmt.Fprint(stderr, "\nExit codes: 0, 2 usage error or unknown rule.\n")
	}
	return fs, lang, format
}

// runExplain is "ascvet explain": the documentation of rules, from the same
// source as docs/rules.md and the SARIF rule help.
//
//	ascvet explain [-lang zh] [-f text|markdown] [RULE...]
//
// A RULE is an ID in any case (ASC1001, asc1001) or a name
// (unalign-pre-in-loop); without one, explain lists the rules. The language
// is -lang, else the locale (LC_ALL, LC_MESSAGES, LANG), else English.
// Exit codes: 0, or 2 for a usage error or an unknown rule, which gets the
// closest rule as a suggestion; the rules that are known are still printed.
func runExplain(args []string, stdout, stderr io.Writer) int {
	fs, langFlag, format := explainFlags(stderr)
	if code, ok := parseArgs(fs, args, stderr); !ok {
		return code
	}
	if *langFlag != "" && !i18n.Supported(*langFlag) {
		return explainUsage(stderr, fmt.Sprintf("-lang %s: want en or zh", *langFlag))
	}
	if *format != "text" && *format != "markdown" {
		return explainUsage(stderr, fmt.Sprintf("-f %s: want text or markdown", *format))
	}
	lang := i18n.Lang(*langFlag, os.Getenv)
	if fs.NArg() == 0 {
		printRules(stdout, lang)
		return exitOK
	}
	code := exitOK
	var docs []string
	for _, arg := range fs.Args() {
		r, ok := ruleset.Lookup(arg)
		if !ok {
			fmt.Fprintln(stderr, "ascvet explain: "+unknownRule(arg, lang))
			code = exitUsage
			continue
		}
		if *format == "markdown" {
			docs = append(docs, "## "+r.ID+"\n\n"+r.FormatMarkdown(lang))
		} else {
			docs = append(docs, r.FormatText(lang))
		}
	}
	sep := "\n" + strings.Repeat("-", ruleset.TextWidth) + "\n\n"
	if *format == "markdown" {
		sep = "\n"
	}
	fmt.Fprint(stdout, strings.Join(docs, sep))
	return code
}

func explainUsage(stderr io.Writer, msg string) int {
	fmt.Fprintf(stderr, "ascvet explain: %s\nrun 'ascvet explain -h' for help\n", msg)
	return exitUsage
}

// unknownRule says that arg names no rule, suggesting the closest rule by
// edit distance to its ID or name when one is close enough.
func unknownRule(arg, lang string) string {
	best, dist := closestRule(arg)
	zh := lang == i18n.ZH
	if best == nil || dist > max(2, len(arg)/3) {
		if zh {
			return fmt.Sprintf("未知规则 %q；运行 ascvet explain 可列出全部规则", arg)
		}
		return fmt.Sprintf("unknown rule %q; run 'ascvet explain' to list the rules", arg)
	}
	if zh {
		return fmt.Sprintf("未知规则 %q；是不是指 %s（%s）？", arg, best.ID, best.Name)
	}
	return fmt.Sprintf("unknown rule %q; did you mean %s (%s)?", arg, best.ID, best.Name)
}

// closestRule returns the rule whose ID or name is closest to arg, ignoring
// case, and the distance. Of rules at the same distance, the one sharing
// the longest prefix with arg wins (asc4003 is ASC4001 before ASC0003),
// then the lower ID.
func closestRule(arg string) (*ruleset.Rule, int) {
	a := strings.ToLower(arg)
	var best *ruleset.Rule
	dist, prefix := 0, 0
	for _, r := range ruleset.All() { // sorted by ID
		for _, key := range []string{strings.ToLower(r.ID), r.Name} {
			d, p := ruleset.EditDistance(a, key), commonPrefix(a, key)
			if best == nil || d < dist || d == dist && p > prefix {
				best, dist, prefix = r, d, p
			}
		}
	}
	return best, dist
}

// commonPrefix is the length of the longest common prefix of a and b.
func commonPrefix(a, b string) int {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	return n
}
