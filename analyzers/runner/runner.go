// Package runner runs go/analysis analyzers over C++ files without
// go/packages: every file gets its own FileSet and its own set of passes,
// built by hand, and the analyzers run in dependency order.
//
// The ascvet driver and the atest fixture harness both run analyzers through
// Run, so the tests exercise exactly what users run.
//
// A pass sees the file as its only OtherFiles entry. There is no Go syntax and
// no type information: Files is empty, Pkg is a placeholder package and
// TypesInfo is empty. Facts are not supported; the fact functions do nothing.
//
// Suggested fixes are resolved to byte offsets (Finding.Fixes) and checked:
// each edit must lie in the file of its diagnostic, and no two edits of a fix
// may overlap. Fixes groups them by file for package fixes, which applies
// them.
//
// Files are analysed in parallel. An analyzer that returns an error or panics
// does not stop the run: it becomes an InternalError naming the file, the
// analyzers that depend on it are skipped for that file, and the other files
// go on.
//
// A file's analysis can be stopped from outside (File.Stop, which the
// language server sets when a newer edit made it useless): no analyzer of
// the file starts once the flag is set, the long ones watch it
// (stop.Analyzer), and the file's findings and errors are dropped.
package runner

import (
	"cmp"
	"fmt"
	"go/token"
	"go/types"
	"path/filepath"
	"reflect"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"golang.org/x/tools/go/analysis"

	"github.com/ascvet/ascvet/analyzers/fixes"
	"github.com/ascvet/ascvet/analyzers/stop"
	"github.com/ascvet/ascvet/ruleset"
)

// File is one input file.
type File struct {
	Name string // path, as it appears in findings
	Src  []byte // contents
	// Provided holds results given for this file instead of running the
	// analyzer (a provider such as settings.Analyzer, configured per
	// file); each must have the analyzer's ResultType.
	Provided map[*analysis.Analyzer]any
	// Stop, when not nil, stops the file's analysis once it is set: it is
	// stop.Analyzer's result for the file, which the long analyzers
	// watch; no analyzer starts after it is set; and the file's findings
	// and errors are dropped, its name in Result.Stopped (what a stopped
	// analyzer returns is not to be trusted, nor reported: an error of a
	// stopped parse is no one's fault). nil: the file is analysed to the
	// end.
	Stop *atomic.Bool
}

// Finding is one diagnostic, tagged with the analyzer (and rule) that reported it.
type Finding struct {
	Analyzer   *analysis.Analyzer  // who reported it
	Rule       *ruleset.Rule       // the rule Analyzer implements; nil for an analyzer that defines none
	Diagnostic analysis.Diagnostic // as reported
	Pos, End   token.Position      // Diagnostic.Pos and End resolved (End = Pos when not given); columns count bytes
	Fixes      []fixes.Fix         // Diagnostic.SuggestedFixes resolved to byte offsets in the finding's file, in order
	Related    []Related           // Diagnostic.Related resolved, in order (entries without a position are left out)
}

// Related is a related location of a finding, resolved.
type Related struct {
	Pos, End token.Position // End = Pos when not given
	Message  string
}

// RuleID returns the ID of the finding's rule, or the analyzer's name when
// the analyzer implements no rule.
func (f *Finding) RuleID() string { return ruleID(f.Analyzer, f.Rule) }

func ruleID(a *analysis.Analyzer, r *ruleset.Rule) string {
	if r != nil {
		return r.ID
	}
	return a.Name
}

// Severity returns the severity of the finding's rule; findings of an
// analyzer that implements no rule are warnings.
func (f *Finding) Severity() ruleset.Severity {
	if f.Rule != nil {
		return f.Rule.Severity
	}
	return ruleset.Warning
}

// InternalError is an analyzer that failed on a file: it returned an error,
// panicked, returned a result of the wrong type, or reported a diagnostic
// without a position or with a suggested fix that does not hold (see
// Finding.Fixes). It is ascvet's fault, never the user's.
type InternalError struct {
	File     string // the file being analysed
	Analyzer string // the analyzer's name
	Err      error  // what went wrong
	Stack    []byte // goroutine stack, for a panic
}

func (e *InternalError) Error() string {
	return fmt.Sprintf("%s: internal error in analyzer %s: %v", e.File, e.Analyzer, e.Err)
}

func (e *InternalError) Unwrap() error { return e.Err }

