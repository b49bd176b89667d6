package cppfront

import (
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ascvet/ascvet/cppfront/ir"
)

const inlineSrc = `
template <typename T, bool Scale>
__simd_callee__ inline void Poly(Reg::RegTensor<T>& dst, Reg::RegTensor<T>& src, Reg::MaskReg& mask, uint16_t rounds)
{
    Reg::RegTensor<T> sq;
    Reg::Mul(sq, src, src, mask);
    for (uint16_t k = 0; k < rounds; k++) {
        Reg::Mul(dst, dst, sq, mask);
    }
    if constexpr (Scale) {
        Reg::Muls(dst, dst, static_cast<T>(2), mask);
    }
    if constexpr (std::is_same<T, half>::value) {
        Reg::Adds(dst, dst, static_cast<T>(1), mask);
    } else {
        Reg::Adds(dst, dst, static_cast<T>(1), mask);
        Reg::Abs(dst, dst, mask);
    }
}

template <typename T>
__simd_callee__ inline void Once(Reg::RegTensor<T>& dst, Reg::MaskReg& mask, uint16_t hasTail)
{
    for (uint16_t t = 0; t < hasTail; t++) {
        Reg::Abs(dst, dst, mask);
    }
}

__simd_vf__ inline void Kernel(__ubuf__ float* dst, __ubuf__ float* src, uint32_t n, uint32_t tail)
{
    Reg::RegTensor<float> x, y;
    Reg::MaskReg mask = Reg::CreateMask<float>();
    uint16_t hasTail = tail > 0 ? 1 : 0;
    for (uint16_t i = 0; i < 8; i++) {
        Reg::LoadAlign(x, src + i * 64);
        Poly<float, true>(y, x, mask, 3);
        Once<float>(y, mask, hasTail);
        Reg::StoreAlign(dst + i * 64, y, mask);
    }
}
`

// TestInline checks what ir.Inline makes of a call of a helper of the
// file: the helper's body with its registers renamed, its parameters bound
// to the call's, its loops' trip counts folded, its if constexpr folded.
func TestInline(t *testing.T) {
	_, f := parse(t, "inline.asc", []byte(inlineSrc))
	k := f.Func("Kernel")
	if k == nil {
		t.Fatal("no Kernel")
	}
	var poly, once *ir.Instr
	for _, in := range k.Instrs {
		switch in.Name {
		case "Poly":
			poly = in
		case "Once":
			once = in
		}
	}
	if poly == nil || poly.Target == nil || poly.Target.Name != "Poly" || once == nil || once.Target == nil {
		t.Fatalf("calls not linked to their helpers: %+v %+v", poly, once)
	}
	body, regs, inner, ok := ir.Inline(poly, k.Regs, k.SoleInstance())
	if !ok {
		t.Fatal("Inline refused")
	}
	if inner.Types["T"] != "float" {
		t.Errorf("T bound to %q, want float", inner.Types["T"])
	}
	if v, _ := inner.Values["Scale"].Value(); v != 1 {
		t.Errorf("Scale bound to %v", inner.Values["Scale"])
	}
	if len(regs) != len(k.Regs)+1 {
		t.Errorf("%d registers after inlining, want the caller's %d and one fresh (sq)", len(regs), len(k.Regs))
	}
	sq := regs[len(regs)-1]
	if sq.Name != "sq" || sq.Elem != "float" || sq.Param {
		t.Errorf("fresh register %+v", sq)
	}
	var ops []string
	var lp *ir.Loop
	for _, n := range body.Nodes {
		switch n := n.(type) {
		case *ir.Instr:
			ops = append(ops, n.Name)
			if n.Elem != "" && n.Elem != "float" {
				t.Errorf("%s keeps element type %q", n.Name, n.Elem)
			}
			if n.Loop != poly.Loop {
				t.Errorf("%s in loop %d, want the call's %d", n.Name, n.Loop, poly.Loop)
			}
		case *ir.Loop:
			lp = n
			ops = append(ops, "loop")
		case *ir.If:
			t.Errorf("an if constexpr left unfolded: %s", n.CondText)
		}
	}
	if got, want := strings.Join(ops, " "), "Mul loop Muls Adds Abs"; got != want {
		t.Errorf("inlined body %q, want %q", got, want)
	}
	if lp == nil || !lp.TripKnown || lp.Trip != 3 {
		t.Fatalf("helper loop not folded to 3 trips: %+v", lp)
	}
	// Mul(dst, dst, sq): dst is the caller's y, sq the fresh register.
	mul := lp.Body.Nodes[0].(*ir.Instr)
	y := regID(k, "y")
	if len(mul.Defs) != 1 || mul.Defs[0] != y || !containsID(mul.Uses, sq.ID) || !containsID(mul.Uses, y) {
		t.Errorf("Mul defs %v uses %v; want y=%d defined, y and sq=%d read", mul.Defs, mul.Uses, y, sq.ID)
	}

	// Once's loop is bounded by a 0/1 local of the caller: at most once.
	body, _, _, ok = ir.Inline(once, k.Regs, k.SoleInstance())
	if !ok || len(body.Nodes) != 1 {
		t.Fatalf("Once inlined as %v, %v", body, ok)
	}
	if l, isLoop := body.Nodes[0].(*ir.Loop); !isLoop || !l.AtMostOnce {
		t.Errorf("Once's loop, bounded by hasTail, is not at most once: %+v", body.Nodes[0])
	}
}

