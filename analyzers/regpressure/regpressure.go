// Package regpressure provides the register pressure of every VF region of
// a file (package regalloc) to the register rules, computed once, with the
// budgets of the chip: 32 RegTensor, 8 MaskReg, 4 load and 4 store
// unaligned registers, 8 AddrReg on the Ascend 950. The budgets come from
// package settings (-budget-vreg, ..., or a file's ascvet.toml).
//
// The pressure is that of the code the compiler builds: each instantiation
// of a region that its file makes (ir.Func.Instantiations), with its if
// constexpr folded and its helpers inlined (ir.Func.Expand), those of the
// headers it includes too, so that the registers a helper holds are
// counted where they are live, in the helper, together with what its
// caller keeps live across the call. A helper is counted only inlined into
// its callers: those of its file, and those of other files of its folder
// that include it and call it (ir.Func.CalledFrom), which count it there.
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
	Budget regalloc.Budget
	// Regions holds, for every analysed region, the instantiation with
	// the most RegTensor live at once (the one an unroll must fit).
	Regions map[*ir.Func]*regalloc.Result
	// Instances holds every instantiation of each region that builds
	// different code, in the order of ir.Func.Instantiations.
	Instances map[*ir.Func][]Instance
	Files     map[*ir.Func]*ir.File // the file of each region
}

// Instance is the pressure of one instantiation of a region.
type Instance struct {
	Binds []ir.Bindings    // the instantiations that build it (one empty binding for a region that is no template)
	All   int              // how many instantiations the region has
	Res   *regalloc.Result // Res.Func is the function as built (ir.Func.Expand)
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
	res := &Result{Budget: settings.Of(pass).Budget, Regions: map[*ir.Func]*regalloc.Result{},
		Instances: map[*ir.Func][]Instance{}, Files: map[*ir.Func]*ir.File{}}
	for _, f := range pkg.Files {
		a := regalloc.New(f)
		inlined := inlinedHelpers(f)
		for _, fn := range f.Funcs {
			if !fn.Kind.Analysed() {
				continue
			}
			res.Files[fn] = f
			insts := fn.Instantiations()
			seen := map[string]int{}
			for _, b := range insts {
				r := a.Analyze(fn.Expand(b))
				k := key(r)
				if i, ok := seen[k]; ok {
					res.Instances[fn][i].Binds = append(res.Instances[fn][i].Binds, b)
					continue
				}
				if best := res.Regions[fn]; best == nil || r.Classes[regalloc.VReg].Peak > best.Classes[regalloc.VReg].Peak {
					res.Regions[fn] = r
				}
				if inlined[fn] || len(fn.CalledFrom) > 0 {
					// Built only inlined into its callers, where it is
					// counted: those of its file, and those of the files
					// of its folder that call it (their files count it).
					continue
				}
				seen[k] = len(res.Instances[fn])
				res.Instances[fn] = append(res.Instances[fn], Instance{Binds: []ir.Bindings{b}, All: len(insts), Res: r})
			}
		}
	}
	return res, nil
}

// inlinedHelpers returns the regions of f that another region of f calls
// (and so inlines): the compiler builds them only there, with what their
// callers keep live, so a count of one alone is no overrun of its own.
func inlinedHelpers(f *ir.File) map[*ir.Func]bool {
	out := map[*ir.Func]bool{}
	for _, fn := range f.Funcs {
		for _, in := range fn.Instrs {
			if in.Op == ir.OpCall && in.Target != nil && in.Target != fn && !in.Target.Foreign {
				out[in.Target] = true
			}
		}
	}
	return out
}

// key is what the rules read of a result: each class's peak and where.
func key(r *regalloc.Result) string {
	b := make([]byte, 0, 64)
	for c := range regalloc.NumClasses {
		p := r.Classes[c]
		b = append(b, byte(p.Peak), byte(p.Peak>>8))
		if p.At != nil {
			at := int(p.At.Pos)
			b = append(b, byte(at), byte(at>>8), byte(at>>16), byte(at>>24))
		}
		b = append(b, ';')
	}
	return string(b)
}
