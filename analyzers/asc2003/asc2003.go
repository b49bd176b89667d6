// Package asc2003 defines an Analyzer that reports the post-update interface
// of a load or store instantiated with PostLiteral::POST_MODE_NORMAL.
//
// The post-update overloads (LoadAlign/StoreAlign with a stride, MaskReg
// loads and stores with an offset, LoadUnAlign, StoreUnAlign with a stride)
// support only POST_MODE_UPDATE: with POST_MODE_NORMAL the pointer is not
// advanced, and the stride is not what the author meant. The strided
// DATA_BLOCK_COPY copies and the AR form of StoreUnAlign support
// POST_MODE_NORMAL, and so, in practice, does StoreUnAlignPost: its
// implementation flushes at dst + stride without advancing dst, and the
// library's own kernels use StoreUnAlignPost<T, POST_MODE_NORMAL>(dst, u, 0)
// for a final flush. None of these is reported.
//
//	LoadAlign<half, PostLiteral::POST_MODE_NORMAL>(v, src, VL);   // reported
//	LoadAlign<half, PostLiteral::POST_MODE_UPDATE>(v, src, VL);   // fix
package asc2003

import (
	"fmt"
	"go/token"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/ascvet/ascvet/analyzers/cppir"
	"github.com/ascvet/ascvet/cppfront/ir"
	"github.com/ascvet/ascvet/ruleset"
)

// Rule is ASC2003 post-mode-normal.
var Rule = ruleset.Define(&ruleset.Rule{
	ID:    "ASC2003",
	Name:  "post-mode-normal",
	Title: "post-update interface instantiated with POST_MODE_NORMAL",
	Text: "LoadAlign and StoreAlign (data and MaskReg) with a post-update stride, LoadUnAlign, and StoreUnAlign with a " +
		"stride take a PostLiteral template argument, but support only " +
		"PostLiteral::POST_MODE_UPDATE, which accesses the pointer and then advances it by the stride. " +
		"POST_MODE_NORMAL is documented as not supported there: the pointer stays where it was and the stride is " +
		"misread, so a loop reads or writes the wrong place. (The strided DATA_BLOCK_COPY loads and stores, the AR " +
		"form of StoreUnAlign and the final flush StoreUnAlignPost<T, POST_MODE_NORMAL>(dst, u, 0) do support " +
		"POST_MODE_NORMAL and are not reported.) Fix: use POST_MODE_UPDATE to advance the pointer, or " +
		"the interface without a stride to leave it in place. " +
		"\n\nSource: the StoreAlign reference (\"Contiguous Aligned Data Move-out\", 连续对齐搬出): \"POST_MODE_NORMAL not supported\" for the PostUpdate interface; the examples adapt its ComputeMode02 call example." +
		" https://www.hiascend.com/document/detail/en/CANNCommunityEdition/900/API/ascendcopapi/atlasascendc_api_07_0320.html" +
		" https://gitcode.com/cann/asc-devkit/blob/master/docs/zh/api/SIMD-API/基础API/Reg矢量计算/Reg数据搬出/连续对齐搬出（StoreAlign）.md",
	Before: `AscendC::Reg::RegTensor<half> dstReg;
AscendC::Reg::MaskReg mask;
constexpr uint32_t oneRepeatSize = 128;
for (uint16_t i = 0; i < repeatTimes; ++i) {
    mask = AscendC::Reg::UpdateMask<half>(count);
    AscendC::Reg::LoadAlign<half, AscendC::Reg::PostLiteral::POST_MODE_NORMAL>(dstReg, src, oneRepeatSize);
    AscendC::Reg::StoreAlign<half, AscendC::Reg::PostLiteral::POST_MODE_NORMAL>(dst, dstReg, oneRepeatSize, mask);
}`,
	After: `AscendC::Reg::RegTensor<half> dstReg;
AscendC::Reg::MaskReg mask;
constexpr uint32_t oneRepeatSize = 128;
for (uint16_t i = 0; i < repeatTimes; ++i) {
    mask = AscendC::Reg::UpdateMask<half>(count);
    AscendC::Reg::LoadAlign<half, AscendC::Reg::PostLiteral::POST_MODE_UPDATE>(dstReg, src, oneRepeatSize);
    AscendC::Reg::StoreAlign<half, AscendC::Reg::PostLiteral::POST_MODE_UPDATE>(dst, dstReg, oneRepeatSize, mask);
}`,
	Severity:  ruleset.Error,
	Since:     "0.1.0",
	Tags:      []string{"correctness", "post-update"},
	Precision: "very-high",
}, &analysis.Analyzer{
	Requires:         []*analysis.Analyzer{cppir.Analyzer},
	RunDespiteErrors: true, // go list flags C++ files in a non-cgo package; see STYLE §5
	Run:              run,
})

