package cppfront

import (
	"strings"
	"testing"
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
		{"CATLASS_DEVICE\n__simd_callee__ static void f();", "              \n                static void f();"},
		{"    DAWSN_COMPUTE(a, b)\n    Next();", "    DAWSN_COMPUTE(a, b);    Next();"},
		{"    SOME_MACRO(a, b)\n    + c;", "    SOME_MACRO(a, b)\n    + c;"},
		{"using A::x, A::y;", "using A::x; A::y;"},
		{"\xEF\xBB\xBF__aicore__ void f();", strings.Repeat(" ", 14) + "void f();"}, // a UTF-8 BOM is blanked
		{"x\xEF\xBB\xBF", "x\xEF\xBB\xBF"},                                          // only at the start
		{"// c\r__gm__ int* p;\r\nq;\r", "// c\n       int* p;\r\nq;\n"},            // lone CRs end lines as LF does
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