// TestInlineOwned: Inline never writes into spare capacity of the
// caller's registers (another analysis of the function may be appending
// there); InlineOwned appends in place, to registers the caller owns, and
// makes the same copy.
func TestInlineOwned(t *testing.T) {
	_, f := parse(t, "inline.asc", []byte(inlineSrc))
	k := f.Func("Kernel")
	var poly *ir.Instr
	for _, in := range k.Instrs {
		if in.Name == "Poly" {
			poly = in
		}
	}
	if poly == nil || poly.Target == nil {
		t.Fatal("Poly not linked")
	}
	sentinel := &ir.Reg{Name: "sentinel"}
	spare := func() []*ir.Reg {
		regs := make([]*ir.Reg, len(k.Regs), len(k.Regs)+4)
		copy(regs, k.Regs)
		for i := len(regs); i < cap(regs); i++ {
			regs[:cap(regs)][i] = sentinel
		}
		return regs
	}
	shared := spare()
	body, regs, _, ok := ir.Inline(poly, shared, k.SoleInstance())
	if !ok {
		t.Fatal("Inline refused")
	}
	if shared[:cap(shared)][len(shared)] != sentinel {
		t.Error("Inline wrote into spare capacity of the caller's registers")
	}
	owned := spare()
	body2, regs2, _, ok := ir.InlineOwned(poly, owned, k.SoleInstance())
	if !ok {
		t.Fatal("InlineOwned refused")
	}
	if &regs2[0] != &owned[0] {
		t.Error("InlineOwned copied registers the caller owns")
	}
	if len(regs2) != len(regs) || regs2[len(regs2)-1].Name != regs[len(regs)-1].Name || regs2[len(regs2)-1].ID != regs[len(regs)-1].ID {
		t.Errorf("InlineOwned made %d registers, Inline %d", len(regs2), len(regs))
	}
	if len(body2.Nodes) != len(body.Nodes) {
		t.Errorf("InlineOwned made %d nodes, Inline %d", len(body2.Nodes), len(body.Nodes))
	}
}

func regID(fn *ir.Func, name string) ir.RegID {
	for _, r := range fn.Regs {
		if r.Name == name {
			return r.ID
		}
	}
	return ir.NoReg
}

func containsID(ids []ir.RegID, id ir.RegID) bool {
	for _, x := range ids {
		if x == id {
			return true
		}
	}
	return false
}

