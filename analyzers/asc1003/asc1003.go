// Package asc1003 defines an Analyzer that reports an AddrReg (from
// CreateAddrReg) used as the offset of an unaligned load or store.
//
// The unaligned ops take their offset either as a post-updated pointer with
// a uint32_t stride or as an AddrReg operand. The best practice for
// contiguous unaligned streams (seed 000, "连续非对齐场景优化") is the first:
// the hardware supports AddrReg on these paths poorly. Every AddrReg operand
// (role areg) of LoadUnAlignPre, LoadUnAlign, StoreUnAlign, StoreUnAlignPost,
// and of the generic Load and Store, is reported at the operand when a
// CreateAddrReg in the same region made it: that is where the choice was
// made (an AddrReg parameter is the caller's choice).
//
//	LoadUnAlign(v, u, src, a, 0);      // reported: AddrReg a
//	LoadUnAlign(v, u, src, VL);        // fix: uint32_t stride, post-update
package asc1003

import (
	"fmt"

	"golang.org/x/tools/go/analysis"

	"github.com/ascvet/ascvet/analyzers/cppir"
	"github.com/ascvet/ascvet/analyzers/internal/ureg"
	"github.com/ascvet/ascvet/analyzers/simcost"
	"github.com/ascvet/ascvet/cppfront/ir"
	"github.com/ascvet/ascvet/ruleset"
)

// Rule is ASC1003 addrreg-unaligned.
var Rule = ruleset.Define(&ruleset.Rule{
	ID:    "ASC1003",
	Name:  "addrreg-unaligned",
	Title: "unaligned load or store takes its offset from an AddrReg",
	Text: "Unaligned loads and stores (LoadUnAlignPre, LoadUnAlign, StoreUnAlign, StoreUnAlignPost) accept an " +
		"AddrReg from CreateAddrReg as their offset, but the hardware supports that poorly on unaligned paths. " +
		"The Ascend C best practice for contiguous unaligned access is to keep offsets in uint32_t and use the " +
		"post-update form, which advances the UB pointer by the stride after every access: prime once with " +
		"LoadUnAlignPre(u, src), load with LoadUnAlign(dst, u, src, stride), store with StoreUnAlign(dst, src, u, stride) " +
		"and flush once with StoreUnAlignPost(dst, u, 0). " +
		"\n\nSource: the Ascend C best practice \"Optimization in Contiguous Unaligned Scenarios\" (连续非对齐场景优化), and for the AddrReg call pattern the reference of vf.load_unalign in the pypto_pro DSL (in Chinese)." +
		" https://www.hiascend.com/document/detail/en/CANNCommunityEdition/900/programug/Ascendcopdevg/atlas_ascendc_best_practices_10_00025.html" +
		" https://gitcode.com/cann/asc-devkit/blob/master/docs/zh/guide/算子实践参考/SIMD算子性能优化/矢量计算/VF性能优化/连续非对齐场景优化.md" +
		" https://gitcode.com/cann/pypto/blob/master/docs/zh/pypto_pro/api/SIMD-API/operation/vf_computation/data_movement/load_unalign.md",
	Before: `AscendC::Reg::RegTensor<float> srcReg;
AscendC::Reg::UnalignRegForLoad ureg0;
AscendC::Reg::MaskReg mask = AscendC::Reg::CreateMask<float>();
constexpr uint32_t postUpdateStride = AscendC::VECTOR_REG_WIDTH / sizeof(float);
AscendC::Reg::LoadUnAlignPre(ureg0, srcAddr);
for (uint16_t i = 0; i < repeatTimes; ++i) {
    AscendC::Reg::AddrReg aReg = AscendC::Reg::CreateAddrReg<float>(i, postUpdateStride);
    AscendC::Reg::LoadUnAlign(srcReg, ureg0, srcAddr, aReg, 0);
    AscendC::Reg::StoreAlign(dstAddr + i * postUpdateStride, srcReg, mask);
}`,
	After: `AscendC::Reg::RegTensor<float> srcReg;
AscendC::Reg::UnalignRegForLoad ureg0;
AscendC::Reg::MaskReg mask = AscendC::Reg::CreateMask<float>();
constexpr uint32_t postUpdateStride = AscendC::VECTOR_REG_WIDTH / sizeof(float);
AscendC::Reg::LoadUnAlignPre(ureg0, srcAddr);
for (uint16_t i = 0; i < repeatTimes; ++i) {
    // uint32_t stride with post update: srcAddr advances by itself
    AscendC::Reg::LoadUnAlign(srcReg, ureg0, srcAddr, postUpdateStride);
    AscendC::Reg::StoreAlign(dstAddr + i * postUpdateStride, srcReg, mask);
}`,
	Severity:  ruleset.Warning,
	Since:     "0.1.0",
	Tags:      []string{"performance", "unaligned", "best-practice"},
	Precision: "high",
	Options:   []ruleset.Option{ruleset.OptionChip, ruleset.OptionMachine, ruleset.OptionIterations},
}, &analysis.Analyzer{
	Requires:         []*analysis.Analyzer{cppir.Analyzer, simcost.Analyzer},
	RunDespiteErrors: true, // go list flags C++ files in a non-cgo package; see STYLE §5
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
			created := createdAddrRegs(fn)
			for _, in := range fn.Instrs {
				if ureg.RoleOf(in.Op) == ureg.RoleNone && in.Op != ir.OpLoad && in.Op != ir.OpStore {
					continue
				}
				for _, a := range in.Args {
					if a.Role != ir.ArgAddr || a.Reg == ir.NoReg || !created[a.Reg] {
						continue
					}
					d := analysis.Diagnostic{Pos: a.Pos, End: a.End, Message: message(fn, in, a)}
					// The price: without the AddrReg, the CreateAddrReg that
					// computes it in the loop goes away (a uint32_t offset
					// with post-update is advanced by the access itself).
					if md, ok := pass.ResultOf[simcost.Analyzer].(*simcost.Model); ok && in.Loop != ir.NoLoop {
						areg := a.Reg
						cost := md.At(fn, in, func(x *ir.Instr) bool { return x.Op == ir.OpCreateAddrReg && len(x.Defs) == 1 && x.Defs[0] == areg })
						d.Message += ": " + cost.Phrase()
						simcost.Attach(&d, cost)
					}
					pass.Report(d)
				}
			}
		}
	}
	return nil, nil
}

