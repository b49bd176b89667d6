// Package align describes the aligned loads and stores of a VF region —
// LoadAlign and StoreAlign in every spelling: AscendC::Reg, MicroAPI, the
// legacy DataCopy and the asc_* C calls — for the rules ASC2001–ASC2004:
// which distribution (dist) mode each access uses, the alignment that mode
// requires (vf-api.md §4.2–4.4), the element sizes the code allows, whether
// an address is provably misaligned, and which registers are declared
// RegTensor<T, RegTraitNumTwo>.
//
// Raw CCE builtins (vlds, vsts, ...) are left out: their argument order and
// offset units are not the API's, and they carry the mode as a value.
//
// Everything here proves or stays silent. A size that is a template
// parameter is tried at every size the code allows (1, 2, 4 and 8 bytes, or
// the width a width-specific mode fixes); a fact is reported only when it
// holds at all of them.
package align

import (
	"strconv"
	"strings"

	"github.com/ascvet/ascvet/cppfront/ir"
)

// Family is a dist mode without its width.
type Family uint8

// The mode families of LoadDist, StoreDist and MaskDist.
const (
	FamUnknown  Family = iota // not known: a template parameter, an undocumented mode, a misspelling
	FamNorm                   // DIST_NORM, DIST_NORM_Bn: one VL
	FamBrc                    // DIST_BRC_Bn: one element broadcast
	FamUS                     // DIST_US_Bn: 2x up-sample
	FamDS                     // DIST_DS_Bn: 2x down-sample
	FamUnpack                 // DIST_UNPACK_Bn: zero-extend VL/2
	FamUnpack4                // DIST_UNPACK4_B8: zero-extend VL/4
	FamBlk                    // DIST_BLK: one DataBlock broadcast
	FamE2B                    // DIST_E2B_Bn: each element broadcast to a DataBlock
	FamDintlv                 // DIST_DINTLV_Bn: de-interleave 2 x VL into two registers
	FamFirst                  // DIST_FIRST_ELEMENT_Bn: element 0 only
	FamPack                   // DIST_PACK_Bn: low half of each element
	FamPack4                  // DIST_PACK4_B32: low quarter of each element
	FamIntlv                  // DIST_INTLV_Bn: interleave two registers into 2 x VL
	FamMaskNorm               // MaskDist::DIST_NORM: VL/8 mask bytes
	FamMaskUS                 // MaskDist::DIST_US (load)
	FamMaskDS                 // MaskDist::DIST_DS (load)
	FamMaskPack               // MaskDist::DIST_PACK (store)
	FamBlock                  // DataCopyMode::DATA_BLOCK_COPY: eight strided DataBlocks
)

// Mode is the dist mode of one access.
type Mode struct {
	Name   string // as the user named it: "DIST_NORM_B16", "DIST_NORM" (also the default), "asc_storealign_1st"
	Family Family // FamUnknown when the mode cannot be resolved
	Width  int64  // element bytes the mode is for (the _Bn suffix), 0 when it adapts to T
}

// Known reports whether the mode was resolved.
func (m Mode) Known() bool { return m.Family != FamUnknown }

// Dual reports whether the mode moves two registers (INTLV, DINTLV).
func (m Mode) Dual() bool { return m.Family == FamIntlv || m.Family == FamDintlv }

// Align returns the byte alignment the mode requires of the UB address, of
// postUpdateStride * sizeof(T) and of the AddrReg offset * sizeof(T), for
// data of size bytes (vf-api.md §4.2–4.4; VL = 256 bytes). It returns 0 when
// the requirement is not documented or the size is needed and unknown.
func (m Mode) Align(size int64) int64 {
	switch m.Family {
	case FamBrc, FamFirst:
		// Element size: the mode's width, else (C API) the data's.
		if m.Width > 0 {
			return m.Width
		}
		return size
	case FamE2B:
		w := m.Width
		if w == 0 {
			w = size
		}
		switch w {
		case 2:
			return ir.VectorBytes / 16 // VL/16
		case 4:
			return ir.VectorBytes / 8 // VL/8
		}
		return 0
	case FamMaskUS, FamMaskPack:
		return ir.VectorBytes / 16
	case FamUnknown:
		return 0
	}
	// NORM, INTLV, DINTLV, DS, BLK, block copy: 32; US, UNPACK, PACK:
	// min(32, VL/2) = 32; UNPACK4, PACK4: min(32, VL/4) = 32; mask NORM VL/8
	// and mask DS min(32, VL/4): 32.
	return 32
}

// fam maps the stem of an enumerator (without DIST_ and _Bn) to its family.
var loadFam = map[string]Family{
	"NORM": FamNorm, "BRC": FamBrc, "US": FamUS, "DS": FamDS, "UNPACK": FamUnpack, "UNPACK4": FamUnpack4,
	"BLK": FamBlk, "E2B": FamE2B, "DINTLV": FamDintlv,
}

var storeFam = map[string]Family{
	"NORM": FamNorm, "FIRST_ELEMENT": FamFirst, "PACK": FamPack, "PACK4": FamPack4, "INTLV": FamIntlv,
}

// widths are the _Bn suffixes that exist, per family (vf-api.md §4.1).
var widths = map[Family][]int64{
	FamNorm: {1, 2, 4}, FamBrc: {1, 2, 4}, FamUS: {1, 2}, FamDS: {1, 2}, FamUnpack: {1, 2, 4}, FamUnpack4: {1},
	FamE2B: {2, 4}, FamDintlv: {1, 2, 4}, FamFirst: {1, 2, 4}, FamPack: {2, 4, 8}, FamPack4: {4}, FamIntlv: {1, 2, 4},
}

