// Package asc3005 defines an Analyzer that reports MaskAnd joining two
// compares made under the same predicate: passing the first compare's
// result as the predicate of the second computes the same mask with one
// instruction and one MaskReg fewer.
package asc3005

import (
	"fmt"

	"golang.org/x/tools/go/analysis"

	"github.com/ascvet/ascvet/analyzers/cppir"
	"github.com/ascvet/ascvet/analyzers/internal/defs"
	"github.com/ascvet/ascvet/analyzers/simcost"
	"github.com/ascvet/ascvet/cppfront/ir"
	"github.com/ascvet/ascvet/regalloc"
	"github.com/ascvet/ascvet/ruleset"
)

// Rule is ASC3005 mask-and-after-compare.
var Rule = ruleset.Define(&ruleset.Rule{
	ID:    "ASC3005",
	Name:  "mask-and-after-compare",
	Title: "MaskAnd of two compares that could chain",
	Text: "A compare writes zero in the lanes its predicate leaves inactive, so Compares(m2, y, s, m1) computes " +
		"m1 && (y cmp s) directly. Two compares under the same predicate followed by MaskAnd(d, m1, m2, mask) spend a " +
		"MaskAnd and keep m2 alive for it; chaining the compares gives the same mask with one instruction and one " +
		"MaskReg fewer. The rule fires only when the second compare's result is used by nothing but the MaskAnd. " +
		"\n\nSource: the CompareDoubleImpl example of the Ascend C best practice \"Instruction Dual-Issue\" (指令双发优化); its correct example (正例) goes on with tmpMask0 where the chained result is in tmpMask1, which the example below corrects." +
		" https://www.hiascend.com/document/detail/en/CANNCommunityEdition/900/programug/Ascendcopdevg/atlas_ascendc_best_practices_10_00024.html" +
		" https://gitcode.com/cann/asc-devkit/blob/master/docs/zh/guide/算子实践参考/SIMD算子性能优化/矢量计算/VF性能优化/指令双发优化.md",
	Before: `AscendC::Reg::RegTensor<uint64_t> unsignedPart0, unsignedPart1;
AscendC::Reg::MaskReg mask = AscendC::Reg::CreateMask<uint64_t>();
AscendC::Reg::MaskReg dstMask, tmpMask0;
AscendC::Reg::Compares<uint64_t, CMPMODE::EQ>(tmpMask0, unsignedPart0, 0, mask);
AscendC::Reg::Compares<uint64_t, CMPMODE::EQ>(dstMask, unsignedPart1, 0, mask);
AscendC::Reg::MaskAnd(tmpMask0, tmpMask0, dstMask, mask);
AscendC::Reg::StoreAlign(dst64, tmpMask0);`,
	After: `AscendC::Reg::RegTensor<uint64_t> unsignedPart0, unsignedPart1;
AscendC::Reg::MaskReg mask = AscendC::Reg::CreateMask<uint64_t>();
AscendC::Reg::MaskReg tmpMask0, tmpMask1;
AscendC::Reg::Compares<uint64_t, CMPMODE::EQ>(tmpMask0, unsignedPart0, 0, mask);
// predicated by tmpMask0: tmpMask1 = tmpMask0 && (unsignedPart1 == 0)
AscendC::Reg::Compares<uint64_t, CMPMODE::EQ>(tmpMask1, unsignedPart1, 0, tmpMask0);
AscendC::Reg::StoreAlign(dst64, tmpMask1);`,
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

func isCompare(in *ir.Instr) bool {
	return in != nil && (in.Op == ir.OpCompare || in.Op == ir.OpCompares)
}

// predicate returns the governing mask register of an instruction.
func predicate(in *ir.Instr) ir.RegID {
	for _, a := range in.Args {
		if a.Role == ir.ArgMask && a.Reg != ir.NoReg {
			return a.Reg
		}
	}
	return ir.NoReg
}

func run(pass *analysis.Pass) (any, error) {
	pkg := pass.ResultOf[cppir.Analyzer].(*ir.Package)
	for _, f := range pkg.Files {
		for _, fn := range f.Funcs {
			if fn.Kind.Analysed() {
				check(pass, fn)
			}
		}
	}
	return nil, nil
}

func check(pass *analysis.Pass, fn *ir.Func) {
	var x *defs.Index
	var live *regalloc.Live
	for _, and := range fn.Instrs {
		if and.Op != ir.OpMaskAnd || len(and.Args) < 4 {
			continue
		}
		m1, m2, pred, dst := and.Args[1].Reg, and.Args[2].Reg, predicate(and), and.Args[0].Reg
		if m1 == ir.NoReg || m2 == ir.NoReg || pred == ir.NoReg || m1 == m2 {
			continue
		}
		if x == nil {
			x, live = defs.New(fn), regalloc.Liveness(fn)
		}
		c1, c2 := x.Reaching(and, m1), x.Reaching(and, m2)
		if !isCompare(c1) || !isCompare(c2) || predicate(c1) != pred || predicate(c2) != pred {
			continue
		}
		first, second, mf, ms := c1, c2, m1, m2
		if c2.ID < c1.ID {
			first, second, mf, ms = c2, c1, m2, m1
		}
		// The second compare's result must serve only the MaskAnd, and the
		// first's and the predicate must be unchanged where the second runs.
		if x.Between(second, and, ms) || (live.Out(and, ms) && ms != dst) {
			continue
		}
		if x.WrittenBetween(first, second, mf) || x.WrittenBetween(first, and, pred) {
			continue
		}
		line := pass.Fset.Position(second.Pos).Line
		diag := analysis.Diagnostic{
			Pos: and.Pos, End: and.End,
			Message: fmt.Sprintf("MaskAnd joins two compares made under %s; pass %s as the predicate of the compare on line %d and drop the MaskAnd: one instruction and one MaskReg fewer",
				fn.Regs[pred].Name, fn.Regs[mf].Name, line),
			Related: []analysis.RelatedInformation{
				{Pos: first.Pos, End: first.End, Message: "first compare: its result becomes the predicate"},
				{Pos: second.Pos, End: second.End, Message: "second compare: predicate it with " + fn.Regs[mf].Name},
			},
		}
		if md, ok := pass.ResultOf[simcost.Analyzer].(*simcost.Model); ok {
			cost := md.At(fn, and, func(in *ir.Instr) bool { return in == and })
			diag.Message += ": " + cost.Phrase()
			simcost.Attach(&diag, cost)
		}
		pass.Report(diag)
	}
}
