package cppfront

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
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
	src := []byte("void Foo(); int a1Foo = Foo(2) + _Foo + Foo_ + 9Foo;\n// Foo in a comment\nBar<3>(Foo); xBar Bar")
	funcs := []funcDef{{name: "ns::Foo"}, {name: "Bar"}, {name: "Missing"}}
	got := functionIdents(src, funcs)
	for _, name := range []string{"Foo", "Bar", "Missing"} {
		if want := identOffsets(src, name); !slices.Equal(got[name], want) {
			t.Errorf("%s at %v, want %v", name, got[name], want)
		}
	}
}
