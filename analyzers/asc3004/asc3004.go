// Package asc3004 defines an Analyzer that reports MaskNot applied to the
// result of MaskAnd or MaskOr: !(a && b) keeps an extra MaskReg for the
// intermediate and spends an instruction on it; !a || !b, computed by
// inverting the compares that produce a and b, does not.
package asc3004

import (
	"fmt"

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
		"and the MaskNot disappear, which matters when a VF is close to its 8 MaskReg (seed 002, the dual-issue best practice; the examples adapt its CompareDoubleImpl counter-example (反例) and correct example (正例)).",
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
				law := "!(a && b) as !a || !b"
				if d.Op == ir.OpMaskOr {
					law = "!(a || b) as !a && !b"
				}
				diag := analysis.Diagnostic{
					Pos: not.Pos, End: not.End,
					Message: fmt.Sprintf("MaskNot negates the %s result in %s, which costs an extra MaskReg and instruction; compute %s by inverting the compares (De Morgan)",
						d.Op, fn.Regs[src].Name, law),
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
