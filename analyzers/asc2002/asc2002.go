// Package asc2002 defines an Analyzer that reports aligned loads and stores
// whose dist mode does not fit the data they move: an interleave or
// de-interleave mode on the wrong number of registers, 64-bit data in a
// single load or store with a mode the hardware does not support for it,
// and a DIST_NORM_Bn store whose partial mask was made for narrower
// elements than its lanes. A mode that names its width on data of another
// width is a deliberate reinterpretation and is not reported. In the
// pypto_pro DSL only the combinations the DSL cannot mean are reported
// (pyMessage).
//
//	StoreAlign<half, StoreDist::DIST_INTLV_B16>(dst, v, m);   // reported: interleave stores two registers
//	LoadAlign<half, LoadDist::DIST_DINTLV_B16>(v, src);       // reported: de-interleave loads two
//	StoreAlign<half, StoreDist::DIST_NORM_B32>(dst, v, UpdateMask<half>(n)); // reported: odd n writes one half more
//	LoadAlign<uint32_t, LoadDist::DIST_BRC_B8>(v, src);       // not reported: a byte broadcast on purpose
package asc2002

import (
	"fmt"
	"go/token"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/ascvet/ascvet/analyzers/cppir"
	"github.com/ascvet/ascvet/analyzers/internal/align"
	"github.com/ascvet/ascvet/cppfront/ir"
	"github.com/ascvet/ascvet/ruleset"
)

// Rule is ASC2002 dist-type-mismatch.
var Rule = ruleset.Define(&ruleset.Rule{
	ID:    "ASC2002",
	Name:  "dist-type-mismatch",
	Title: "dist mode does not fit the data of the load or store",
	Text: "LoadAlign and StoreAlign accept one set of dist modes for one register and another for two: the " +
		"interleave modes (DIST_INTLV_Bn, asc_storealign_intlv) store two registers and the de-interleave modes " +
		"(DIST_DINTLV_Bn, asc_loadalign_deintlv) load two, and a two-register access needs one of them " +
		"(CheckLoadDist/CheckStoreDist reject the rest when the kernel compiles). A single load of 64-bit data " +
		"supports only DIST_NORM, a single store only DIST_NORM and DIST_PACK_B64. Only DIST_NORM takes its width " +
		"from T (GetStoreDist); a mode that names its width (_B8/_B16/_B32) goes to vlds/vsts as written, whatever " +
		"T is, and moves the bytes it names: DIST_BRC_B8 on uint32_t data broadcasts a byte on purpose, " +
		"DIST_DINTLV_B16 on uint32_t data splits the 16-bit halves, DIST_UNPACK_B16 on fp8 bytes feeds a cast. " +
		"Such reinterpretations are not reported. What the width does change is which elements a DIST_NORM_Bn " +
		"store writes under a mask that is not all true: the mask holds one bit per byte and an n-byte lane reads " +
		"the bit of its first byte, so a mask made for 16-bit elements with an odd count enables a 32-bit lane for " +
		"half of it, and DIST_NORM_B32 writes one element more than the mask says. That is reported when the mask " +
		"comes from CreateMask or UpdateMask for narrower elements than the mode's lanes. Fix: make the mask for the " +
		"mode's lanes, store with the mode of the mask's width, or move the number of registers the mode moves; " +
		"never change the mode of a reinterpretation to fit T, which changes the data. " +
		"In the pypto_pro DSL, vf.load_align and vf.store_align lower to the raw vlds/vsts builtins, not to these " +
		"templates, so only some combinations are mistakes: a mode named with its width (dist=pl.LoadDist.BRC_B8) " +
		"moves the bytes it names whatever the dtype, a deliberate reinterpretation that is not reported; a mode " +
		"named without one (dist=pl.LoadDist.US) takes the width of the data's dtype, and is reported where the mode " +
		"has no such width, since pypto then silently emits another (US_B16 on 32-bit data), and where it breaks the " +
		"64-bit rules (a single load only NORM, a single store NORM or PACK); the register counts are checked as in C++. " +
		"\n\nSource: the StoreAlign reference (\"Contiguous Aligned Data Move-out\", 连续对齐搬出), where a single store of b64 data supports only DIST_NORM and DIST_PACK_B64; " +
		"the LoadAlign reference (\"Contiguous Aligned Data Move-in\", 连续对齐搬入) for b64 loads; the MaskReg reference for the mask bits; asc-devkit's dav_3510 " +
		"kernel_reg_compute_datacopy_{load,store}_impl.h (CheckLoadDist, CheckStoreDist) and kernel_reg_compute_common_impl.h " +
		"(GetStoreDist); pypto's backend_cce_vf_ops.cpp (EmitVFLoadAlign, EmitVFStoreAlign) for the DSL." +
		" https://www.hiascend.com/document/detail/en/CANNCommunityEdition/900/API/ascendcopapi/atlasascendc_api_07_0320.html" +
		" https://gitcode.com/cann/asc-devkit/blob/master/docs/zh/api/SIMD-API/基础API/Reg矢量计算/Reg数据搬出/连续对齐搬出（StoreAlign）.md" +
		" https://www.hiascend.com/document/detail/en/CANNCommunityEdition/900/API/ascendcopapi/atlasascendc_api_07_0319.html" +
		" https://gitcode.com/cann/asc-devkit/blob/master/docs/zh/api/SIMD-API/基础API/Reg矢量计算/Reg数据搬入/连续对齐搬入（LoadAlign）.md" +
		" https://gitcode.com/cann/asc-devkit/blob/master/docs/zh/api/SIMD-API/基础API/Reg矢量计算/寄存器数据类型/MaskReg.md" +
		" https://gitcode.com/cann/asc-devkit/tree/master/impl/basic_api/reg_compute/dav_3510" +
		" https://gitcode.com/cann/pypto/blob/master/framework/src/interface/pypto_pro/backend/backend_cce_vf_ops.cpp",
	Before: `AscendC::Reg::RegTensor<int64_t> dstReg;
AscendC::Reg::MaskReg mask = AscendC::Reg::CreateMask<int64_t>();
AscendC::Reg::LoadAlign(dstReg, src64);
// b64 data: a single store supports only DIST_NORM and DIST_PACK_B64
AscendC::Reg::StoreAlign<int64_t, AscendC::Reg::StoreDist::DIST_FIRST_ELEMENT_B32>(dst64, dstReg, mask);`,
	After: `AscendC::Reg::RegTensor<int64_t> dstReg;
AscendC::Reg::MaskReg mask = AscendC::Reg::CreateMask<int64_t>();
AscendC::Reg::LoadAlign(dstReg, src64);
AscendC::Reg::StoreAlign<int64_t, AscendC::Reg::StoreDist::DIST_NORM>(dst64, dstReg, mask);`,
	Severity:  ruleset.Error,
	Since:     "0.1.0",
	Tags:      []string{"correctness", "dist-mode"},
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
			for _, a := range align.Accesses(fn) {
				if f.Lang == ir.Python && a.Kind == align.KindData {
					if msg, pos, end := pyMessage(f, &a); msg != "" {
						pass.Report(analysis.Diagnostic{Pos: pos, End: end, Message: msg})
					}
					continue
				}
				if a.Kind != align.KindData || !a.Mode.Known() {
					continue
				}
				if msg := message(fn, &a); msg != "" {
					pos, end := modePos(f, &a)
					pass.Report(analysis.Diagnostic{Pos: pos, End: end, Message: msg})
				}
			}
		}
	}
	return nil, nil
}

