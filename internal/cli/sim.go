package cli

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"go/token"
	"io"
	"strings"
	"text/tabwriter"

	"golang.org/x/tools/go/analysis"

	"github.com/ascvet/ascvet/analyzers/all"
	"github.com/ascvet/ascvet/analyzers/cppir"
	"github.com/ascvet/ascvet/analyzers/runner"
	"github.com/ascvet/ascvet/analyzers/simcost"
	"github.com/ascvet/ascvet/cppfront/ir"
	"github.com/ascvet/ascvet/internal/driver"
	"github.com/ascvet/ascvet/internal/progress"
	"github.com/ascvet/ascvet/internal/source"
	"github.com/ascvet/ascvet/ruleset/config"
	"github.com/ascvet/ascvet/simcheck"
	"github.com/ascvet/ascvet/simcheck/view"
)

// simLoop is one loop of the summary mode.
type simLoop struct {
	File       string  `json:"file"`
	Line       int     `json:"line"`
	Region     string  `json:"region"`
	Instance   string  `json:"instance,omitempty"` // the instantiation, as template arguments
	Iterations int     `json:"iterations"`
	TripKnown  bool    `json:"trip_known"`
	PerIter    int     `json:"instructions_per_iteration"`
	Cycles     int     `json:"cycles"`
	IPC        float64 `json:"ipc"`
	Chain      int     `json:"longest_chain"`
}

// simOpts are the flags of ascvet sim.
type simOpts struct {
	format      *string
	chipName    *string
	machineFile *string
	iterations  *int
	timeline    *int
	instance    *string
	quiet       *bool
	fixed       *bool
	defines     source.Defines
}

// simFlags defines the flags of ascvet sim; its usage goes to stderr.
func simFlags(stderr io.Writer) (*flag.FlagSet, *simOpts) {
	fs := flag.NewFlagSet("ascvet sim", flag.ContinueOnError)
	fs.SetOutput(stderr)
	o := &simOpts{}
	o.format = fs.String("f", "text", "output `FORMAT`: text or json")
	o.chipName = fs.String("chip", "ascend950", "`CHIP` whose machine model is simulated: "+strings.Join(simcheck.Chips(), ", "))
	o.machineFile = fs.String("machine", "", "machine model `FILE` to use instead of -chip's")
	o.iterations = fs.Int("iterations", simcheck.DefaultIterations, "`N` iterations to simulate when a loop's trip count does not fold")
	o.timeline = fs.Int("timeline", 2, "`N` iterations shown in the timeline")
	o.quiet = fs.Bool("q", false, "quiet: show no progress line over paths (shown on a terminal when a run takes more than 2 seconds)")
	o.fixed = fs.Bool("fixed", false, "with PATH:LINE of a loop, also simulate it with every fix the file's findings offer for it applied (the instructions they remove: a Pre hoisted, a Post sunk, a MaskAnd folded; the rewrites they price: a 64-bit Div done otherwise, a block stride padded, the iterations halved at the full width), and say what they save together")
	addDefineFlag(fs, &o.defines)
	o.instance = fs.String("instance", "", "simulate the instantiation `ARGS` of a template (\"T=half,Mode=2\"): types, integers, true or false; by default every instantiation its file makes, one result each")
	fs.Usage = func() {
		fmt.Fprint(stderr, `usage: ascvet sim [flags] PATH:LINE
       ascvet sim [flags] PATH...

With PATH:LINE, where LINE is a loop or a VF function, prints an
llvm-mca-style report of it on the machine model: a summary (iterations,
instructions, cycles, cycles per iteration, IPC), a timeline of the first
iterations, the pressure on each port and the critical dependency chain.
With paths alone, prints one summary line for every loop.

A template is simulated as the compiler builds each of its instantiations
(helpers inlined, if constexpr folded, types bound): one result for each
that its file makes, named by its template arguments (with -f json, an
array of reports when there are several), or the one -instance names.

Flags:
`)
		fs.PrintDefaults()
	}
	return fs, o
}

