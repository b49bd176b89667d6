// Command ascvet checks Huawei Ascend C vector-function (VF) kernels for
// performance and correctness problems.
//
// Usage:
//
//	ascvet [flags] [path ...]
//	ascvet stats [-j N] [path ...]
//
// Each path is a file or a directory; a directory (also spelled "dir/...") is
// walked recursively for .asc .cpp .cc .cxx .h .hh .hpp .hxx files, skipping
// hidden directories and build, out, output and node_modules. Without a path,
// ascvet checks the current directory. Files without a VF marker are not
// parsed.
//
// Findings are printed gcc style, "file:line:col: severity: message [RULE]",
// followed by a one-line summary, or as one JSON array with -f json.
//
// With -fix, ascvet applies the suggested fixes of the findings, writes each
// changed file atomically (one write per file, whatever the number of rules
// that fixed it), prints "ascvet: fixed N findings in FILE" on stderr for
// each, and then reports the findings that remain in the fixed files. With
// -diff it prints what -fix would change as a unified diff, and writes
// nothing.
//
// Exit codes:
//
//	0  no finding at or above the -fail-on severity (default warning); after
//	   -fix, no such finding remains
//	1  findings at or above the -fail-on severity (after -fix: that remain;
//	   with -diff: as found, since nothing was written)
//	2  usage or configuration error, an input path or file could not be read
//	   or was skipped (over -max-file-size, -max-depth or -file-timeout, binary,
//	   UTF-16 or UTF-32),
//	   or -fix could not write a file (the rest was still checked and reported)
//	3  internal error: an analyzer failed on a file (reported with the file name)
//
// When several apply, the highest code wins.
//
// "ascvet stats" prints one JSON object that tells what ascvet understood of
// the files: VF regions, parse errors, loops, instructions, and the calls it
// does not know.
package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"strings"
	"text/tabwriter"

	"golang.org/x/tools/go/analysis"

	"github.com/ascvet/ascvet/analyzers/all"
	"github.com/ascvet/ascvet/analyzers/runner"
	"github.com/ascvet/ascvet/analyzers/simcost"
	"github.com/ascvet/ascvet/ruleset"
	"github.com/ascvet/ascvet/simcheck"
)

// version is the ascvet release.
const version = "0.1.0"

// analyzers returns the analyzers ascvet runs; tests replace it.
var analyzers = all.Analyzers