// message returns the finding for a, or "" when the mode fits.
func message(fn *ir.Func, a *align.Access) string {
	m := a.Mode
	n := len(a.Data)
	what, regs := "loads", "destination"
	if a.Store {
		what, regs = "stores", "source"
	}
	switch {
	case m.Dual() && n == 1:
		if a.Store {
			return fmt.Sprintf("%s %s one register, but interleave stores two (dst, src0, src1); pass the second register, or use %s for one",
				subject(a), what, single(a))
		}
		return fmt.Sprintf("%s has one destination, but de-interleave loads two (dst0, dst1, src); pass the second register, or use %s for one",
			subject(a), single(a))
	case !m.Dual() && n == 2:
		if a.Instr.Form == ir.FormCAPI {
			return "" // no such overload: the compiler says so
		}
		dual, fam := "an interleave mode (DIST_INTLV_Bn)", align.FamIntlv
		if !a.Store {
			dual, fam = "a de-interleave mode (DIST_DINTLV_Bn)", align.FamDintlv
		}
		if name := align.StemName(fam, width(a), !a.Store); name != "" {
			dual = name
		}
		return fmt.Sprintf("%s has two %s registers, but only %s moves two; use it, or one register", subject(a), regs, dual)
	}
	w := width(a)
	switch {
	case w == 0:
		return ""
	case fits(m, w):
		return ""
	case w == 8 && a.Store && !m.Dual():
		return fmt.Sprintf("%s on %s data, but a single store of 64-bit data supports only DIST_NORM and DIST_PACK_B64",
			subject(a), a.Elem)
	case w == 8 && !m.Dual():
		return fmt.Sprintf("%s on %s data, but a single load of 64-bit data supports only DIST_NORM (or DIST_UNPACK_B32 to widen 32-bit data)",
			subject(a), a.Elem)
	}
	// A mode that names its width goes to vlds/vsts as written, whatever
	// T is (the implementation derives a width from T for DIST_NORM only):
	// the bytes are reinterpreted on purpose, a byte broadcast into wider
	// lanes, the halves of 32-bit data de-interleaved, fp8 bytes unpacked
	// for a cast. What the width does change is which elements a
	// DIST_NORM_Bn store writes under a partial mask (normStoreMask).
	if a.Store && m.Family == align.FamNorm {
		return normStoreMask(fn, a)
	}
	return ""
}

