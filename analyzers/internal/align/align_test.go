package align

import (
	"go/token"
	"testing"

	"github.com/ascvet/ascvet/cppfront"
	"github.com/ascvet/ascvet/cppfront/ir"
)

// TestAlignTable holds the mode table against vf-api.md §4.2–4.4.
func TestAlignTable(t *testing.T) {
	for _, tc := range []struct {
		dist  string
		store bool
		size  int64 // element size of the data
		want  int64 // required alignment; 0 for an unknown mode
	}{
		{"DIST_NORM", false, 2, 32},
		{"DIST_NORM", true, 8, 32},
		{"DIST_NORM_B8", true, 1, 32},
		{"DIST_NORM_B16", true, 2, 32},
		{"DIST_NORM_B32", true, 4, 32},
		{"DIST_NORM_B16", false, 2, 0}, // LoadDist has no width-specific NORM
		{"DIST_FIRST_ELEMENT_B8", true, 1, 1},
		{"DIST_FIRST_ELEMENT_B16", true, 2, 2},
		{"DIST_FIRST_ELEMENT_B32", true, 4, 4},
		{"DIST_PACK_B16", true, 2, 32},
		{"DIST_PACK_B32", true, 4, 32},
		{"DIST_PACK_B64", true, 8, 32},
		{"DIST_PACK4_B32", true, 4, 32},
		{"DIST_INTLV_B8", true, 1, 32},
		{"DIST_INTLV_B16", true, 2, 32},
		{"DIST_INTLV_B32", true, 4, 32},
		{"DIST_MRG2CHN_B8", true, 1, 0},
		{"DIST_BRC_B8", false, 1, 1},
		{"DIST_BRC_B16", false, 2, 2},
		{"DIST_BRC_B32", false, 4, 4},
		{"DIST_US_B8", false, 1, 32},
		{"DIST_US_B16", false, 2, 32},
		{"DIST_DS_B8", false, 1, 32},
		{"DIST_DS_B16", false, 2, 32},
		{"DIST_UNPACK_B8", false, 1, 32},
		{"DIST_UNPACK_B16", false, 2, 32},
		{"DIST_UNPACK_B32", false, 4, 32},
		{"DIST_UNPACK4_B8", false, 1, 32},
		{"DIST_BLK", false, 4, 32},
		{"DIST_E2B_B16", false, 2, 16},
		{"DIST_E2B_B32", false, 4, 32},
		{"DIST_DINTLV_B8", false, 1, 32},
		{"DIST_DINTLV_B16", false, 2, 32},
		{"DIST_DINTLV_B32", false, 4, 32},
		{"DIST_SPLT2CHN_B8", false, 1, 0},
		{"DIST_BDINTLV", false, 1, 0},
		{"dist", false, 1, 0},
	} {
		if got := parseDist(tc.dist, tc.store).Align(tc.size); got != tc.want {
			t.Errorf("%s (store %v) on %d-byte data: alignment %d, want %d", tc.dist, tc.store, tc.size, got, tc.want)
		}
	}
	for _, tc := range []struct {
		dist  string
		store bool
		want  int64
	}{
		{"DIST_NORM", false, 32}, {"DIST_US", false, 16}, {"DIST_DS", false, 32},
		{"DIST_NORM", true, 32}, {"DIST_PACK", true, 16}, {"DIST_US", true, 0}, {"DIST_PACK", false, 0},
	} {
		if got := parseMaskDist(tc.dist, tc.store).Align(4); got != tc.want {
			t.Errorf("MaskDist %s (store %v): alignment %d, want %d", tc.dist, tc.store, got, tc.want)
		}
	}
	// The C API takes the width from the data.
	for _, tc := range []struct {
		name string
		size int64
		want int64
	}{
		{"asc_loadalign_brc", 2, 2}, {"asc_loadalign_brc_elem2datablock", 2, 16}, {"asc_loadalign_brc_v3", 4, 32},
		{"asc_storealign_1st", 4, 4}, {"asc_storealign_pack_quarter", 4, 32}, {"asc_loadalign_unpack_v2", 1, 32},
	} {
		f, ok := capiLoad[tc.name]
		if !ok {
			f = capiStore[tc.name]
		}
		if got := (Mode{Name: tc.name, Family: f}).Align(tc.size); got != tc.want {
			t.Errorf("%s on %d-byte data: alignment %d, want %d", tc.name, tc.size, got, tc.want)
		}
	}
}

