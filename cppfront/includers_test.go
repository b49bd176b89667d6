package cppfront

import (
	"fmt"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ascvet/ascvet/cppfront/ir"
)

// TestIncluderInstances: a class template's regions take the argument
// lists that the entry file one folder up writes for the class; a bare name
// (the entry's own template parameter) binds nothing. A file that only
// mentions the class in a comment, or that does not include the header,
// adds nothing.
func TestIncluderInstances(t *testing.T) {
	dir := t.TempDir()
	header := `#pragma once
template <typename T, typename U, bool isPadding>
class Gather {
public:
    __aicore__ inline void Compute(__ubuf__ T* dst, __ubuf__ T* src, uint16_t n);
};

template <typename T, typename U, bool isPadding>
__aicore__ inline void Gather<T, U, isPadding>::Compute(__ubuf__ T* dst, __ubuf__ T* src, uint16_t n)
{
    __VEC_SCOPE__
    {
        Reg::RegTensor<T> x;
        Reg::MaskReg m = Reg::CreateMask<T>();
        for (uint16_t i = 0; i < n; i++) {
            Reg::LoadAlign(x, src + i * 64);
            if constexpr (sizeof(T) == 1) {
                Reg::Adds(x, x, 1, m);
            }
            Reg::StoreAlign(dst + i * 64, x, m);
        }
    }
}
`
	entry := `#include "arch35/gather.h"
template <bool isPadding>
__aicore__ void Run() {
    if (TILING_KEY_IS(1)) { Gather<uint8_t, uint16_t, isPadding> op; op.Compute(nullptr, nullptr, 4); }
    else if (TILING_KEY_IS(2)) { Gather<float, uint32_t, true> op; op.Compute(nullptr, nullptr, 4); }
    else { Gather<DTYPE_X, uint32_t, false> op; op.Compute(nullptr, nullptr, 4); } // DTYPE_X: a bare name
    // Gather<half, half, true> in a comment is no instantiation
}
`
	write(t, filepath.Join(dir, "arch35", "gather.h"), header)
	write(t, filepath.Join(dir, "entry.cpp"), entry)
	write(t, filepath.Join(dir, "other.cpp"), "// does not include it\nGather<int8_t, int8_t, false> g;\n")
	name := filepath.Join(dir, "arch35", "gather.h")
	f, err := ParseFileOptions(token.NewFileSet(), name, []byte(header), Options{Index: NewIndex()})
	if err != nil {
		t.Fatal(err)
	}
	fn := lastVecScope(t, f)
	var got []string
	for _, b := range fn.Instantiations() {
		got = append(got, b.String())
	}
	want := []string{"T=uint8_t, U=uint16_t", "T=float, U=uint32_t, isPadding=1", "U=uint32_t, isPadding=0"}
	if len(got) != len(want) {
		t.Fatalf("instantiations %q, want %q", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("instantiation %d: %q, want %q", i, got[i], want[i])
		}
	}
	// Without the index, nothing is known.
	g, err := ParseFile(token.NewFileSet(), name, []byte(header))
	if err != nil {
		t.Fatal(err)
	}
	for _, fn := range g.Funcs {
		if len(fn.Tuples) > 0 {
			t.Errorf("%s has instantiations without an index", fn.Name)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "entry.cpp")); err != nil {
		t.Fatal(err)
	}
}

func TestTemplateOf(t *testing.T) {
	for _, c := range []struct {
		name, want string
		params     int
	}{
		{"Im2col<T, U, Y, isPadding>::Calc.vec_scope#1", "Im2col", 4},
		{"ns::Kernel<T>::Process", "Kernel", 1},
		{"Kernel<half, X>::Process", "", 0}, // a specialisation's arguments
		{"Plain::Method", "", 0},
	} {
		name, params := templateOf(&ir.Func{Name: c.name})
		if name != c.want || len(params) != c.params {
			t.Errorf("templateOf(%q) = %q %v; want %q and %d parameters", c.name, name, params, c.want, c.params)
		}
	}
}

