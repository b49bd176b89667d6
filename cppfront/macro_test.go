package cppfront

import (
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/ascvet/ascvet/cppfront/ir"
)

// TestMacroPositions checks that what an expansion made spans its
// invocation, and that everything else keeps its own bytes.
func TestMacroPositions(t *testing.T) {
	src, err := os.ReadFile("testdata/macros.asc")
	if err != nil {
		t.Fatal(err)
	}
	_, f := parse(t, "macros.asc", src)
	if string(f.Src) != string(src) {
		t.Fatal("f.Src is not the original text after lowering")
	}
	if len(f.Expansions) == 0 {
		t.Fatal("no expansion recorded")
	}
	exp := func(pos int) *ir.Expansion {
		for i := range f.Expansions {
			x := &f.Expansions[i]
			if pos >= f.Tok.Offset(x.Pos) && pos < f.Tok.Offset(x.End) {
				return x
			}
		}
		return nil
	}
	n := 0
	for _, fn := range f.Funcs {
		for _, in := range fn.Instrs {
			a, b := f.Tok.Offset(in.Pos), f.Tok.Offset(in.End)
			if x := exp(a); x != nil {
				n++
				if in.Pos != x.Pos || in.End != x.End {
					t.Errorf("%s %s at %d-%d: want the invocation of %s, %d-%d", fn.Name, in.Op, a, b, x.Name, f.Tok.Offset(x.Pos), f.Tok.Offset(x.End))
				}
				for _, op := range in.Args {
					if op.Pos.IsValid() && (op.Pos < x.Pos || op.End > x.End) {
						t.Errorf("%s %s: operand %q outside the invocation", fn.Name, in.Op, op.Text)
					}
				}
				continue
			}
			text := string(src[a:b])
			if !strings.Contains(text, in.Op.String()) && in.Op != ir.OpCall {
				t.Errorf("%s %s: own text %q", fn.Name, in.Op, text)
			}
			for _, op := range in.Args {
				if !op.Pos.IsValid() {
					continue
				}
				if got := normSpace(string(src[f.Tok.Offset(op.Pos):f.Tok.Offset(op.End)])); got != op.Text {
					t.Errorf("%s %s: operand text %q, its bytes %q", fn.Name, in.Op, op.Text, got)
				}
			}
		}
	}
	if n < 8 {
		t.Errorf("%d instructions from expansions, want at least 8", n)
	}
	// out + VL is written so: its text is the file's, though it folds.
	steps := f.Func("Steps")
	var store *ir.Instr
	for _, in := range steps.Instrs {
		if in.Op == ir.OpStoreAlign {
			store = in
		}
	}
	if store == nil || store.Args[0].Text != "out + VL" {
		t.Errorf("StoreAlign address: %+v", store)
	}
}

// TestMacroExpand checks expansions one by one on the expanded buffer.
func TestMacroExpand(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{"#define A 1\nx = A;", "x =  1 ;"},
		{"#define F(a, b) a + b\nF(1, (2, 3))", " 1 + (2, 3) "},
		{"#define P(a, b) a##b\nP(r, 0) P(, x)", " r0   x "},
		{"#define S(a) #a\nS(x \"y\")", ` "x \"y\"" `},
		{"#define V(f, ...) f(__VA_ARGS__)\nV(g, 1, 2) V(h)", " g(1, 2)   h() "},
		{"#define V(f, args...) f(args)\nV(g, 1, 2)", " g(1, 2) "},
		{"#define G(m, ...) m(0, ##__VA_ARGS__)\nG(k)", " k(0) "},
		{"#define A B\n#define B A\nA B", " A   B "},    // recursion guard
		{"#define N(x) -x\nN(-1)", " - -1 "},            // no accidental --
		{"#define V(x) __VEC_SCOPE__ { x; }\nV(1)", ""}, // a region marker in the body
		{"#define L(k) for (;; k++) k--\nL(i)", " for (;; i++) i-- "},
		{"#define I(x) x\nI(I(3))", " 3 "},                        // nested arguments
		{"#define A 1\n#undef A\nA", ""},                          // after #undef
		{"A\n#define A 1", ""},                                    // before #define
		{"#if X\n#define A 1\n#else\n#define A 2\n#endif\nA", ""}, // two bodies
		{"#if X\n#define A 1\n#else\n#define A 1\n#endif\nA", "#if X\n#define A 1\n#else\n#define A 1\n#endif\n 1 "},
		{"#define F(x) x\nF(1, 2)", ""},           // too many arguments
		{"#define F(x) x\nF(1", ""},               // not closed
		{"#define F(x) x\n#define H F\nH(1)", ""}, // would take its arguments from the text
		{"#define F(x) x\nint F;", ""},            // not an invocation
		{"// #define A 1\nA", ""},                 // commented out
		{"#define E\nE int x;", "   int x;"},      // empty
		{"#define M(a) a \\\n  + 1\nM(2)", " 2 + 1 "},
		{"}\n#define A 1\nint x = A;\nvoid g() {", ""}, // outside VF code
	} {
		const pre, post = "__aicore__ void f() {\n", "\n}"
		src := []byte(pre + tc.src + post)
		clean, blanks := prepass(src)
		m := expandMacros(src, clean, blanks, nil)
		got := ""
		if m != nil {
			got = string(m.clean[len(pre) : len(m.clean)-len(post)])
			if i := strings.LastIndex(tc.want, "\n"); i < 0 {
				got = got[strings.LastIndex(got, "\n")+1:]
			}
		}
		if got != tc.want {
			t.Errorf("%q: got %q, want %q", tc.src, got, tc.want)
		}
	}
}

