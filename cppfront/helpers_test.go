package cppfront

import (
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/ascvet/ascvet/cppfront/ir"
)

// TestScanHelpers: the scalar helpers the text scan takes, with their
// parameters, guards and returns, and the functions it leaves alone.
func TestScanHelpers(t *testing.T) {
	const text = `#pragma once
template <typename T>
__aicore__ inline T CeilDiv(T a, T b)
{
    if (b == 0) {
        return a;
    }
    return (a + b - 1) / b;
}
__aicore__ inline constexpr uint32_t ceil_div(uint32_t a, uint32_t b) { return (a + b - 1) / b; }
template <typename T>
inline __aicore__ T CeilDivChecked(const T dividend, const T divisor)
{
    static_assert(std::is_arithmetic<T>::value, "T must be an arithmetic type");
    if (divisor == 0 || dividend + divisor - 1 < dividend) return dividend;
    return (dividend + divisor - 1) / divisor;
}
__aicore__ inline uint32_t AlignUp(const uint32_t &n, uint32_t a = 32) const { return n == 0 ? 0 : (n + a - 1) / a * a; }
__aicore__ inline uint32_t Local(uint32_t n) { uint32_t m = n * 2; return m; }
__aicore__ inline uint32_t Loop(uint32_t n) { for (;;) {} return n; }
__aicore__ inline uint32_t Ptr(uint32_t *n) { return *n; }
__aicore__ inline uint32_t Nullary() { return 64; }
__aicore__ inline void Work(uint32_t n) { Foo(n); }
void Call() { uint32_t x = Bar(1) { return 1; } }
`
	got := map[string]pureFn{}
	scanHelpers(text, func(name string, f pureFn) { got[name] = f })
	want := map[string]string{
		"CeilDiv":        "[T] (a,b) if b == 0 -> a; (a + b - 1) / b",
		"ceil_div":       "[] (a,b) (a + b - 1) / b",
		"CeilDivChecked": "[T] (dividend,divisor) if divisor == 0 || dividend + divisor - 1 < dividend -> dividend; (dividend + divisor - 1) / divisor",
		"AlignUp":        "[] (n,a) n == 0 ? 0 : (n + a - 1) / a * a",
	}
	for name, w := range want {
		f, ok := got[name]
		if !ok {
			t.Errorf("%s: not taken", name)
			continue
		}
		s := "[" + strings.Join(f.tparams, ",") + "] (" + strings.Join(f.params, ",") + ") "
		for _, g := range f.guards {
			s += "if " + g[0] + " -> " + g[1] + "; "
		}
		s += f.ret
		if s != w {
			t.Errorf("%s: %s, want %s", name, s, w)
		}
	}
	for name := range got {
		if _, ok := want[name]; !ok {
			t.Errorf("%s: taken as a helper", name)
		}
	}
}

// TestExprParserLogic: comparisons, logical operators, ! and ?: fold over
// constants; a ?: takes only its branch's value (the other divides by zero
// here); a comparison of something unknown does not fold.
func TestExprParserLogic(t *testing.T) {
	ev := &evaluator{}
	for text, want := range map[string]int64{
		"3 < 4":                     1,
		"4 <= 3":                    0,
		"5 >= 5 && 2 > 1":           1,
		"0 || 1 == 2":               0,
		"1 != 2 || 1 / 0":           1,
		"!0 + 1":                    2,
		"0 ? 1 / 0 : 7":             7,
		"(8 == 8) ? 3 : 1 / 0":      3,
		"1 << 3 < 9":                1,
		"(64 + 256 - 1) / 256":      1,
		"2 > 1 ? 2 < 1 ? 5 : 6 : 7": 6,
	} {
		p := &exprParser{s: text, ev: ev}
		v, ok := p.expr().Value()
		if p.failed || !ok || v != want || strings.TrimSpace(p.s[p.i:]) != "" {
			t.Errorf("%q: %d (ok %v, failed %v), want %d", text, v, ok, p.failed, want)
		}
	}
	for _, text := range []string{"x < 3", "1 ? x : 2", "x && 1"} {
		p := &exprParser{s: text, ev: ev}
		if x := p.expr(); !p.failed && x != nil {
			if _, ok := x.Value(); ok {
				t.Errorf("%q folds", text)
			}
		}
	}
}