// Exit codes.
const (
	exitOK       = 0 // nothing at or above the failing severity
	exitFindings = 1 // findings at or above the failing severity
	exitUsage    = 2 // usage or configuration error, or an input unreadable or skipped (over a limit, binary)
	exitInternal = 3 // an analyzer failed
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run is ascvet with arguments args (without the program name); it returns
// the exit code.
func run(args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 && args[0] == "stats" {
		return runStats(args[1:], stdout, stderr)
	}
	if len(args) > 0 && args[0] == "ir" {
		return runIR(args[1:], stdout, stderr)
	}
	if len(args) > 0 && args[0] == "regs" {
		return runRegs(args[1:], stdout, stderr)
	}
	if len(args) > 0 && args[0] == "sim" {
		return runSim(args[1:], stdout, stderr)
	}
	fs := flag.NewFlagSet("ascvet", flag.ContinueOnError)
	fs.SetOutput(stderr)
	format := fs.String("f", "text", "output format: text or json")
	jobs := fs.Int("j", runtime.NumCPU(), "number of files analysed in parallel")
	failOn := fs.String("fail-on", ruleset.Warning.String(), "exit 1 when a finding has this severity or a higher one: info, warning or error")
	fix := fs.Bool("fix", false, "apply the suggested fixes, writing each changed file atomically, then report the findings that remain")
	diff := fs.Bool("diff", false, "print the suggested fixes as a unified diff (for git apply or patch -p1) instead of the findings; write nothing")
	confidence := fs.String("confidence", "high", "high: report what is proven; low: also report what ascvet suspects but cannot prove (streams whose addresses do not fold)")
	lim := addLimitFlags(fs)
	chipName := fs.String("chip", "ascend950", "chip whose machine model prices the findings: "+strings.Join(simcheck.Chips(), ", "))
	machineFile := fs.String("machine", "", "machine model file (TOML, as simcheck/machines/ascend950.toml) to use instead of -chip's")
	iterations := fs.Int("iterations", simcheck.DefaultIterations, "iterations to simulate for a loop whose trip count does not fold")
	list := fs.Bool("list", false, "print the rules and exit")
	showVersion := fs.Bool("version", false, "print the version and exit")
	fs.Usage = func() {
		fmt.Fprint(stderr, `usage: ascvet [flags] [path ...]
       ascvet stats [-j N] [path ...]
       ascvet ir FILE...
       ascvet regs [-f json] PATH[:LINE]...
       ascvet sim [-f json] PATH:LINE | PATH...

Checks Ascend C vector-function kernels. Each path is a file or a directory,
walked recursively (dir/... works too); the default is the current directory.
Flags come before paths.

Flags:
`)
		fs.PrintDefaults()
		fmt.Fprint(stderr, `
Exit codes: 0 no finding at or above -fail-on, 1 findings (after -fix: that
remain), 2 usage error, input unreadable or skipped (over a -max-* or
-file-timeout limit, binary, UTF-16) or a file -fix could not write,
3 internal error.
`)
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitOK
		}
		return exitUsage
	}
	if *showVersion {
		fmt.Fprintf(stdout, "ascvet %s\n", version)
		return exitOK
	}
	if *list {
		printRules(stdout)
		return exitOK
	}
	if *format != "text" && *format != "json" {
		return usageError(stderr, fmt.Sprintf("-f %s: want text or json", *format))
	}
	if *jobs < 1 {
		return usageError(stderr, fmt.Sprintf("-j %d: want at least 1", *jobs))
	}
	if *fix && *diff {
		return usageError(stderr, "-fix and -diff exclude each other")
	}
	if *diff && *format != "text" {
		return usageError(stderr, "-diff prints a diff; it takes no -f")
	}
	threshold, err := ruleset.ParseSeverity(*failOn)
	if err != nil {
		return usageError(stderr, "-fail-on: "+err.Error())
	}
	if _, err := simcost.Load(*chipName, *machineFile); err != nil {
		return usageError(stderr, err.Error())
	}
	if *iterations < 1 {
		return usageError(stderr, fmt.Sprintf("-iterations %d: want at least 1", *iterations))
	}
	if *confidence != "high" && *confidence != "low" {
		return usageError(stderr, fmt.Sprintf("-confidence %s: want high or low", *confidence))
	}
	if msg := lim.validate(); msg != "" {
		return usageError(stderr, msg)
	}
	paths := fs.Args()
	if len(paths) == 0 {
		paths = []string{"."}
	}

	as := analyzers()
	for name, value := range map[string]string{"confidence": *confidence, "chip": *chipName, "machine": *machineFile, "iterations": fmt.Sprint(*iterations)} {
		if err := setAnalyzerFlag(as, name, value); err != nil {
			fmt.Fprintf(stderr, "ascvet: internal error: %v\n", err)
			return exitInternal
		}
	}
	if err := lim.apply(as); err != nil {
		fmt.Fprintf(stderr, "ascvet: internal error: %v\n", err)
		return exitInternal
	}
	in, err := check(paths, as, checkConfig{jobs: *jobs, lim: *lim, keepFixes: *fix || *diff}, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "ascvet: internal error: %v\n", err)
		return exitInternal
	}
	res := in.res
	code := exitOK
	if *fix || *diff {
		res, code, err = fixOrDiff(stdout, stderr, as, in.files, res, *fix, *jobs)
	}
	switch {
	case err != nil:
	case *diff: // the diff is the output
	case *format == "json":
		err = writeJSON(stdout, res.Findings)
	default:
		err = writeText(stdout, res.Findings, in.read)
	}
	if err != nil {
		fmt.Fprintf(stderr, "ascvet: %v\n", err)
		return exitInternal
	}
	for i := range res.Findings {
		if res.Findings[i].Severity() >= threshold {
			code = max(code, exitFindings)
		}
	}
	if in.skipped > 0 {
		code = max(code, exitUsage)
	}
	if reportInternal(stderr, res.Errors) {
		code = exitInternal
	}
	return code
}

