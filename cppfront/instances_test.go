package cppfront

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ascvet/ascvet/cppfront/ir"
)

// TestIdentOffsetsMatchesEachIdent: the scan for one name finds the
// identifiers eachIdent splits out, on every bundled kernel, and nothing
// for a name that is not one identifier.
func TestIdentOffsetsMatchesEachIdent(t *testing.T) {
	paths, _ := filepath.Glob("../testdata/kernels/*.asc")
	if len(paths) == 0 {
		t.Fatal("no bundled kernels")
	}
	for _, p := range paths {
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		want := map[string][]int{}
		eachIdent(src, func(k, e int) {
			want[string(src[k:e])] = append(want[string(src[k:e])], k)
		})
		for name, offs := range want {
			if got := identOffsets(src, name); !slices.Equal(got, offs) {
				t.Fatalf("%s: %s at %v, want %v", p, name, got, offs)
			}
		}
	}
	src := []byte("a::b(x); 1x x1 _x")
	for _, name := range []string{"", "a::b", "1x", "x(", "b(x"} {
		if got := identOffsets(src, name); got != nil {
			t.Errorf("%q at %v, want none", name, got)
		}
	}
	if got := identOffsets(src, "x"); !slices.Equal(got, []int{5}) {
		t.Errorf("x at %v, want [5]", got)
	}
}

// TestAliasInstances: a template argument that is a type alias of the
// caller (using OFFSET_T = std::conditional<C, A, B>::type) instantiates
// the callee with both arms, for a __VEC_SCOPE__ block as for a VF
// function; a plain alias with its one type.
func TestAliasInstances(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("testdata", "instances", "conditional_alias.asc"))
	if err != nil {
		t.Fatal(err)
	}
	_, f := parse(t, "conditional_alias.asc", src)
	fn := f.Func("ComputeVf.vec_scope#1")
	if fn == nil {
		t.Fatal("no vec_scope region")
	}
	if got := fn.Instances["OFFSET_T"]; !slices.Equal(got, []string{"uint16_t", "uint32_t"}) {
		t.Errorf("OFFSET_T instances %v, want [uint16_t uint32_t]", got)
	}
	plain := []byte(`template <typename T>
__simd_vf__ inline void V(__ubuf__ T* p, uint16_t n)
{
    Reg::RegTensor<T> a;
    for (uint16_t i = 0; i < n; i++) {
        Reg::LoadAlign(a, p + i * 64);
    }
}
__aicore__ inline void Caller(__ubuf__ half* p, uint16_t n)
{
    using Elem = half;
    V<Elem>(p, n);
}
`)
	_, f = parse(t, "plain_alias.asc", plain)
	if got := f.Func("V").Instances["T"]; !slices.Equal(got, []string{"half"}) {
		t.Errorf("T instances %v, want [half]", got)
	}
	if got := conditionalArms("std::conditional_t<A, float, std::conditional<B, half, float>::type>", 0); !slices.Equal(got, []string{"float", "half"}) {
		t.Errorf("nested conditional arms %v", got)
	}
}

// TestFunctionIdents: the one-pass index finds each function name where
// identOffsets finds it.
func TestFunctionIdents(t *testing.T) {
	long := strings.Repeat("VeryLongHelperName", 5) // longer than the length filter's table
	src := []byte("void Foo(); int a1Foo = Foo(2) + _Foo + Foo_ + 9Foo;\n// Foo in a comment\nBar<3>(Foo); xBar Bar Fob Baz Ba Barr " +
		long + "(1); " + long + "X(2); " + long[:63] + "(3);")
	funcs := []funcDef{{name: "ns::Foo"}, {name: "Bar"}, {name: "Missing"}, {name: "C::" + long}}
	got := functionIdents(src, funcs)
	for _, name := range []string{"Foo", "Bar", "Missing", long} {
		if want := identOffsets(src, name); !slices.Equal(got[name], want) {
			t.Errorf("%s at %v, want %v", name, got[name], want)
		}
	}
}

// TestSiteTuples: call sites that differ in a value template argument
// make one instantiation each, with the value bound (the loop of the N=8
// one runs 8 times) and the site's own types, not every type paired with
// every value; sites that agree bind the value in the IR instead, as
// before, and make no tuples.
func TestSiteTuples(t *testing.T) {
	const callee = `template <typename T, int N>
__simd_vf__ inline void ScaleN(__ubuf__ T* dst, __ubuf__ T* src)
{
    AscendC::Reg::RegTensor<T> x;
    AscendC::Reg::MaskReg m = AscendC::Reg::CreateMask<T>();
    for (uint16_t i = 0; i < N; ++i) {
        AscendC::Reg::LoadAlign(x, src + i * 64);
        AscendC::Reg::StoreAlign(dst + i * 64, x, m);
    }
}
`
	for _, c := range []struct {
		calls string
		want  []string
	}{
		{"ScaleN<float, 8>(d, s); ScaleN<float, 32>(d, s);", []string{"N=8, T=float", "N=32, T=float"}},
		{"constexpr int kBig = 32; ScaleN<half, 8>((__ubuf__ half*)d, (__ubuf__ half*)s); ScaleN<float, kBig>(d, s);", []string{"N=8, T=half", "N=32, T=float"}},
		{"ScaleN<float, 8>(d, s); ScaleN<float, 8>(d, s);", []string{"T=float"}},
	} {
		src := callee + "__aicore__ inline void Run(__ubuf__ float* d, __ubuf__ float* s) { " + c.calls + " }\n"
		_, f := parse(t, "tuples.asc", []byte(src))
		fn := f.Func("ScaleN")
		if fn == nil {
			t.Fatal("no ScaleN")
		}
		var got []string
		for _, b := range fn.Instantiations() {
			got = append(got, b.String())
			if n, ok := b.Values["N"]; ok {
				if lp := b.Loop(fn.Loops[0]); !lp.TripKnown || lp.Trip != n.Val {
					t.Errorf("%s: the loop's trip is %d (known %v) under %s", c.calls, lp.Trip, lp.TripKnown, b)
				}
			}
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("%s: instantiations %q, want %q", c.calls, got, c.want)
		}
	}
}