// parseDist resolves a LoadDist/StoreDist enumerator ("DIST_NORM_B16").
// Enumerators that exist but are not documented for the 950 (BDINTLV,
// SPLT*CHN, MRG*CHN) and those of the other enum stay unknown.
func parseDist(d string, store bool) Mode {
	m := Mode{Name: d}
	stem, ok := strings.CutPrefix(d, "DIST_")
	if !ok {
		return m
	}
	var w int64
	for _, b := range []struct {
		suf string
		w   int64
	}{{"_B8", 1}, {"_B16", 2}, {"_B32", 4}, {"_B64", 8}} {
		if s, ok := strings.CutSuffix(stem, b.suf); ok {
			stem, w = s, b.w
			break
		}
	}
	tab := loadFam
	if store {
		tab = storeFam
	}
	f := tab[stem]
	if f == FamUnknown {
		return m
	}
	if f == FamNorm && w != 0 && !store {
		return m // LoadDist has no width-specific NORM
	}
	if w != 0 && !hasWidth(f, w) {
		return m
	}
	if w == 0 && f != FamNorm && f != FamBlk {
		return m // every other family is spelled with a width
	}
	m.Family, m.Width = f, w
	return m
}

func hasWidth(f Family, w int64) bool {
	for _, x := range widths[f] {
		if x == w {
			return true
		}
	}
	return false
}

// parseMaskDist resolves a MaskDist enumerator.
func parseMaskDist(d string, store bool) Mode {
	m := Mode{Name: d}
	switch {
	case d == "DIST_NORM":
		m.Family = FamMaskNorm
	case d == "DIST_US" && !store:
		m.Family = FamMaskUS
	case d == "DIST_DS" && !store:
		m.Family = FamMaskDS
	case d == "DIST_PACK" && store:
		m.Family = FamMaskPack
	}
	return m
}

// capiLoad and capiStore map the asc_* names to their families: the C API
// spells the mode in the function name and takes the width from the data.
var capiLoad = map[string]Family{
	"asc_loadalign": FamNorm, "asc_loadalign_postupdate": FamNorm,
	"asc_loadalign_brc": FamBrc, "asc_loadalign_brc_postupdate": FamBrc,
	"asc_loadalign_brc_elem": FamBrc, "asc_loadalign_brc_elem_postupdate": FamBrc,
	"asc_loadalign_brc_v2": FamBlk, "asc_loadalign_brc_postupdate_v2": FamBlk,
	"asc_loadalign_brc_datablock": FamBlk, "asc_loadalign_brc_datablock_postupdate": FamBlk,
	"asc_loadalign_brc_v3": FamE2B, "asc_loadalign_brc_postupdate_v3": FamE2B,
	"asc_loadalign_brc_elem2datablock": FamE2B, "asc_loadalign_brc_elem2datablock_postupdate": FamE2B,
	"asc_loadalign_upsample": FamUS, "asc_loadalign_upsample_postupdate": FamUS,
	"asc_loadalign_downsample": FamDS, "asc_loadalign_downsample_postupdate": FamDS,
	"asc_loadalign_unpack": FamUnpack, "asc_loadalign_unpack_postupdate": FamUnpack,
	"asc_loadalign_unpack_v2": FamUnpack4, "asc_loadalign_unpack_postupdate_v2": FamUnpack4,
	"asc_loadalign_unpack4": FamUnpack4, "asc_loadalign_unpack4_postupdate": FamUnpack4,
	"asc_loadalign_deintlv": FamDintlv, "asc_loadalign_deintlv_postupdate": FamDintlv,
}

var capiStore = map[string]Family{
	"asc_storealign": FamNorm, "asc_storealign_postupdate": FamNorm,
	"asc_storealign_1st": FamFirst, "asc_storealign_1st_postupdate": FamFirst,
	"asc_storealign_pack": FamPack, "asc_storealign_pack_postupdate": FamPack,
	"asc_storealign_pack_v2": FamPack4, "asc_storealign_pack_postupdate_v2": FamPack4,
	"asc_storealign_pack_quarter": FamPack4, "asc_storealign_pack_quarter_postupdate": FamPack4,
	"asc_storealign_intlv": FamIntlv,
}

// capiMask maps a C data family to the MaskDist family of its vector_bool overload.
var capiMask = map[Family]Family{FamNorm: FamMaskNorm, FamUS: FamMaskUS, FamDS: FamMaskDS, FamPack: FamMaskPack}

// StemName returns the enumerator of family f at width w ("DIST_NORM_B32"),
// or "" when there is none; for the load side when load is true.
func StemName(f Family, w int64, load bool) string {
	if !hasWidth(f, w) {
		return ""
	}
	stem := map[Family]string{
		FamNorm: "NORM", FamBrc: "BRC", FamUS: "US", FamDS: "DS", FamUnpack: "UNPACK", FamUnpack4: "UNPACK4",
		FamE2B: "E2B", FamDintlv: "DINTLV", FamFirst: "FIRST_ELEMENT", FamPack: "PACK", FamPack4: "PACK4", FamIntlv: "INTLV",
	}[f]
	if stem == "" {
		return ""
	}
	if f == FamNorm && load {
		return "DIST_NORM" // LoadDist has no width-specific NORM
	}
	return "DIST_" + stem + "_B" + strconv.FormatInt(w*8, 10)
}
