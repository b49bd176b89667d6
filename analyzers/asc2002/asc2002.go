// Package asc2002 defines an Analyzer that reports aligned loads and stores
// whose dist mode does not fit the data they move: a width-specific mode on
// data of another width, 64-bit data in a single load or store with a mode
// the hardware does not support for it, and an interleave or de-interleave
// mode on the wrong number of registers.
//
//	StoreAlign<float, StoreDist::DIST_NORM_B16>(dst, f, m);   // reported: use DIST_NORM_B32 or DIST_NORM
//	StoreAlign<half, StoreDist::DIST_INTLV_B16>(dst, v, m);   // reported: interleave stores two registers
//	LoadAlign<half, LoadDist::DIST_DINTLV_B16>(v, src);       // reported: de-interleave loads two
package asc2002

import (
	"fmt"
	"go/token"
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
	Text: "The _B8/_B16/_B32/_B64 dist modes of LoadAlign and StoreAlign are for data of that width: DIST_NORM_B16 on " +
		"float data stores the register as if it held halves, DIST_BRC_B32 on half data broadcasts two elements as " +
		"one. A single load of 64-bit data supports only DIST_NORM, a single store only DIST_NORM and DIST_PACK_B64. " +
		"The interleave modes (DIST_INTLV_Bn, asc_storealign_intlv) store two registers and the de-interleave modes " +
		"(DIST_DINTLV_Bn, asc_loadalign_deintlv) load two; a two-register access needs one of them. The rule reads " +
		"the element type from the template argument T or, when there is none, from the register; element types " +
		"that are template parameters are not checked for width. Fix: use the mode of the data's width, DIST_NORM " +
		"(which picks the width from T), or the number of registers the mode moves. " +
		"Source: seed 004, where a single store of b64 data supports only DIST_NORM and DIST_PACK_B64.",
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
				if a.Kind != align.KindData || !a.Mode.Known() {
					continue
				}
				if msg := message(&a); msg != "" {
					pos, end := modePos(f, &a)
					pass.Report(analysis.Diagnostic{Pos: pos, End: end, Message: msg})
				}
			}
		}
	}
	return nil, nil
}

// message returns the finding for a, or "" when the mode fits.
func message(a *align.Access) string {
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
	fix := align.StemName(m.Family, w, !a.Store)
	switch {
	case fix == "" && m.Family == align.FamPack:
		fix = align.StemName(m.Family, 2*w, false)
	case fix == "" && m.Family == align.FamUnpack:
		fix = align.StemName(m.Family, w/2, true)
	case fix != "" && m.Family == align.FamNorm && a.Store:
		fix += " or DIST_NORM"
	}
	if fix == "" {
		return fmt.Sprintf("%s on %s data, but the mode has no variant for %d-bit data", subject(a), a.Elem, w*8)
	}
	return fmt.Sprintf("%s on %s data; use %s", subject(a), a.Elem, fix)
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