// stepVF is a VF function whose loads and stores advance by its step
// parameter (TestCallerValues, TestCallerValuesOverloads).
const stepVF = `__simd_vf__ inline void StepVF(__ubuf__ float* dst, __ubuf__ float* src, uint16_t n, uint32_t step)
{
    AscendC::Reg::RegTensor<float> x;
    AscendC::Reg::MaskReg m = AscendC::Reg::CreateMask<float>();
    for (uint16_t i = 0; i < n; ++i) {
        AscendC::Reg::LoadAlign(x, src + i * step);
        AscendC::Reg::StoreAlign(dst + i * step, x, m);
    }
}
`

// TestCallerValues: what a caller passes reaches the region through a
// by-value helper call (CeilDivU(n, step) leaves step as it was; a helper
// taking it by reference does not), through an if constexpr whose
// condition folds (the branch the compiler builds sets step), and past a
// comment that ends the line before the call (no type before a name).
func TestCallerValues(t *testing.T) {
	const callee = stepVF + `__aicore__ inline uint32_t CeilDivU(uint32_t a, uint32_t b) { return (a + b - 1) / b; }
__aicore__ inline void Bump(uint32_t& a) { a += 1; }
constexpr uint32_t kMode = 0;
`
	for _, c := range []struct {
		body, want string
	}{
		{"uint32_t step = 64; uint16_t k = CeilDivU(n, step);\n    StepVF(d, s, k, step);", "src + (i * 64)"},
		{"uint32_t step = 64; Bump(step);\n    StepVF(d, s, n, step);", "src + (i * step)"},
		{"uint32_t step = 64;\n    if constexpr (kMode == 0) {\n        step = 32;\n    }\n    StepVF(d, s, n, step);", "src + (i * 32)"},
		{"uint32_t step = 64;\n    if constexpr (kMode == 1) {\n        step = 32;\n    }\n    StepVF(d, s, n, step);", "src + (i * 64)"},
		{"uint32_t step = 64; // the step\n    StepVF(d, s, n, step);", "src + (i * 64)"},
	} {
		src := callee + "__aicore__ inline void Run(__ubuf__ float* d, __ubuf__ float* s, uint16_t n)\n{\n    " + c.body + "\n}\n"
		_, f := parse(t, "values.asc", []byte(src))
		fn := f.Func("StepVF")
		if fn == nil {
			t.Fatal("no StepVF")
		}
		got := ""
		for _, in := range fn.Instrs {
			if in.Op == ir.OpLoadAlign {
				got = in.Args[1].Text
				if in.Args[1].Expr != nil {
					got = in.Args[1].Expr.String()
				}
			}
		}
		if got != c.want {
			t.Errorf("%s:\nthe load reads %q, want %q", c.body, got, c.want)
		}
	}
}

// TestCallerValuesOverloads: functions of one name share their call sites
// (a call is found by name), and each call is evaluated once for all of
// them (lowerer.siteAt): two overloads called with the same step both see
// it; called with different steps, neither does, as for one function
// called twice.
func TestCallerValuesOverloads(t *testing.T) {
	const callee = stepVF + `__simd_vf__ inline void StepVF(__ubuf__ half* dst, __ubuf__ half* src, uint16_t n, uint32_t step)
{
    AscendC::Reg::RegTensor<half> x;
    AscendC::Reg::MaskReg m = AscendC::Reg::CreateMask<half>();
    for (uint16_t i = 0; i < n; ++i) {
        AscendC::Reg::LoadAlign(x, src + i * step);
        AscendC::Reg::StoreAlign(dst + i * step, x, m);
    }
}
`
	for _, c := range []struct {
		body, want string
	}{
		{"uint32_t a = 64; uint32_t b = 64;\n    StepVF(df, sf, n, a);\n    StepVF(dh, sh, n, b);", "src + (i * 64)"},
		{"uint32_t a = 64; uint32_t b = 32;\n    StepVF(df, sf, n, a);\n    StepVF(dh, sh, n, b);", "src + (i * step)"},
	} {
		src := callee + "__aicore__ inline void Run(__ubuf__ float* df, __ubuf__ float* sf, __ubuf__ half* dh, __ubuf__ half* sh, uint16_t n)\n{\n    " + c.body + "\n}\n"
		_, f := parse(t, "overloads.asc", []byte(src))
		n := 0
		for _, fn := range f.Funcs {
			if fn.Name != "StepVF" {
				continue
			}
			n++
			for _, in := range fn.Instrs {
				if in.Op != ir.OpLoadAlign {
					continue
				}
				got := in.Args[1].Text
				if in.Args[1].Expr != nil {
					got = in.Args[1].Expr.String()
				}
				if got != c.want {
					t.Errorf("%s:\nthe load of the overload at %d reads %q, want %q", c.body, fn.Pos, got, c.want)
				}
			}
		}
		if n != 2 {
			t.Errorf("%s: %d functions StepVF, want 2", c.body, n)
		}
	}
}
