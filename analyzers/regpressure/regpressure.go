// Package regpressure provides the register pressure of every VF region of
// a file (package regalloc) to the register rules, computed once, with the
// budgets of the chip: 32 RegTensor, 8 MaskReg, 4 load and 4 store
// unaligned registers, 8 AddrReg on the Ascend 950. The budgets come from
// package settings (-budget-vreg, ..., or a file's ascvet.toml).
package regpressure

import (
	"reflect"

	"golang.org/x/tools/go/analysis"

	"github.com/ascvet/ascvet/analyzers/cppir"
	"github.com/ascvet/ascvet/analyzers/settings"
	"github.com/ascvet/ascvet/cppfront/ir"
	"github.com/ascvet/ascvet/regalloc"
)

// Result is what the Analyzer provides.
type Result struct {
	Budget  regalloc.Budget
	Regions map[*ir.Func]*regalloc.Result // every analysed region
	Files   map[*ir.Func]*ir.File         // the file of each region
}

// Analyzer computes the pressure of every analysed region.
var Analyzer = &analysis.Analyzer{
	Name:             "regpressure",
	Doc:              "live register pressure of each VF region (provider for ASC3001-ASC3003)",
	Requires:         []*analysis.Analyzer{cppir.Analyzer, settings.Analyzer},
	RunDespiteErrors: true,
	ResultType:       reflect.TypeOf((*Result)(nil)),
	Run:              run,
}

func run(pass *analysis.Pass) (any, error) {
	pkg := pass.ResultOf[cppir.Analyzer].(*ir.Package)
	res := &Result{Budget: settings.Of(pass).Budget, Regions: map[*ir.Func]*regalloc.Result{}, Files: map[*ir.Func]*ir.File{}}
	for _, f := range pkg.Files {
		a := regalloc.New(f)
		for _, fn := range f.Funcs {
			if fn.Kind.Analysed() {
				res.Regions[fn] = a.Analyze(fn)
				res.Files[fn] = f
			}
		}
	}
	return res, nil
}
