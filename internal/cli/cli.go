// Package cli is the ascvet command line: its flags, help and completion,
// the check (over the driver, into the report formats and an exit code)
// and the subcommands (explain, config, stats, ir, regs, sim, lsp,
// version, completion). cmd/ascvet's main calls Main; the command's
// documentation, with its exit codes, is there.
package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/pprof"
	"strings"
	"text/tabwriter"

	"github.com/ascvet/ascvet/analyzers/all"
	"github.com/ascvet/ascvet/analyzers/cppir"
	"github.com/ascvet/ascvet/analyzers/runner"
	"github.com/ascvet/ascvet/analyzers/settings"
	"github.com/ascvet/ascvet/analyzers/simcost"
	"github.com/ascvet/ascvet/internal/driver"
	"github.com/ascvet/ascvet/internal/git"
	"github.com/ascvet/ascvet/internal/progress"
	"github.com/ascvet/ascvet/internal/repo"
	"github.com/ascvet/ascvet/internal/report"
	"github.com/ascvet/ascvet/internal/resultcache"
	"github.com/ascvet/ascvet/internal/source"
	"github.com/ascvet/ascvet/ruleset"
	"github.com/ascvet/ascvet/ruleset/config"
	"github.com/ascvet/ascvet/ruleset/i18n"
	"github.com/ascvet/ascvet/simcheck"
)

// version is the ascvet release: the SARIF driver's version, and the first
// word of ascvet version (which adds the module version and the VCS
// revision the binary was built from, see version.go).
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

// Main is ascvet with arguments args (without the program name); it
// returns the exit code, and the process exits with it (cmd/ascvet). With
// ASCVET_CPUPROFILE set, it writes a CPU profile of the run to the file
// that names.
func Main(args []string, stdout, stderr io.Writer) int {
	keepGC = true
	return profiled(os.Getenv("ASCVET_CPUPROFILE"), func() int { return run(args, stdout, stderr) })
}

// keepGC, set by Main, leaves the collector as a check tuned it (tuneGC)
// when run returns: the process exits right after. Set back to GOGC=100,
// the collector found a heap of some 450 MB over a goal twice the 140 MB
// last found live, and ran once more as the process ended: in each cold
// check of the CANN repositories, a fifth collection with 20 ms of
// assist and 20 of idle marking (GODEBUG=gctrace=1, three runs), for
// nothing. A run in a process that goes on (the tests) restores it.
var keepGC bool

// profiled runs f, writing a CPU profile of it to the file path names
// when path is not "" (ASCVET_CPUPROFILE, for go tool pprof: how a run
// spends its time, on the user's own tree).
func profiled(path string, f func() int) int {
	if path == "" {
		return f()
	}
	out, err := os.Create(path)
	if err != nil {
		fmt.Fprintf(os.Stderr, "ascvet: ASCVET_CPUPROFILE: %v\n", err)
		return f()
	}
	defer out.Close()
	if err := pprof.StartCPUProfile(out); err != nil {
		fmt.Fprintf(os.Stderr, "ascvet: ASCVET_CPUPROFILE: %v\n", err)
		return f()
	}
	defer pprof.StopCPUProfile()
	return f()
}