// runSim implements "ascvet sim": the llvm-mca-style report of one loop or
// VF function (PATH:LINE), or a summary line for every loop (PATH).
func runSim(args []string, stdout, stderr io.Writer) int {
	fs, o := simFlags(stderr)
	if code, ok := parseArgs(fs, args, stderr); !ok {
		return code
	}
	if *o.format != "text" && *o.format != "json" {
		return commandError(stderr, "sim", fmt.Sprintf("-f %s: want text or json", *o.format))
	}
	if fs.NArg() == 0 {
		return commandError(stderr, "sim", "name a file:line, or paths")
	}
	if !defaultParseLimits(stderr, o.defines, fs.Args()) {
		return exitInternal
	}
	if *o.iterations < 1 {
		return commandError(stderr, "sim", fmt.Sprintf("-iterations %d: want at least 1", *o.iterations))
	}
	m, err := simcost.Load(*o.chipName, *o.machineFile)
	if err != nil {
		return commandError(stderr, "sim", err.Error())
	}
	var choice *ir.Bindings
	if *o.instance != "" {
		b, err := parseInstance(*o.instance)
		if err != nil {
			return commandError(stderr, "sim", "-instance: "+err.Error())
		}
		choice = &b
	}
	if fs.NArg() == 1 {
		if p, line := splitLine(fs.Arg(0)); line > 0 {
			return simOne(p, line, m, simSettings{*o.iterations, *o.timeline, choice, *o.fixed}, *o.format == "json", stdout, stderr)
		}
	}
	prog := progress.New(stderr, *o.quiet)
	return simAll(fs.Args(), m, *o.iterations, choice, *o.format == "json", prog, stdout, stderr)
}

// addDefineFlag defines -D on fs, as the check's limit flags do
// (source.AddLimitFlags).
func addDefineFlag(fs *flag.FlagSet, defs *source.Defines) {
	fs.Var(defs, "D", source.DefineUsage)
}

// configDefines returns defs (-D) over the build macros of the
// configuration of path (a file or folder; "." the working directory), as a
// check of path takes them; a configuration that does not load leaves defs
// as they are, and says so.
func configDefines(stderr io.Writer, defs source.Defines, path string) source.Defines {
	loader, err := config.NewLoader(config.Options{Chips: simcheck.Chips()})
	if err == nil {
		var eff *config.Effective
		if eff, err = loader.For(source.WalkedPath(path)); err == nil {
			return defs.Under(eff.Settings.Defines)
		}
	}
	fmt.Fprintf(stderr, "ascvet: %v (the build macros of the configuration are not used)\n", err)
	return defs
}

// defaultParseLimits sets cppir's limits to the defaults, for the
// subcommands that parse without limit flags (sim, regs): the limits are
// the analyzer's flags, which an earlier run in the same process (a test,
// ascvet stats -max-depth 2) may have left otherwise. defs are their -D
// flags, over the configuration's of the first argument, args[0] (a
// PATH or PATH:LINE; configDefines).
func defaultParseLimits(stderr io.Writer, defs source.Defines, args []string) bool {
	lim := source.DefaultLimits()
	path := "."
	if len(args) > 0 {
		path = args[0]
		if k := strings.LastIndexByte(path, ':'); k > 0 && isDigits(path[k+1:]) {
			path = path[:k]
		}
	}
	lim.Defines = configDefines(stderr, defs, path)
	if err := lim.Apply([]*analysis.Analyzer{cppir.Analyzer}); err != nil {
		fmt.Fprintf(stderr, "ascvet: internal error: %v\n", err)
		return false
	}
	return true
}

// parseInstance reads -instance: NAME=ARG pairs separated by commas, an
// integer, true or false binding a value and anything else a type.
func parseInstance(s string) (ir.Bindings, error) {
	b := ir.Bindings{Types: map[string]string{}, Values: map[string]*ir.Expr{}}
	for _, part := range splitTopLevel(s) {
		name, arg, ok := strings.Cut(part, "=")
		name, arg = strings.TrimSpace(name), strings.TrimSpace(arg)
		if !ok || name == "" || arg == "" {
			return b, fmt.Errorf("%q: want NAME=ARG, as T=half or Mode=2", part)
		}
		b.Set(name, arg)
	}
	return b, nil
}

// splitTopLevel splits s at the commas outside <> (T=pair<int, int>).
func splitTopLevel(s string) []string {
	var out []string
	depth, start := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '<':
			depth++
		case '>':
			depth--
		case ',':
			if depth == 0 {
				out = append(out, s[start:i])
				start = i + 1
			}
		}
	}
	return append(out, s[start:])
}

// instancesOf returns the instantiations of fn to simulate: the one
// chosen, else every one its file makes (ir.Func.Instantiations).
func instancesOf(fn *ir.Func, choice *ir.Bindings) []ir.Bindings {
	if choice != nil {
		return []ir.Bindings{*choice}
	}
	return fn.Instantiations()
}

