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
// When several apply, the highest code wins. A signal (SIGHUP, SIGINT,
// SIGQUIT, SIGTERM) that arrives once ascvet has begun writing a file makes
// it remove its temporary files and exit 128+signal (see tempfiles.go).
//
// "ascvet stats" prints one JSON object that tells what ascvet understood of
// the files: VF regions, parse errors, loops, instructions, and the calls it
// does not know.
package main

import (
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
	"github.com/ascvet/ascvet/analyzers/settings"
	"github.com/ascvet/ascvet/analyzers/simcost"
	"github.com/ascvet/ascvet/ruleset"
	"github.com/ascvet/ascvet/ruleset/config"
	"github.com/ascvet/ascvet/ruleset/i18n"
	"github.com/ascvet/ascvet/simcheck"
)

// version is the ascvet release.
const version = "0.2.0"

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
	if len(args) > 0 {
		switch args[0] {
		case "stats":
			return runStats(args[1:], stdout, stderr)
		case "ir":
			return runIR(args[1:], stdout, stderr)
		case "regs":
			return runRegs(args[1:], stdout, stderr)
		case "sim":
			return runSim(args[1:], stdout, stderr)
		case "explain":
			return runExplain(args[1:], stdout, stderr)
		case "config":
			return runConfig(args[1:], stdout, stderr)
		}
	}
	fs := flag.NewFlagSet("ascvet", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var outs outputsFlag
	fs.Func("f", "output format: "+strings.Join(formats, ", ")+" (repeatable; each -o names the file of the -f before it)", outs.setFormat)
	fs.Func("o", "write the output of the preceding -f to `FILE` (atomically) instead of stdout", outs.setFile)
	jobs := fs.Int("j", runtime.NumCPU(), "number of files analysed in parallel")
	fail := fs.String("fail", "", "what fails the run (exit 1): a severity (that one or higher), `none`, or rules (IDs, names, globs: ASC1*,ASC3001); default: the config's fail, else warning")
	failOn := fs.String("fail-on", "", "old name of -fail, for a severity")
	exitZero := fs.Bool("exit-zero", false, "exit 0 whatever the findings (usage and internal errors still fail)")
	failNoSaving := fs.Bool("fail-no-saving", false, "let performance findings whose simulation measures no saving fail the run too (by default they are reported but do not fail it)")
	showIgnored := fs.Bool("show-ignored", false, "also list the findings that directives or the baseline suppressed, marked as such")
	lang := fs.String("lang", "", "language of messages: en or zh (default: the config's lang, else zh when LC_ALL, LC_MESSAGES or LANG starts with zh, else en)")
	checks := fs.String("checks", "", "rules to run, over the config's: comma-separated IDs, names, globs, all, -RULE (\"all,-ASC3004\")")
	configFile := fs.String("config", "", "use this config `FILE` only, instead of the ascvet.toml files found above each file")
	noConfig := fs.Bool("no-config", false, "ignore every ascvet.toml")
	baselineFile := fs.String("baseline", "", "report only findings that are not in the baseline `FILE` (see -write-baseline); stale entries are reported on stderr")
	writeBaseline := fs.String("write-baseline", "", "write the findings to the baseline `FILE` and exit 0 (findings are still printed)")
	newFromRev := fs.String("new-from-rev", "", "report only findings on lines changed since git revision `REV` (working tree included)")
	sarifCategory := fs.String("sarif-category", "", "SARIF automationDetails.id category, to tell several uploads apart (default ascvet/)")
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
       ascvet explain [-lang zh] RULE...
       ascvet config print [PATH]
       ascvet stats [-j N] [path ...]
       ascvet ir FILE...
       ascvet regs [-f json] PATH[:LINE]...
       ascvet sim [-f json] PATH:LINE | PATH...

Checks Ascend C vector-function kernels. Each path is a file or a directory,
walked recursively (dir/... works too); the default is the current directory.
Flags come before paths. Settings come from the ascvet.toml files above each
file (see 'ascvet config print'); flags given on the command line win.

Flags:
`)
		fs.PrintDefaults()
		fmt.Fprint(stderr, `
Exit codes: 0 nothing fails (see -fail), 1 findings that fail (after -fix:
that remain), 2 usage or configuration error, input unreadable or skipped
(over a -max-* or -file-timeout limit, binary, UTF-16) or a file -fix could
not write, 3 internal error. The exit code is the same in every format.
`)
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitOK
		}
		return exitUsage
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	outputs, err := outs.outputs()
	if err != nil {
		return usageError(stderr, err.Error())
	}
	outLang := i18n.Lang(*lang, os.Getenv)
	if *lang != "" && *lang != "en" && *lang != "zh" {
		return usageError(stderr, fmt.Sprintf("-lang %s: want en or zh", *lang))
	}
	if *showVersion {
		fmt.Fprintf(stdout, "ascvet %s\n", version)
		return exitOK
	}
	if *list {
		printRules(stdout, outLang)
		return exitOK
	}
	if *jobs < 1 {
		return usageError(stderr, fmt.Sprintf("-j %d: want at least 1", *jobs))
	}
	if *fix && *diff {
		return usageError(stderr, "-fix and -diff exclude each other")
	}
	if *diff && len(outs.list) > 0 {
		return usageError(stderr, "-diff prints a diff; it takes no -f")
	}
	if *fail != "" && *failOn != "" {
		return usageError(stderr, "-fail and -fail-on are the same flag; give one")
	}
	failSpec := *fail
	if *failOn != "" { // the old flag took a severity, in any case
		s, err := ruleset.ParseSeverity(*failOn)
		if err != nil {
			return usageError(stderr, "-fail-on: "+err.Error())
		}
		failSpec = s.String()
	}
	var policy *failPolicy
	if failSpec != "" {
		if policy, err = parseFail(config.SplitList(failSpec)); err != nil {
			return usageError(stderr, "-fail: "+err.Error())
		}
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
	if *configFile != "" && *noConfig {
		return usageError(stderr, "-config and -no-config exclude each other")
	}
	var checkList []string
	if set["checks"] {
		checkList = config.SplitList(*checks)
		if _, err := config.Select(checkList, config.AllRules()); err != nil {
			return usageError(stderr, "-checks: "+err.Error())
		}
	}
	paths := fs.Args()
	if len(paths) == 0 {
		paths = []string{"."}
	}

	as := analyzers()
	if err := lim.apply(as); err != nil {
		fmt.Fprintf(stderr, "ascvet: internal error: %v\n", err)
		return exitInternal
	}
	loader, err := config.NewLoader(config.Options{File: *configFile, NoConfig: *noConfig, Chips: simcheck.Chips()})
	if err != nil {
		return usageError(stderr, err.Error())
	}
	// The run-wide settings of the config of the working directory: what
	// fails the run, and the language of the output (-lang, then the
	// config's lang, then the locale).
	here, err := loader.For(".")
	if err != nil {
		return usageError(stderr, err.Error())
	}
	if *lang == "" && here.Settings.Lang != "" {
		outLang = here.Settings.Lang
	}
	if policy == nil {
		eff := here
		spec := config.DefaultFail
		if eff.Fail != nil {
			spec = eff.Fail
		}
		if policy, err = parseFail(spec); err != nil {
			return usageError(stderr, fmt.Sprintf("%s: fail: %v", sourcesOf(eff), err))
		}
	}
	policy.noSaving = *failNoSaving
	if *exitZero {
		policy.none = true
	}
	wd, _ := os.Getwd()
	roots := newRootFinder(wd)
	pipe := &pipeline{as: as, loader: loader, checks: checkList, lang: outLang, parallel: *jobs, roots: roots, override: func(s *settings.Settings) {
		if set["chip"] {
			s.Chip, s.Machine = *chipName, ""
		}
		if set["machine"] {
			s.Machine = *machineFile
		}
		if set["iterations"] {
			s.Iterations = *iterations
		}
		if set["confidence"] {
			s.Confidence = *confidence
		}
	}}
	in, err := check(paths, as, checkConfig{jobs: *jobs, lim: *lim, keepFixes: *fix || *diff, pipe: pipe}, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "ascvet: internal error: %v\n", err)
		return exitInternal
	}
	res := in.res
	issues := in.issues
	code := exitOK
	if *fix || *diff {
		var written []fixedFile
		res, written, code, err = fixOrDiff(stdout, stderr, pipe, in.files, res, *fix, *jobs)
		if err != nil {
			fmt.Fprintf(stderr, "ascvet: %v\n", err)
			return exitInternal
		}
		if *diff { // the diff is the output; the findings as found decide the exit code
			for i := range issues {
				if policy.fails(&issues[i]) {
					code = max(code, exitFindings)
				}
			}
			return finish(stderr, code, res, in)
		}
		issues = reanalyse(pipe, issues, written)
	}
	if *newFromRev != "" {
		if issues, err = onlyChanged(roots, paths, issues, *newFromRev); err != nil {
			return usageError(stderr, "-new-from-rev "+*newFromRev+": "+err.Error())
		}
	}
	if *writeBaseline != "" {
		if err := saveBaseline(*writeBaseline, issues); err != nil {
			fmt.Fprintf(stderr, "ascvet: -write-baseline: %v\n", err)
			return exitUsage
		}
		fmt.Fprintf(stderr, "ascvet: wrote %s to %s\n", plural(countReported(issues), "finding"), *writeBaseline)
		policy.none = true
	}
	if *baselineFile != "" {
		if issues, err = applyBaseline(stderr, roots, *baselineFile, issues); err != nil {
			return usageError(stderr, "-baseline: "+err.Error())
		}
	}
	for i := range issues {
		if policy.fails(&issues[i]) {
			code = max(code, exitFindings)
		}
	}
	shown := issues
	if !*showIgnored {
		shown = nil
		for _, is := range issues {
			if len(is.Suppressed) == 0 {
				shown = append(shown, is)
			}
		}
	}
	rep := &report{Issues: shown, Files: in.read, Rules: ruleset.All(), Lang: outLang, Args: args, WorkDir: wd,
		Failing: policy.fails, Category: *sarifCategory, roots: roots}
	for _, o := range outputs {
		if o.format == "sarif" && rep.VCS == nil {
			if bases := newSARIFBases(rep); len(bases.roots) > 0 {
				rep.VCS = gitVCS(bases.roots[0])
			}
		}
	}
	rep.Exit = finalCode(code, res, in)
	if err := writeOutputs(outputs, stdout, rep, in.read); err != nil {
		fmt.Fprintf(stderr, "ascvet: %v\n", err)
		return exitUsage
	}
	return finish(stderr, code, res, in)
}

// finalCode is the exit code once skipped inputs and internal errors count.
func finalCode(code int, res *runner.Result, in *inputs) int {
	if in.skipped > 0 || in.badCfg > 0 {
		code = max(code, exitUsage)
	}
	if len(res.Errors) > 0 {
		code = exitInternal
	}
	return code
}

// finish reports the internal errors and returns the exit code.
func finish(stderr io.Writer, code int, res *runner.Result, in *inputs) int {
	code = finalCode(code, res, in)
	reportInternal(stderr, res.Errors)
	return code
}

func countReported(issues []issue) int {
	n := 0
	for i := range issues {
		if len(issues[i].Suppressed) == 0 {
			n++
		}
	}
	return n
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

func printRules(w io.Writer, lang string) {
	tw := tabwriter.NewWriter(w, 0, 8, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tNAME\tSEVERITY\tTITLE")
	for _, r := range ruleset.All() {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", r.ID, r.Name, ruleset.SeverityName(r.Severity, lang), r.Doc(lang).Title)
	}
	tw.Flush()
}

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