// Options tune Run.
type Options struct {
	// Jobs is the number of files analysed at once; runtime.NumCPU() when < 1.
	Jobs int

	// Parallel is the number of analyzers of one file that run at once,
	// those that do not require each other; one after the other when < 2.
	// A driver that analyses fewer files at a time than it has CPUs (one
	// huge file, say) gives the rest to a file's analyzers.
	Parallel int

	// Visit, when set, is called once per file after its analyzers ran, with
	// the result of every analyzer that succeeded (not for a file whose
	// analysis was stopped, File.Stop). It is called from several
	// goroutines at once and must not keep results it does not need: they
	// are dropped after the call so memory stays proportional to Jobs.
	Visit func(f File, results map[*analysis.Analyzer]any)
}

// Result is the outcome of Run.
type Result struct {
	Findings []Finding       // sorted by file, line, column, rule, message
	Errors   []InternalError // sorted by file, then in analyzer order
	Stopped  []string        // the files whose File.Stop was set, in order: none of their findings and errors is above
}

// Run runs the analyzers, and the analyzers they require, over each file.
// Its error reports misconfigured analyzers (see analysis.Validate); what
// goes wrong on a file is in Result.Errors.
func Run(analyzers []*analysis.Analyzer, files []File, opts Options) (*Result, error) {
	if err := analysis.Validate(analyzers); err != nil {
		return nil, err
	}
	order := Order(analyzers)
	for _, a := range order {
		if len(a.FactTypes) > 0 {
			return nil, fmt.Errorf("analyzer %s uses facts, which the runner does not support", a.Name)
		}
	}
	jobs := opts.Jobs
	if jobs < 1 {
		jobs = runtime.NumCPU()
	}
	type out struct {
		findings []Finding
		errs     []InternalError
		stopped  bool
	}
	outs := make([]out, len(files))
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(jobs, max(len(files), 1)) {
		wg.Go(func() {
			for i := range next {
				findings, errs, results := runFile(order, files[i], opts.Parallel)
				if f := files[i]; f.Stop != nil && f.Stop.Load() {
					// Whatever the analyzers made of the file is dropped:
					// the flag may have been set in the middle of any of them.
					outs[i] = out{stopped: true}
					continue
				}
				outs[i] = out{findings, errs, false}
				if opts.Visit != nil {
					opts.Visit(files[i], results)
				}
			}
		})
	}
	for i := range files {
		next <- i
	}
	close(next)
	wg.Wait()

	res := &Result{}
	for i, o := range outs {
		if o.stopped {
			res.Stopped = append(res.Stopped, files[i].Name)
		}
		res.Findings = append(res.Findings, o.findings...)
		res.Errors = append(res.Errors, o.errs...)
	}
	slices.SortFunc(res.Findings, compareFindings)
	slices.SortStableFunc(res.Errors, func(a, b InternalError) int { return cmp.Compare(a.File, b.File) })
	return res, nil
}

// Extensions are the file name extensions of the sources that ascvet reads
// when it walks a directory: C++, and Python for the pypto_pro DSL (a
// Python file is parsed only if it holds a @pl.vector_function).
var Extensions = []string{".asc", ".cpp", ".cc", ".cxx", ".h", ".hh", ".hpp", ".hxx", ".py"}

// IsSource reports whether name has one of the Extensions, in any case.
func IsSource(name string) bool {
	return slices.Contains(Extensions, strings.ToLower(filepath.Ext(name)))
}

// Order returns the analyzers and everything they require, each once, every
// analyzer after its prerequisites; otherwise in the order given.
func Order(analyzers []*analysis.Analyzer) []*analysis.Analyzer {
	var order []*analysis.Analyzer
	seen := map[*analysis.Analyzer]bool{}
	var visit func(a *analysis.Analyzer)
	visit = func(a *analysis.Analyzer) {
		if seen[a] {
			return
		}
		seen[a] = true
		for _, req := range a.Requires {
			visit(req)
		}
		order = append(order, a)
	}
	for _, a := range analyzers {
		visit(a)
	}
	return order
}

func compareFindings(a, b Finding) int {
	return cmp.Or(
		cmp.Compare(a.Pos.Filename, b.Pos.Filename),
		cmp.Compare(a.Pos.Line, b.Pos.Line),
		cmp.Compare(a.Pos.Column, b.Pos.Column),
		cmp.Compare(a.RuleID(), b.RuleID()),
		cmp.Compare(a.Diagnostic.Message, b.Diagnostic.Message),
		cmp.Compare(a.End.Line, b.End.Line),
		cmp.Compare(a.End.Column, b.End.Column),
	)
}