// Analyzer is the analyzer of Rule.
var Analyzer = Rule.Analyzer

const normal = "POST_MODE_NORMAL"

func run(pass *analysis.Pass) (any, error) {
	pkg := pass.ResultOf[cppir.Analyzer].(*ir.Package)
	for _, f := range pkg.Files {
		for _, fn := range f.Funcs {
			if !fn.Kind.Analysed() {
				continue
			}
			for _, in := range fn.Instrs {
				if !unsupported(in) {
					continue
				}
				pos, end := span(f, in)
				pass.Report(analysis.Diagnostic{Pos: pos, End: end, Message: message(in)})
			}
		}
	}
	return nil, nil
}

// unsupported reports whether in is a post-update interface instantiated
// with POST_MODE_NORMAL.
func unsupported(in *ir.Instr) bool {
	if in.Form != ir.FormReg && in.Form != ir.FormLegacy || !anyContains(in.TArgs, normal) {
		return false
	}
	switch in.Op {
	case ir.OpLoadAlign, ir.OpStoreAlign:
		return !anyContains(in.TArgs, "DATA_BLOCK_COPY")
	case ir.OpLoadUnAlign:
		return true // LoadUnAlign supports POST_MODE_UPDATE only, in every form
	case ir.OpStoreUnAlign:
		// The stride form; the AR form supports POST_MODE_NORMAL.
		for _, a := range in.Args {
			if a.Role == ir.ArgScalar {
				return true
			}
		}
	}
	return false
}

func anyContains(ss []string, sub string) bool {
	for _, s := range ss {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}

func called(in *ir.Instr) string {
	if in.Form == ir.FormReg {
		return in.Op.String()
	}
	return in.Name
}

func message(in *ir.Instr) string {
	ptr := "the pointer"
	for _, a := range in.Args {
		if a.Role == ir.ArgPtr || a.Role == ir.ArgPtrRW {
			ptr = strings.Join(strings.Fields(a.Text), " ")
			break
		}
	}
	if in.Op == ir.OpLoadUnAlign {
		return fmt.Sprintf("%s instantiated with POST_MODE_NORMAL, which it does not support; use POST_MODE_UPDATE (%s advances by the stride)",
			called(in), ptr)
	}
	return fmt.Sprintf("%s instantiated with POST_MODE_NORMAL, which the post-update interface does not support; use POST_MODE_UPDATE to advance %s by the stride, or the interface without a stride to leave it",
		called(in), ptr)
}

// span returns the position of POST_MODE_NORMAL in the call, or the call.
func span(f *ir.File, in *ir.Instr) (token.Pos, token.Pos) {
	if f.Tok != nil {
		lo, hi := f.Tok.Offset(in.Pos), f.Tok.Offset(in.End)
		if lo >= 0 && hi <= len(f.Src) && lo <= hi {
			if k := strings.Index(string(f.Src[lo:hi]), normal); k >= 0 {
				return in.Pos + token.Pos(k), in.Pos + token.Pos(k+len(normal))
			}
		}
	}
	return in.Pos, in.End
}
