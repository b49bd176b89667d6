package cppfront

import (
	"fmt"
	"go/token"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/ascvet/ascvet/cppfront/ir"
)

// xcallersHelper is a header helper whose two loops are bounded by its
// parameters: a 0/1 flag and a row count.
const xcallersHelper = `#pragma once
__simd_vf__ inline void Fold(__ubuf__ float* dst, __ubuf__ float* src, uint16_t hasTail, uint16_t n)
{
    AscendC::Reg::RegTensor<float> a;
    AscendC::Reg::MaskReg m = AscendC::Reg::CreateMask<float>();
    for (uint16_t i = 0; i < hasTail; i++) {
        AscendC::Reg::LoadAlign(a, src + i * 64);
        AscendC::Reg::StoreAlign(dst + i * 64, a, m);
    }
    for (uint16_t i = 0; i < n; i++) {
        AscendC::Reg::LoadAlign(a, src + i * 64);
        AscendC::Reg::StoreAlign(dst + i * 64, a, m);
    }
}
`

// TestIncluderCallValues: the values that calls in the files including a
// header pass to its helper bind the helper's parameters when every call
// agrees (a literal, a constant the caller defines, a 0/1 flag written or
// kept in a local), and leave them unknown when calls disagree, when a
// local flag is changed after its initialiser, when the call is a member
// of some object, or when its argument count differs.
func TestIncluderCallValues(t *testing.T) {
	for _, tc := range []struct {
		name       string
		callers    []string // bodies of kernels in files that include vf.h
		once       bool     // the hasTail loop runs at most once
		trip       string   // the n loop's trip count, "?" when unknown
		sameFolder bool     // the second caller is in vf.h's folder, not the one above
	}{
		{"literal and flag", []string{"Fold(d, d, tail > 0 ? 1 : 0, 8);"}, true, "8", true},
		{"constant and local flag", []string{"uint16_t hasTail = (tail == K) ? 1 : 0;\n    Fold(d, d, hasTail, ROWS);"}, true, "8", true},
		{"two callers agree", []string{"Fold(d, d, static_cast<uint16_t>(tail != 0), 8);", "Fold(d, d, 1, (uint16_t)8);"}, true, "8", false},
		{"two callers disagree", []string{"Fold(d, d, 0, 8);", "Fold(d, d, 1, 16);"}, true, "?", true},
		{"flag changed after", []string{"uint16_t hasTail = tail > 0 ? 1 : 0;\n    hasTail += extra;\n    Fold(d, d, hasTail, 8);"}, false, "8", true},
		{"runtime value", []string{"Fold(d, d, tail, rows);"}, false, "?", true},
		{"member of an object", []string{"op.Fold(d, d, 1, 8);"}, false, "?", true},
		{"other arity", []string{"Fold(d, d, 1);"}, false, "?", true},
		{"in a comment", []string{"// Fold(d, d, 1, 8);"}, false, "?", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			write(t, filepath.Join(dir, "vf", "vf.h"), xcallersHelper)
			for i, body := range tc.callers {
				sub := "vf"
				inc := "vf.h"
				if !tc.sameFolder && i == 1 {
					sub, inc = ".", "vf/vf.h" // the folder above
				}
				text := fmt.Sprintf("#include %q\nconstexpr uint16_t ROWS = 8;\n#define K 4\n__aicore__ void K%d(__ubuf__ float* d, uint32_t tail, uint16_t rows, uint16_t extra) {\n    %s\n}\n", inc, i, body)
				write(t, filepath.Join(dir, sub, fmt.Sprintf("k%d.cpp", i)), text)
			}
			name := filepath.Join(dir, "vf", "vf.h")
			ix := NewIndex()
			f, err := ParseFileOptions(token.NewFileSet(), name, []byte(xcallersHelper), Options{Index: ix})
			if err != nil {
				t.Fatal(err)
			}
			var fn *ir.Func
			for _, g := range f.Funcs {
				if g.Name == "Fold" {
					fn = g
				}
			}
			if fn == nil || len(fn.Loops) != 2 {
				t.Fatal("no Fold with two loops")
			}
			if got := fn.Loops[0].AtMostOnce; got != tc.once {
				t.Errorf("hasTail loop at most once: %v, want %v", got, tc.once)
			}
			trip := "?"
			if l := fn.Loops[1]; l.TripKnown {
				trip = fmt.Sprint(l.Trip)
			}
			if trip != tc.trip {
				t.Errorf("n loop trip %s, want %s", trip, tc.trip)
			}
			// The callers read are the file's dependencies: a change
			// to one analyses the header again.
			var deps []string
			for _, d := range ix.Consulted(name) {
				deps = append(deps, d.Path)
			}
			if k0 := filepath.Join(dir, "vf", "k0.cpp"); !strings.Contains(strings.Join(deps, " "), k0) {
				t.Errorf("dependencies %q do not hold %s", deps, k0)
			}
		})
	}
}

