// Package asc4001 defines an Analyzer that reports loops whose body holds a
// dependency chain too long for the issue window: the next iteration cannot
// enter the window, so iterations do not overlap and the two issue slots
// stay mostly empty (seed 002: more than 64 dependent instructions).
package asc4001

import (
	"fmt"

	"golang.org/x/tools/go/analysis"

	"github.com/ascvet/ascvet/analyzers/cppir"
	"github.com/ascvet/ascvet/analyzers/regpressure"
	"github.com/ascvet/ascvet/analyzers/simcost"
	"github.com/ascvet/ascvet/cppfront/ir"
	"github.com/ascvet/ascvet/ruleset"
)

// Rule is ASC4001 long-dependency-chain.
var Rule = ruleset.Define(&ruleset.Rule{
	ID:    "ASC4001",
	Name:  "long-dependency-chain",
	Title: "loop body's dependency chain is longer than the issue window",
	Text: "The VF issues two compute instructions a cycle, chosen out of order from a queue of 64 (the dual-issue guide: " +
		"\"执行队列的深度是64\"), each instruction in it holding one of the 68 physical registers for its result. When one iteration is a chain of more dependent instructions than the window holds, " +
		"the next iteration cannot enter the window until this one drains, so iterations never overlap and the loop " +
		"runs at about one instruction per cycle. Split the VF loop (write intermediates to UB and continue in a second " +
		"loop) or unroll it by hand with the copies interleaved, so that independent chains share the window. The " +
		"message gives the chain length, the simulated IPC, and the simulated effect of the largest unroll (4x, else 2x) " +
		"whose copies fit the register budgets, or says that none does. A chain that is the library's sequence for a 64-bit " +
		"integer Div is not reported: ASC5002 reports the Div, whose remedy is not a split. The loop is the one the compiler builds: helpers " +
		"of the file inlined, if constexpr folded for each instantiation the file makes; a loop whose trip count does not " +
		"fold is priced at its steady state. " +
		"\n\nSource: the Ascend C best practice \"Instruction Dual-Issue\" (指令双发优化), whose manual unroll example the examples adapt; the asc-devkit example gelu_eltwise_high_performance splits its loop for the same reason." +
		" https://www.hiascend.com/document/detail/en/CANNCommunityEdition/900/programug/Ascendcopdevg/atlas_ascendc_best_practices_10_00024.html" +
		" https://gitcode.com/cann/asc-devkit/blob/master/docs/zh/guide/算子实践参考/SIMD算子性能优化/矢量计算/VF性能优化/指令双发优化.md" +
		" https://gitcode.com/cann/asc-devkit/blob/master/examples/01_simd_cpp_api/05_best_practices/02_reg_compute/gelu_eltwise_high_performance/README.md",
	Before: `for (uint16_t i = 0; i < 32; ++i) {
    // iterations are independent, but one holds more than 64 dependent
    // instructions: i = 1 cannot enter the execution queue before i = 0 drains
    AscendC::Reg::LoadAlign(srcReg, srcAddr + i * oneRepeatSize);
    AscendC::Reg::Adds(dstReg0, srcReg, 10, mask);
    AscendC::Reg::Muls(dstReg1, dstReg0, 20, mask);
    // ... more than 64 dependent instructions
    AscendC::Reg::StoreAlign(dstAddr + i * oneRepeatSize, dstReg1, mask);
}`,
	After: `for (uint16_t i = 0; i < 8; ++i) {  // 32 iterations unrolled 4x
    AscendC::Reg::LoadAlign(srcReg0, srcAddr + (4 * i) * oneRepeatSize);
    AscendC::Reg::LoadAlign(srcReg1, srcAddr + (4 * i + 1) * oneRepeatSize);
    AscendC::Reg::LoadAlign(srcReg2, srcAddr + (4 * i + 2) * oneRepeatSize);
    AscendC::Reg::LoadAlign(srcReg3, srcAddr + (4 * i + 3) * oneRepeatSize);
    AscendC::Reg::Adds(dstReg00, srcReg0, 10, mask);
    AscendC::Reg::Adds(dstReg01, srcReg1, 10, mask);
    AscendC::Reg::Adds(dstReg02, srcReg2, 10, mask);
    AscendC::Reg::Adds(dstReg03, srcReg3, 10, mask);
    AscendC::Reg::Muls(dstReg10, dstReg00, 20, mask);
    // ... the Muls of the other three copies, and so on: four chains, interleaved
    AscendC::Reg::StoreAlign(dstAddr + (4 * i) * oneRepeatSize, dstReg10, mask);
    // ... and the other three stores
}`,
	Severity:  ruleset.Warning,
	Since:     "0.1.0",
	Tags:      []string{"performance", "scheduling", "dual-issue"},
	Precision: "medium",
	Options:   []ruleset.Option{ruleset.OptionChip, ruleset.OptionMachine, ruleset.OptionIterations},
}, &analysis.Analyzer{
	Requires:         []*analysis.Analyzer{cppir.Analyzer, simcost.Analyzer, regpressure.Analyzer},
	RunDespiteErrors: true,
	Run:              run,
})

