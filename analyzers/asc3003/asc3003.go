// Package asc3003 defines an Analyzer that reports VF regions keeping more
// than 4 load or 4 store unaligned registers live at once, which the
// compiler rejects.
package asc3003

import (
	"golang.org/x/tools/go/analysis"

	"github.com/ascvet/ascvet/analyzers/regpressure"
	"github.com/ascvet/ascvet/regalloc"
	"github.com/ascvet/ascvet/ruleset"
)

// Rule is ASC3003 ureg-pressure.
var Rule = ruleset.Define(&ruleset.Rule{
	ID:    "ASC3003",
	Name:  "ureg-pressure",
	Title: "more unaligned registers live at once than the chip has",
	Text: "A VF has 4 UnalignRegForLoad and 4 UnalignRegForStore registers, and unlike RegTensor and MaskReg they " +
		"are not spilled: above 4 live at once the compiler refuses the VF. An unaligned register is live for the whole " +
		"stream it serves (from LoadUnAlignPre to the last LoadUnAlign, from the first StoreUnAlign to StoreUnAlignPost), " +
		"and a generic Load or Store holds a hidden one while it runs. Reuse a register for streams that do not overlap, " +
		"or split the VF. " +
		"\n\nSource: the Ascend C best practice \"Instruction Dual-Issue\" (指令双发优化): at most 4 UnalignRegForLoad and 4 UnalignRegForStore per VF." +
		" https://www.hiascend.com/document/detail/en/CANNCommunityEdition/900/programug/Ascendcopdevg/atlas_ascendc_best_practices_10_00024.html" +
		" https://gitcode.com/cann/asc-devkit/blob/master/docs/zh/guide/算子实践参考/SIMD算子性能优化/矢量计算/VF性能优化/指令双发优化.md",
	Before: `AscendC::Reg::UnalignRegForLoad u0, u1, u2, u3, u4;  // five input streams
AscendC::Reg::LoadUnAlignPre(u0, src0);
// ... and u1 to u4 on src1 to src4
for (uint16_t i = 0; i < repeatTimes; ++i) {
    AscendC::Reg::LoadUnAlign(x0, u0, src0, postUpdateStride);
    // ... and x1 to x4 from u1 to u4: 5 UnalignRegForLoad live, the VF has 4
}`,
	After: `// four streams in this VF; the fifth in a second loop, reusing u0
AscendC::Reg::UnalignRegForLoad u0, u1, u2, u3;
// ... the first loop on u0 to u3, then:
AscendC::Reg::LoadUnAlignPre(u0, src4);
for (uint16_t i = 0; i < repeatTimes; ++i) {
    AscendC::Reg::LoadUnAlign(x4, u0, src4, postUpdateStride);
}`,
	Severity:  ruleset.Error,
	Since:     "0.1.0",
	Tags:      []string{"correctness", "registers", "unaligned"},
	Precision: "high",
	Options:   []ruleset.Option{ruleset.OptionBudgetULoad, ruleset.OptionBudgetUStore},
}, &analysis.Analyzer{
	Requires:         []*analysis.Analyzer{regpressure.Analyzer},
	RunDespiteErrors: true,
	Run:              run,
})

// Analyzer is the analyzer of Rule.
var Analyzer = Rule.Analyzer

func run(pass *analysis.Pass) (any, error) {
	res := pass.ResultOf[regpressure.Analyzer].(*regpressure.Result)
	regpressure.Over(pass, res, regalloc.ULoad, "the compiler rejects the VF; reuse a register for streams that do not overlap, or split the VF", nil)
	regpressure.Over(pass, res, regalloc.UStore, "the compiler rejects the VF; reuse a register for streams that do not overlap, or split the VF", nil)
	return nil, nil
}