// run is ascvet with arguments args (without the program name); it returns
// the exit code.
func run(args []string, stdout, stderr io.Writer) int {
	if code, ok := answerHelp(args, stdout, stderr); ok {
		return code
	}
	if len(args) > 0 {
		if c := lookupCommand(args[0]); c != nil {
			return c.run(args[1:], stdout, stderr)
		}
		if code, ok := misspeltCommand(args[0], stderr); ok {
			return code
		}
	}
	fs, o := mainFlags(stderr)
	if code, ok := parseArgs(fs, args, stderr); !ok {
		return code
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	outputs, err := o.outs.outputs()
	if err != nil {
		return usageError(stderr, err.Error())
	}
	outLang := i18n.Lang(*o.lang, os.Getenv)
	if *o.lang != "" && *o.lang != "en" && *o.lang != "zh" {
		return usageError(stderr, fmt.Sprintf("-lang %s: want en or zh", *o.lang))
	}
	color, err := useColor(*o.color, stdout, os.Getenv)
	if err != nil {
		return usageError(stderr, err.Error())
	}
	if *o.showVersion {
		return printVersion(stdout, false)
	}
	if *o.list {
		printRules(stdout, outLang)
		return exitOK
	}
	if *o.jobs < 1 {
		return usageError(stderr, fmt.Sprintf("-j %d: want at least 1", *o.jobs))
	}
	if *o.fix && *o.diff {
		return usageError(stderr, "-fix and -diff exclude each other")
	}
	if *o.diff && len(o.outs.list) > 0 {
		return usageError(stderr, "-diff prints a diff; it takes no -f")
	}
	if *o.fail != "" && *o.failOn != "" {
		return usageError(stderr, "-fail and -fail-on are the same flag; give one")
	}
	failSpec := *o.fail
	if *o.failOn != "" { // the old flag took a severity, in any case
		s, err := ruleset.ParseSeverity(*o.failOn)
		if err != nil {
			return usageError(stderr, "-fail-on: "+err.Error())
		}
		failSpec = s.String()
	}
	var policy *failPolicy
	if failSpec != "" {
		if policy, err = parseFail(config.SplitList(failSpec)); err != nil {
			return usageError(stderr, failError(failSpec, err))
		}
	}
	if _, err := simcost.Load(*o.chipName, *o.machineFile); err != nil {
		return usageError(stderr, err.Error())
	}
	if *o.iterations < 1 {
		return usageError(stderr, fmt.Sprintf("-iterations %d: want at least 1", *o.iterations))
	}
	if *o.confidence != "high" && *o.confidence != "low" {
		return usageError(stderr, fmt.Sprintf("-confidence %s: want high or low", *o.confidence))
	}
	if *o.cache != "on" && *o.cache != "off" {
		return usageError(stderr, fmt.Sprintf("-cache %s: want on or off", *o.cache))
	}
	if msg := o.lim.Validate(); msg != "" {
		return usageError(stderr, msg)
	}
	if *o.configFile != "" && *o.noConfig {
		return usageError(stderr, "-config and -no-config exclude each other")
	}
	var checkList []string
	if set["checks"] {
		checkList = config.SplitList(*o.checks)
		if _, err := config.Select(checkList, config.AllRules()); err != nil {
			return usageError(stderr, "-checks: "+err.Error())
		}
	}
	paths := fs.Args()
	if len(paths) == 0 {
		paths = []string{"."}
	}

	as := analyzers()
	if err := o.lim.Apply(as); err != nil {
		fmt.Fprintf(stderr, "ascvet: internal error: %v\n", err)
		return exitInternal
	}
	loader, err := config.NewLoader(config.Options{File: *o.configFile, NoConfig: *o.noConfig, Chips: simcheck.Chips()})
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
	if *o.lang == "" && here.Settings.Lang != "" {
		outLang = here.Settings.Lang
	}
	// The build macros: the index holds one set for the run, that of the
	// configuration of the first path checked.
	runDefs := here.Settings.Defines
	if first := source.WalkedPath(paths[0]); first != "." {
		if eff, err := loader.For(first); err == nil {
			runDefs = eff.Settings.Defines
		}
	}
	if defs := o.lim.Defines.Under(runDefs); defs != o.lim.Defines {
		o.lim.Defines = defs
		if err := runner.SetFlag(as, "define", string(defs)); err != nil {
			fmt.Fprintf(stderr, "ascvet: internal error: %v\n", err)
			return exitInternal
		}
	}
	if policy == nil {
		eff := here
		spec := config.DefaultFail
		if eff.Fail != nil {
			spec = eff.Fail
		}
		if policy, err = parseFail(spec); err != nil {
			return usageError(stderr, fmt.Sprintf("%s: fail: %v", driver.SourcesOf(eff), err))
		}
	}
	policy.noSaving = *o.failNoSaving
	if *o.exitZero {
		policy.none = true
	}
	wd, _ := os.Getwd()
	roots := repo.NewRoots(wd)
	// The run sees the headers as they are now, even in a process that ran
	// before (tests; an editor).
	cppir.ProjectIndex().Refresh()
	var rc *resultcache.Cache
	if *o.cache == "on" {
		rc = resultcache.Open(resultcache.Dir(), as, wd, stderr)
		defer rc.Close()
	}
	if observeCache != nil {
		observeCache(rc.Stats())
	}
	pipe := &driver.Pipeline{Analyzers: as, Loader: loader, Checks: checkList, Lang: outLang, Parallel: *o.jobs, Roots: roots, Cache: rc, WorkDir: wd, Timeout: o.lim.FileTimeout,
		Defines: runDefs, Notes: stderr, Override: func(s *settings.Settings) {
			if set["chip"] {
				s.Chip, s.Machine = *o.chipName, ""
			}
			if set["machine"] {
				s.Machine = *o.machineFile
			}
			if set["iterations"] {
				s.Iterations = *o.iterations
			}
			if set["confidence"] {
				s.Confidence = *o.confidence
			}
		}}
	defer func(restore func(bool)) { restore(!keepGC) }(tuneGC(os.Getenv))
	out, err := driver.Run(paths, pipe, &driver.Options{Jobs: *o.jobs, Limits: *o.lim, Progress: progress.New(stderr, *o.quiet), Fix: *o.fix, Diff: *o.diff,
		NewFromRev: *o.newFromRev, Baseline: *o.baselineFile, WriteBaseline: *o.writeBaseline}, stdout, stderr)
	if err != nil {
		return runError(stderr, err)
	}
	in, res, issues := out.Inputs, out.Res, out.Issues
	code := exitOK
	if out.Broken > 0 {
		code = exitInternal
	}
	if out.Unwritten > 0 {
		code = max(code, exitUsage)
	}
	if out.BaselineWritten {
		policy.none = true
	}
	for i := range issues {
		if policy.fails(&issues[i]) {
			code = max(code, exitFindings)
		}
	}
	if out.Diffed { // the diff is the output
		return finish(stderr, code, res, in)
	}
	shown := issues
	if !*o.showIgnored {
		shown = nil
		for _, is := range issues {
			if len(is.Suppressed) == 0 {
				shown = append(shown, is)
			}
		}
	}
	rep := &report.Report{Issues: shown, Files: in.Read, Rules: ruleset.All(), Lang: outLang, Args: args, WorkDir: wd, Version: version,
		Failing: policy.fails, Spared: policy.spared, Category: *o.sarifCategory, Color: color, Roots: roots}
	for _, o := range outputs {
		if o.format == "sarif" && rep.VCS == nil {
			if root := report.SARIFRoot(rep); root != "" {
				rep.VCS = git.VCS(root)
			}
		}
	}
	rep.Exit = finalCode(code, res, in)
	rep.Completed = rep.Exit == exitOK || rep.Exit == exitFindings
	if err := writeOutputs(outputs, stdout, rep); err != nil {
		fmt.Fprintf(stderr, "ascvet: %v\n", err)
		return exitUsage
	}
	return finish(stderr, code, res, in)
}

// mainOpts are the flags of ascvet itself.
type mainOpts struct {
	outs          outputsFlag // -f and -o, in order
	jobs          *int
	fail          *string
	failOn        *string
	exitZero      *bool
	failNoSaving  *bool
	showIgnored   *bool
	lang          *string
	checks        *string
	configFile    *string
	noConfig      *bool
	baselineFile  *string
	writeBaseline *string
	newFromRev    *string
	sarifCategory *string
	fix           *bool
	diff          *bool
	confidence    *string
	cache         *string
	quiet         *bool
	lim           *source.Limits
	chipName      *string
	machineFile   *string
	iterations    *int
	color         *string
	list          *bool
	showVersion   *bool
}

// mainUsage is the head of ascvet -h; the flags and the exit codes follow.
const mainUsage = `usage: ascvet [flags] [path ...]
       ascvet explain [-lang zh] RULE...
       ascvet config print [PATH]
       ascvet stats [-j N] [path ...]
       ascvet ir FILE...
       ascvet regs [-f json] PATH[:LINE]...
       ascvet sim [-f json] PATH:LINE | PATH...
       ascvet lsp [-baseline FILE] [-debounce DURATION]
       ascvet help [COMMAND]
       ascvet version [-f json]
       ascvet completion bash|zsh|fish

Checks Ascend C vector-function kernels. Each path is a file or a directory,
walked recursively (dir/... works too); the default is the current directory.
Flags may come before or after the paths; -- ends them. Settings come from
the ascvet.toml files above each file (see 'ascvet config print'); flags
given on the command line win.

Flags:
`

// mainFlags defines the flags of ascvet on a new flag set whose usage
// goes to stderr.
func mainFlags(stderr io.Writer) (*flag.FlagSet, *mainOpts) {
	fs := flag.NewFlagSet("ascvet", flag.ContinueOnError)
	fs.SetOutput(stderr)
	o := &mainOpts{}
	fs.Func("f", "output `FORMAT`: "+strings.Join(report.Formats, ", ")+" (repeatable; each -o names the file of the -f before it)", o.outs.setFormat)
	fs.Func("o", "write the output of the preceding -f to `FILE` (atomically) instead of stdout", o.outs.setFile)
	o.jobs = fs.Int("j", runtime.NumCPU(), "analyse `N` files in parallel (default: the number of CPUs)")
	o.fail = fs.String("fail", "", "`WHAT` fails the run (exit 1): a severity (that one or higher), none, or rules (IDs, names, globs: ASC1*,ASC3001); default: the config's fail, else warning")
	o.failOn = fs.String("fail-on", "", "old name of -fail, for a `SEVERITY`")
	o.exitZero = fs.Bool("exit-zero", false, "exit 0 whatever the findings (usage and internal errors still fail)")
	o.failNoSaving = fs.Bool("fail-no-saving", false, "let performance findings whose simulation measures no saving fail the run too (by default they are reported but do not fail it)")
	o.showIgnored = fs.Bool("show-ignored", false, "also list the findings that directives or the baseline suppressed, marked as such")
	o.lang = fs.String("lang", "", "language `LANG` of messages: en or zh (default: the config's lang, else zh when LC_ALL, LC_MESSAGES or LANG starts with zh, else en)")
	o.checks = fs.String("checks", "", "`RULES` to run, over the config's: comma-separated IDs, names, globs, all, -RULE (\"all,-ASC3004\")")
	o.configFile = fs.String("config", "", "use this config `FILE` only, instead of the ascvet.toml files found above each file")
	o.noConfig = fs.Bool("no-config", false, "ignore every ascvet.toml")
	o.baselineFile = fs.String("baseline", "", "report only findings that are not in the baseline `FILE` (see -write-baseline); stale entries are reported on stderr")
	o.writeBaseline = fs.String("write-baseline", "", "write the findings to the baseline `FILE`, keeping its entries of files this run did not analyse, and exit 0 (findings are still printed)")
	o.newFromRev = fs.String("new-from-rev", "", "report only findings on lines changed since git revision `REV` (working tree included)")
	o.sarifCategory = fs.String("sarif-category", "", "SARIF automationDetails.id category `ID`, to tell several uploads apart (default ascvet/)")
	o.fix = fs.Bool("fix", false, "apply the suggested fixes, writing each changed file atomically, then report the findings that remain")
	o.diff = fs.Bool("diff", false, "print the suggested fixes as a unified diff (for git apply or patch -p1) instead of the findings; write nothing")
	o.confidence = fs.String("confidence", "high", "`LEVEL` of proof: high reports what is proven; low also reports what ascvet suspects but cannot prove (streams whose addresses do not fold)")
	o.lim = source.AddLimitFlags(fs)
	o.chipName = fs.String("chip", "ascend950", "`CHIP` whose machine model prices the findings: "+strings.Join(simcheck.Chips(), ", "))
	o.machineFile = fs.String("machine", "", "machine model `FILE` (TOML, as simcheck/machines/ascend950.toml) to use instead of -chip's")
	o.iterations = fs.Int("iterations", simcheck.DefaultIterations, "`N` iterations to simulate for a loop whose trip count does not fold")
	o.quiet = fs.Bool("q", false, "quiet: show no progress line (shown on a terminal when a run takes more than 2 seconds)")
	o.cache = fs.String("cache", "on", "keep the analyzers' findings in the result cache and reuse them: `SWITCH` on or off (the folder: ASCVET_CACHE, else ascvet in the user cache folder; ASCVET_CACHE=off turns it off too)")
	o.color = fs.String("color", "auto", "colour the text output `WHEN`: auto (on a terminal, unless NO_COLOR is set or TERM is dumb), always or never")
	o.list = fs.Bool("list", false, "print the rules and exit")
	o.showVersion = fs.Bool("version", false, "print the version and exit (as ascvet version)")
	fs.Usage = func() {
		fmt.Fprint(stderr, mainUsage)
		fs.PrintDefaults()
		fmt.Fprint(stderr, `
Exit codes: 0 nothing fails (see -fail), 1 findings that fail (after -fix:
that remain), 2 usage or configuration error, input unreadable or skipped
(over a -max-* or -file-timeout limit, binary, UTF-16) or a file -fix could
not write, 3 internal error. The exit code is the same in every format.
`)
	}
	return fs, o
}

// finalCode is the exit code once skipped inputs and internal errors count.
func finalCode(code int, res *runner.Result, in *driver.Inputs) int {
	if in.Skipped > 0 || in.BadConfig > 0 {
		code = max(code, exitUsage)
	}
	if len(res.Errors) > 0 {
		code = exitInternal
	}
	return code
}

// finish reports the internal errors and returns the exit code.
func finish(stderr io.Writer, code int, res *runner.Result, in *driver.Inputs) int {
	code = finalCode(code, res, in)
	reportInternal(stderr, res.Errors)
	return code
}

// runError reports the error of driver.Run and returns its exit code.
func runError(stderr io.Writer, err error) int {
	var de *driver.Error
	switch {
	case !errors.As(err, &de) || de.Internal:
		fmt.Fprintf(stderr, "ascvet: %v\n", err)
		return exitInternal
	case de.Usage:
		return usageError(stderr, err.Error())
	}
	fmt.Fprintf(stderr, "ascvet: %v\n", err)
	return exitUsage
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

// observeCache, when set (by tests), is given the cache counters of each
// run (nil when it runs without the cache).
var observeCache func(*resultcache.Counters)