// Analyzer is the analyzer of Rule.
var Analyzer = Rule.Analyzer

func run(pass *analysis.Pass) (any, error) {
	pkg := pass.ResultOf[cppir.Analyzer].(*ir.Package)
	md := pass.ResultOf[simcost.Analyzer].(*simcost.Model)
	pressure := pass.ResultOf[regpressure.Analyzer].(*regpressure.Result)
	md.Prefetch(pkg)
	for _, f := range pkg.Files {
		for _, fn := range f.Funcs {
			if !fn.Kind.Analysed() {
				continue
			}
			for _, lp := range fn.Loops {
				if lp.AtMostOnce || !simcost.Innermost(fn, lp) {
					continue
				}
				// A loop that runs a 64-bit Div's sequence has no chain in
				// its Stats: ASC5002 reports the Div, whose remedy is not a split.
				all := md.Stats(fn, lp)
				var hit []simcost.LoopStats
				for _, st := range all {
					// A chain longer than the window matters when it starves the
					// issue slots; interleaved copies of one (a hand unroll) do not.
					if st.Chain > md.M.Window && st.Cycles > 0 && st.IPC < simcost.LowIPC {
						hit = append(hit, st)
					}
				}
				if len(hit) == 0 {
					continue
				}
				st := hit[0]
				st.Instances = nil // the instantiations of every hit, in a slice of the finding's own
				for _, h := range hit {
					st.Instances = append(st.Instances, h.Instances...)
				}
				msg := fmt.Sprintf("loop body holds a chain of %d dependent instructions, more than the %d-instruction issue window: iterations cannot overlap (simulated IPC %.2f); split the VF loop (intermediates through UB) or unroll it by hand",
					st.Chain, md.M.Window, st.IPC)
				d := analysis.Diagnostic{Pos: lp.Pos, End: lp.Pos, Message: msg}
				// The unroll offered is the largest that fits the register
				// budgets: each copy needs its own registers.
				offered := false
				for _, k := range []int{4, 2} {
					if u := st.Unrolled[k]; u > 0 && u < st.Cycles && st.Fits(pressure.Regions[fn], pressure.Budget, k) {
						c := simcost.Cost{Before: st.Cycles, After: u, Iterations: st.Iterations, Opaque: st.Body.Opaque, Assumed: st.Body.Assumed}
						d.Message += fmt.Sprintf(" (%dx, copies interleaved: %s)", k, c.Phrase())
						simcost.Attach(&d, c)
						offered = true
						break
					}
				}
				if !offered && (st.Unrolled[2] > 0 || st.Unrolled[4] > 0) {
					d.Message += " (no 2x or 4x unroll fits the register budgets: split it)"
				}
				d.Message += st.InstancesNote(len(fn.Instantiations()))
				pass.Report(d)
			}
		}
	}
	return nil, nil
}