// sizes is what TypesSizes reports; no analyzer of ours asks.
var sizes = types.SizesFor("gc", "amd64")

// runFile runs every analyzer of order (dependencies first) on one file,
// up to parallel of them at once (1 or less: one after the other). An
// analyzer starts once those it requires are done, and not at all once
// f.Stop is set; findings and errors are kept in the order of order
// whatever the schedule.
func runFile(order []*analysis.Analyzer, f File, parallel int) ([]Finding, []InternalError, map[*analysis.Analyzer]any) {
	fset := token.NewFileSet()
	pkg := types.NewPackage(f.Name, "vf")
	readFile := func(name string) ([]byte, error) {
		if name != f.Name {
			return nil, fmt.Errorf("%s is not a file of this pass", name)
		}
		return f.Src, nil
	}
	type outcome struct {
		res    any
		failed bool
		diags  []analysis.Diagnostic
		err    *InternalError
	}
	outs := make([]outcome, len(order))
	index := make(map[*analysis.Analyzer]int, len(order))
	for i, a := range order {
		index[a] = i
	}
	// run runs order[i], whose prerequisites are done.
	run := func(i int) {
		a, out := order[i], &outs[i]
		if f.Stop != nil && f.Stop.Load() {
			out.failed = true // stopped: Run drops the file's outcome
			return
		}
		resultOf := make(map[*analysis.Analyzer]any, len(a.Requires))
		for _, req := range a.Requires {
			if outs[index[req]].failed {
				out.failed = true // the prerequisite's failure is already reported
				return
			}
			resultOf[req] = outs[index[req]].res
		}
		if res, ok := f.Provided[a]; ok {
			if a.ResultType != nil && reflect.TypeOf(res) != a.ResultType {
				out.err = &InternalError{File: f.Name, Analyzer: a.Name, Err: fmt.Errorf("provided result of type %T, want %v", res, a.ResultType)}
				out.failed = true
				return
			}
			out.res = res
			return
		}
		if a == stop.Analyzer && f.Stop != nil {
			out.res = f.Stop
			return
		}
		var diags []analysis.Diagnostic
		pass := &analysis.Pass{
			Analyzer:          a,
			Fset:              fset,
			OtherFiles:        []string{f.Name},
			Pkg:               pkg,
			TypesInfo:         &types.Info{},
			TypesSizes:        sizes,
			ResultOf:          resultOf,
			Report:            func(d analysis.Diagnostic) { diags = append(diags, d) },
			ReadFile:          readFile,
			ImportObjectFact:  func(types.Object, analysis.Fact) bool { return false },
			ImportPackageFact: func(*types.Package, analysis.Fact) bool { return false },
			ExportObjectFact:  func(types.Object, analysis.Fact) {},
			ExportPackageFact: func(analysis.Fact) {},
			AllPackageFacts:   func() []analysis.PackageFact { return nil },
			AllObjectFacts:    func() []analysis.ObjectFact { return nil },
		}
		res, ierr := runPass(pass)
		if ierr == nil && a.ResultType != nil && res != nil && reflect.TypeOf(res) != a.ResultType {
			ierr = &InternalError{Err: fmt.Errorf("result of type %T, want %v", res, a.ResultType)}
		}
		if ierr != nil {
			ierr.File, ierr.Analyzer = f.Name, a.Name
			out.err, out.failed = ierr, true
			return
		}
		out.res, out.diags = res, diags
	}
	if parallel <= 1 {
		for i := range order {
			run(i)
		}
	} else {
		// parallel workers, the caller one of them, each taking the
		// first analyzer of order whose prerequisites are done. (A
		// goroutine per analyzer, 20 a file, started each on a small
		// stack that the analyzers grew again, file after file.) An
		// outcome is written before its analyzer is marked done under
		// the lock, so a dependent reads it safely.
		const (
			waiting = iota
			running
			done
		)
		var mu sync.Mutex
		wake := sync.NewCond(&mu)
		state := make([]int8, len(order))
		left := len(order)
		work := func() {
			mu.Lock()
			defer mu.Unlock()
			for left > 0 {
				next := -1
				for i, a := range order {
					if state[i] == waiting && !slices.ContainsFunc(a.Requires, func(req *analysis.Analyzer) bool { return state[index[req]] != done }) {
						next = i
						break
					}
				}
				if next < 0 {
					wake.Wait() // what is ready waits for one that runs
					continue
				}
				state[next] = running
				mu.Unlock()
				run(next)
				mu.Lock()
				state[next] = done
				left--
				wake.Broadcast()
			}
		}
		var wg sync.WaitGroup
		for range min(parallel, len(order)) - 1 {
			wg.Go(work)
		}
		work()
		wg.Wait()
	}
	// Results that revise the file's diagnostics once all are in.
	var all []*analysis.Diagnostic
	for i := range outs {
		for k := range outs[i].diags {
			all = append(all, &outs[i].diags[k])
		}
	}
	for i := range order {
		if fin, ok := outs[i].res.(Finisher); ok && !outs[i].failed && (f.Stop == nil || !f.Stop.Load()) {
			fin.Finish(fset, all)
		}
	}
	var findings []Finding
	var errs []InternalError
	results := map[*analysis.Analyzer]any{}
	for i, a := range order {
		if !outs[i].failed {
			fs, ierr := resolve(fset, a, outs[i].diags)
			if ierr != nil {
				ierr.File, ierr.Analyzer = f.Name, a.Name
				outs[i].err, outs[i].failed = ierr, true
				fs = nil
			}
			findings = append(findings, fs...)
		}
		if outs[i].err != nil {
			errs = append(errs, *outs[i].err)
		}
		if !outs[i].failed {
			results[a] = outs[i].res
		}
	}
	return findings, errs, results
}

