// Package cppir defines the provider Analyzer that parses the C++ files of a
// pass once, with cppfront, and shares the resulting VF IR (*ir.Package) with
// every rule that requires it.
//
// The files are the pass's OtherFiles: go/analysis has no notion of C++, so a
// driver (ours, or go vet through analysistest) hands C++ sources over as
// non-Go files. cppir adds each one to pass.Fset itself, so the positions of
// the IR, and of every diagnostic built from it, resolve through pass.Fset.
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
		f, err := cppfront.ParseFile(pass.Fset, name, src)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		pkg.Files = append(pkg.Files, f)
	}
	return pkg, nil
}