// TestMacroMap checks the offset map both ways.
func TestMacroMap(t *testing.T) {
	src := []byte("#define F(a) (a + a)\n__VEC_SCOPE__ { x = F(y) + F(zz); }\nint z = F(w);\n")
	clean, blanks := prepass(src)
	m := expandMacros(src, clean, blanks, nil)
	if m == nil || len(m.spans) != 2 {
		t.Fatalf("spans: %+v", m)
	}
	for o := 0; o <= len(src); o++ {
		inside := false
		for _, sp := range m.spans {
			if o > sp.os && o < sp.oe {
				inside = true
			}
		}
		if inside {
			continue
		}
		if got := m.toOrig(m.toExp(o)); got != o {
			t.Errorf("offset %d maps back to %d", o, got)
		}
	}
	// Inside an expansion: a token start maps to the invocation start, a token end to its end.
	sp := m.spans[0]
	for e := sp.es + 1; e < sp.ee; e++ {
		got := m.toOrig(e)
		if got != sp.os && got != sp.oe {
			t.Errorf("expanded offset %d maps to %d, outside the invocation %d-%d", e, got, sp.os, sp.oe)
		}
		c := m.clean[e]
		if c != ' ' && (m.clean[e-1] == ' ' || m.clean[e-1] == '(') && got != sp.os {
			t.Errorf("token start %d (%q) maps to %d, want %d", e, c, got, sp.os)
		}
		if c == ' ' && m.clean[e-1] != ' ' && got != sp.oe {
			t.Errorf("token end %d maps to %d, want %d", e, got, sp.oe)
		}
	}
}

// TestMacroLimits: exponential and recursive macros neither hang nor blow
// the file up; over the cap, the file is lowered unexpanded.
func TestMacroLimits(t *testing.T) {
	var b strings.Builder
	b.WriteString("#define M0 Reg::Add(a, a, a, p)\n")
	for i := 1; i <= 40; i++ {
		fmt.Fprintf(&b, "#define M%d M%d; M%d\n", i, i-1, i-1)
	}
	b.WriteString("__simd_vf__ void F() { Reg::RegTensor<float> a; Reg::MaskReg p; M40; }\n")
	src := []byte(b.String())
	start := time.Now()
	clean, blanks := prepass(src)
	if m := expandMacros(src, clean, blanks, nil); m != nil {
		t.Errorf("2^40 expansion not refused: %d bytes", len(m.clean))
	}
	_, f := parse(t, "bomb.asc", src)
	if len(f.Expansions) != 0 || len(f.Funcs) != 1 {
		t.Errorf("expansions %d, regions %d", len(f.Expansions), len(f.Funcs))
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("took %v", d)
	}
	// Within the cap it expands.
	src = []byte(strings.Replace(string(src), "M40;", "M3;", 1))
	_, f = parse(t, "small.asc", src)
	if len(f.Expansions) != 1 || len(f.Funcs[0].Instrs) != 8 {
		t.Errorf("M3: expansions %d, instructions %d", len(f.Expansions), len(f.Funcs[0].Instrs))
	}
}

// TestMacroCapRelative: the cap grows with the file. A generated file of
// 4.5 MB whose macros make 17 MB (less than four times as much) is
// expanded, as each of its functions would be in a file of its own.
func TestMacroCapRelative(t *testing.T) {
	var b strings.Builder
	b.WriteString("#define STEP(a, b, m) Reg::Add(a, a, b, m); Reg::Mul(a, a, b, m); Reg::Sub(b, b, a, m)\n")
	for i := 0; b.Len() < 4500<<10; i++ {
		fmt.Fprintf(&b, "__simd_vf__ void F%d() {\n    Reg::RegTensor<float> x, y;\n    Reg::MaskReg p;\n", i)
		for range 40 {
			b.WriteString("   STEP(x, y, p);\n")
		}
		b.WriteString("}\n")
	}
	src := []byte(b.String())
	clean, blanks := prepass(src)
	m := expandMacros(src, clean, blanks, nil)
	if m == nil {
		t.Fatalf("a %d-byte file with macros was not expanded", len(src))
	}
	if len(m.clean) <= 16<<20 || len(m.clean) > maxExpansion(len(src)) {
		t.Errorf("expanded to %d bytes from %d; want more than 16 MiB, within the cap", len(m.clean), len(src))
	}
}
