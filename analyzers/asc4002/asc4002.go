// Package asc4002 defines an Analyzer that reports loops whose simulated
// IPC is low and that a 2x or 4x unroll, also simulated, would make at
// least 15% faster.
package asc4002

import (
	"fmt"

	"golang.org/x/tools/go/analysis"

	"github.com/ascvet/ascvet/analyzers/cppir"
	"github.com/ascvet/ascvet/analyzers/regpressure"
	"github.com/ascvet/ascvet/analyzers/simcost"
	"github.com/ascvet/ascvet/cppfront/ir"
	"github.com/ascvet/ascvet/regalloc"
	"github.com/ascvet/ascvet/ruleset"
	"github.com/ascvet/ascvet/simcheck"
)

// Rule is ASC4002 low-ilp-loop.
var Rule = ruleset.Define(&ruleset.Rule{
	ID:    "ASC4002",
	Name:  "low-ilp-loop",
	Title: "loop with low instruction-level parallelism that unrolling would speed up",
	Text: "Two instructions can issue per cycle, but only if the window holds enough independent work. A loop whose " +
		"iterations are short dependent chains through the same registers leaves issue slots empty. ascvet simulates the " +
		"loop as the compiler builds it (helpers of the file inlined, if constexpr folded for each instantiation the file " +
		"makes; a loop whose trip count does not fold at its steady state, without the VF start and the pipeline's fill " +
		"and drain) and unrolled 2x and 4x with the copies interleaved (registers carried between iterations keep " +
		"their chain); when one of them saves at least 15% of the loop's cycles, this rule says so, with the estimate. " +
		"An unroll is suggested only when it fits the register budgets: each further copy needs its own registers for " +
		"what the body writes and keeps live, so a body with 17 live RegTensor cannot be unrolled 2x within 32 (the " +
		"spills would cost more than the overlap gains); the MaskReg budget is checked the same way. A loop that waits " +
		"on a barrier (LocalMemBar, WaitFlag, PipeBarrier) round-trips through UB each iteration, and its copies would " +
		"wait on each other: it is not reported. Neither is a loop that divides integers: on 64-bit integers the 950 runs the " +
		"library's sequence, which ASC5002 reports, and a 32-bit integer Div is priced as one instruction, which may not be " +
		"what the hardware does; a Div on a template parameter is timed as a float Div and " +
		"the message says so. Nor is a loop that calls a helper whose body ascvet does not see: timed as one instruction " +
		"that reads and writes every register passed, it would make the loop look serial when it is not. " +
		"Unroll with #pragma unroll(N) before the loop: the compiler copies the innermost loop's body N times and " +
		"interleaves the copies instruction by instruction, as the estimate does (asc-devkit's GeLU best practice " +
		"measures it); unroll by hand a loop that is not innermost, or where the pragma is refused. Unasked, the " +
		"compiler does not unroll a VF loop. " +
		"\n\nSource: the Ascend C best practice \"Instruction Dual-Issue\" (指令双发优化)." +
		" https://www.hiascend.com/document/detail/en/CANNCommunityEdition/900/programug/Ascendcopdevg/atlas_ascendc_best_practices_10_00024.html" +
		" https://gitcode.com/cann/asc-devkit/blob/master/docs/zh/guide/算子实践参考/SIMD算子性能优化/矢量计算/VF性能优化/指令双发优化.md",
	Before: `for (uint16_t i = 0; i < repeatTimes; ++i) {
    // one chain per iteration, each instruction waiting for the one before
    AscendC::Reg::LoadAlign(srcReg, srcAddr + i * oneRepeatSize);
    AscendC::Reg::Muls(dstReg, srcReg, 2.0f, mask);
    AscendC::Reg::Muls(dstReg, dstReg, 3.0f, mask);
    // ... some 30 more dependent Muls
    AscendC::Reg::StoreAlign(dstAddr + i * oneRepeatSize, dstReg, mask);
}`,
	After: `for (uint16_t i = 0; i < repeatTimes / 2; ++i) {  // unrolled 2x
    AscendC::Reg::LoadAlign(srcReg0, srcAddr + (2 * i) * oneRepeatSize);
    AscendC::Reg::LoadAlign(srcReg1, srcAddr + (2 * i + 1) * oneRepeatSize);
    AscendC::Reg::Muls(dstReg0, srcReg0, 2.0f, mask);
    AscendC::Reg::Muls(dstReg1, srcReg1, 2.0f, mask);
    // ... the two chains interleaved, instruction by instruction
    AscendC::Reg::StoreAlign(dstAddr + (2 * i) * oneRepeatSize, dstReg0, mask);
    AscendC::Reg::StoreAlign(dstAddr + (2 * i + 1) * oneRepeatSize, dstReg1, mask);
}`,
	Severity:  ruleset.Info,
	Since:     "0.1.0",
	Tags:      []string{"performance", "scheduling", "dual-issue"},
	Precision: "medium",
	Options:   []ruleset.Option{ruleset.OptionBudgetVReg, ruleset.OptionBudgetMask, ruleset.OptionChip, ruleset.OptionMachine, ruleset.OptionIterations},
}, &analysis.Analyzer{
	Requires:         []*analysis.Analyzer{cppir.Analyzer, simcost.Analyzer, regpressure.Analyzer},
	RunDespiteErrors: true,
	Run:              run,
})

