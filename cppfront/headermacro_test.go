package cppfront

import (
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/ascvet/ascvet/cppfront/ir"
)

// hmKernel uses macros of the headers it includes in its VF code.
const hmKernel = `#include "vf/vf_steps.h"
#include "other.h"
#undef HIDDEN_STEP
__simd_vf__ inline void K(__ubuf__ float* src, __ubuf__ float* dst, uint16_t n)
{
    Reg::RegTensor<float> a1, a2, s;
    Reg::MaskReg m;
    for (uint16_t i = 0; i < n; ++i) {
        Reg::LoadAlign(s, src + i * STEP_LEN);
        ADD_PAIR(a, s, m);
        TWICE(s);
        OWN_STEP(s);
        CLASH(s);
        HIDDEN_STEP(s);
        asc_create_mask_b32(m);
        Reg::Mul(s, a1, a2, m);
        Reg::StoreAlign(dst + i * STEP_LEN, s, m);
    }
}
`

// TestHeaderMacros: macros of the included headers (transitively) expand
// in VF code, pasting and nesting included, as the file's own do; the
// file's own #define wins, an #undef in the file ends them, two headers
// defining a name differently and a macro named as an API call leave it as
// written; the headers are the file's dependencies.
func TestHeaderMacros(t *testing.T) {
	dir := writeTree(t, map[string]string{
		"op/k.asc": "#define OWN_STEP(x) Reg::Sub(x, x, x, m)\n" + hmKernel,
		"op/vf/vf_steps.h": `#pragma once
#include "vf_base.h"
#define ADD_PAIR(d, s, m)            \
    do {                             \
        ADD_ONE(d, 1, s, m);         \
        ADD_ONE(d, 2, s, m);         \
    } while (0)
#define OWN_STEP(x) Reg::Abs(x, x, m)
#define CLASH(x) Reg::Exp(x, x, m)
#define HIDDEN_STEP(x) Reg::Relu(x, x, m)
#define asc_create_mask_b32 pset_b32
`,
		"op/vf/vf_base.h": `#define ADD_ONE(d, k, s, m) Reg::Add(d##k, s, s, m)
#define TWICE(x) Reg::Add(x, x, x, m) /* a comment */
#define STEP_LEN 64
`,
		"op/other.h": "#define CLASH(x) Reg::Ln(x, x, m)\n",
	})
	name := filepath.Join(dir, "op/k.asc")
	src, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	ix := NewIndex()
	f, err := ParseFileOptions(token.NewFileSet(), name, src, Options{Index: ix})
	if err != nil {
		t.Fatal(err)
	}
	if err := ir.Verify(f); err != nil {
		t.Fatal(err)
	}
	var ops []string
	for _, in := range f.Funcs[0].Instrs {
		ops = append(ops, in.Op.String())
	}
	// LoadAlign; ADD_PAIR: two Adds in a do-while(0); TWICE: Add;
	// OWN_STEP: the file's Sub; CLASH and HIDDEN_STEP: calls left as
	// written; asc_create_mask_b32: the API's CreateMask.
	want := []string{"LoadAlign", "Add", "Add", "Add", "Sub", "call", "call", "CreateMask", "Mul", "StoreAlign"}
	if len(ops) != len(want) {
		t.Fatalf("ops %v, want %v", ops, want)
	}
	for i := range want {
		if ops[i] != want[i] && !(want[i] == "call" && ops[i] == ir.OpUnknown.String()) {
			t.Errorf("op %d: %s, want %s (all: %v)", i, ops[i], want[i], ops)
		}
	}
	add := f.Funcs[0].Instrs[1]
	if add.Args[0].Text != "a1" && f.Funcs[0].Regs[add.Defs[0]].Name != "a1" {
		t.Errorf("ADD_PAIR's first Add writes %v, want a1", add.Args[0])
	}
	var once bool
	for _, l := range f.Funcs[0].Loops {
		if l.Kind == ir.LoopDo {
			once = l.TripKnown && l.Trip == 1 && l.AtMostOnce
		}
	}
	if !once {
		t.Error("do { ... } while (0) is not a loop of one trip")
	}
	if a := f.Funcs[0].Instrs[0].Args[1]; a.Expr.String() != "src + (i * 64)" {
		t.Errorf("STEP_LEN: %s, want src + (i * 64)", a.Expr)
	}
	names := map[string]bool{}
	for _, x := range f.Expansions {
		names[x.Name] = true
	}
	for _, n := range []string{"ADD_PAIR", "TWICE", "OWN_STEP", "STEP_LEN"} {
		if !names[n] {
			t.Errorf("no expansion of %s (%v)", n, names)
		}
	}
	deps := map[string]bool{}
	for _, d := range ix.Consulted(name) {
		deps[filepath.Base(d.Path)] = true
	}
	for _, h := range []string{"vf_steps.h", "vf_base.h", "other.h"} {
		if !deps[h] {
			t.Errorf("%s is not a dependency of the file (%v)", h, deps)
		}
	}
}

