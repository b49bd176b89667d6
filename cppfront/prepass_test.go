package cppfront

import (
	"strings"
	"testing"
	"time"
)

func TestPrepassKeepsOffsets(t *testing.T) {
	cases := []struct{ in, want string }{
		{"__aicore__ inline void f(__ubuf__ float* x) {}", "           inline void f(         float* x) {}"},
		{"if ASC_IS_AIV {", "if(ASC_IS_AIV){"},
		{"if ASCEND_IS_AIC{", "if(ASCEND_IS_AI){"},
		{"if constexpr (x) {", "if constexpr (x) {"},
		{"obj.template F(x);", "obj.         F(x);"},
		{"p->template F<T>(x);", "p->         F<T>(x);"},
		{"template <typename T> void f();", "template <typename T> void f();"},
		{"void LAUNCH_BOUND(512) k() {}", "void " + strings.Repeat(" ", len("LAUNCH_BOUND(512)")) + " k() {}"},
		{"void __launch_bounds__(a, (b)) k() {}", "void " + strings.Repeat(" ", len("__launch_bounds__(a, (b))")) + " k() {}"},
		{`// __aicore__ in a comment`, `// __aicore__ in a comment`},
		{`const char* s = "__aicore__";`, `const char* s = "__aicore__";`},
		{"/* __gm__ */ __gm__ int* p;", "/* __gm__ */        int* p;"},
		{"my__aicore__x = 1;", "my__aicore__x = 1;"},
		{"__VEC_SCOPE__\n{", "             \n{"},
		{"#define LocalMem __ubuf__\nvoid f(LocalMem T* p);", "#define LocalMem         \nvoid f(         T* p);"},
		{"#define LocalMem (x)\nLocalMem;", "#define LocalMem (x)\nLocalMem;"},
		// A host build defines the qualifiers away: the macro's name is kept.
		{"#define __aicore__\n#define __ubuf__\n__aicore__ void f();", "#define __aicore__\n#define __ubuf__\n           void f();"},
		{"CATLASS_DEVICE\n__simd_callee__ static void f();", "              \n                static void f();"},
		{"TEMPLATE_DECL class Foo {};", "              class Foo {};"},
		{"EXPORT_API\nstruct Bar;", "          \nstruct Bar;"},
		{"    DAWSN_COMPUTE(a, b)\n    Next();", "    DAWSN_COMPUTE(a, b);    Next();"},
		{"    SOME_MACRO(a, b)\n    + c;", "    SOME_MACRO(a, b)\n    + c;"},
		{"using A::x, A::y;", "using A::x; A::y;"},
		{"\xEF\xBB\xBF__aicore__ void f();", strings.Repeat(" ", 14) + "void f();"}, // a UTF-8 BOM is blanked
		{"x\xEF\xBB\xBF", "x\xEF\xBB\xBF"},                                          // only at the start
		{"// c\r__gm__ int* p;\r\nq;\r", "// c\n       int* p;\r\nq;\n"},            // lone CRs end lines as LF does
		// A directive's lines are its own tokens: a word first on a
		// continued line is no attribute of the declaration after the
		// directive, a statement macro in a #define's body gets no ;.
		{"#if A || \\\n    __CUBE_X__\ntemplate <typename T> void f();", "#if A || \\\n    __CUBE_X__\ntemplate <typename T> void f();"},
		{"#define F(x) \\\n    SET_VAL(x)\n#define H 1", "#define F(x) \\\n    SET_VAL(x)\n#define H 1"},
		{"#define K __global__ __aicore__\nK void k();", "#define K                      \nK void k();"},
		{"#define A 1 /* c\n __gm__ */\n__gm__ int* p;", "#define A 1 /* c\n __gm__ */\n       int* p;"}, // a comment over lines continues the directive
		{"if A{", "if A{"}, // no room for the ): left whole, not half rewritten
		{"x = 1'000; __gm__ int* p;", "x = 1'000;        int* p;"}, // a digit separator opens no character literal
	}
	for _, c := range cases {
		got, _ := prepass([]byte(c.in))
		if string(got) != c.want {
			t.Errorf("prepass(%q)\n got %q\nwant %q", c.in, got, c.want)
		}
		if len(got) != len(c.in) {
			t.Errorf("prepass(%q) changed the length", c.in)
		}
	}
	// A blank records the original text, lone CRs included (found by FuzzPrepass).
	if _, blanks := prepass([]byte("LAUNCH_BOUND(\r)")); len(blanks) != 1 || blanks[0].text != "LAUNCH_BOUND(\r)" {
		t.Errorf("blanks %+v", blanks)
	}
	_, blanks := prepass([]byte("__simd_vf__ void f(__ubuf__ T* x)"))
	if len(blanks) != 2 || blanks[0].text != "__simd_vf__" || blanks[1].start != strings.Index("__simd_vf__ void f(__ubuf__ T* x)", "__ubuf__") {
		t.Errorf("blanks %+v", blanks)
	}
}

func TestPrepassUnterminated(t *testing.T) {
	for _, in := range []string{"/* never closed __aicore__", "\"open string __gm__", "LAUNCH_BOUND(((", "R\"x(raw never ends"} {
		got, _ := prepass([]byte(in))
		if len(got) != len(in) {
			t.Errorf("prepass(%q) changed the length", in)
		}
	}
}

