// Package asc2004 defines an Analyzer that reports a RegTensor<T,
// RegTraitNumTwo> register used with a load or store interface that does
// not support the trait: a dual (interleave) store or de-interleave load,
// or an AddrReg offset.
//
// A RegTraitNumTwo register is two physical registers; the documented
// interfaces for it are the plain and the post-update single-register
// LoadAlign and StoreAlign, and the post-update LoadUnAlign and StoreUnAlign.
//
//	StoreAlign(dst, w, areg, mask);                       // reported: AddrReg offset
//	StoreAlign<int64_t, POST_MODE_UPDATE>(dst, w, 64, m); // fix: post-update
package asc2004

import (
	"fmt"

	"golang.org/x/tools/go/analysis"

	"github.com/ascvet/ascvet/analyzers/cppir"
	"github.com/ascvet/ascvet/analyzers/internal/align"
	"github.com/ascvet/ascvet/cppfront/ir"
	"github.com/ascvet/ascvet/ruleset"
)

// Rule is ASC2004 regtrait-interface.
var Rule = ruleset.Define(&ruleset.Rule{
	ID:    "ASC2004",
	Name:  "regtrait-interface",
	Title: "RegTraitNumTwo register used with an interface that does not support it",
	Text: "RegTensor<T, RegTraitNumTwo> (b64 or complex32 data split over two physical registers) is supported by " +
		"the plain and the post-update single-register forms of LoadAlign and StoreAlign, and by the post-update " +
		"forms of LoadUnAlign and StoreUnAlign. The dual forms (DIST_INTLV_Bn stores, DIST_DINTLV_Bn loads) and " +
		"every form that takes its offset from an AddrReg (CreateAddrReg) do not support it. The rule recognises " +
		"the trait where the register is declared with RegTraitNumTwo in its type (directly, or on a type whose " +
		"element is not 64-bit); a trait that only a template parameter or a type alias carries is not checked. " +
		"Fix: use the post-update interface with a uint32_t stride instead of the AddrReg, store or load each " +
		"register with its own single access, or declare the register with RegTraitNumOne. " +
		"\n\nSource: the table of the StoreAlign reference (\"Contiguous Aligned Data Move-out\", 连续对齐搬出) that lists the interfaces each RegTensor trait supports; the examples adapt its ComputeMode03 (AddrReg) and ComputeMode02 (PostUpdate) call examples." +
		" https://www.hiascend.com/document/detail/en/CANNCommunityEdition/900/API/ascendcopapi/atlasascendc_api_07_0320.html" +
		" https://gitcode.com/cann/asc-devkit/blob/master/docs/zh/api/SIMD-API/基础API/Reg矢量计算/Reg数据搬出/连续对齐搬出（StoreAlign）.md",
	Before: `AscendC::Reg::RegTensor<int64_t, AscendC::Reg::RegTraitNumTwo> dstReg;
AscendC::Reg::MaskReg mask = AscendC::Reg::CreateMask<int64_t>();
constexpr uint16_t oneRepeatSize = 64;
for (uint16_t i = 0; i < repeatTimes; ++i) {
    AscendC::Reg::AddrReg aReg = AscendC::Reg::CreateAddrReg<int64_t>(i, oneRepeatSize);
    AscendC::Reg::LoadAlign(dstReg, src64, aReg);
    AscendC::Reg::StoreAlign(dst64, dstReg, aReg, mask);
}`,
	After: `AscendC::Reg::RegTensor<int64_t, AscendC::Reg::RegTraitNumTwo> dstReg;
AscendC::Reg::MaskReg mask = AscendC::Reg::CreateMask<int64_t>();
constexpr uint16_t oneRepeatSize = 64;
for (uint16_t i = 0; i < repeatTimes; ++i) {
    AscendC::Reg::LoadAlign<int64_t, AscendC::Reg::PostLiteral::POST_MODE_UPDATE>(dstReg, src64, oneRepeatSize);
    AscendC::Reg::StoreAlign<int64_t, AscendC::Reg::PostLiteral::POST_MODE_UPDATE>(dst64, dstReg, oneRepeatSize, mask);
}`,
	Severity:  ruleset.Error,
	Since:     "0.1.0",
	Tags:      []string{"correctness", "registers"},
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
			if !fn.Kind.Analysed() {
				continue
			}
			for _, in := range fn.Instrs {
				check(pass, f, fn, in)
			}
		}
	}
	return nil, nil
}

func check(pass *analysis.Pass, f *ir.File, fn *ir.Func, in *ir.Instr) {
	if in.Form != ir.FormReg && in.Form != ir.FormLegacy {
		return // the C API has no RegTraitNumTwo; raw builtins take physical registers
	}
	switch in.Op {
	case ir.OpLoadAlign, ir.OpStoreAlign:
		a, ok := align.Of(fn, in)
		if !ok || a.Kind != align.KindData {
			return
		}
		for _, k := range a.Data {
			arg := in.Args[k]
			r := fn.Regs[arg.Reg]
			if !align.TraitTwo(f, r) {
				continue
			}
			switch {
			case len(a.Data) == 2 && a.Store:
				report(pass, arg, fmt.Sprintf("dual %s of %s, a RegTraitNumTwo register, is not supported; store each register with a single %s",
					a.Called(), r.Name, a.Called()))
			case len(a.Data) == 2:
				report(pass, arg, fmt.Sprintf("dual %s into %s, a RegTraitNumTwo register, is not supported; load each register with a single %s",
					a.Called(), r.Name, a.Called()))
			case a.AddrReg >= 0:
				report(pass, in.Args[a.AddrReg], addrRegMessage(fn, in, a.Called(), r, a.Store))
			}
			return
		}
	case ir.OpLoadUnAlign, ir.OpStoreUnAlign:
		areg := -1
		for k, arg := range in.Args {
			if arg.Role == ir.ArgAddr {
				areg = k
			}
		}
		if areg < 0 {
			return
		}
		for _, arg := range in.Args {
			if arg.Reg == ir.NoReg || arg.Role != ir.ArgW && arg.Role != ir.ArgR {
				continue
			}
			if r := fn.Regs[arg.Reg]; align.TraitTwo(f, r) {
				report(pass, in.Args[areg], addrRegMessage(fn, in, called(in), r, in.Op == ir.OpStoreUnAlign))
				return
			}
		}
	}
}

func called(in *ir.Instr) string {
	if in.Form == ir.FormReg {
		return in.Op.String()
	}
	return in.Name
}

func addrRegMessage(fn *ir.Func, in *ir.Instr, name string, r *ir.Reg, store bool) string {
	dir := "into"
	if store {
		dir = "of"
	}
	var areg string
	for _, a := range in.Args {
		if a.Role == ir.ArgAddr {
			areg = a.Text
			if a.Reg != ir.NoReg {
				areg = fn.Regs[a.Reg].Name
			}
		}
	}
	return fmt.Sprintf("%s %s %s, a RegTraitNumTwo register, takes its offset from AddrReg %s, which the trait does not support; use the post-update interface with a stride",
		name, dir, r.Name, areg)
}

func report(pass *analysis.Pass, arg ir.Operand, msg string) {
	pass.Report(analysis.Diagnostic{Pos: arg.Pos, End: arg.End, Message: msg})
}