// TestInClassInstances: a method defined in the body of a class template
// is instantiated with the class, by the argument lists its own file (a
// launch function below the class) and the files including it write; a
// partial specialisation's head is no instantiation. The aliases the class
// declares resolve per instantiation, std::conditional folded.
func TestInClassInstances(t *testing.T) {
	header := `#pragma once
template <typename T, int32_t KEY>
class PadG {
public:
    using RangeType = std::conditional_t<sizeof(T) <= sizeof(int16_t), int16_t, int32_t>;
    using CastType = typename std::conditional<std::is_same_v<T, uint8_t>, half, T>::type;
    __aicore__ inline void Run(__local_mem__ T* dst, __local_mem__ T* src, uint16_t n) {
        __VEC_SCOPE__
        {
            Reg::RegTensor<RangeType> a;
            Reg::RegTensor<CastType> c;
            Reg::MaskReg m = Reg::CreateMask<RangeType>();
            for (uint16_t i = 0; i < n; i++) {
                Reg::LoadAlign(c, src + i * 64);
                Reg::Adds(a, a, (RangeType)1, m);
                Reg::StoreAlign(dst + i * 64, c, m);
            }
        }
    }
};
template <typename T>
class PadG<T, 7> {
};
`
	own := header + `template <int32_t KEY>
__aicore__ void Launch() {
    PadG<uint8_t, KEY> a; a.Run(nullptr, nullptr, 4);
    PadG<uint32_t, KEY> b; b.Run(nullptr, nullptr, 4);
}
`
	entry := `#include "pad.h"
template <int32_t KEY>
__aicore__ void Launch() {
    PadG<uint8_t, KEY> a; a.Run(nullptr, nullptr, 4);
    PadG<uint32_t, KEY> b; b.Run(nullptr, nullptr, 4);
}
`
	for _, tc := range []struct {
		name  string
		files map[string]string
	}{
		{"own file", map[string]string{"pad.h": own}},
		{"includer", map[string]string{"pad.h": header, "launch.h": entry}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			for n, text := range tc.files {
				write(t, filepath.Join(dir, n), text)
			}
			name := filepath.Join(dir, "pad.h")
			f, err := ParseFileOptions(token.NewFileSet(), name, []byte(tc.files["pad.h"]), Options{Index: NewIndex()})
			if err != nil {
				t.Fatal(err)
			}
			fn := lastVecScope(t, f)
			if fn.Class != "PadG" || len(fn.ClassTParams) != 2 || fn.ClassTParams[0] != "T" || fn.ClassTParams[1] != "KEY" {
				t.Errorf("class %q %q, want PadG [T KEY]", fn.Class, fn.ClassTParams)
			}
			insts := fn.Instantiations()
			var got []string
			for _, b := range insts {
				got = append(got, b.String()+": "+b.Type("RangeType")+" "+b.Type("CastType"))
			}
			want := []string{"T=uint8_t: int16_t half", "T=uint32_t: int32_t uint32_t"}
			if len(got) != len(want) || got[0] != want[0] || got[1] != want[1] {
				t.Errorf("instantiations %q, want %q", got, want)
			}
		})
	}
}

// TestMacroInstances: a class template instantiated only inside the body
// of the entry file's function-like macros takes the argument lists their
// invocations write (a parameter for its argument, __VA_ARGS__ for the
// rest); an invocation in a comment, and one passing a bare name, add
// nothing.
func TestMacroInstances(t *testing.T) {
	header := `#pragma once
template <typename T, int32_t renorm>
class Perf {
public:
    __aicore__ inline void Run(__local_mem__ T* dst, uint16_t n) {
        __VEC_SCOPE__
        {
            Reg::RegTensor<T> a;
            Reg::MaskReg m = Reg::CreateMask<T>();
            for (uint16_t i = 0; i < n; i++) {
                Reg::LoadAlign(a, dst + i * 64);
                Reg::StoreAlign(dst + i * 64, a, m);
            }
        }
    }
};
`
	entry := `#include "arch35/perf.h"
#define PERF_IMPL(INPUT_TYPE, RENORM)              \
    do {                                           \
        Perf<INPUT_TYPE, RENORM> op;               \
        op.Run(nullptr, 4);                        \
    } while (0)
#define PERF_V(INPUT_TYPE, ...) Perf<INPUT_TYPE, __VA_ARGS__> op2;
extern "C" __global__ __aicore__ void perf(GM_ADDR x) {
    if (TILING_KEY_IS(1)) {
        PERF_IMPL(half, 0);
    } else if (TILING_KEY_IS(2)) {
        PERF_IMPL(float, 1);
    } else if (TILING_KEY_IS(3)) {
        PERF_IMPL(DTYPE_X, 0);
    } else {
        PERF_V(bfloat16_t, 1)
    }
    // PERF_IMPL(int8_t, 0);
}
`
	dir := t.TempDir()
	write(t, filepath.Join(dir, "arch35", "perf.h"), header)
	write(t, filepath.Join(dir, "perf_apt.cpp"), entry)
	f, err := ParseFileOptions(token.NewFileSet(), filepath.Join(dir, "arch35", "perf.h"), []byte(header), Options{Index: NewIndex()})
	if err != nil {
		t.Fatal(err)
	}
	fn := lastVecScope(t, f)
	var got []string
	for _, b := range fn.Instantiations() {
		got = append(got, b.String())
	}
	want := []string{"T=half, renorm=0", "T=float, renorm=1", "renorm=0", "T=bfloat16_t, renorm=1"}
	if strings.Join(got, "; ") != strings.Join(want, "; ") {
		t.Errorf("instantiations %q, want %q", got, want)
	}
}

