// Package asc2001 defines an Analyzer that reports aligned loads and stores
// (LoadAlign, StoreAlign, in every spelling) whose address, post-update
// stride or AddrReg step breaks the alignment their dist mode requires.
//
// The requirement comes from the mode (vf-api.md §4.2–4.4): 32 bytes for
// DIST_NORM, interleave and most others, the element size for DIST_BRC_Bn
// and DIST_FIRST_ELEMENT_Bn, 16 bytes for DIST_E2B_B16 and the MaskReg
// DIST_US/DIST_PACK modes. A fault is reported only when it is proven:
//
//	StoreAlign<half, POST_MODE_UPDATE>(dst, v, 3, m);  // stride 3 * 2 = 6 bytes: reported
//	LoadAlign(v, src + i * 7);                         // moves 14 bytes per iteration: reported
//	LoadAlign(v, src + 3);                             // src is a parameter, assumed 32-byte aligned: reported
//	LoadAlign(v, src + off);                           // off is not folded: silent
package asc2001

import (
	"fmt"

	"golang.org/x/tools/go/analysis"

	"github.com/ascvet/ascvet/analyzers/cppir"
	"github.com/ascvet/ascvet/analyzers/internal/align"
	"github.com/ascvet/ascvet/cppfront/ir"
	"github.com/ascvet/ascvet/ruleset"
)

// Rule is ASC2001 dist-alignment.
var Rule = ruleset.Define(&ruleset.Rule{
	ID:    "ASC2001",
	Name:  "dist-alignment",
	Title: "aligned load or store breaks the alignment of its dist mode",
	Text: "LoadAlign and StoreAlign (and DataCopy, MicroAPI and the asc_loadalign*/asc_storealign* calls) need their UB " +
		"address, their post-update stride times sizeof(T) and their AddrReg offset times sizeof(T) aligned as the dist " +
		"mode says: 32 bytes for DIST_NORM, the interleave modes, DIST_US/DS/UNPACK/UNPACK4/BLK/PACK/PACK4, DIST_E2B_B32 " +
		"and DATA_BLOCK_COPY; the element size for DIST_BRC_Bn and DIST_FIRST_ELEMENT_Bn; 16 bytes for DIST_E2B_B16 " +
		"and for the MaskReg modes DIST_US and DIST_PACK. A misaligned access does not trap: it silently reads or " +
		"writes the wrong bytes. The rule reports a constant post-update stride or CreateAddrReg stride whose size in " +
		"bytes breaks the alignment, an address that moves by such a step in every iteration of a loop (src + i * 7 " +
		"of half data: one of two consecutive iterations is misaligned whatever src is), and a constant offset from a " +
		"pointer parameter (src + 3). For the last, ascvet assumes what UB allocation guarantees: a buffer starts " +
		"32-byte aligned, so a pointer parameter is aligned unless the region moves it. Offsets that do not fold, " +
		"addresses behind a cast, and element types that are template parameters (unless the fault holds at every " +
		"size T may have) are not reported; nor are the post-update offsets of MaskReg loads and stores (documented " +
		"in bytes but applied to a uint32_t pointer), the block strides of DATA_BLOCK_COPY, and raw builtins " +
		"(vlds, vsts). Fix: keep offsets and strides multiples of 32 / sizeof(T) elements, or " +
		"use the unaligned LoadUnAlign/StoreUnAlign for data that is not aligned. " +
		"\n\nSource: the StoreDist table of the StoreAlign reference (\"Contiguous Aligned Data Move-out\", 连续对齐搬出) and the LoadDist table of the LoadAlign reference (\"Contiguous Aligned Data Move-in\", 连续对齐搬入); the examples adapt the call example of the StoreAlign reference." +
		" https://www.hiascend.com/document/detail/en/CANNCommunityEdition/900/API/ascendcopapi/atlasascendc_api_07_0320.html" +
		" https://gitcode.com/cann/asc-devkit/blob/master/docs/zh/api/SIMD-API/基础API/Reg矢量计算/Reg数据搬出/连续对齐搬出（StoreAlign）.md" +
		" https://www.hiascend.com/document/detail/en/CANNCommunityEdition/900/API/ascendcopapi/atlasascendc_api_07_0319.html" +
		" https://gitcode.com/cann/asc-devkit/blob/master/docs/zh/api/SIMD-API/基础API/Reg矢量计算/Reg数据搬入/连续对齐搬入（LoadAlign）.md",
	Before: `AscendC::Reg::RegTensor<half> dstReg;
AscendC::Reg::MaskReg mask;
constexpr uint16_t oneRepeatSize = 120;  // 240 bytes: not a multiple of 32
for (uint16_t i = 0; i < repeatTimes; ++i) {
    mask = AscendC::Reg::UpdateMask<half>(count);
    AscendC::Reg::LoadAlign(dstReg, src + i * oneRepeatSize);
    AscendC::Reg::StoreAlign(dst + i * oneRepeatSize, dstReg, mask);
}`,
	After: `AscendC::Reg::RegTensor<half> dstReg;
AscendC::Reg::MaskReg mask;
constexpr uint16_t oneRepeatSize = 128;  // 256 bytes: one vector, 32-byte aligned
for (uint16_t i = 0; i < repeatTimes; ++i) {
    mask = AscendC::Reg::UpdateMask<half>(count);
    AscendC::Reg::LoadAlign(dstReg, src + i * oneRepeatSize);
    AscendC::Reg::StoreAlign(dst + i * oneRepeatSize, dstReg, mask);
}`,
	Severity:  ruleset.Error,
	Since:     "0.1.0",
	Tags:      []string{"correctness", "alignment"},
	Precision: "very-high",
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
			if !fn.Kind.Analysed() || fn.Body == nil {
				continue
			}
			fr := align.NewFrame(f, fn)
			for _, a := range align.Accesses(fn) {
				check(pass, fr, &a)
			}
		}
	}
	return nil, nil
}