func TestPrepassJoinsElse(t *testing.T) {
	blank := func(s string) string { return strings.Repeat(" ", len(s)) }
	cases := []struct{ in, want string }{
		// The #if group continues the chain: its directives go.
		{"if (a) {\n}\n#if X\nelse if (b) {\n}\n#endif\n", "if (a) {\n}\n" + blank("#if X") + "\nelse if (b) {\n}\n" + blank("#endif") + "\n"},
		// Every directive of the conditional, #else and continuations too,
		// with comments and blank lines between; not the nested conditional.
		{"    } // done\n\n#ifdef X\n    // fast\n    else if (b) {\n#if Y\n        g();\n#endif\n    }\n#else \\\n  old\n    else {\n    }\n#endif // X\n",
			"    } // done\n\n" + blank("#ifdef X") + "\n    // fast\n    else if (b) {\n#if Y\n        g();\n#endif\n    }\n" + blank("#else \\") + "\n" + blank("  old") + "\n    else {\n    }\n" + blank("#endif // X") + "\n"},
		// The else after the #endif of the group that ends the if.
		{"#if X\n  if (a) { f(); }\n#endif\n  else { g(); }\n", blank("#if X") + "\n  if (a) { f(); }\n" + blank("#endif") + "\n  else { g(); }\n"},
		// Two conditionals between the statement and the else.
		{"x;\n#if A\n#ifdef B\nelse y;\n#endif\n#endif\n", "x;\n" + blank("#if A") + "\n" + blank("#ifdef B") + "\nelse y;\n" + blank("#endif") + "\n" + blank("#endif") + "\n"},
		// Left alone: no statement ends before the conditional, the
		// conditional is not closed, the else is not the first word of its
		// line, the directive is not a conditional one.
		{"void f() {\n#if X\nelse {}\n#endif\n}\n", "void f() {\n#if X\nelse {}\n#endif\n}\n"},
		{"}\n#if X\nelse {}\n", "}\n#if X\nelse {}\n"},
		{"}\n#if X\nint else_count;\n#endif\n", "}\n#if X\nint else_count;\n#endif\n"},
		{"}\n#pragma unroll\nelse {}\n", "}\n#pragma unroll\nelse {}\n"},
		{"#define M \\\n  else\n", "#define M \\\n  else\n"},
	}
	for _, c := range cases {
		got, _ := prepass([]byte(c.in))
		if string(got) != c.want {
			t.Errorf("prepass(%q)\n got %q\nwant %q", c.in, got, c.want)
		}
	}
}

// TestPreprocessorShapesParse: two shapes of class that a parser without a
// preprocessor reads as one function (a template header from a macro of
// the file, an if chain that an #if cuts) parse whole after the pre-pass,
// and only the VF code in them makes regions, without parse errors.
func TestPreprocessorShapesParse(t *testing.T) {
	cases := []struct {
		name, src string
		regions   []string
	}{
		{"macro_template", `#define TILE_TEMPLATE template <typename T, int N>
#define TILE_ARGS T, N

TILE_TEMPLATE
class Tile {
public:
    __aicore__ inline void Load(__local_mem__ T* src, AscendC::Reg::RegTensor<float>& dst);
    uint32_t rows_ = 0;
};

TILE_TEMPLATE
__aicore__ inline void Tile<TILE_ARGS>::Load(__local_mem__ T* src, AscendC::Reg::RegTensor<float>& dst)
{
    AscendC::Reg::LoadAlign(dst, src);
}

TILE_TEMPLATE struct Pair {
    AscendC::Reg::MaskReg* mask;
};
`, []string{"Tile< T, N >::Load"}},
		{"cut_chain", `template <typename T, int Mode>
class Combine {
public:
    __aicore__ inline void Run(__ubuf__ float* dst)
    {
        __VEC_SCOPE__
        {
            AscendC::Reg::RegTensor<float> v;
            AscendC::Reg::StoreAlign(dst, v, mask);
        }
    }
    __aicore__ inline void Pick()
    {
        if constexpr (Mode == 0) {
            A();
        }
#if defined(__NPU_ARCH__) && (__NPU_ARCH__ == 3510)
        else if constexpr (Mode == 1) {
            B();
        }
#else
        else {
            C();
        }
#endif
    }
};
`, []string{"Run.vec_scope#1"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			clean, _ := prepass([]byte(c.src))
			p := getParser()
			defer putParser(p)
			tree := p.Parse(clean, nil)
			defer tree.Close()
			if tree.RootNode().HasError() {
				t.Errorf("the pre-passed file does not parse:\n%s", tree.RootNode().ToSexp())
			}
			fset, f := parse(t, c.name+".asc", []byte(c.src))
			var got []string
			for _, fn := range f.Funcs {
				got = append(got, fn.Name)
				for _, e := range fn.Errors {
					t.Errorf("%s: parse error at %s", fn.Name, fset.Position(e))
				}
			}
			if strings.Join(got, ",") != strings.Join(c.regions, ",") {
				t.Errorf("regions %q, want %q", got, c.regions)
			}
		})
	}
}

// TestPrepassJoinsElseLinear: else lines after unclosed conditionals cost
// each a bounded walk, not one to the start of the file.
func TestPrepassJoinsElseLinear(t *testing.T) {
	src := []byte(strings.Repeat("x;\n#endif\nelse y;\n", 200000)) // 3.6 MB
	start := time.Now()
	got, _ := prepass(src)
	if string(got) != string(src) {
		t.Error("an unbalanced conditional was blanked")
	}
	if d := time.Since(start); d > 20*time.Second {
		t.Errorf("prepass took %v", d)
	}
}