// setAnalyzerFlag sets the flag name on every analyzer that defines it
// (go/analysis analyzers carry their options as flags).
func setAnalyzerFlag(as []*analysis.Analyzer, name, value string) error {
	for _, a := range runner.Order(as) {
		if a.Flags.Lookup(name) != nil {
			if err := a.Flags.Set(name, value); err != nil {
				return fmt.Errorf("%s -%s: %w", a.Name, name, err)
			}
		}
	}
	return nil
}

func usageError(stderr io.Writer, msg string) int {
	fmt.Fprintf(stderr, "ascvet: %s\nrun 'ascvet -h' for usage\n", msg)
	return exitUsage
}

// reportInternal prints the internal errors, one line each, and reports
// whether there were any.
func reportInternal(stderr io.Writer, errs []runner.InternalError) bool {
	for i := range errs {
		fmt.Fprintf(stderr, "ascvet: %v (please report this bug)\n", &errs[i])
	}
	return len(errs) > 0
}

func printRules(w io.Writer) {
	tw := tabwriter.NewWriter(w, 0, 8, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tNAME\tSEVERITY\tTITLE")
	for _, r := range ruleset.All() {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", r.ID, r.Name, r.Severity, r.Title)
	}
	tw.Flush()
}

// writeText prints the findings gcc style, then a summary line.
func writeText(w io.Writer, findings []runner.Finding, files int) error {
	var count [ruleset.Error + 1]int
	for i := range findings {
		f := &findings[i]
		count[f.Severity()]++
		fmt.Fprintf(w, "%s:%d:%d: %s: %s [%s]\n", f.Pos.Filename, f.Pos.Line, f.Pos.Column, f.Severity(), f.Diagnostic.Message, f.RuleID())
	}
	var parts []string
	for s := ruleset.Error; s >= ruleset.Info; s-- {
		if n := count[s]; n > 0 {
			name := s.String()
			if n > 1 && s != ruleset.Info {
				name += "s"
			}
			parts = append(parts, fmt.Sprintf("%d %s", n, name))
		}
	}
	summary := "no findings"
	if len(findings) > 0 {
		summary = fmt.Sprintf("%s (%s)", plural(len(findings), "finding"), strings.Join(parts, ", "))
	}
	_, err := fmt.Fprintf(w, "%s in %s\n", summary, plural(files, "file"))
	return err
}

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// jsonFinding is one finding in -f json output. Lines and columns are 1-based;
// columns count bytes.
type jsonFinding struct {
	Rule      string           `json:"rule"`       // rule ID, "ASC0001"
	Name      string           `json:"name"`       // rule name, "vf-parse-error"
	Severity  ruleset.Severity `json:"severity"`   // "info", "warning" or "error"
	Message   string           `json:"message"`    // the diagnostic
	File      string           `json:"file"`       // path as found from the arguments
	Line      int              `json:"line"`       // start line
	Column    int              `json:"column"`     // start column
	EndLine   int              `json:"end_line"`   // end line
	EndColumn int              `json:"end_column"` // end column (exclusive)
	// For performance findings: the loop simulated before and after the fix.
	CyclesBefore *int `json:"cycles_before,omitempty"`
	CyclesAfter  *int `json:"cycles_after,omitempty"`
}

func writeJSON(w io.Writer, findings []runner.Finding) error {
	out := make([]jsonFinding, 0, len(findings))
	for i := range findings {
		f := &findings[i]
		name := f.Analyzer.Name
		if f.Rule != nil {
			name = f.Rule.Name
		}
		jf := jsonFinding{
			Rule: f.RuleID(), Name: name, Severity: f.Severity(), Message: f.Diagnostic.Message,
			File: f.Pos.Filename, Line: f.Pos.Line, Column: f.Pos.Column, EndLine: f.End.Line, EndColumn: f.End.Column,
		}
		if c, ok, _ := simcost.Extract(f.Diagnostic.Related); ok {
			jf.CyclesBefore, jf.CyclesAfter = &c.Before, &c.After
		}
		out = append(out, jf)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}