func TestStemName(t *testing.T) {
	for _, tc := range []struct {
		f    Family
		w    int64
		load bool
		want string
	}{
		{FamNorm, 4, false, "DIST_NORM_B32"}, {FamNorm, 4, true, "DIST_NORM"}, {FamNorm, 8, false, ""},
		{FamPack, 8, false, "DIST_PACK_B64"}, {FamPack4, 2, false, ""}, {FamE2B, 2, true, "DIST_E2B_B16"},
		{FamFirst, 1, false, "DIST_FIRST_ELEMENT_B8"},
	} {
		if got := StemName(tc.f, tc.w, tc.load); got != tc.want {
			t.Errorf("StemName(%d, %d, %v) = %q, want %q", tc.f, tc.w, tc.load, got, tc.want)
		}
	}
}

func TestHasCast(t *testing.T) {
	for text, want := range map[string]bool{
		"src + 3":                            false,
		"src + (i + 1) * 8":                  false,
		"(__ubuf__ half*)src + 3":            true,
		"(__ubuf__ half*)(src) + 3":          true,
		"reinterpret_cast<__ubuf__ T*>(src)": true,
		"src + sizeof(T) * 2":                false,
	} {
		if got := hasCast(text); got != want {
			t.Errorf("hasCast(%q) = %v, want %v", text, got, want)
		}
	}
}

func parse(t *testing.T, src string) *ir.File {
	t.Helper()
	f, err := cppfront.ParseFile(token.NewFileSet(), "x.cpp", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if errs := ir.Verify(f); len(errs) > 0 {
		t.Fatal(errs)
	}
	return f
}

func TestTraitTwo(t *testing.T) {
	f := parse(t, `
template <typename T>
__simd_vf__ inline void K(AscendC::Reg::RegTensor<int64_t, AscendC::Reg::RegTraitNumTwo>& p,
                          AscendC::Reg::RegTensor<int64_t>& q)
{
    AscendC::Reg::RegTensor<int64_t, AscendC::Reg::RegTraitNumTwo> a, b;
    AscendC::Reg::RegTensor<uint64_t> c;
    AscendC::Reg::RegTensor<complex32, AscendC::Reg::RegTraitNumTwo> d;
    AscendC::Reg::RegTensor<T, AscendC::Reg::RegTraitNumTwo> e;
    vector_int64_t g;
}
`)
	want := map[string]bool{"p": true, "q": false, "a": true, "b": true, "c": false, "d": true, "e": true, "g": false}
	fn := f.Funcs[0]
	seen := 0
	for _, r := range fn.Regs {
		w, ok := want[r.Name]
		if !ok {
			continue
		}
		seen++
		if got := TraitTwo(f, r); got != w {
			t.Errorf("TraitTwo(%s) = %v, want %v", r.Name, got, w)
		}
	}
	if seen != len(want) {
		t.Errorf("saw %d of %d registers", seen, len(want))
	}
}

func TestFrame(t *testing.T) {
	f := parse(t, `
__simd_vf__ inline void K(__ubuf__ half* a, __ubuf__ half* b, __ubuf__ half*& c, __ubuf__ half* d, __ubuf__ half* e,
                          __ubuf__ half* g, __ubuf__ half* h, uint32_t n, __ubuf__ half arr[4], __ubuf__ half* k)
{
    AscendC::Reg::RegTensor<half> v;
    b += 16;
    AscendC::Reg::LoadAlign<half, AscendC::Reg::PostLiteral::POST_MODE_UPDATE>(v, d, 128);
    AscendC::Reg::LoadAlign<half, AscendC::Reg::PostLiteral::POST_MODE_UPDATE>(v, e, 8);
    Helper(g);
    Helper((__ubuf__ half*&)k);
    if (a == h) {
        n = 1;
    }
}
`)
	fr := NewFrame(f, f.Funcs[0])
	for name, want := range map[string]bool{"a": true, "b": false, "c": false, "d": true, "e": false, "g": false, "h": true,
		"n": false, "arr": false, "k": false} {
		if _, got := fr.Base(name); got != want {
			t.Errorf("Base(%s) = %v, want %v", name, got, want)
		}
	}
}
