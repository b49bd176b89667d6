// Package cppir defines the provider Analyzer that parses the C++ files of a
// pass once, with cppfront, and shares the resulting VF IR (*ir.Package) with
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
// a skipped input rather than as its own failure.
package cppir

import (
	"fmt"
	"os"
	"reflect"

	"golang.org/x/tools/go/analysis"

	"github.com/ascvet/ascvet/cppfront"
	"github.com/ascvet/ascvet/cppfront/ir"
)

// Analyzer parses pass.OtherFiles and returns their IR as an *ir.Package.
var Analyzer = &analysis.Analyzer{
	Name:             "cppir",
	Doc:              "parse the C++ files of a pass (OtherFiles) into the VF IR shared by the ascvet rules",
	Run:              run,
	RunDespiteErrors: true, // a C++ file in a Go package is a "Go error" for go list; it must not stop us
	ResultType:       reflect.TypeFor[*ir.Package](),
}

// limits are the front end's limits, set through the analyzer's flags.
var limits cppfront.Options

func init() {
	Analyzer.Flags.IntVar(&limits.MaxDepth, "max-depth", cppfront.DefaultMaxDepth, "deepest nesting of brackets ( [ { in a file with VF code; a deeper file is not analysed")
	Analyzer.Flags.DurationVar(&limits.Timeout, "file-timeout", 0, "time to parse one file with VF code (0 for no limit); a slower file is not analysed")
}

func run(pass *analysis.Pass) (any, error) {
	read := pass.ReadFile
	if read == nil {
		read = os.ReadFile
	}
	pkg := &ir.Package{Fset: pass.Fset}
	for _, name := range pass.OtherFiles {
		src, err := read(name)
		if err != nil {
			return nil, err
		}
		f, err := cppfront.ParseFileOptions(pass.Fset, name, src, limits)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		pkg.Files = append(pkg.Files, f)
	}
	return pkg, nil
}
