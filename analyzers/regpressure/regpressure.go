// Package regpressure provides the register pressure of every VF region of
// a file (package regalloc) to the register rules, computed once, with the
// budgets of the chip: 32 RegTensor, 8 MaskReg, 4 load and 4 store
// unaligned registers, 8 AddrReg on the Ascend 950. The budgets are flags
// (-budget-vreg, ...) so that configuration can override them.
package regpressure

import (
	"reflect"

	"golang.org/x/tools/go/analysis"

	"github.com/ascvet/ascvet/analyzers/cppir"
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
	Requires:         []*analysis.Analyzer{cppir.Analyzer},
	RunDespiteErrors: true,
	ResultType:       reflect.TypeOf((*Result)(nil)),
	Run:              run,
}

var budget = regalloc.Ascend950

func init() {
	Analyzer.Flags.IntVar(&budget[regalloc.VReg], "budget-vreg", regalloc.Ascend950[regalloc.VReg], "RegTensor registers one VF may keep live")
	Analyzer.Flags.IntVar(&budget[regalloc.Mask], "budget-mask", regalloc.Ascend950[regalloc.Mask], "MaskReg registers one VF may keep live")
	Analyzer.Flags.IntVar(&budget[regalloc.ULoad], "budget-uload", regalloc.Ascend950[regalloc.ULoad], "UnalignRegForLoad registers one VF may keep live")
	Analyzer.Flags.IntVar(&budget[regalloc.UStore], "budget-ustore", regalloc.Ascend950[regalloc.UStore], "UnalignRegForStore registers one VF may keep live")
	Analyzer.Flags.IntVar(&budget[regalloc.Addr], "budget-addr", regalloc.Ascend950[regalloc.Addr], "AddrReg registers one VF may keep live")
}

func run(pass *analysis.Pass) (any, error) {
	pkg := pass.ResultOf[cppir.Analyzer].(*ir.Package)
	res := &Result{Budget: budget, Regions: map[*ir.Func]*regalloc.Result{}, Files: map[*ir.Func]*ir.File{}}
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