// simSettings are what simOne simulates beyond the target.
type simSettings struct {
	iterations, timeline int
	choice               *ir.Bindings
	fixed                bool // also with every fix the file's findings offer for the loop applied
}

func simOne(path string, line int, m *simcheck.Machine, set simSettings, asJSON bool, stdout, stderr io.Writer) int {
	iterations, timeline, choice := set.iterations, set.timeline, set.choice
	in := driver.Load([]string{path}, 1, stderr)
	if in.Skipped > 0 || len(in.Files) == 0 {
		if in.Skipped == 0 {
			fmt.Fprintf(stderr, "ascvet: %s: no VF code\n", path)
		}
		return exitUsage
	}
	fset := token.NewFileSet()
	var f *ir.File
	var md *simcost.Model
	var err error
	if set.fixed {
		fset, f, md, err = analyseForSim(in.Files[0])
	} else {
		f, err = driver.ParseAsCheck(fset, in.Files[0].Name, in.Files[0].Src)
	}
	if err != nil {
		return parseFailed(stderr, path, err)
	}
	fn, lp := findTarget(fset, f, line)
	if fn == nil {
		fmt.Fprintf(stderr, "ascvet: %s:%d: no loop or VF function here\n", path, line)
		return exitUsage
	}
	var fixes *simcost.FixSet
	if set.fixed {
		if lp == nil {
			fmt.Fprintf(stderr, "ascvet: %s:%d: -fixed applies the fixes of a loop: name the line of a loop\n", path, line)
			return exitUsage
		}
		if fixes = md.Fixed(fn, lp); fixes == nil {
			fmt.Fprintf(stderr, "ascvet: %s:%d: no finding offers a fix for this loop; simulated as written only\n", path, line)
		}
	}
	posLine := func(p token.Pos) int { return fset.Position(p).Line }
	name := fmt.Sprintf("%s:%d %s", path, line, fn.Name)
	lineOf := func(body simcheck.Body, i int) int {
		if in := body.Insts[i].Instr; in != nil {
			return fset.Position(in.Pos).Line
		}
		return 0
	}
	loopLine := func(lp *ir.Loop) int { return fset.Position(lp.Pos).Line }
	var reports []*view.Report
	for _, inst := range instancesOf(fn, choice) {
		var r *view.Report
		if lp != nil {
			loop := func(name string, fixes *simcost.FixSet) *view.Report {
				var p simcheck.Part
				switch drop := fixes.Drop(); {
				case fixes == nil:
					p = m.RunLoopInstance(fn, inst, lp, iterations, nil)
				case drop != nil:
					p = m.RunLoopInstance(fn, inst, lp, iterations, drop)
				default:
					body, halve := fixes.Body(inst)
					p = m.RunLoopBuilt(inst, lp, body, iterations, halve)
				}
				r := view.Build(name, m, p.Body, p.Res, timeline, func(i int) int { return lineOf(p.Body, i) })
				r.Cycles, r.Iterations = p.Cycles, p.Iterations
				if p.Iterations > 0 {
					r.CyclesPerIter = (p.Cycles + p.Iterations - 1) / p.Iterations
				}
				r.Parts = []view.PartUse{{Kind: "loop", Line: loopLine(lp), Iterations: p.Iterations, Unroll: p.Unroll, Cycles: p.Cycles, Extrapolated: p.Extrapolated}}
				r.Notes = simcheck.LoopNotes(lp, p, iterations)
				r.Instance = inst.String()
				return r
			}
			name := fmt.Sprintf("%s:%d loop in %s", path, fset.Position(lp.Pos).Line, fn.Name)
			r = loop(name, nil)
			if fixes != nil {
				reports = append(reports, r)
				r = loop(name+" with every offered fix applied", fixes)
				r.Fixed, r.FixesApplied = fixes.Lines(posLine), fixes.Describe(posLine)
				if before := reports[len(reports)-1].Cycles; before > 0 {
					r.Notes = append(r.Notes, fmt.Sprintf("the fixes (%s) save %d of %d cycles (%d%%)", fixes.Describe(posLine), before-r.Cycles, before, 100*(before-r.Cycles)/before))
				}
			}
		} else {
			r = view.BuildRegion(name, m, m.RunInstance(fn, inst, iterations, nil), timeline, lineOf, loopLine)
		}
		r.Instance = inst.String()
		reports = append(reports, r)
	}
	for i, r := range reports {
		if asJSON {
			continue
		}
		if i > 0 {
			fmt.Fprintln(stdout)
		}
		if err = view.Write(stdout, r); err != nil {
			break
		}
	}
	if asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if len(reports) == 1 {
			err = enc.Encode(reports[0])
		} else {
			err = enc.Encode(reports)
		}
	}
	if err != nil {
		fmt.Fprintf(stderr, "ascvet: %v\n", err)
		return exitInternal
	}
	return exitOK
}