// normStoreMask returns the finding for a DIST_NORM_Bn store of data of
// another width under a mask made for elements narrower than n bytes and
// not all true, or "". A mask holds one bit per data byte and an n-byte
// lane reads the bit of its first byte (vf-api.md, MaskReg): a mask made
// for 2-byte elements with an odd count enables a 4-byte lane for half of
// it, so the store writes one element more than the mask says. A mask
// made for wider elements, or one all true, writes what it selects.
func normStoreMask(fn *ir.Func, a *align.Access) string {
	mw, all, name, ok := maskOf(fn, a.Instr)
	if !ok || all || mw == 0 || mw >= a.Mode.Width {
		return ""
	}
	return fmt.Sprintf("%s on %s data under %s, a mask made for %d-bit elements: the store reads one mask bit per %d-bit lane, so a count that is not a multiple of %d writes up to %d bytes the mask leaves out; make the mask for %d-bit lanes or store with %s",
		subject(a), a.Elem, name, mw*8, a.Mode.Width*8, a.Mode.Width/mw, a.Mode.Width-mw, a.Mode.Width*8, align.StemName(align.FamNorm, mw, false))
}

// maskOf returns how the mask of a store was made: the element size it
// was made for, whether it is all true, and its name; ok is false when its
// one definition in the region is not a CreateMask or UpdateMask.
func maskOf(fn *ir.Func, in *ir.Instr) (size int64, all bool, name string, ok bool) {
	r := ir.NoReg
	for _, op := range in.Args {
		if op.Role == ir.ArgMask {
			r, name = op.Reg, op.Text
		}
	}
	if r == ir.NoReg {
		return 0, false, "", false
	}
	var def *ir.Instr
	for _, d := range fn.Instrs {
		if slices.Contains(d.Defs, r) {
			if def != nil {
				return 0, false, "", false
			}
			def = d
		}
	}
	if def == nil || def.Op != ir.OpCreateMask && def.Op != ir.OpUpdateMask {
		return 0, false, "", false
	}
	size, ok = ir.ElemSize(def.Elem)
	if !ok {
		return 0, false, "", false
	}
	all = def.Op == ir.OpCreateMask && (len(def.TArgs) < 2 || strings.HasSuffix(def.TArgs[1], "ALL")) && len(def.Args) == 0
	return size, all, name, true
}

// fits reports whether a mode suits data of w bytes. A width-specific mode
// is for data of its width, with two exceptions taken from real kernels:
// the pack modes name the width of the register lanes they narrow, and T
// may be that lane type or the narrowed type written to UB
// (StoreAlign<half, DIST_PACK_B32> after a float-to-half Cast); the unpack
// modes name the width of the UB elements they widen, and T may be that
// type or the widened lane type (LoadAlign<int64_t, DIST_UNPACK_B32>). A
// mode without a width (DIST_NORM, DIST_BLK, the C API) fits any data,
// except that 64-bit data loads only with DIST_NORM and stores only with
// DIST_NORM and DIST_PACK_B64.
func fits(m align.Mode, w int64) bool {
	n := m.Width
	if n == 0 {
		return w != 8 || m.Dual() || m.Family == align.FamNorm || m.Family == align.FamPack
	}
	switch m.Family {
	case align.FamPack:
		return w == n || 2*w == n
	case align.FamPack4:
		return w == n || 4*w == n
	case align.FamUnpack:
		return w == n || w == 2*n
	case align.FamUnpack4:
		return w == n || w == 4*n
	}
	return w == n
}

// width returns the element size of the data, 0 when it is not known.
func width(a *align.Access) int64 {
	if sz, ok := a.Size(); ok {
		return sz
	}
	return 0
}

