package stream

import (
	"go/token"
	"sort"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"

	"github.com/ascvet/ascvet/cppfront"
	"github.com/ascvet/ascvet/cppfront/ir"
)

func lower(t *testing.T, src string) *ir.File {
	t.Helper()
	fset := token.NewFileSet()
	f, err := cppfront.ParseFile(fset, "k.asc", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if errs := ir.Verify(f); len(errs) > 0 {
		t.Fatal(errs)
	}
	return f
}

// apply applies a fix's edits (back to front) to the file's source.
func apply(f *ir.File, fix *analysis.SuggestedFix) string {
	edits := append([]analysis.TextEdit(nil), fix.TextEdits...)
	sort.SliceStable(edits, func(i, j int) bool { return edits[i].Pos > edits[j].Pos })
	out := string(f.Src)
	for _, e := range edits {
		a, b := f.Tok.Offset(e.Pos), f.Tok.Offset(e.End)
		out = out[:a] + string(e.NewText) + out[b:]
	}
	return out
}

func TestHoistFix(t *testing.T) {
	src := "__simd_vf__ void K(__ubuf__ float* dst, __ubuf__ float* src, uint16_t n)\r\n" +
		"{\r\n" +
		"    Reg::RegTensor<float> v;\r\n" +
		"    Reg::UnalignRegForLoad u;\r\n" +
		"    for (uint16_t i = 0; i < n; ++i) {\r\n" +
		"        Reg::LoadUnAlignPre(u, src + i * 64 - 1); // prime\r\n" +
		"        Reg::LoadUnAlign(v, u, src + i * 64 - 1);\r\n" +
		"        Reg::StoreAlign(dst + i * 64, v, Reg::CreateMask<float>());\r\n" +
		"    }\r\n" +
		"}\r\n"
	f := lower(t, src)
	sites := PreSites(f.Funcs[0])
	if len(sites) != 1 || sites[0].Verdict != Contiguous {
		t.Fatalf("sites %+v", sites)
	}
	fix, _ := HoistFix(f, sites[0])
	if fix == nil {
		t.Fatal("no fix")
	}
	want := strings.Replace(strings.Replace(src,
		"        Reg::LoadUnAlignPre(u, src + i * 64 - 1); // prime\r\n", "", 1),
		"    for (", "    Reg::LoadUnAlignPre(u, src - 1); // prime\r\n    for (", 1)
	if got := apply(f, fix); got != want {
		t.Errorf("fixed:\n%q\nwant:\n%q", got, want)
	}
}

func TestSinkFix(t *testing.T) {
	src := `__simd_vf__ void K(__ubuf__ float* dst, __ubuf__ float* src, uint16_t n)
{
    Reg::RegTensor<float> v;
    Reg::UnalignRegForStore u;
    for (uint16_t i = 0; i < n; ++i) {
        Reg::LoadAlign(v, src + i * 64);
        Reg::StoreUnAlign(dst, v, u, 64);
        Reg::StoreUnAlignPost(dst, u, 0);
    }
}
`
	f := lower(t, src)
	sites := PostSites(f.Funcs[0])
	if len(sites) != 1 || sites[0].Verdict != Contiguous {
		t.Fatalf("sites %+v", sites)
	}
	fix, _ := SinkFix(f, sites[0])
	if fix == nil {
		t.Fatal("no fix")
	}
	want := strings.Replace(strings.Replace(src, "        Reg::StoreUnAlignPost(dst, u, 0);\n", "", 1),
		"    }\n}", "    }\n    Reg::StoreUnAlignPost(dst, u, 0);\n}", 1)
	if got := apply(f, fix); got != want {
		t.Errorf("fixed:\n%s\nwant:\n%s", got, want)
	}
}

// TestReplayWithholdsFix: a store stream whose loop reads back what it
// stored. The contiguity check says so (not reported), and, as a second
// line of defence, the replay refuses the sink on its own: the sunk Post
// would change what the next iteration loads.
func TestReplayWithholdsFix(t *testing.T) {
	src := `__simd_vf__ void K(__ubuf__ float* dst, __ubuf__ float* src, uint16_t n)
{
    Reg::RegTensor<float> v, prev;
    Reg::UnalignRegForStore u;
    Reg::UnalignRegForLoad ul;
    for (uint16_t i = 0; i < n; ++i) {
        Reg::LoadAlign(v, src + i * 64);
        Reg::LoadUnAlignPre(ul, dst - 8);
        Reg::LoadUnAlign(prev, ul, dst - 8);
        Reg::StoreUnAlign(dst, prev, u, 8);
        Reg::StoreUnAlignPost(dst, u, 0);
    }
}
`
	f := lower(t, src)
	sites := PostSites(f.Funcs[0])
	if len(sites) != 1 || sites[0].Verdict != NotContiguous || sites[0].Why != "the loop reads back through the stream's pointer" {
		t.Fatalf("sites %+v", sites)
	}
	fix, why := SinkFix(f, sites[0])
	if fix != nil || !strings.HasPrefix(why, "the replay could not prove the sunk Post writes the same bytes: with 4-byte elements") {
		t.Errorf("fix %v, why %q", fix, why)
	}
}

// TestNoUnsafeFix: a loop that is the braceless body of an if, or a Pre
// sharing its line, gets a finding but no fix.
func TestNoUnsafeFix(t *testing.T) {
	for _, src := range []string{
		`__simd_vf__ void K(__ubuf__ float* src, uint16_t n, bool c)
{
    Reg::RegTensor<float> v;
    Reg::UnalignRegForLoad u;
    if (c)
        for (uint16_t i = 0; i < n; ++i) {
            Reg::LoadUnAlignPre(u, src + i * 64);
            Reg::LoadUnAlign(v, u, src + i * 64);
        }
}
`, `__simd_vf__ void K(__ubuf__ float* src, uint16_t n)
{
    Reg::RegTensor<float> v;
    Reg::UnalignRegForLoad u;
    for (uint16_t i = 0; i < n; ++i) {
        Reg::LoadUnAlignPre(u, src + i * 64); Reg::LoadUnAlign(v, u, src + i * 64);
    }
}
`, `__simd_vf__ void K(__ubuf__ float* src, uint16_t n)
{
    Reg::RegTensor<float> v;
    Reg::UnalignRegForLoad u;
    for (uint16_t i = 0; i < n; ++i) {
        __ubuf__ float* p = src + i * 64;
        Reg::LoadUnAlignPre(u, p);
        Reg::LoadUnAlign(v, u, src + i * 64);
    }
}
`} {
		f := lower(t, src)
		for _, s := range PreSites(f.Funcs[0]) {
			if fix, _ := HoistFix(f, s); s.Verdict == Contiguous && fix != nil {
				t.Errorf("unsafe fix offered for:\n%s", src)
			}
		}
	}
}

func TestSubstitute(t *testing.T) {
	cases := []struct {
		text string
		init int64
		want string
		ok   bool
	}{
		{"src + i * VL", 0, "src", true},
		{"src + i * VL - 1", 0, "src - 1", true},
		{"(sourceX1 + 1) + i * vLength_", 0, "(sourceX1 + 1)", true},
		{"src + VL * i", 2, "src + VL * 2", true},
		{"i * VL + src", 0, "src", true},
		{"this->src + i * VL", 0, "this->src", true},
		{"src + (i * VL)", 0, "src", true},
		{"src + i / 2", 0, "", false},
		{"src + f(i)", 0, "", false},
		{"i * 64", 0, "", false},
		// A parenthesised sum is not a multiple of i: its other terms stay.
		{"src + (i * VL + HEAD)", 0, "src + (HEAD)", true},
		{"src + (i * VL + HEAD)", 2, "src + (2 * VL + HEAD)", true},
		{"src + (HEAD + (i * VL))", 0, "src + (HEAD)", true},
		{"src + (i + 1) * VL", 0, "", false},
		{"src + (i * VL) * 2", 0, "src", true},
		{"src + i * i", 0, "", false},
	}
	for _, c := range cases {
		got, ok := substitute(c.text, "i", c.init)
		if ok != c.ok || got != c.want {
			t.Errorf("substitute(%q, i=%d) = %q %v, want %q %v", c.text, c.init, got, ok, c.want, c.ok)
		}
	}
}

// TestCROnlyReason: a file with classic Mac line endings gets no fix, and
// the finding says why.
func TestCROnlyReason(t *testing.T) {
	src := strings.Join([]string{
		"__simd_vf__ void K(__ubuf__ float* dst, __ubuf__ float* src, uint16_t n, uint32_t keep)",
		"{",
		"    Reg::RegTensor<float> v;",
		"    Reg::UnalignRegForStore u;",
		"    for (uint16_t i = 0; i < n; ++i) {",
		"        Reg::LoadAlign(v, src + i * 64);",
		"        Reg::StoreUnAlign(dst, v, u, keep);",
		"        Reg::StoreUnAlignPost(dst, u, 0);",
		"    }",
		"}", ""}, "\r")
	f := lower(t, src)
	sites := PostSites(f.Funcs[0])
	if len(sites) != 1 || sites[0].Verdict != Contiguous {
		t.Fatalf("sites %+v", sites)
	}
	fix, why := SinkFix(f, sites[0])
	if fix != nil || why != "the file has CR-only line endings" {
		t.Errorf("fix %v, why %q; want none, for CR-only line endings", fix != nil, why)
	}
}