// TestHeaderMacrosUnused: a file whose VF code uses no macro of its
// headers, though it has a name spelled as one, reads its closure and
// depends on it (a header that comes to #define LEN would change it), and
// a header's macro outside VF code is not expanded.
func TestHeaderMacrosUnused(t *testing.T) {
	dir := writeTree(t, map[string]string{
		"k.asc": `#include "steps.h"
constexpr int LEN = 64;
int host = HOST_ONLY(1);
__simd_vf__ inline void K(__ubuf__ float* src)
{
    Reg::RegTensor<float> s;
    Reg::LoadAlign(s, src + LEN);
}
`,
		"steps.h": "#define HOST_ONLY(x) (x + 1)\n#define UNUSED_STEP(x) Reg::Abs(x, x, m)\n",
	})
	name := filepath.Join(dir, "k.asc")
	src, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	ix := NewIndex()
	clean, blanks := prepass(src)
	tf := token.NewFileSet().AddFile(name, -1, len(src))
	f := &ir.File{Name: name, Tok: tf, Src: src}
	var c *closure
	hm := fileMacros(ix, name, clean, &c)
	if m := expandMacros(src, clean, blanks, hm); m != nil || !hm.loaded {
		t.Errorf("expanded %v, closure read %v; want nothing expanded from a closure read", m != nil, hm.loaded)
	}
	if c == nil || len(c.hs) != 1 {
		t.Errorf("closure %v, want steps.h read", c)
	}
	if m := expandFile(f, src, clean, blanks, DefaultMaxDepth, ix); m != nil || len(f.Expansions) != 0 {
		t.Errorf("expansions %v, want none", f.Expansions)
	}
	var got []string
	for _, d := range ix.Consulted(name) {
		got = append(got, filepath.Base(d.Path)+" "+d.Lookup)
	}
	if want := []string{"steps.h "}; !slices.Equal(got, want) { // found next to the file: no lookup to record
		t.Errorf("dependencies %q, want %q", got, want)
	}
}

// TestHeaderDefines checks a header's directives in the expander's form.
func TestHeaderDefines(t *testing.T) {
	defs := headerDefines([]byte("#define A(x) __aicore__ x + 1\n#define B 2\n#undef B\n#define V(x) __VEC_SCOPE__ { x; }\n#undef C\n#define M(a, b) \\\n  a##b\n"))
	if d := defs["A"]; d == nil || d.bad || !d.fn || render(d.body) != "x + 1" {
		t.Errorf("A: %+v", d)
	}
	for _, n := range []string{"B", "V", "C"} {
		if d := defs[n]; d == nil || !d.bad {
			t.Errorf("%s: %+v, want unusable", n, d)
		}
	}
	if d := defs["M"]; d == nil || d.bad || render(d.body) != "a ## b" && render(d.body) != "a##b" {
		t.Errorf("M: %+v", d)
	}
}