// analyseForSim runs every rule over the file, as a check with the default
// settings does, and returns its IR and the cost model the rules priced
// their fixes with (sim -fixed).
func analyseForSim(file runner.File) (*token.FileSet, *ir.File, *simcost.Model, error) {
	var pkg *ir.Package
	var md *simcost.Model
	res, err := runner.Run(all.Analyzers(), []runner.File{file}, runner.Options{Jobs: 1, Visit: func(_ runner.File, results map[*analysis.Analyzer]any) {
		pkg, _ = results[cppir.Analyzer].(*ir.Package)
		md, _ = results[simcost.Analyzer].(*simcost.Model)
	}})
	if err != nil {
		return nil, nil, nil, err
	}
	if pkg == nil || md == nil || len(pkg.Files) == 0 {
		for _, e := range res.Errors {
			return nil, nil, nil, e.Err
		}
		return nil, nil, nil, errors.New("the file could not be analysed")
	}
	return pkg.Fset, pkg.Files[0], md, nil
}

// findTarget returns the innermost loop starting on line, or the region
// whose header or body holds line (with no loop starting there).
func findTarget(fset *token.FileSet, f *ir.File, line int) (*ir.Func, *ir.Loop) {
	var best *ir.Func
	for _, fn := range f.Funcs {
		if !fn.Kind.Analysed() || fn.Body == nil {
			continue
		}
		for i := len(fn.Loops) - 1; i >= 0; i-- {
			if fset.Position(fn.Loops[i].Pos).Line == line {
				return fn, fn.Loops[i]
			}
		}
		if fset.Position(fn.Pos).Line <= line && line <= fset.Position(fn.End).Line {
			best = fn
		}
	}
	return best, nil
}

// simAll prints a summary line for every loop under paths; prog shows
// the files done (nil: nothing shown).
func simAll(paths []string, m *simcheck.Machine, iterations int, choice *ir.Bindings, asJSON bool, prog *progress.Line, stdout, stderr io.Writer) int {
	in := driver.Load(paths, 1, stderr)
	code := exitOK
	if in.Skipped > 0 {
		code = exitUsage
	}
	out := []simLoop{}
	fset := token.NewFileSet()
	prog.SetTotal(len(in.Files))
	for _, file := range in.Files {
		prog.Add(1)
		f, err := driver.ParseAsCheck(fset, file.Name, file.Src)
		if err != nil {
			code = max(code, parseFailed(stderr, file.Name, err))
			continue
		}
		for _, fn := range f.Funcs {
			if !fn.Kind.Analysed() {
				continue
			}
			for _, lp := range fn.Loops {
				for _, inst := range instancesOf(fn, choice) {
					p := m.RunLoopInstance(fn, inst, lp, iterations, nil)
					out = append(out, simLoop{File: file.Name, Line: fset.Position(lp.Pos).Line, Region: fn.Name, Instance: inst.String(), Iterations: p.Iterations,
						TripKnown: p.Loop.TripKnown, PerIter: len(p.Body.Insts) / p.Unroll, Cycles: p.Cycles, IPC: float64(int(p.Res.IPC()*100+0.5)) / 100,
						Chain: simcheck.LongestChain(simcheck.BodyOfInstance(fn, inst, lp, nil))})
				}
			}
		}
	}
	prog.Finish()
	var err error
	if asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		err = enc.Encode(out)
	} else {
		tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "loop\titerations\tinstr/iter\tcycles\tIPC\tchain\tregion")
		for _, l := range out {
			trip := fmt.Sprint(l.Iterations)
			if !l.TripKnown {
				trip += "*"
			}
			region := l.Region
			if l.Instance != "" {
				region += " [" + l.Instance + "]"
			}
			fmt.Fprintf(tw, "%s:%d\t%s\t%d\t%d\t%.2f\t%d\t%s\n", l.File, l.Line, trip, l.PerIter, l.Cycles, l.IPC, l.Chain, region)
		}
		err = tw.Flush()
	}
	if err != nil {
		fmt.Fprintf(stderr, "ascvet: %v\n", err)
		return exitInternal
	}
	return code
}

// isDigits reports whether s is a run of decimal digits.
func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}
