package stream

import (
	"go/token"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"

	"github.com/ascvet/ascvet/cppfront"
	"github.com/ascvet/ascvet/cppfront/ir"
)

// fixShape is one kernel a fix must refuse (why != "") or may make
// (why == ""; then want, when set, is text the fixed file must hold).
type fixShape struct {
	name string
	src  string
	sink bool   // the Post's fix, else the Pre's
	why  string // a part of the reason the fix is refused; "" when it is offered
	want string // for an offered fix: a part of the fixed text
}

const loadHead = "__simd_vf__ void K(__ubuf__ float* dst, __ubuf__ float* src, uint16_t n, uint32_t pad)\n{\n" +
	"    Reg::RegTensor<float> v;\n    Reg::UnalignRegForLoad u;\n    Reg::MaskReg m = Reg::CreateMask<float>();\n"

const storeHead = "__simd_vf__ void K(__ubuf__ float* dst, __ubuf__ float* src, uint16_t n, uint32_t pad)\n{\n" +
	"    Reg::RegTensor<float> v;\n    Reg::UnalignRegForStore u;\n"

// loadLoop is the Pre's loop, with before placed before it.
func loadLoop(before, addr string) string {
	return loadHead + before +
		"    for (uint16_t i = 0; i < n; ++i) {\n" +
		"        Reg::LoadUnAlignPre(u, " + addr + ");\n" +
		"        Reg::LoadUnAlign(v, u, " + addr + ");\n" +
		"        Reg::StoreAlign(dst + i * 64, v, m);\n" +
		"    }\n}\n"
}

// storeLoop is the Post's loop, with before placed before it and after
// after it.
func storeLoop(before, ptr, after string) string {
	return storeHead + before +
		"    for (uint16_t i = 0; i < n; ++i) {\n" +
		"        Reg::LoadAlign(v, src + i * 64);\n" +
		"        Reg::StoreUnAlign(" + ptr + ", v, u, 60);\n" +
		"        Reg::StoreUnAlignPost(" + ptr + ", u, 0);\n" +
		"    }\n" + after + "}\n"
}

