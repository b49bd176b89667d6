// Package asc1004 defines an Analyzer that reports a LoadUnAlign reading an
// unaligned register that no LoadUnAlignPre primed on some path.
//
// The check is a may-analysis of "u may be unprimed" over the structured
// body (see ureg/flow.go): every tracked load register starts unprimed at
// the region entry; LoadUnAlignPre (in any spelling, raw vldas included)
// primes it, LoadUnAlign keeps it primed, and handing it to a helper or an
// unknown call counts as priming (the callee may). An If joins its branches,
// a loop body may run zero times and its first iteration starts from the
// state before the loop, and correlated conditions (the same if constexpr
// condition around the Pre and around the load) are honoured.
//
//	LoadUnAlign(v, u, src, VL);     // reported: u holds garbage
//	LoadUnAlignPre(u, src);         // fix: prime first
//	LoadUnAlign(v, u, src, VL);
package asc1004

import (
	"fmt"

	"golang.org/x/tools/go/analysis"

	"github.com/ascvet/ascvet/analyzers/cppir"
	"github.com/ascvet/ascvet/analyzers/internal/ureg"
	"github.com/ascvet/ascvet/cppfront/ir"
	"github.com/ascvet/ascvet/ruleset"
)

// Rule is ASC1004 unalign-load-without-pre.
var Rule = ruleset.Define(&ruleset.Rule{
	ID:    "ASC1004",
	Name:  "unalign-load-without-pre",
	Title: "unaligned load reads a register that LoadUnAlignPre did not prime",
	Text: "LoadUnAlign splices the partial 32-byte block held in its unaligned register (UnalignRegForLoad) " +
		"with the next aligned block from UB, then keeps the new tail in the register. The first load of a " +
		"stream therefore needs LoadUnAlignPre(u, src) before it, which fills the register with the block that " +
		"contains src; without it the first elements loaded are whatever the register held. The rule follows " +
		"every path through ifs and loops (a loop may run zero times, and a Pre placed after the load in the " +
		"loop body does not prime the first iteration). Registers that are parameters, or that are passed to a " +
		"helper or unknown function first, are assumed primed by that code. Fix: call LoadUnAlignPre once, " +
		"with the stream's first address, before the first LoadUnAlign. " +
		"\n\nSource: the Ascend C best practice \"Optimization in Contiguous Unaligned Scenarios\" (连续非对齐场景优化): read an unaligned address only after LoadUnAlignPre has initialised the register." +
		" https://www.hiascend.com/document/detail/en/CANNCommunityEdition/900/programug/Ascendcopdevg/atlas_ascendc_best_practices_10_00025.html" +
		" https://gitcode.com/cann/asc-devkit/blob/master/docs/zh/guide/算子实践参考/SIMD算子性能优化/矢量计算/VF性能优化/连续非对齐场景优化.md",
	Before: `AscendC::Reg::RegTensor<float> srcReg;
AscendC::Reg::UnalignRegForLoad ureg0;
AscendC::Reg::MaskReg mask = AscendC::Reg::CreateMask<float>();
constexpr uint32_t postUpdateStride = AscendC::VECTOR_REG_WIDTH / sizeof(float);
for (uint16_t i = 0; i < repeatTimes; ++i) {
    AscendC::Reg::LoadUnAlign(srcReg, ureg0, srcAddr, postUpdateStride);
    AscendC::Reg::StoreAlign(dstAddr + i * postUpdateStride, srcReg, mask);
}`,
	After: `AscendC::Reg::RegTensor<float> srcReg;
AscendC::Reg::UnalignRegForLoad ureg0;
AscendC::Reg::MaskReg mask = AscendC::Reg::CreateMask<float>();
constexpr uint32_t postUpdateStride = AscendC::VECTOR_REG_WIDTH / sizeof(float);
AscendC::Reg::LoadUnAlignPre(ureg0, srcAddr);  // initialise before the first load
for (uint16_t i = 0; i < repeatTimes; ++i) {
    AscendC::Reg::LoadUnAlign(srcReg, ureg0, srcAddr, postUpdateStride);
    AscendC::Reg::StoreAlign(dstAddr + i * postUpdateStride, srcReg, mask);
}`,
	Severity:  ruleset.Error,
	Since:     "0.1.0",
	Tags:      []string{"correctness", "unaligned"},
	Precision: "high",
}, &analysis.Analyzer{
	Requires:         []*analysis.Analyzer{cppir.Analyzer},
	RunDespiteErrors: true, // go list flags C++ files in a non-cgo package; see STYLE §5
	Run:              run,
})

// Analyzer is the analyzer of Rule.
var Analyzer = Rule.Analyzer

func run(pass *analysis.Pass) (any, error) {
	pkg := pass.ResultOf[cppir.Analyzer].(*ir.Package)
	for _, f := range pkg.Files {
		for _, fn := range f.Funcs {
			if fn.Kind.Analysed() && fn.Body != nil {
				check(pass, fn)
			}
		}
	}
	return nil, nil
}

func check(pass *analysis.Pass, fn *ir.Func) {
	untracked := ureg.Untracked(fn)
	tracked := func(k ureg.Key) bool { return !untracked[k.Reg] && !ureg.Exempt(fn.Regs[k.Reg]) }
	entry := ureg.NewState()
	for _, in := range fn.Instrs {
		if in.Op != ir.OpLoadUnAlign {
			continue
		}
		if _, k, found := ureg.Operand(fn, in); found && tracked(k) {
			entry.Gen(k, ureg.Entry) // unprimed at the start of the region
		}
	}
	if len(entry.All()) == 0 {
		return
	}
	reported := map[ir.InstrID]bool{}
	ureg.Run(fn, entry, func(in *ir.Instr, s *ureg.State) {
		switch in.Op {
		case ir.OpLoadUnAlignPre:
			_, k, found := ureg.Operand(fn, in)
			if !found {
				s.Kill(func(ureg.Key) bool { return true }) // a Pre on a register we cannot name may prime any
				return
			}
			s.Kill(func(x ureg.Key) bool { return ureg.Covers(k, x) })
		case ir.OpLoadUnAlign:
			_, k, found := ureg.Operand(fn, in)
			if !found || !tracked(k) {
				return
			}
			if len(s.Facts(k)) > 0 && !reported[in.ID] {
				reported[in.ID] = true
				pass.Report(analysis.Diagnostic{Pos: in.Pos, End: in.End, Message: message(fn, in, k)})
			}
			s.Kill(func(x ureg.Key) bool { return x == k }) // reported once; the load leaves it primed
		case ir.OpCall, ir.OpUnknown:
			for _, p := range ureg.Passed(fn, in) {
				s.Kill(func(x ureg.Key) bool { return ureg.Covers(p, x) })
			}
		}
	}, ureg.Options{})
}

func message(fn *ir.Func, in *ir.Instr, k ureg.Key) string {
	sp := ureg.SpellingOf(in)
	name := ureg.Name(fn, k)
	src := ureg.Pointer(in)
	if src == "" {
		src = "src"
	}
	fix := fmt.Sprintf("%s(%s, %s) before the first load", sp.Pre, name, src)
	if in.Loop != ir.NoLoop && !postUpdate(in) {
		fix = fmt.Sprintf("%s(%s, ...) with the stream's first address before the loop", sp.Pre, name)
	}
	return fmt.Sprintf("%s reads %s, which no %s primed on this path; call %s", ureg.Called(in), name, sp.Pre, fix)
}

func postUpdate(in *ir.Instr) bool {
	for _, a := range in.Args {
		if a.Role == ir.ArgPtrRW {
			return true
		}
	}
	return false
}