// TestReachableInstances: a method of a class template is instantiated
// only where it is called: called under if constexpr (sizeof(E) == 8), or
// in the else branch of that chain, it keeps the instantiations whose
// condition selects it. A method called outside any if constexpr, or
// called nowhere in the file, keeps them all.
func TestReachableInstances(t *testing.T) {
	header := `#pragma once
template <typename E, typename O>
class Adj {
public:
    __aicore__ inline void Process(uint16_t n) {
        Plain(n);
        if constexpr (sizeof(E) == sizeof(int64_t)) {
            D64(n);
        } else if constexpr (sizeof(E) == sizeof(int32_t)) {
            if (n > 0) { D32(n); }
        } else {
            DRest(n);
        }
    }
` + func() string {
		var b strings.Builder
		for _, m := range []string{"D64", "D32", "DRest", "Plain", "Nowhere"} {
			fmt.Fprintf(&b, `    __aicore__ inline void %s(uint16_t n) {
        __VEC_SCOPE__ {
            Reg::RegTensor<E> a;
            for (uint16_t i = 0; i < n; i++) { Reg::LoadAlign(a, (__ubuf__ E*)0 + i * 64); }
        }
    }
`, m)
		}
		return b.String()
	}() + "};\n"
	entry := `#include "adj.h"
__aicore__ void Run() { Adj<int64_t, X> a; Adj<int32_t, X> b; Adj<int8_t, X> c; Adj<uint8_t, X> d; }
`
	dir := t.TempDir()
	write(t, filepath.Join(dir, "adj.h"), header)
	write(t, filepath.Join(dir, "run.cpp"), entry)
	f, err := ParseFileOptions(token.NewFileSet(), filepath.Join(dir, "adj.h"), []byte(header), Options{Index: NewIndex()})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"D64.vec_scope#1":     "E=int64_t",
		"D32.vec_scope#1":     "E=int32_t",
		"DRest.vec_scope#1":   "E=int8_t; E=uint8_t",
		"Plain.vec_scope#1":   "E=int64_t; E=int32_t; E=int8_t; E=uint8_t",
		"Nowhere.vec_scope#1": "E=int64_t; E=int32_t; E=int8_t; E=uint8_t",
	}
	seen := 0
	for _, fn := range f.Funcs {
		w, ok := want[fn.Name]
		if !ok {
			continue
		}
		seen++
		var got []string
		for _, b := range fn.Instantiations() {
			got = append(got, b.String())
		}
		if strings.Join(got, "; ") != w {
			t.Errorf("%s: instantiations %q, want %s", fn.Name, got, w)
		}
	}
	if seen != len(want) {
		t.Errorf("%d regions found, want %d", seen, len(want))
	}
}

// lastVecScope returns the last __VEC_SCOPE__ region of f, failing the test
// when there is none.
func lastVecScope(t *testing.T, f *ir.File) *ir.Func {
	t.Helper()
	var fn *ir.Func
	for _, g := range f.Funcs {
		if g.Kind == ir.RegionVecScope {
			fn = g
		}
	}
	if fn == nil {
		t.Fatal("no __VEC_SCOPE__ region")
	}
	return fn
}