func check(pass *analysis.Pass, fr *align.Frame, a *align.Access) {
	in := a.Instr
	if f, ok := fr.PostFault(a); ok {
		arg := in.Args[f.Arg]
		pass.Report(analysis.Diagnostic{Pos: arg.Pos, End: arg.End, Message: postMessage(a, f, arg.Text)})
	}
	for _, f := range fr.AddrRegFaults(a) {
		arg := in.Args[a.AddrReg]
		st := f.Create.Args[f.Arg]
		pass.Report(analysis.Diagnostic{Pos: arg.Pos, End: arg.End, Message: addrRegMessage(fr.Fn, a, f, arg, st.Text),
			Related: []analysis.RelatedInformation{{Pos: st.Pos, End: st.End, Message: "the stride is set here"}}})
	}
	for _, f := range fr.AddressFaults(a) {
		arg := in.Args[a.Ptr]
		pass.Report(analysis.Diagnostic{Pos: arg.Pos, End: arg.End, Message: addressMessage(a, f, arg.Text)})
	}
}

// need says what the mode requires: "DIST_NORM needs 32-byte alignment".
func need(a *align.Access, f align.Fault) string {
	return fmt.Sprintf("%s needs %d-byte alignment", a.Mode.Name, f.Align)
}

// multiple says how many elements keep the alignment.
func multiple(f align.Fault, typ string) string {
	if f.Size == 0 {
		return fmt.Sprintf("a multiple of %d / sizeof(%s) elements", f.Align, orT(typ))
	}
	return fmt.Sprintf("a multiple of %d elements", f.Align/gcd(f.Align, f.Size))
}

func gcd(a, b int64) int64 {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

func orT(t string) string {
	if t == "" {
		return "T"
	}
	return t
}

// data names the element type: "half data", "T data".
func data(t string) string {
	if t == "" {
		return "the data"
	}
	return t + " data"
}

func bytes(f align.Fault, typ string) string {
	if f.Size != 0 {
		return fmt.Sprintf("%d bytes", f.Bytes())
	}
	if f.Elems != 0 {
		return fmt.Sprintf("%d * sizeof(%s) bytes", f.Elems, orT(typ))
	}
	return "a size"
}

func postMessage(a *align.Access, f align.Fault, text string) string {
	if f.Size == 0 {
		return fmt.Sprintf("post-update stride %s of %s is %s, off the grid for every size of %s, but %s; use %s",
			text, data(f.Type), bytes(f, f.Type), orT(f.Type), need(a, f), multiple(f, f.Type))
	}
	return fmt.Sprintf("post-update stride %s of %s is %s, but %s; use %s",
		text, data(f.Type), bytes(f, f.Type), need(a, f), multiple(f, f.Type))
}

func addrRegMessage(fn *ir.Func, a *align.Access, f align.Fault, arg ir.Operand, stride string) string {
	name := arg.Text
	if arg.Reg != ir.NoReg {
		name = fn.Regs[arg.Reg].Name
	}
	step := stride
	if f.Elems != 0 {
		step = fmt.Sprint(f.Elems)
	}
	typ := f.Type
	if f.Size != 0 && typ == "" {
		typ = fmt.Sprintf("%d-bit", f.Size*8)
	}
	who := a.Called() + " with " + need(a, f)
	if a.Instr.Form == ir.FormCAPI {
		who = need(a, f)
	}
	if f.Size == 0 {
		return fmt.Sprintf("AddrReg %s step %s of %s per iteration of %s is %s, off the grid for every size of %s, but %s; make the CreateAddrReg stride %s",
			name, step, data(orT(typ)), f.Loop.Var, bytes(f, typ), orT(typ), who, multiple(f, typ))
	}
	return fmt.Sprintf("AddrReg %s step %s of %s per iteration of %s is %s, but %s; make the CreateAddrReg stride %s",
		name, step, data(typ), f.Loop.Var, bytes(f, typ), who, multiple(f, typ))
}

func addressMessage(a *align.Access, f align.Fault, text string) string {
	switch f.Kind {
	case align.FaultStride:
		if f.Size == 0 {
			return fmt.Sprintf("%s address %s moves %s per iteration of %s, off the grid for every size of %s, but %s; step it by %s",
				a.Called(), text, bytes(f, f.Type), f.Loop.Var, orT(f.Type), need(a, f), multiple(f, f.Type))
		}
		return fmt.Sprintf("%s address %s moves %s per iteration of %s, but %s; step it by %s of %s",
			a.Called(), text, bytes(f, f.Type), f.Loop.Var, need(a, f), multiple(f, f.Type), orT(f.Type))
	default:
		if f.Size == 0 {
			return fmt.Sprintf("%s address %s is %s past the aligned buffer %s, off the grid for every size of %s, but %s; offset it by %s",
				a.Called(), text, bytes(f, f.Type), f.Base, orT(f.Type), need(a, f), multiple(f, f.Type))
		}
		return fmt.Sprintf("%s address %s is %s past the aligned buffer %s, but %s; offset it by %s of %s",
			a.Called(), text, bytes(f, f.Type), f.Base, need(a, f), multiple(f, f.Type), orT(f.Type))
	}
}