var fixShapes = []fixShape{
	{name: "plain pre", src: loadLoop("", "src + i * 64"), want: "    Reg::LoadUnAlignPre(u, src);\n    for"},
	{name: "plain post", src: storeLoop("", "dst", ""), sink: true, want: "    }\n    Reg::StoreUnAlignPost(dst, u, 0);\n}"},
	{name: "pragma unroll", src: loadLoop("#pragma unroll\n", "src + i * 64"),
		want: "    Reg::LoadUnAlignPre(u, src);\n#pragma unroll\n    for"},
	{name: "pragma unroll post decl", src: storeHead + "#pragma unroll 2\n    for (uint16_t i = 0; i < n; ++i) {\n        Reg::UnalignRegForStore w;\n        Reg::LoadAlign(v, src + i * 64);\n        Reg::StoreUnAlign(dst, v, w, 60);\n        Reg::StoreUnAlignPost(dst, w, 0);\n    }\n}\n",
		sink: true, want: "    Reg::UnalignRegForStore w;\n#pragma unroll 2\n    for"},
	{name: "label", src: loadLoop("again:\n", "src + i * 64"), want: "    Reg::LoadUnAlignPre(u, src);\nagain:\n"},
	{name: "goto", src: loadLoop("again:\n", "src + i * 64")[:len(loadLoop("again:\n", "src + i * 64"))-2] + "    if (pad > 1) { pad--; goto again; }\n}\n", why: "goto"},
	{name: "parenthesised sum", src: loadLoop("", "src + (i * 64 + 8)"), want: "Reg::LoadUnAlignPre(u, src + (8));"},
	{name: "address taken", src: loadLoop("    Bump(&src, pad);\n", "src + i * 64"), why: "the address of src is taken"},
	{name: "reference alias", src: storeLoop("    __ubuf__ float*& out = dst;\n    out += pad;\n", "dst", ""), sink: true, why: "dst is bound to a reference"},
	{name: "lambda by default", src: loadLoop("    auto skip = [&]() { src += pad; };\n    skip();\n", "src + i * 64"), why: "captured by reference by a lambda"},
	{name: "lambda by name", src: loadLoop("    auto skip = [&src, pad]() { src += pad; };\n    skip();\n", "src + i * 64"), why: "captured by reference by a lambda"},
	{name: "lambda by value", src: loadLoop("    auto at = [=]() { return src + pad; };\n", "src + i * 64"), want: "Reg::LoadUnAlignPre(u, src);"},
	{name: "unknown helper", src: loadLoop("    Advance(src, pad);\n", "src + i * 64"), why: "src is passed to Advance, whose body is not known"},
	{name: "to integer", src: storeLoop("    uint64_t keep = (uint64_t)dst;\n", "dst", "    __ubuf__ float* back = (__ubuf__ float*)keep;\n    Reg::LoadAlign(v, back);\n"), sink: true, why: "dst is converted to an integer"},
	{name: "reinterpret", src: storeLoop("    uint64_t keep = reinterpret_cast<uint64_t>(dst);\n", "dst", ""), sink: true, why: "dst is converted to an integer"},
	{name: "member", src: loadLoop("", "srcUb_ + i * 64"), why: "srcUb_ is not declared in the function"},
	{name: "struct member", src: loadLoop("", "cur.src + i * 64"), why: "reads the member cur.src"},
	{name: "this member", src: loadLoop("", "this->srcUb_ + i * 64"), why: "reads the member this->srcUb_"},
	{name: "macro naming the pointer", src: "#define SKIP src += pad\n" + loadLoop("    SKIP;\n", "src + i * 64"), why: "src is named by the macro SKIP"},
	{name: "under #if", src: loadLoop("#if HAS_PAD\n    src += pad;\n#endif\n    pad = 0;\n", "src + i * 64"), why: "src is written under a preprocessor condition"},
	{name: "for init list", src: loadHead + "    uint16_t i;\n    __ubuf__ float* p = src;\n    for (i = 0, p = src + pad; i < n; ++i) {\n        Reg::LoadUnAlignPre(u, p);\n        Reg::LoadUnAlign(v, u, p, 64);\n        Reg::StoreAlign(dst + i * 64, v, m);\n    }\n}\n",
		why: "the loop's initialiser assigns p"},
	{name: "braceless if under #if", src: loadHead + "    if (pad > 0)\n#if WIDE\n    for (uint16_t i = 0; i < n; ++i) {\n        Reg::LoadUnAlignPre(u, src + i * 64);\n        Reg::LoadUnAlign(v, u, src + i * 64);\n        Reg::StoreAlign(dst + i * 64, v, m);\n    }\n#else\n    for (uint16_t i = 0; i < n; ++i) {\n        Reg::LoadUnAlignPre(u, src + i * 32);\n        Reg::LoadUnAlign(v, u, src + i * 32);\n        Reg::StoreAlign(dst + i * 64, v, m);\n    }\n#endif\n}\n",
		why: "braceless|does not parse"},
	{name: "after #endif", src: loadLoop("#if WIDE\n    pad = 1;\n#endif\n", "src + i * 64"), why: "braceless"},
	{name: "pre under #if", src: loadHead + "    for (uint16_t i = 0; i < n; ++i) {\n#if PRIME_EACH\n        Reg::LoadUnAlignPre(u, src + i * 64);\n#endif\n        Reg::LoadUnAlign(v, u, src + i * 64);\n        Reg::StoreAlign(dst + i * 64, v, m);\n    }\n}\n",
		why: "under a preprocessor condition that its loop is not"},
	{name: "post under #if", src: storeHead + "    for (uint16_t i = 0; i < n; ++i) {\n        Reg::LoadAlign(v, src + i * 64);\n        Reg::StoreUnAlign(dst, v, u, 60);\n#if FLUSH_EACH\n        Reg::StoreUnAlignPost(dst, u, 0);\n#endif\n    }\n}\n",
		sink: true, why: "under a preprocessor condition that its loop is not"},
	{name: "loop and post under one #if", src: storeHead + "#if WIDE\n    for (uint16_t i = 0; i < n; ++i) {\n        Reg::LoadAlign(v, src + i * 64);\n        Reg::StoreUnAlign(dst, v, u, 60);\n        Reg::StoreUnAlignPost(dst, u, 0);\n    }\n#endif\n}\n",
		sink: true, want: "    }\n    Reg::StoreUnAlignPost(dst, u, 0);\n#endif"},
	{name: "does not parse", src: loadLoop("    int x = (;\n", "src + i * 64"), why: "does not parse"},
}

// TestFixShapes: the shapes a fix must refuse get no fix and a reason;
// the shapes it may fix get one, placed where the language wants it.
func TestFixShapes(t *testing.T) {
	for _, c := range fixShapes {
		t.Run(c.name, func(t *testing.T) {
			f := lowerAny(t, c.src)
			fn := f.Funcs[0]
			var fix *analysis.SuggestedFix
			var why string
			found := false
			if c.sink {
				for _, s := range PostSites(fn) {
					if s.Verdict == Contiguous {
						found = true
						fix, why = SinkFix(f, s)
						break
					}
				}
			} else {
				for _, s := range PreSites(fn) {
					if s.Verdict == Contiguous {
						found = true
						fix, why = HoistFix(f, s)
						break
					}
				}
			}
			if !found {
				if c.why != "" {
					t.Logf("no contiguous verdict, so no fix either")
					return
				}
				t.Fatalf("no contiguous site in\n%s", c.src)
			}
			matches := func(why string) bool {
				for _, w := range strings.Split(c.why, "|") {
					if strings.Contains(why, w) {
						return true
					}
				}
				return false
			}
			switch {
			case c.why != "" && fix != nil:
				t.Errorf("a fix is offered:\n%s", apply(f, fix))
			case c.why != "" && !matches(why):
				t.Errorf("refused because %q, want %q", why, c.why)
			case c.why == "" && fix == nil:
				t.Errorf("no fix: %s", why)
			case c.why == "" && !strings.Contains(apply(f, fix), c.want):
				t.Errorf("the fixed text lacks %q:\n%s", c.want, apply(f, fix))
			}
		})
	}
}

// lowerAny is lower for sources that need not verify (a parse error).
func lowerAny(t *testing.T, src string) *ir.File {
	t.Helper()
	if strings.Contains(src, "(;") {
		return lowerLoose(t, src)
	}
	return lower(t, src)
}

func lowerLoose(t *testing.T, src string) *ir.File {
	t.Helper()
	f, err := cppfront.ParseFile(token.NewFileSet(), "k.asc", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return f
}
