// Package cppir defines the provider Analyzer that parses the C++ files of a
// pass once, with cppfront (Python files of the pypto_pro DSL with
// cppfront/pyfront), and shares the resulting VF IR (*ir.Package) with
// every rule that requires it.
//
// The files are the pass's OtherFiles: go/analysis has no notion of C++, so a
// driver (ours, or go vet through analysistest) hands C++ sources over as
// non-Go files. cppir adds each one to pass.Fset itself, so the positions of
// the IR, and of every diagnostic built from it, resolve through pass.Fset.
//
// The front end's limits are the analyzer's flags, -max-depth and
// -file-timeout (see cppfront.Options). A file beyond them makes run fail
// with an error wrapping a *cppfront.LimitError, which a driver reports as
// a skipped input rather than as its own failure. The parse watches the
// file's stop flag (package stop) besides: a stopped parse fails with
// cppfront.ErrStopped, and the runner drops the file's outcome.
package cppir

import (
	"fmt"
	"go/token"
	"os"
	"path/filepath"
	"reflect"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/ascvet/ascvet/analyzers/stop"
	"github.com/ascvet/ascvet/cppfront"
	"github.com/ascvet/ascvet/cppfront/ir"
	"github.com/ascvet/ascvet/cppfront/pyfront"
)

// IsPython reports whether name is a Python file (.py, .pyi), which the
// pypto_pro DSL front end parses; every other file is C++.
func IsPython(name string) bool {
	ext := strings.ToLower(filepath.Ext(name))
	return ext == ".py" || ext == ".pyi"
}

// ParseFile parses one file with the front end of its language, with the
// default limits and no project index (the subcommands regs and sim parse
// by themselves).
func ParseFile(fset *token.FileSet, name string, src []byte) (*ir.File, error) {
	if IsPython(name) {
		return pyfront.ParseFile(fset, name, src)
	}
	return cppfront.ParseFile(fset, name, src)
}

// ParseFileAsAnalyzer parses one file as the Analyzer does, and is what it
// runs: with the limits its flags set and the project index it shares
// with every file the process parses, so that a name a header of the
// project defines folds as the rules see it (ascvet ir prints that IR).
// The index records the headers the lowering consulted until
// ProjectIndex().Consulted(name) takes them.
func ParseFileAsAnalyzer(fset *token.FileSet, name string, src []byte) (*ir.File, error) {
	limits.Index.SetDefines(ParseDefines(defines))
	return parseFile(fset, name, src, limits)
}

// parseFile parses one file with the front end of its language and opts.
func parseFile(fset *token.FileSet, name string, src []byte, opts cppfront.Options) (*ir.File, error) {
	if IsPython(name) {
		return pyfront.ParseFileOptions(fset, name, src, opts)
	}
	return cppfront.ParseFileOptions(fset, name, src, opts)
}

// HasVFMarker reports whether src, the contents of name, may hold VF code
// in its language; a file without is not parsed.
func HasVFMarker(name string, src []byte) bool {
	if IsPython(name) {
		return pyfront.HasVFMarker(src)
	}
	return cppfront.HasVFMarker(src)
}

// Analyzer parses pass.OtherFiles and returns their IR as an *ir.Package.
var Analyzer = &analysis.Analyzer{
	Name:             "cppir",
	Doc:              "parse the C++ files of a pass (OtherFiles) into the VF IR shared by the ascvet rules",
	Run:              run,
	Requires:         []*analysis.Analyzer{stop.Analyzer},
	RunDespiteErrors: true, // a C++ file in a Go package is a "Go error" for go list; it must not stop us
	ResultType:       reflect.TypeFor[*ir.Package](),
}

// limits are the front end's limits, set through the analyzer's flags.
// limits are the front end's options. Its project index is shared by every
// file the process parses: it reads each header once, and revalidates it by
// size and modification time (a file by its content), so a long-running
// process (tests, an editor) never sees stale values.
var limits = cppfront.Options{Index: cppfront.NewIndex()}

// simtRegions is the simt-regions flag: when it is false (a check), a file
// that can hold no region the rules analyse is not parsed
// (cppfront.Options.RegionsOnly).
var simtRegions bool

// ProjectIndex returns the project index the analyzer lowers files with,
// to ask which headers a file's analysis read (cppfront.Index.Consulted).
func ProjectIndex() *cppfront.Index { return limits.Index }

func init() {
	Analyzer.Flags.IntVar(&limits.MaxDepth, "max-depth", cppfront.DefaultMaxDepth, "deepest nesting of brackets ( [ { in a file with VF code; a deeper file is not analysed")
	Analyzer.Flags.DurationVar(&limits.Timeout, "file-timeout", 0, "time to parse one file with VF code (0 for no limit); a slower file is not analysed")
	Analyzer.Flags.BoolVar(&simtRegions, "simt-regions", false, "parse and lower a file whose only VF code is SIMT functions too, which no rule reads (its IR then lists them)")
	Analyzer.Flags.StringVar(&defines, "define", "", "macros every file sees first, as a compiler's -D: NAME=VALUE pairs separated by ';'")
}

// defines is the define flag: NAME=VALUE;NAME=VALUE (source.Limits.Apply
// sets it from -D).
var defines string

// ParseDefines reads the define flag's form into name -> value.
func ParseDefines(s string) map[string]string {
	if s == "" {
		return nil
	}
	out := map[string]string{}
	for _, d := range strings.Split(s, ";") {
		if name, value, ok := strings.Cut(d, "="); ok && name != "" {
			out[name] = value
		}
	}
	return out
}

func run(pass *analysis.Pass) (any, error) {
	read := pass.ReadFile
	if read == nil {
		read = os.ReadFile
	}
	pkg := &ir.Package{Fset: pass.Fset}
	opts := limits
	opts.Index.SetDefines(ParseDefines(defines))
	opts.Stop = stop.Of(pass) // the fixed texts a rule lowers again (ir.File.Relower) stop with it
	opts.RegionsOnly = !simtRegions
	for _, name := range pass.OtherFiles {
		src, err := read(name)
		if err != nil {
			return nil, err
		}
		f, err := parseFile(pass.Fset, name, src, opts)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		pkg.Files = append(pkg.Files, f)
	}
	return pkg, nil
}