// TestLinkTargets checks how a call picks its helper among overloads.
func TestLinkTargets(t *testing.T) {
	src := `
__simd_callee__ inline void H(Reg::RegTensor<float>& a) { Reg::Abs(a, a, Reg::CreateMask<float>()); }
__simd_callee__ inline void H(Reg::RegTensor<float>& a, Reg::RegTensor<float>& b) { Reg::Add(a, a, b, Reg::CreateMask<float>()); }
__simd_callee__ inline void G(Reg::RegTensor<float>& a, int n = 1) { Reg::Abs(a, a, Reg::CreateMask<float>()); }
__simd_callee__ inline void R(Reg::RegTensor<float>& a) { R(a); }
__simd_vf__ inline void K()
{
    Reg::RegTensor<float> x, y;
    H(x);
    H(x, y);
    G(x);
    R(x);
}
`
	_, f := parse(t, "link.asc", []byte(src))
	k := f.Func("K")
	want := map[int]int{0: 1, 1: 2, 2: 2} // call -> the helper's parameter count
	calls := 0
	for _, in := range k.Instrs {
		if in.Op != ir.OpCall {
			continue
		}
		switch in.Name {
		case "H", "G":
			if in.Target == nil || len(in.Target.Params) != want[calls] {
				t.Errorf("call %d of %s: target %v", calls, in.Name, in.Target)
			}
		case "R":
			if in.Target == nil || in.Target.Name != "R" {
				t.Errorf("R(x) not linked")
			}
		}
		calls++
	}
	if r := f.Func("R"); r == nil || r.Instrs[0].Target != nil {
		t.Error("a recursive call must keep no target")
	}
}

// TestSpecialise: a function expanded for one instantiation holds the
// taken branches of its if constexpr only, with its types bound, and is a
// valid function of its own (ir.Verify).
func TestSpecialise(t *testing.T) {
	src, err := os.ReadFile("../internal/cli/testdata/sim_instances.asc")
	if err != nil {
		t.Fatal(err)
	}
	_, f := parse(t, "sim_instances.asc", src)
	fn := f.Func("Scale")
	if fn == nil || len(fn.Instantiations()) != 2 {
		t.Fatalf("Scale and its two instantiations: %v", fn)
	}
	for _, c := range []struct {
		typ string
		ops string
	}{
		{"half", "CreateMask LoadAlign Cast Muls Adds Cast StoreAlign"},
		{"float", "CreateMask LoadAlign Muls StoreAlign"},
	} {
		sp := fn.Expand(ir.Bindings{Types: map[string]string{"T": c.typ}})
		var ops []string
		for _, in := range sp.Instrs {
			ops = append(ops, in.Name)
		}
		if got := strings.Join(ops, " "); got != c.ops {
			t.Errorf("T=%s: %s, want %s", c.typ, got, c.ops)
		}
		if r := sp.Regs[regID(sp, "in")]; r.Elem != c.typ {
			t.Errorf("T=%s: in is RegTensor<%s>", c.typ, r.Elem)
		}
		g := *f
		g.Funcs = []*ir.Func{sp}
		for _, e := range ir.Verify(&g) {
			t.Errorf("T=%s: Verify: %v", c.typ, e)
		}
	}
	if fn.Expand(ir.Bindings{}) != fn {
		t.Error("nothing bound: the function itself")
	}
}