// TestIncluderCallScope: the function around a __VEC_SCOPE__ block takes
// the values its callers in other files pass, a class constant set by a
// platform size query included; callers that disagree leave it unknown.
func TestIncluderCallScope(t *testing.T) {
	header := `#pragma once
template <typename U, bool ISPRE>
__aicore__ inline void Scale(__local_mem__ U *dst, uint64_t vRegSize)
{
    uint16_t loops = vRegSize / 64;
    __VEC_SCOPE__
    {
        AscendC::MicroAPI::RegTensor<U> a;
        AscendC::MicroAPI::MaskReg m = AscendC::MicroAPI::CreateMask<U>();
        for (uint16_t i = 0; i < loops; i++) {
            AscendC::MicroAPI::LoadAlign(a, dst + i * 64);
            AscendC::MicroAPI::StoreAlign(dst + i * 64, a, m);
        }
    }
}
`
	caller := func(arg string) string {
		return `#include "vf.h"
template <typename U>
class K {
    constexpr static uint32_t V_REG_SIZE = Ops::Base::GetVRegSize();
    __aicore__ inline void Run(__local_mem__ U *d) { Scale<U, true>(d, ` + arg + `); }
};
`
	}
	for _, tc := range []struct {
		name string
		args []string
		trip string
	}{
		{"class constant", []string{"V_REG_SIZE"}, "4"},
		{"agreeing literal", []string{"V_REG_SIZE", "256"}, "4"},
		{"disagreeing", []string{"V_REG_SIZE", "128"}, "?"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			write(t, filepath.Join(dir, "vf.h"), header)
			for i, a := range tc.args {
				write(t, filepath.Join(dir, fmt.Sprintf("k%d.h", i)), caller(a))
			}
			f, err := ParseFileOptions(token.NewFileSet(), filepath.Join(dir, "vf.h"), []byte(header), Options{Index: NewIndex()})
			if err != nil {
				t.Fatal(err)
			}
			fn := lastVecScope(t, f)
			if len(fn.Loops) != 1 {
				t.Fatal("no __VEC_SCOPE__ region with one loop")
			}
			trip := "?"
			if l := fn.Loops[0]; l.TripKnown {
				trip = fmt.Sprint(l.Trip)
			}
			if trip != tc.trip {
				t.Errorf("trip %s, want %s", trip, tc.trip)
			}
		})
	}
}

// TestCallSiteDeclChain: a call site in the file reads only the caller's
// declarations its arguments need (neededDecls), through a chain of them,
// past declarations of other names; a declaration that writes a needed
// name (here through a reference in its initialiser) is read too.
func TestCallSiteDeclChain(t *testing.T) {
	for _, tc := range []struct {
		name, body, trip string
	}{
		{"chain", "uint16_t a = 4;\n    float unused = 2.0f;\n    uint16_t rows = a * 2;\n    uint16_t other = 3;\n    Fold(d, d, 0, rows);", "8"},
		{"shadowed inside", "uint16_t rows = 8;\n    {\n        uint16_t rows = 16;\n        Fold(d, d, 0, rows);\n    }", "16"},
		{"written by a later declaration", "uint16_t rows = 8;\n    uint16_t got = Bump(rows);\n    Fold(d, d, 0, rows);", "?"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := xcallersHelper + "__aicore__ inline uint16_t Bump(uint16_t& x) { x += 1; return x; }\n" +
				"__aicore__ void K(__ubuf__ float* d) {\n    " + tc.body + "\n}\n"
			f, err := ParseFile(token.NewFileSet(), "k.cpp", []byte(src))
			if err != nil {
				t.Fatal(err)
			}
			for _, fn := range f.Funcs {
				if fn.Name != "Fold" || len(fn.Loops) != 2 {
					continue
				}
				trip := "?"
				if l := fn.Loops[1]; l.TripKnown {
					trip = fmt.Sprint(l.Trip)
				}
				if trip != tc.trip {
					t.Errorf("n loop trip %s, want %s", trip, tc.trip)
				}
				return
			}
			t.Fatal("no Fold with two loops")
		})
	}
}

// TestTextConsts: the memo of a kept includer text answers as
// fileConstant does, asked once or again, from several goroutines.
func TestTextConsts(t *testing.T) {
	src := []byte("#define ROWS 8\nconstexpr uint32_t COLS = 64;\nconst int TWICE = 1;\nconst int TWICE = 2;\nint Use(int x) { return ROWS * x; }\n")
	names := []string{"ROWS", "COLS", "TWICE", "Use", "Missing"}
	var c textConsts
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			for range 3 {
				for _, n := range names {
					v, ok := c.of(src, n)
					if wv, wok := fileConstant(src, n); v != wv || ok != wok {
						t.Errorf("%s: %d %v, fileConstant %d %v", n, v, ok, wv, wok)
					}
				}
			}
		})
	}
	wg.Wait()
	if v, ok := c.of(src, "COLS"); !ok || v != 64 {
		t.Errorf("COLS: %d %v, want 64", v, ok)
	}
	if len(c.m) != len(names) {
		t.Errorf("the memo holds %d names, want %d", len(c.m), len(names))
	}
}