// single names the one-register mode to suggest instead of a dual one.
func single(a *align.Access) string {
	if a.Instr.Form == ir.FormCAPI {
		if a.Store {
			return "asc_storealign"
		}
		return "asc_loadalign"
	}
	if a.Store {
		if w := width(a); w != 0 && w != 8 {
			return align.StemName(align.FamNorm, w, false) + " or DIST_NORM"
		}
	}
	return "DIST_NORM"
}

// modePos returns the span of the mode in the call: its enumerator among
// the template arguments, or the call itself (the C API names the mode in
// the callee).
func modePos(f *ir.File, a *align.Access) (pos, end token.Pos) {
	in := a.Instr
	if in.Dist != "" && f.Tok != nil {
		lo, hi := f.Tok.Offset(in.Pos), f.Tok.Offset(in.End)
		if lo >= 0 && hi <= len(f.Src) && lo <= hi {
			if k := strings.Index(string(f.Src[lo:hi]), in.Dist); k >= 0 {
				return in.Pos + token.Pos(k), in.Pos + token.Pos(k+len(in.Dist))
			}
		}
	}
	return in.Pos, in.End
}

// subject names the access and its mode: "StoreAlign with DIST_NORM_B16",
// or the C call alone, which names its mode itself.
func subject(a *align.Access) string {
	if a.Instr.Form == ir.FormCAPI {
		return a.Called()
	}
	return a.Called() + " with " + a.Mode.Name
}

// The pypto_pro DSL (ir.Python) does not instantiate the LoadAlign and
// StoreAlign templates whose static checks this rule mirrors. pypto lowers
// vf.load_align and vf.store_align to the raw vlds/vsts builtins
// (framework/src/interface/pypto_pro/backend/backend_cce_vf_ops.cpp,
// EmitVFLoadAlign and EmitVFStoreAlign):
//
//   - a mode named with its width (dist=pl.LoadDist.BRC_B8) is passed to the
//     builtin as it is, whatever the register's dtype: the width names the
//     bytes moved and the register is a view of them. Kernels do this on
//     purpose (lightning indexer: BRC_B8 into a UINT16 register, then an AND
//     with 0xFF00), so such a mode is never a width mismatch in Python;
//   - a mode without a width (dist=pl.LoadDist.BRC) takes its width from
//     the data's dtype, but only among the widths pypto knows: US and DS on
//     32- or 64-bit data become US_B16 and DS_B16, BRC on 64-bit data
//     BRC_B32, E2B on 8- or 64-bit data E2B_B32, FIRST_ELEMENT and INTLV on
//     64-bit data their _B32 form, PACK4 on 16-bit data PACK4_B32. Those
//     silently move elements of another width than the data's: reported;
//   - the number of registers must still match the mode (two for INTLV and
//     DINTLV, one otherwise): pypto rejects a one-register INTLV store when
//     it compiles, and passes a one-register DINTLV load to the builtin.
//
// pyDist is what the code wrote as dist=.
type pyDist struct {
	text     string       // the argument as written: "pl.LoadDist.US"
	name     string       // its enumerator: "US", "BRC_B8"
	fam      align.Family // its family
	width    int64        // the width it names in bytes, 0 when none
	pos, end token.Pos    // the argument's span
}

// pyLoadFam and pyStoreFam map the DSL's LoadDist and StoreDist stems
// (pypto_pro ir/op_attr_types.h) to their families.
var pyLoadFam = map[string]align.Family{
	"NORM": align.FamNorm, "BRC": align.FamBrc, "US": align.FamUS, "DS": align.FamDS, "UNPK": align.FamUnpack,
	"UNPK4": align.FamUnpack4, "BLK": align.FamBlk, "E2B": align.FamE2B, "DINTLV": align.FamDintlv,
}

var pyStoreFam = map[string]align.Family{
	"NORM": align.FamNorm, "FIRST_ELEMENT": align.FamFirst, "FIRST_ELE": align.FamFirst, "PACK": align.FamPack,
	"PACK4": align.FamPack4, "INTLV": align.FamIntlv,
}

// pyptoWidth returns the width pypto gives a width-less mode of family f
// on data of w bytes (0: the mode has none, NORM and BLK).
func pyptoWidth(f align.Family, w int64) int64 {
	switch f {
	case align.FamBrc, align.FamUnpack, align.FamFirst, align.FamIntlv, align.FamDintlv:
		return min(w, 4)
	case align.FamUS, align.FamDS:
		return min(w, 2)
	case align.FamUnpack4:
		return 1
	case align.FamE2B:
		if w == 2 {
			return 2
		}
		return 4
	case align.FamPack:
		return max(w, 2)
	case align.FamPack4:
		return 4
	}
	return 0
}