// createdAddrRegs returns, per register, whether a CreateAddrReg in fn
// defines it. An AddrReg that arrives as a parameter was chosen by the
// caller, where the finding belongs: the API's own implementation of the
// AddrReg overloads (vldu(dst, u, src, areg, inc)) is not a finding.
func createdAddrRegs(fn *ir.Func) []bool {
	c := make([]bool, len(fn.Regs))
	for _, in := range fn.Instrs {
		if in.Op != ir.OpCreateAddrReg {
			continue
		}
		for _, r := range in.Defs {
			c[r] = true
		}
	}
	return c
}

func message(fn *ir.Func, in *ir.Instr, a ir.Operand) string {
	name := a.Text
	if a.Reg != ir.NoReg {
		name = fn.Regs[a.Reg].Name
	}
	sp := ureg.SpellingOf(in)
	var fix string
	switch in.Op {
	case ir.OpLoadUnAlignPre:
		return fmt.Sprintf("AddrReg %s used as the offset of %s; keep unaligned offsets in uint32_t (%s(u, src + offset), then %s)",
			name, ureg.Called(in), sp.Pre, sp.Load)
	case ir.OpLoadUnAlign:
		fix = sp.Load
	case ir.OpStoreUnAlign:
		fix = sp.Store
	case ir.OpStoreUnAlignPost:
		fix = sp.Post + "(dst, u, 0)"
	default:
		fix = "a post-updated pointer"
	}
	return fmt.Sprintf("AddrReg %s used as the offset of %s; keep unaligned offsets in uint32_t with post-update (%s)",
		name, ureg.Called(in), fix)
}