// TestExactCalls: a call of a helper of the file reads, writes or leaves
// each register argument as the helper's body does, and its template
// arguments that name constants are folded.
func TestExactCalls(t *testing.T) {
	src := `
constexpr uint32_t FOUR = 4;
__simd_callee__ inline void Roles(Reg::RegTensor<float>& out, Reg::RegTensor<float>& in, Reg::RegTensor<float>& acc,
                                  Reg::RegTensor<float>& unused, Reg::MaskReg& m, uint16_t n)
{
    Reg::Mul(out, in, in, m);
    Reg::Add(acc, acc, out, m);
    for (uint16_t k = 0; k < n; k++) {
        Reg::Abs(out, out, m);
    }
}
__simd_callee__ inline void Wrap(Reg::RegTensor<float>& o, Reg::RegTensor<float>& i, Reg::MaskReg& m)
{
    Reg::RegTensor<float> a, u;
    Roles(o, i, a, u, m, 2);
}
template <uint32_t N>
__simd_callee__ inline void Tail(Reg::RegTensor<float>& x, Reg::MaskReg& m)
{
    if constexpr (N == 4) {
        Reg::Abs(x, x, m);
    } else {
        Reg::Abs(x, x, m);
        Reg::Abs(x, x, m);
    }
}
__simd_vf__ inline void K(__ubuf__ float* dst, __ubuf__ float* src)
{
    constexpr uint32_t LOCAL = 4;
    Reg::RegTensor<float> x, y, z, w;
    Reg::MaskReg m = Reg::CreateMask<float>();
    Reg::LoadAlign(x, src);
    Roles(y, x, z, w, m, 3);
    Wrap(y, x, m);
    Tail<FOUR>(y, m);
    Tail<LOCAL>(y, m);
}
`
	_, f := parse(t, "exact.asc", []byte(src))
	k := f.Func("K")
	roles := func(in *ir.Instr) string {
		var out []string
		for _, a := range in.Args {
			out = append(out, a.Role.String())
		}
		return strings.Join(out, " ")
	}
	var calls []*ir.Instr
	for _, in := range k.Instrs {
		if in.Op == ir.OpCall {
			calls = append(calls, in)
		}
	}
	if len(calls) != 4 {
		t.Fatalf("%d calls", len(calls))
	}
	// out written first (then read: still written), in read, acc read and
	// written, unused untouched, the mask read.
	if got, want := roles(calls[0]), "w r rw passed r s"; got != want {
		t.Errorf("Roles(y, x, z, w, m, 3): %s, want %s", got, want)
	}
	y, x, z, w := regID(k, "y"), regID(k, "x"), regID(k, "z"), regID(k, "w")
	if d := calls[0].Defs; len(d) != 2 || !containsID(d, y) || !containsID(d, z) {
		t.Errorf("Roles defs %v, want y and z", d)
	}
	if u := calls[0].Uses; containsID(u, y) || containsID(u, w) || !containsID(u, x) || !containsID(u, z) {
		t.Errorf("Roles uses %v, want x, z and the mask", u)
	}
	// Through a wrapper: o is written by Roles first.
	if got, want := roles(calls[1]), "w r r"; got != want {
		t.Errorf("Wrap(y, x, m): %s, want %s", got, want)
	}
	for _, c := range calls[2:] {
		if len(c.TArgs) != 1 || c.TArgs[0] != "4" {
			t.Errorf("%s template arguments %v, want the constant folded to 4", c.Callee, c.TArgs)
		}
	}
}

// TestDeduceRegParams: a VF helper's parameters of a template type are the
// registers its callers pass, of their class (a RegTensor, a MaskReg),
// through a helper of the same kind too; one that a caller passes a
// scalar to stays a scalar.
func TestDeduceRegParams(t *testing.T) {
	src := `
template <typename T, typename RegT, typename MaskT>
__simd_callee__ inline void Inner(RegT& d, RegT& s, MaskT& m)
{
    Reg::Mul(d, s, s, m);
}
template <typename T, typename RegT, typename MaskT>
__simd_callee__ inline void Outer(RegT& d, RegT& s, MaskT& m)
{
    Inner<T>(d, s, m);
    Reg::Adds(d, d, static_cast<T>(1), m);
}
template <typename V>
__simd_callee__ inline void Mixed(V& v, Reg::MaskReg& m)
{
    Reg::Duplicate(v, 0, m);
}
__simd_vf__ inline void K(__ubuf__ float* dst, __ubuf__ float* src)
{
    Reg::RegTensor<float> x, y;
    Reg::MaskReg m = Reg::CreateMask<float>();
    uint32_t n = 0;
    Reg::LoadAlign(x, src);
    Outer<float>(y, x, m);
    Mixed(y, m);
    Mixed(n, m);
    Reg::StoreAlign(dst, y, m);
}
`
	_, f := parse(t, "regt.asc", []byte(src))
	classes := func(name string) string {
		fn := f.Func(name)
		var out []string
		for _, p := range fn.Params {
			c := "scalar"
			if p.Reg != ir.NoReg {
				c = fn.Regs[p.Reg].Class.String()
			}
			out = append(out, c)
		}
		return strings.Join(out, " ")
	}
	for name, want := range map[string]string{"Outer": "vreg vreg mask", "Inner": "vreg vreg mask", "Mixed": "scalar mask"} {
		if got := classes(name); got != want {
			t.Errorf("%s parameters: %s, want %s", name, got, want)
		}
	}
	// Inner's Mul now reads and writes registers: inlined, it links to the
	// caller's.
	if in := f.Func("Inner").Instrs[0]; len(in.Defs) != 1 || len(in.Uses) != 2 {
		t.Errorf("Inner's Mul: defs %v uses %v", in.Defs, in.Uses)
	}
}