// distArg finds the dist= argument of the call in, and reads its mode; ok
// is false when the call has none, or names a mode the DSL does not have.
func distArg(f *ir.File, in *ir.Instr, store bool) (d pyDist, ok bool) {
	lo, hi := f.Tok.Offset(in.Pos), f.Tok.Offset(in.End)
	if lo < 0 || hi > len(f.Src) || lo >= hi {
		return d, false
	}
	call := string(f.Src[lo:hi])
	open := strings.IndexByte(call, '(')
	if open < 0 {
		return d, false
	}
	depth, start := 0, open+1
	for i := open; i < len(call); i++ {
		switch call[i] {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			depth--
		}
		if depth == 1 && call[i] == ',' || depth == 0 {
			arg := call[start:i]
			if k, v, found := strings.Cut(arg, "="); found && strings.TrimSpace(k) == "dist" {
				text := strings.TrimSpace(v)
				off := start + strings.Index(arg, text)
				d = pyDist{text: text, pos: in.Pos + token.Pos(off), end: in.Pos + token.Pos(off+len(text))}
				return d, d.read(store)
			}
			start = i + 1
			if depth == 0 {
				break
			}
		}
	}
	return d, false
}

// read resolves the enumerator of d.text.
func (d *pyDist) read(store bool) bool {
	d.name = d.text[strings.LastIndexByte(d.text, '.')+1:]
	stem := d.name
	for _, b := range []struct {
		suf string
		w   int64
	}{{"_B8", 1}, {"_B16", 2}, {"_B32", 4}, {"_B64", 8}} {
		if s, ok := strings.CutSuffix(stem, b.suf); ok {
			stem, d.width = s, b.w
			break
		}
	}
	tab := pyLoadFam
	if store {
		tab = pyStoreFam
	}
	d.fam = tab[stem]
	return d.fam != align.FamUnknown
}

func (d *pyDist) dual() bool { return d.fam == align.FamIntlv || d.fam == align.FamDintlv }

// pyMessage returns the finding for a Python access, or "", and where to
// report it.
func pyMessage(f *ir.File, a *align.Access) (string, token.Pos, token.Pos) {
	in := a.Instr
	d, ok := distArg(f, in, a.Store)
	if !ok {
		return "", 0, 0
	}
	subject := fmt.Sprintf("%s with dist=%s", in.Callee, d.text)
	n := len(a.Data)
	switch {
	case d.dual() && n == 1 && a.Store:
		return fmt.Sprintf("%s stores one register, but interleave stores two (dst, src0, src1, mask); pass the second register, or use NORM for one", subject), d.pos, d.end
	case d.dual() && n == 1:
		return fmt.Sprintf("%s has one destination, but de-interleave loads two (x0, x1 = %s(...)); assign two registers, or use NORM for one", subject, in.Callee), d.pos, d.end
	case !d.dual() && n == 2 && a.Store:
		return fmt.Sprintf("%s has two source registers, but only INTLV stores two; use it, or one register", subject), d.pos, d.end
	case !d.dual() && n == 2:
		return fmt.Sprintf("%s has two destination registers, but only DINTLV loads two; use it, or one register", subject), d.pos, d.end
	case d.width != 0:
		return "", 0, 0 // an explicit width: the builtin moves what it names
	}
	w := width(a)
	if w == 0 {
		return "", 0, 0
	}
	chosen := pyptoWidth(d.fam, w)
	if fits(align.Mode{Family: d.fam, Width: chosen}, w) {
		return "", 0, 0
	}
	emitted := d.name
	if chosen != 0 {
		emitted = fmt.Sprintf("%s_B%d", d.name, chosen*8)
	}
	switch {
	case w == 8 && a.Store && !d.dual():
		return fmt.Sprintf("%s on %s data, but a single store of 64-bit data supports only NORM and PACK; pypto emits %s", subject, a.Elem, emitted), d.pos, d.end
	case w == 8 && !d.dual():
		return fmt.Sprintf("%s on %s data, but a single load of 64-bit data supports only NORM (or UNPK to widen 32-bit data); pypto emits %s", subject, a.Elem, emitted), d.pos, d.end
	}
	return fmt.Sprintf("%s on %s data, but the mode has no %d-bit variant: pypto emits %s, which moves %d-bit elements; name %s if that is meant", subject, a.Elem, w*8, emitted, chosen*8, emitted), d.pos, d.end
}