// A Finisher is an analyzer result that revises the diagnostics of the
// file, every analyzer's, once all have run: simcost's model says, on
// each finding whose fix shares a loop with others, what the fixes save
// together (simcost.Model.Finish).
type Finisher interface {
	Finish(fset *token.FileSet, diags []*analysis.Diagnostic)
}

// runPass runs pass.Analyzer, turning an error or a panic into an InternalError.
func runPass(pass *analysis.Pass) (res any, ierr *InternalError) {
	defer func() {
		if e := recover(); e != nil {
			res, ierr = nil, &InternalError{Err: fmt.Errorf("panic: %v", e), Stack: debug.Stack()}
		}
	}()
	res, err := pass.Analyzer.Run(pass)
	if err != nil {
		return nil, &InternalError{Err: err}
	}
	return res, nil
}

// resolve turns the diagnostics of one analyzer into findings.
func resolve(fset *token.FileSet, a *analysis.Analyzer, diags []analysis.Diagnostic) ([]Finding, *InternalError) {
	rule := ruleset.ForAnalyzer(a)
	findings := make([]Finding, 0, len(diags))
	for _, d := range diags {
		pos := fset.PositionFor(d.Pos, false)
		if !pos.IsValid() {
			return nil, &InternalError{Err: fmt.Errorf("diagnostic %q has no position", d.Message)}
		}
		end := pos
		if d.End.IsValid() {
			end = fset.PositionFor(d.End, false)
			if end.Filename != pos.Filename || end.Offset < pos.Offset {
				return nil, &InternalError{Err: fmt.Errorf("diagnostic %q ends before it starts", d.Message)}
			}
		}
		fs, err := resolveFixes(fset, d, pos, ruleID(a, rule))
		if err != nil {
			return nil, &InternalError{Err: fmt.Errorf("diagnostic %q: %w", d.Message, err)}
		}
		var rel []Related
		for _, r := range d.Related {
			rp := fset.PositionFor(r.Pos, false)
			if !rp.IsValid() {
				continue
			}
			re := rp
			if e := fset.PositionFor(r.End, false); r.End.IsValid() && e.Filename == rp.Filename && e.Offset >= rp.Offset {
				re = e
			}
			rel = append(rel, Related{Pos: rp, End: re, Message: r.Message})
		}
		findings = append(findings, Finding{Analyzer: a, Rule: rule, Diagnostic: d, Pos: pos, End: end, Fixes: fs, Related: rel})
	}
	return findings, nil
}

// SetFlag sets the flag name on every analyzer that defines it
// (go/analysis analyzers carry their options as flags).
func SetFlag(as []*analysis.Analyzer, name, value string) error {
	for _, a := range Order(as) {
		if a.Flags.Lookup(name) != nil {
			if err := a.Flags.Set(name, value); err != nil {
				return fmt.Errorf("%s -%s: %w", a.Name, name, err)
			}
		}
	}
	return nil
}
