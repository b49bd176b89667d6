// Package asc5002 defines an Analyzer that reports a Div on 64-bit
// integers inside a VF loop: the 950 has no instruction for it, and the
// library runs a sequence of over a hundred instructions an iteration.
//
//	for (uint16_t i = 0; i < n; ++i) {
//	    Reg::LoadAlign(x, src + i * 32);
//	    Reg::Div(q, x, d, mask);   // reported: d does not change in the loop
//	}
package asc5002

import (
	"fmt"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/ascvet/ascvet/analyzers/cppir"
	"github.com/ascvet/ascvet/analyzers/simcost"
	"github.com/ascvet/ascvet/cppfront/ir"
	"github.com/ascvet/ascvet/ruleset"
	"github.com/ascvet/ascvet/simcheck"
)

// Rule is ASC5002 int64-div.
var Rule = ruleset.Define(&ruleset.Rule{
	ID:    "ASC5002",
	Name:  "int64-div",
	Title: "64-bit integer Div in a VF loop, a software sequence on the 950",
	Text: "The 950 has no vector instruction that divides 64-bit integers. Reg::Div on int64_t or uint64_t runs the " +
		"library's sequence instead (DivB64Impl, with DivS64Impl and DivU64Impl): a float estimate of the divisor's " +
		"reciprocal, two Newton steps in 128-bit fixed point built from 32-bit Mull and carry adds, the quotient as a " +
		"128-bit product, and two corrections of the remainder: about 120 instructions on the 32-bit halves, most of " +
		"them dependent, so iterations barely overlap. The vendor's RegTrait example measures such a loop at about 190 " +
		"cycles an iteration (RegTraitNumTwo) to 290 (RegTraitNumOne) on the 950PR; ascvet simulates the sequence " +
		"instruction by instruction (about 140 cycles an iteration on that loop: it does not see what costs the rest). " +
		"The rule reports a Div whose element type is a 64-bit integer in the instantiation the compiler builds, inside " +
		"a loop. When the divisor does not change in the loop (a broadcast scalar, a register written before it), the " +
		"remedy is the integer fast-division practice: compute a magic number and a shift once, before the loop, and " +
		"replace the Div by the high half of a multiply, an add and a shift (about 20 instructions at 64 bits). When the " +
		"divisor changes, the remedy is 32-bit data where the values fit: a Div on int32_t or uint32_t is one " +
		"instruction. The finding carries the simulated saving of that remedy. There is no automatic fix: the magic " +
		"number depends on the divisor's value (computed on the scalar unit, or on the host), and narrowing to 32 bits " +
		"is right only when the data's range allows it." +
		"\n\nSource: the RegTrait example of asc-devkit (the int64 Div loop with RegTraitNumOne and RegTraitNumTwo, " +
		"measured on the 950PR), the library's DivB64Impl, and the fast integer division best practice " +
		"(simd_simt_integer_fast_div)." +
		" https://gitcode.com/cann/asc-devkit/blob/master/examples/01_simd_cpp_api/03_basic_api/02_reg_vector_compute/trait/README.md" +
		" https://gitcode.com/cann/asc-devkit/blob/master/impl/basic_api/reg_compute/dav_3510/kernel_reg_compute_vec_binary_impl.h" +
		" https://gitcode.com/cann/asc-devkit/blob/master/examples/05_simd_simt_hybrid/02_best_practices/simd_simt_integer_fast_div/README.md",
	Before: `AscendC::Reg::RegTensor<uint64_t> x, d, q;
AscendC::Reg::MaskReg mask = AscendC::Reg::CreateMask<uint64_t>();
AscendC::Reg::Duplicate(d, divisor);
for (uint16_t i = 0; i < repeatTimes; ++i) {
    AscendC::Reg::LoadAlign(x, src + i * 32);
    AscendC::Reg::Div(q, x, d, mask);
    AscendC::Reg::StoreAlign(dst + i * 32, q, mask);
}`,
	After: `// magic and shift computed once for divisor (fast division)
AscendC::Reg::RegTensor<uint32_t> x, q, hi, lo, m;
AscendC::Reg::MaskReg mask = AscendC::Reg::CreateMask<uint32_t>();
AscendC::Reg::Duplicate(m, magic);
for (uint16_t i = 0; i < repeatTimes; ++i) {
    AscendC::Reg::LoadAlign(x, src + i * 64);
    AscendC::Reg::Mull(lo, hi, x, m, mask);      // high half of x * magic
    AscendC::Reg::Add(q, hi, x, mask);
    AscendC::Reg::ShiftRights(q, q, shift, mask);
    AscendC::Reg::StoreAlign(dst + i * 64, q, mask);
}`,
	Severity:  ruleset.Warning,
	Since:     "0.2.0",
	Tags:      []string{"performance", "division", "best-practice"},
	Precision: "high",
	Options:   []ruleset.Option{ruleset.OptionChip, ruleset.OptionMachine, ruleset.OptionIterations},
}, &analysis.Analyzer{
	Requires:         []*analysis.Analyzer{cppir.Analyzer, simcost.Analyzer},
	RunDespiteErrors: true,
	Run:              run,
})

