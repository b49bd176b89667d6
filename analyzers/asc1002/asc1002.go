// Package asc1002 defines an Analyzer that reports StoreUnAlignPost calls
// that flush an unaligned store stream inside a loop although the stream is
// contiguous: the unaligned register carries the partial block into the
// next StoreUnAlign, so one Post after the loop is enough.
package asc1002

import (
	"golang.org/x/tools/go/analysis"

	"github.com/ascvet/ascvet/analyzers/cppir"
	"github.com/ascvet/ascvet/analyzers/internal/stream"
	"github.com/ascvet/ascvet/analyzers/settings"
	"github.com/ascvet/ascvet/analyzers/simcost"
	"github.com/ascvet/ascvet/ruleset"
)

// Rule is ASC1002 unalign-post-in-loop.
var Rule = ruleset.Define(&ruleset.Rule{
	ID:    "ASC1002",
	Name:  "unalign-post-in-loop",
	Title: "unaligned store stream flushed every iteration",
	Text: "StoreUnAlign writes everything up to the last 32-byte boundary and keeps the tail in the unaligned register; " +
		"the next StoreUnAlign merges it. StoreUnAlignPost writes the tail out and is needed once, when the stream ends. " +
		"Inside the loop of a contiguous stream (a post-update pointer that nothing else moves) it costs one single-issue " +
		"store-port instruction per iteration. Flush once, after the loop. Flushes through a raw builtin (vstas), " +
		"inside a helper function, under an if, or at another address than the stream's pointer are not reported. " +
		"The fix (sink the Post) is offered only when a byte-exact replay of the loop on a model of UB and of the " +
		"unaligned registers shows that it writes the same bytes and the loop loads the same data in every case " +
		"tried; otherwise the finding says why there is no automatic fix. " +
		"\n\nSource: the Ascend C best practice \"Optimization in Contiguous Unaligned Scenarios\" (连续非对齐场景优化); the examples are its counter-example (反例) and correct example (正例)." +
		" https://www.hiascend.com/document/detail/en/CANNCommunityEdition/900/programug/Ascendcopdevg/atlas_ascendc_best_practices_10_00025.html" +
		" https://gitcode.com/cann/asc-devkit/blob/master/docs/zh/guide/算子实践参考/SIMD算子性能优化/矢量计算/VF性能优化/连续非对齐场景优化.md",
	Before: `AscendC::Reg::RegTensor<float> srcReg;
AscendC::Reg::UnalignRegForLoad ureg0;
AscendC::Reg::UnalignRegForStore ureg1;
constexpr uint32_t postUpdateStride = AscendC::VECTOR_REG_WIDTH / sizeof(float);
for (uint16_t i = 0; i < repeatTimes; ++i) {
    AscendC::Reg::LoadUnAlignPre(ureg0, srcAddr + i * postUpdateStride);
    AscendC::Reg::LoadUnAlign(srcReg, ureg0, srcAddr + i * postUpdateStride);
    AscendC::Reg::StoreUnAlign(dstAddr, srcReg, ureg1, postUpdateStride);
    AscendC::Reg::StoreUnAlignPost(dstAddr, ureg1, 0);
}`,
	After: `AscendC::Reg::RegTensor<float> srcReg;
AscendC::Reg::UnalignRegForLoad ureg0;
AscendC::Reg::UnalignRegForStore ureg1;
constexpr uint32_t postUpdateStride = AscendC::VECTOR_REG_WIDTH / sizeof(float);
// initialise the load stream once, before the loop
AscendC::Reg::LoadUnAlignPre(ureg0, srcAddr);
for (uint16_t i = 0; i < repeatTimes; ++i) {
    AscendC::Reg::LoadUnAlign(srcReg, ureg0, srcAddr + i * postUpdateStride);
    AscendC::Reg::StoreUnAlign(dstAddr, srcReg, ureg1, postUpdateStride);
}
// flush the store stream once, after the loop
AscendC::Reg::StoreUnAlignPost(dstAddr, ureg1, 0);`,
	Severity:  ruleset.Warning,
	Since:     "0.1.0",
	Tags:      []string{"performance", "unaligned", "best-practice"},
	Precision: "high",
	Options:   []ruleset.Option{ruleset.OptionConfidence, ruleset.OptionChip, ruleset.OptionMachine, ruleset.OptionIterations},
}, &analysis.Analyzer{
	Requires:         []*analysis.Analyzer{cppir.Analyzer, simcost.Analyzer, settings.Analyzer, stream.Fixes},
	RunDespiteErrors: true,
	Run:              stream.SinkChecked.Run,
})

// Analyzer is the analyzer of Rule.
var Analyzer = Rule.Analyzer