// TestHelperTrips: a loop's trip count folds through a scalar helper of
// the file, of a header the index finds, and through asc_get_vf_len(),
// with a caller's value bound to a parameter (asc_vf_call); a guard that
// holds gives its return; a helper defined twice with different bodies, a
// helper that reads a member, and an argument that is not constant leave
// the trip unknown.
func TestHelperTrips(t *testing.T) {
	dir := writeTree(t, map[string]string{
		"op/include/util.h": `#pragma once
template <typename T1, typename T2>
__aicore__ inline T1 CeilDiv(T1 a, T2 b)
{
    if (b == 0) {
        return 0;
    }
    return (a + b - 1) / b;
}
__aicore__ inline uint32_t Twice(uint32_t n) { return n * 2; }
__aicore__ inline uint32_t Twice(uint32_t n) { return n * 3; }
__aicore__ inline uint32_t Member(uint32_t n) { return n * len_; }
__aicore__ inline uint32_t Half(uint32_t n) { return Twice(n) / 4 + CeilDiv(n, 0u); }
`,
		"op/op_kernel/k.asc": `#include "kernel_operator.h"
#include "util.h"
constexpr uint32_t TILE = 8192;
__aicore__ __inline__ constexpr uint32_t ceil_div(uint32_t a, uint32_t b) { return (a + b - 1) / b; }

__simd_vf__ inline void K(__ubuf__ float* dst, __ubuf__ float* src, const uint32_t count, uint32_t runtime)
{
    constexpr uint32_t rep = asc_get_vf_len() / sizeof(float);
    uint16_t a = ceil_div(count, rep);
    uint16_t b = CeilDiv(count, rep);
    uint16_t c = CeilDiv(count, 0);
    uint16_t d = Twice(count);
    uint16_t e = Member(count);
    uint16_t f = CeilDiv(runtime, rep);
    vector_float x;
    vector_bool m = asc_create_mask_b32(PAT_ALL);
    for (uint16_t i = 0; i < a; i++) { asc_loadalign(x, src + i * rep); asc_storealign(dst + i * rep, x, m); }
    for (uint16_t i = 0; i < b; i++) { asc_loadalign(x, src + i * rep); asc_storealign(dst + i * rep, x, m); }
    for (uint16_t i = 0; i < c; i++) { asc_loadalign(x, src + i * rep); asc_storealign(dst + i * rep, x, m); }
    for (uint16_t i = 0; i < d; i++) { asc_loadalign(x, src + i * rep); asc_storealign(dst + i * rep, x, m); }
    for (uint16_t i = 0; i < e; i++) { asc_loadalign(x, src + i * rep); asc_storealign(dst + i * rep, x, m); }
    for (uint16_t i = 0; i < f; i++) { asc_loadalign(x, src + i * rep); asc_storealign(dst + i * rep, x, m); }
}

__global__ __aicore__ void kernel(__gm__ float* x, uint32_t n)
{
    __ubuf__ float* a = (__ubuf__ float*)0;
    __ubuf__ float* b = (__ubuf__ float*)(TILE * 4);
    asc_vf_call<K>(b, a, TILE, n);
}
`,
	})
	f := parseIndexed(t, NewIndex(), filepath.Join(dir, "op/op_kernel/k.asc"))
	var fn *ir.Func
	for _, g := range f.Funcs {
		if g.Name == "K" {
			fn = g
		}
	}
	if fn == nil {
		t.Fatal("no region K")
	}
	var got []string
	for _, lp := range fn.Loops {
		if lp.TripKnown {
			got = append(got, strconv.FormatInt(lp.Trip, 10))
		} else {
			got = append(got, "?")
		}
	}
	// a: the file's helper, 8192 / 64; b: the header's; c: its guard (b == 0);
	// d: Twice defined twice; e: reads a member; f: a runtime argument.
	if want := "128 128 0 ? ? ?"; strings.Join(got, " ") != want {
		t.Errorf("trips %s, want %s", strings.Join(got, " "), want)
	}
}

// TestHelperHostile: a helper that calls itself, several times a level,
// ends within the evaluation's bounds and does not fold.
func TestHelperHostile(t *testing.T) {
	hs := map[string][]*pureFn{}
	scanHelpers(`__aicore__ inline uint32_t F(uint32_t n) { return F(n) + F(n) + F(n) + F(n) + F(n) + F(n); }`,
		func(name string, f pureFn) { addHelper(hs, name, f) })
	h := newHeader()
	h.helpers = hs
	ev := &evaluator{hs: []*header{h}}
	if x := ev.callArgs("F", nil, []int64{3}, nil); x != nil {
		t.Errorf("F(3) = %v", x)
	}
	if ev.calls > maxHelperCalls {
		t.Errorf("%d calls evaluated, more than %d", ev.calls, maxHelperCalls)
	}
}