// Analyzer is the analyzer of Rule.
var Analyzer = Rule.Analyzer

func run(pass *analysis.Pass) (any, error) {
	pkg := pass.ResultOf[cppir.Analyzer].(*ir.Package)
	md, _ := pass.ResultOf[simcost.Analyzer].(*simcost.Model)
	for _, f := range pkg.Files {
		for _, fn := range f.Funcs {
			if fn.Kind.Analysed() {
				check(pass, md, fn)
			}
		}
	}
	return nil, nil
}

func check(pass *analysis.Pass, md *simcost.Model, fn *ir.Func) {
	insts := fn.Instantiations()
	if len(insts) == 0 {
		insts = []ir.Bindings{fn.SoleInstance()}
	}
	for _, in := range fn.Instrs {
		if in.Op != ir.OpDiv || in.Loop == ir.NoLoop {
			continue
		}
		var hits []ir.Bindings
		elem := ""
		for _, b := range insts {
			if t := b.Type(in.Elem); isInt64(t) && builds(fn, b, in) {
				hits = append(hits, b)
				elem = t
			}
		}
		if len(hits) == 0 {
			continue
		}
		lp := fn.Loops[in.Loop]
		divisor, ok := divisorReg(fn, in)
		if !ok {
			continue
		}
		invariant := !writtenIn(fn, divisor, lp)
		remedy, how := simcheck.Div64To32, "if the values fit in 32 bits, divide "+narrow(elem)+" data instead: one Div instruction"
		if invariant {
			remedy = simcheck.Div64FastDiv
			how = fmt.Sprintf("%s does not change in the loop: compute a magic number and a shift for it once, before the loop, and multiply instead (integer fast division)", fn.Regs[divisor].Name)
		}
		signed, _ := simcheck.Int64Elem(elem)
		msg := fmt.Sprintf("Div on %s in a VF loop runs the library's %d-instruction sequence each iteration (the 950 has no 64-bit integer divide); %s",
			elem, simcheck.Div64Insts(signed), how)
		if len(hits) < len(insts) {
			var names []string
			for _, b := range hits {
				names = append(names, b.String())
			}
			msg += " (instantiated with " + strings.Join(names, "; ") + ")"
		}
		d := analysis.Diagnostic{Pos: in.Pos, End: in.End, Message: msg}
		if md != nil {
			cost := md.Div64(fn, lp, in, remedy, hits)
			d.Message += ": " + cost.Phrase() + cost.CallPhrase()
			simcost.Attach(&d, cost)
		}
		d.Message += "; no automatic fix: the magic number depends on the divisor's value, and 32-bit data only holds values that fit"
		pass.Report(d)
	}
}

// isInt64 reports whether a bound element type is a 64-bit integer (not a
// complex or floating type).
func isInt64(t string) bool {
	_, ok := simcheck.Int64Elem(t)
	return ok
}

// narrow names the 32-bit type of the same sign as elem.
func narrow(elem string) string {
	if signed, _ := simcheck.Int64Elem(elem); signed {
		return "int32_t"
	}
	return "uint32_t"
}

// divisorReg returns the Div's divisor: its second vector source.
func divisorReg(fn *ir.Func, in *ir.Instr) (ir.RegID, bool) {
	n := 0
	for _, id := range in.Uses {
		if int(id) >= 0 && int(id) < len(fn.Regs) && fn.Regs[id].Class == ir.ClassVReg {
			if n == 1 {
				return id, true
			}
			n++
		}
	}
	return ir.NoReg, false
}

// writtenIn reports whether an instruction inside lp (or a loop nested in
// it) writes reg: a call that may write it counts.
func writtenIn(fn *ir.Func, reg ir.RegID, lp *ir.Loop) bool {
	for _, in := range fn.Instrs {
		if !inside(fn, in.Loop, lp.ID) {
			continue
		}
		for _, d := range in.Defs {
			if d == reg {
				return true
			}
		}
	}
	return false
}

// inside reports whether loop l is outer or nested in it.
func inside(fn *ir.Func, l, outer ir.LoopID) bool {
	for l != ir.NoLoop {
		if l == outer {
			return true
		}
		l = fn.Loops[l].Parent
	}
	return false
}

// builds reports whether instantiation b of fn compiles the Div in: its
// loop's body as b builds it holds it (an if constexpr branch b does not
// take, a constant condition that folds false, holds nothing).
func builds(fn *ir.Func, b ir.Bindings, in *ir.Instr) bool {
	lp := fn.Loops[in.Loop]
	for _, x := range simcheck.BodyOfInstance(fn, b, b.Loop(lp), nil).Insts {
		if x.Instr == in {
			return true
		}
	}
	return false
}