// Analyzer is the analyzer of Rule.
var Analyzer = Rule.Analyzer

// lowIPC is simcost.LowIPC: the IPC below which a loop counts as low in
// parallelism.
const lowIPC = simcost.LowIPC

func run(pass *analysis.Pass) (any, error) {
	pkg := pass.ResultOf[cppir.Analyzer].(*ir.Package)
	md := pass.ResultOf[simcost.Analyzer].(*simcost.Model)
	md.Prefetch(pkg)
	pressure := pass.ResultOf[regpressure.Analyzer].(*regpressure.Result)
	for _, f := range pkg.Files {
		for _, fn := range f.Funcs {
			if !fn.Kind.Analysed() {
				continue
			}
			for _, lp := range fn.Loops {
				if lp.AtMostOnce || !simcost.Innermost(fn, lp) {
					continue
				}
				var (
					hit  []simcost.LoopStats
					best []int // per hit: the unrolled cycles and the factor
				)
				for _, st := range md.Stats(fn, lp) {
					if c, k, ok := worth(md, st, pressure.Regions[fn], pressure.Budget); ok {
						hit = append(hit, st)
						best = append(best, c, k)
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
				c := simcost.Cost{Before: st.Cycles, After: best[0], Iterations: st.Iterations, Opaque: st.Body.Opaque, Assumed: st.Body.Assumed}
				msg := fmt.Sprintf("loop issues %.2f instructions per cycle of the 2 the VF can; unrolled %dx with the copies interleaved it %s", st.IPC, best[1], c.Phrase())
				if _, untyped := divs(st.Body); untyped != "" {
					msg += fmt.Sprintf(" (timing Div on %s as a float Div: instantiated with an integer type it is a software sequence this estimate does not price)", untyped)
				}
				msg += st.InstancesNote(len(fn.Instantiations()))
				d := analysis.Diagnostic{Pos: lp.Pos, End: lp.Pos, Message: msg}
				simcost.Attach(&d, c)
				pass.Report(d)
			}
		}
	}
	return nil, nil
}

// worth reports whether one instantiation's loop is worth unrolling: its
// simulated IPC is low, its chain fits the window (ASC4001 speaks for
// longer ones), it waits on no barrier, divides no integers, and a 2x or
// 4x unroll that fits the register budgets saves at least 15%. It returns
// the cycles of the best unroll and its factor.
func worth(md *simcost.Model, st simcost.LoopStats, peak *regalloc.Result, budget regalloc.Budget) (int, int, bool) {
	if st.Cycles == 0 || st.IPC >= lowIPC || st.Chain > md.M.Window {
		return 0, 0, false
	}
	if hasBarrier(st.Body) {
		return 0, 0, false // a round trip through UB with a barrier: the copies would wait on each other
	}
	if intDiv, _ := divs(st.Body); intDiv {
		return 0, 0, false // an integer Div is a software sequence the model prices as one op
	}
	if len(st.Body.Opaque) > 0 {
		// A helper whose body is not known is timed as one instruction
		// that reads and writes every register passed: an output it
		// only writes waits for the previous iteration's readers, and
		// the low rate may be that, not the loop's.
		return 0, 0, false
	}
	best, factor := st.Cycles, 0
	for _, k := range []int{2, 4} {
		if u := st.Unrolled[k]; u > 0 && u < best && st.Fits(peak, budget, k) {
			best, factor = u, k
		}
	}
	if factor == 0 || 100*(st.Cycles-best) < 15*st.Cycles {
		return 0, 0, false
	}
	return best, factor, true
}

// hasBarrier reports whether the loop waits on a barrier (LocalMemBar, or a
// flag wait or pipe barrier), in its body or a helper it calls: a body
// that round-trips through UB this way is not made faster by interleaving
// copies.
func hasBarrier(body simcheck.Body) bool {
	for _, in := range body.Insts {
		if in.Op.Info().Cat == ir.CatBarrier {
			return true
		}
		if in.Instr == nil {
			continue
		}
		switch in.Instr.Name {
		case "WaitFlag", "SetFlag", "PipeBarrier", "wait_flag", "set_flag", "pipe_barrier":
			return true
		}
	}
	return false
}

// divs reports whether the loop divides integers (in its body or a helper
// it calls, with the element types of the instantiation simulated), and
// the element type of a Div whose type is a template parameter left
// unbound.
func divs(body simcheck.Body) (integer bool, untyped string) {
	for _, in := range body.Insts {
		switch {
		case simcheck.IntegerDiv(in):
			integer = true
		case simcheck.UntypedDiv(in) && untyped == "":
			untyped = in.Elem
		}
	}
	return integer, untyped
}
