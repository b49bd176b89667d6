// Package asc1001 defines an Analyzer that reports LoadUnAlignPre calls that
// re-initialise an unaligned load stream inside a loop although the stream is
// contiguous: the unaligned register already holds the next partial block
// after each LoadUnAlign, so one Pre before the loop is enough.
package asc1001

import (
	"golang.org/x/tools/go/analysis"

	"github.com/ascvet/ascvet/analyzers/cppir"
	"github.com/ascvet/ascvet/analyzers/internal/stream"
	"github.com/ascvet/ascvet/analyzers/settings"
	"github.com/ascvet/ascvet/analyzers/simcost"
	"github.com/ascvet/ascvet/ruleset"
)

// Rule is ASC1001 unalign-pre-in-loop.
var Rule = ruleset.Define(&ruleset.Rule{
	ID:    "ASC1001",
	Name:  "unalign-pre-in-loop",
	Title: "unaligned load stream re-initialised every iteration",
	Text: "LoadUnAlignPre primes an unaligned register with the 32-byte block at the start of a stream; each LoadUnAlign " +
		"then leaves the next partial block in the register. When the loads of iteration i+1 start exactly where " +
		"those of iteration i ended, the Pre inside the loop only repeats work: one more load-port instruction per " +
		"iteration and a serialising dependency on the register. Prime once, before the loop. " +
		"The rule decides contiguity from the address expressions and constant folding: a post-update pointer advanced " +
		"by one vector length, or src + i * n where n is what one iteration loads. Padded rows, pointers reset each " +
		"iteration, registers shared by two streams, data rewritten in the loop and loops that run at most once are " +
		"not reported; streams whose addresses do not fold are reported only with -confidence=low. " +
		"The fix (hoist the Pre, priming at the first iteration's address) is offered only when a byte-exact replay " +
		"of the loop on a model of UB and of the unaligned registers shows that it loads the same data in every case " +
		"tried; otherwise the finding says why there is no automatic fix. " +
		"A second Pre in the same iteration that re-primes the register exactly where the load before it ended, with " +
		"nothing between them that may write memory (a store, a call whose body is not seen, or any statement that is no VF instruction), is reported too, when a " +
		"replay of the loop without it loads the same data in every case tried: it is redundant, delete it. That finding has no " +
		"automatic fix: the fixes checked on their text move a call, they do not delete one. " +
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
	Run:              stream.Hoist.Run,
})

// Analyzer is the analyzer of Rule.
var Analyzer = Rule.Analyzer
