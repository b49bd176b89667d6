// Package asc3004 defines an Analyzer that reports MaskNot applied to the
// result of MaskAnd or MaskOr: !(a && b) keeps an extra MaskReg for the
// intermediate and spends an instruction on it; !a || !b, computed by
// inverting the compares that produce a and b, does not.
package asc3004

import (
	"fmt"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/ascvet/ascvet/analyzers/cppir"
	"github.com/ascvet/ascvet/analyzers/internal/defs"
	"github.com/ascvet/ascvet/analyzers/simcost"
	"github.com/ascvet/ascvet/cppfront/ir"
	"github.com/ascvet/ascvet/ruleset"
)

// Rule is ASC3004 mask-demorgan.
var Rule = ruleset.Define(&ruleset.Rule{
	ID:    "ASC3004",
	Name:  "mask-demorgan",
	Title: "MaskNot of a MaskAnd or MaskOr result",
	Text: "Negating the conjunction of two masks, !(a && b), needs a MaskReg for the intermediate a && b and a MaskNot " +
		"after the MaskAnd. By De Morgan's law it equals !a || !b: invert the compares that produce a and b (GT becomes " +
		"LE, EQ becomes NE, ...) and join them with MaskOr; likewise !(a || b) is !a && !b. The intermediate register " +
		"and the MaskNot disappear, which matters when a VF is close to its 8 MaskReg. The rule reports only what the " +
		"rewrite really saves: the And/Or result serves the MaskNot alone, and each operand is a compare (or an And/Or " +
		"of compares, inverted in turn) whose result serves the And/Or alone, so that inverting it changes nothing else. " +
		"Integer compares and EQ/NE invert exactly; ordered compares of floating-point data do not where an element is " +
		"NaN (NaN > x and NaN <= x are both false), and the finding says so: rewrite them only when the data holds no " +
		"NaN." +
		"\n\nSource: the Ascend C best practice \"Instruction Dual-Issue\" (指令双发优化); the examples adapt its CompareDoubleImpl counter-example (反例) and correct example (正例)." +
		" https://www.hiascend.com/document/detail/en/CANNCommunityEdition/900/programug/Ascendcopdevg/atlas_ascendc_best_practices_10_00024.html" +
		" https://gitcode.com/cann/asc-devkit/blob/master/docs/zh/guide/算子实践参考/SIMD算子性能优化/矢量计算/VF性能优化/指令双发优化.md",
	Before: `AscendC::Reg::RegTensor<uint64_t> exponent0, exponent1, mantissa0, mantissa1;
AscendC::Reg::MaskReg mask = AscendC::Reg::CreateMask<uint64_t>();
AscendC::Reg::MaskReg dstMask, tmpMask0, tmpMask1, noNaNMask;
AscendC::Reg::Compares(tmpMask0, exponent0, 0x7ff, mask);
AscendC::Reg::Compares(dstMask, exponent1, 0x7ff, tmpMask0);
AscendC::Reg::Compares<uint64_t, CMPMODE::NE>(tmpMask1, mantissa0, 0, mask);
AscendC::Reg::Compares<uint64_t, CMPMODE::NE>(tmpMask0, mantissa1, 0, mask);
AscendC::Reg::MaskOr(tmpMask0, tmpMask1, tmpMask0, mask);
// !(a && b) needs one more MaskReg, noNaNMask, for a && b
AscendC::Reg::MaskAnd(noNaNMask, dstMask, tmpMask0, mask);
AscendC::Reg::MaskNot(noNaNMask, noNaNMask, mask);
AscendC::Reg::StoreAlign(dst64, noNaNMask);`,
	After: `AscendC::Reg::RegTensor<uint64_t> exponent0, exponent1, mantissa0, mantissa1;
AscendC::Reg::MaskReg mask = AscendC::Reg::CreateMask<uint64_t>();
AscendC::Reg::MaskReg dstMask, tmpMask0, tmpMask1;
AscendC::Reg::Compares(tmpMask0, exponent0, 0x7ff, mask);
AscendC::Reg::Compares(dstMask, exponent1, 0x7ff, tmpMask0);
AscendC::Reg::MaskNot(dstMask, dstMask, mask);                                    // !a
AscendC::Reg::Compares<uint64_t, CMPMODE::EQ>(tmpMask1, mantissa0, 0, mask);
AscendC::Reg::Compares<uint64_t, CMPMODE::EQ>(tmpMask0, mantissa1, 0, tmpMask1);  // !b
AscendC::Reg::MaskOr(tmpMask0, tmpMask0, dstMask, mask);                          // !a || !b
AscendC::Reg::StoreAlign(dst64, tmpMask0);`,
	Severity:  ruleset.Info,
	Since:     "0.1.0",
	Tags:      []string{"performance", "masks", "registers"},
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
	for _, f := range pkg.Files {
		for _, fn := range f.Funcs {
			if !fn.Kind.Analysed() {
				continue
			}
			var x *defs.Index
			for _, not := range fn.Instrs {
				if not.Op != ir.OpMaskNot || len(not.Args) < 2 || not.Args[1].Reg == ir.NoReg {
					continue
				}
				if x == nil {
					x = defs.New(fn)
				}
				src := not.Args[1].Reg
				d := x.Reaching(not, src)
				if d == nil || (d.Op != ir.OpMaskAnd && d.Op != ir.OpMaskOr) {
					continue
				}
				// The rewrite pays only when the And/Or result serves the Not
				// alone, and each operand is a compare whose result serves
				// the And/Or alone: inverting it then changes nothing else.
				if len(d.Args) < 3 || otherUse(fn, x, d, not, src) {
					continue
				}
				cmps, ok := invertible(fn, x, d, 0)
				if !ok {
					continue
				}
				law := "!(a && b) as !a || !b"
				if d.Op == ir.OpMaskOr {
					law = "!(a || b) as !a && !b"
				}
				caveat := ""
				for _, c := range cmps {
					if mode := cmpMode(c); floatElem(c.Elem) && mode != "EQ" && mode != "NE" {
						caveat = fmt.Sprintf(" (the compares are on %s: inverting %s into %s differs where an element is NaN, where both are false; rewrite only if the data holds no NaN)",
							c.Elem, mode, inverse[mode])
						break
					}
				}
				diag := analysis.Diagnostic{
					Pos: not.Pos, End: not.End,
					Message: fmt.Sprintf("MaskNot negates the %s result in %s, which costs an extra MaskReg and instruction; compute %s by inverting the compares (De Morgan)%s",
						d.Op, fn.Regs[src].Name, law, caveat),
					Related: []analysis.RelatedInformation{{Pos: d.Pos, End: d.End, Message: d.Op.String() + " computes the value negated here"}},
				}
				if md, ok := pass.ResultOf[simcost.Analyzer].(*simcost.Model); ok {
					cost := md.At(fn, not, func(in *ir.Instr) bool { return in == not })
					diag.Message += ": " + cost.Phrase()
					simcost.Attach(&diag, cost)
				}
				pass.Report(diag)
			}
		}
	}
	return nil, nil
}

// invertible returns the compares under d, a MaskAnd or MaskOr, when each
// operand is a compare, or a MaskAnd or MaskOr of such operands (De Morgan
// applies again: !(a && (b || c)) is !a || (!b && !c)), whose result serves
// d alone, so that inverting it in place changes nothing else.
func invertible(fn *ir.Func, x *defs.Index, d *ir.Instr, depth int) ([]*ir.Instr, bool) {
	if len(d.Args) < 3 || depth > 3 {
		return nil, false
	}
	var cmps []*ir.Instr
	for _, a := range d.Args[1:3] {
		if a.Reg == ir.NoReg {
			return nil, false
		}
		c := x.Reaching(d, a.Reg)
		if c == nil || otherUse(fn, x, c, d, a.Reg) {
			return nil, false
		}
		switch c.Op {
		case ir.OpCompare, ir.OpCompares:
			cmps = append(cmps, c)
		case ir.OpMaskAnd, ir.OpMaskOr:
			sub, ok := invertible(fn, x, c, depth+1)
			if !ok {
				return nil, false
			}
			cmps = append(cmps, sub...)
		default:
			return nil, false
		}
	}
	return cmps, true
}

// otherUse reports whether r, as def writes it, is read by an instruction
// other than user: in def's block while def's value reaches it, or outside
// it after def (or in a loop around both), unless user overwrites r first.
func otherUse(fn *ir.Func, x *defs.Index, def, user *ir.Instr, r ir.RegID) bool {
	for _, u := range fn.Instrs {
		if u == user || u == def || !slices.Contains(u.Uses, r) {
			continue
		}
		if x.SameBlock(u, def) {
			if x.Reaching(u, r) == def {
				return true
			}
			continue
		}
		if u.ID < def.ID && !fn.SharedLoop(u.Loop, def.Loop) {
			continue
		}
		if slices.Contains(user.Defs, r) && x.SameBlock(def, user) && u.ID > user.ID {
			continue // it reads what user wrote
		}
		return true
	}
	return false
}

// cmpMode returns the compare mode of c ("GT"), EQ when none is written.
func cmpMode(c *ir.Instr) string {
	for _, t := range c.TArgs {
		if k := strings.LastIndex(t, "CMPMODE::"); k >= 0 {
			return t[k+len("CMPMODE::"):]
		}
	}
	return "EQ"
}

// inverse is the compare mode that is the negation of each, for ordered data.
var inverse = map[string]string{"GT": "LE", "LE": "GT", "GE": "LT", "LT": "GE", "EQ": "NE", "NE": "EQ"}

// floatElem reports whether elem is a floating-point type, whose ordered
// compares are not each other's negation when an element is NaN.
func floatElem(elem string) bool {
	switch elem {
	case "float", "half", "bfloat16_t", "float16_t", "float32_t", "double", "hifloat8_t", "fp8_e4m3fn_t", "fp8_e5m2_t":
		return true
	}
	return false
}