// TestForeignHelpers: a call of a __simd_callee__ helper that a header of
// the file defines is linked to its body through the project index; the
// body inlined keeps no position of the header, only the call's.
func TestForeignHelpers(t *testing.T) {
	dir := t.TempDir()
	header := `#pragma once
template <typename T>
__simd_callee__ inline void Twice(Reg::RegTensor<T>& y, Reg::RegTensor<T>& x, Reg::MaskReg& m)
{
    Reg::RegTensor<T> t;
    Reg::Mul(t, x, x, m);
    Reg::Add(y, t, t, m);
}
`
	kernel := `#include "helpers.h"
__simd_vf__ inline void K(__ubuf__ float* dst, __ubuf__ float* src, uint16_t n)
{
    Reg::RegTensor<float> x, y;
    Reg::MaskReg m = Reg::CreateMask<float>();
    for (uint16_t i = 0; i < n; i++) {
        Reg::LoadAlign(x, src + i * 64);
        Twice<float>(y, x, m);
        Reg::StoreAlign(dst + i * 64, y, m);
    }
}
`
	if err := os.WriteFile(filepath.Join(dir, "helpers.h"), []byte(header), 0o644); err != nil {
		t.Fatal(err)
	}
	name := filepath.Join(dir, "k.asc")
	fset := token.NewFileSet()
	f, err := ParseFileOptions(fset, name, []byte(kernel), Options{Index: NewIndex()})
	if err != nil {
		t.Fatal(err)
	}
	k := f.Func("K")
	var call *ir.Instr
	for _, in := range k.Instrs {
		if in.Name == "Twice" {
			call = in
		}
	}
	if call == nil || call.Op != ir.OpCall || call.Target == nil || !call.Target.Foreign {
		t.Fatalf("Twice not linked to the header's helper: %+v", call)
	}
	// y is written, x and m read: the helper's body says so.
	if got := call.Args[0].Role.String() + " " + call.Args[1].Role.String() + " " + call.Args[2].Role.String(); got != "w r r" {
		t.Errorf("roles %s, want w r r", got)
	}
	body, regs, _, ok := ir.Inline(call, k.Regs, ir.Bindings{})
	if !ok || len(body.Nodes) != 2 {
		t.Fatalf("inlined %v %v", body, ok)
	}
	for _, n := range body.Nodes {
		in := n.(*ir.Instr)
		if in.Pos != call.Pos || in.End != call.End || in.Elem != "float" {
			t.Errorf("%s at %v-%v elem %q; want the call's position %v-%v and float", in.Name, in.Pos, in.End, in.Elem, call.Pos, call.End)
		}
	}
	if r := regs[len(regs)-1]; r.Name != "t" || r.Pos != call.Pos {
		t.Errorf("the helper's register %+v keeps a position of the header", r)
	}
	// Without the index, the call is unknown.
	g, err := ParseFile(token.NewFileSet(), name, []byte(kernel))
	if err != nil {
		t.Fatal(err)
	}
	for _, in := range g.Func("K").Instrs {
		if in.Name == "Twice" && in.Target != nil {
			t.Error("linked without an index")
		}
	}
}
