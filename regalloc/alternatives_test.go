package regalloc

import (
	"fmt"
	"testing"

	"github.com/ascvet/ascvet/cppfront/ir"
	it "github.com/ascvet/ascvet/cppfront/ir/irtest"
)

// Elements of an array indexed by constants are values of their own: one
// whose last read has passed is dead. A variable index reads them all.
func TestArrayElements(t *testing.T) {
	for _, variable := range []bool{false, true} {
		b := it.New("k")
		acc := b.VRegArray("acc", "float", 40)
		for k := 0; k < 40; k++ {
			b.Instr(ir.OpLoadAlign, it.WPart(acc, k), it.Ptr("src"))
			b.Instr(ir.OpStoreAlign, it.Ptr("dst"), it.RPart(acc, k))
		}
		if variable {
			b.Instr(ir.OpStoreAlign, it.Ptr("dst"), it.R(acc)) // acc[i]
		}
		p := peak(t, b, VReg)
		want := 1
		if variable {
			want = 40
		}
		if p.Peak != want {
			t.Errorf("variable index %v: peak %d, want %d", variable, p.Peak, want)
		}
		if p.Declared != 40 {
			t.Errorf("declared %d, want 40", p.Declared)
		}
	}
}

// Twelve CreateMask<float, MaskPattern::ALL>() are one value made again
// where it is read; a mask defined twice, or by a pattern of another
// width, is not the same value.
func TestConstMasks(t *testing.T) {
	build := func(targs func(k int) []string, redefine bool) Pressure {
		b := it.New("k")
		x := b.VReg("x", "float")
		var ms []ir.RegID
		for k := 0; k < 12; k++ {
			m := b.Mask(fmt.Sprintf("m%d", k))
			b.Instr(ir.OpCreateMask, it.W(m)).TArgs = targs(k)
			ms = append(ms, m)
		}
		reads := ms
		if redefine {
			// m0, redefined, is read last: it stays live from the compare
			// across the reads of the others.
			b.Instr(ir.OpCompares, it.W(ms[0]), it.R(x), it.S("0"), it.M(ms[1]))
			reads = append(append([]ir.RegID(nil), ms[1:]...), ms[0])
		}
		for _, m := range reads {
			b.Instr(ir.OpAbs, it.W(x), it.R(x), it.M(m))
		}
		return peak(t, b, Mask)
	}
	all := func(int) []string { return []string{"float", "AscendC::Reg::MaskPattern::ALL"} }
	if p := build(all, false); p.Peak != 1 {
		t.Errorf("12 CreateMask<float, ALL>: peak %d, want 1", p.Peak)
	}
	if p := build(func(int) []string { return []string{"int32_t"} }, false); p.Peak != 1 {
		t.Errorf("12 CreateMask<int32_t>: peak %d, want 1", p.Peak)
	}
	// A redefined mask is an ordinary register, live from its definition.
	if p := build(all, true); p.Peak < 2 {
		t.Errorf("a redefined mask was rematerialised: peak %d", p.Peak)
	}
	runtime := func(int) []string { return []string{"float", "pattern"} } // not a constant
	if p := build(runtime, false); p.Peak != 12 {
		t.Errorf("CreateMask<float, pattern>: peak %d, want 12", p.Peak)
	}
}

// constexprChain builds a loop holding if constexpr (A) {...} else if
// constexpr (B) {...} else if constexpr (C) {...}, each branch reading 12
// constants set up before the loop and 8 registers of its own.
func constexprChain(constexpr bool) *it.Builder {
	b := it.New("k")
	var consts [3][]ir.RegID
	for br := 0; br < 3; br++ {
		for k := 0; k < 12; k++ {
			r := b.VReg(fmt.Sprintf("c%d_%d", br, k), "float")
			b.Instr(ir.OpDuplicate, it.W(r), it.S("1"))
			consts[br] = append(consts[br], r)
		}
	}
	out := b.VReg("out", "float")
	var own [3][]ir.RegID
	for br := 0; br < 3; br++ {
		for k := 0; k < 8; k++ {
			own[br] = append(own[br], b.VReg(fmt.Sprintf("t%d_%d", br, k), "float"))
		}
	}
	branch := func(br int) func() {
		return func() {
			for _, r := range own[br] {
				b.Instr(ir.OpLoadAlign, it.W(r), it.Ptr("src"))
			}
			for k, c := range consts[br] {
				b.Instr(ir.OpMul, it.W(out), it.R(own[br][k%8]), it.R(c))
			}
		}
	}
	b.Loop(-1, func() {
		outer := b.If(branch(0), func() {
			mid := b.If(branch(1), func() {
				b.If(branch(2), nil).Constexpr = constexpr
			})
			mid.Constexpr = constexpr
		})
		outer.Constexpr = constexpr
		b.Instr(ir.OpStoreAlign, it.Ptr("dst"), it.R(out))
	})
	return b
}

// Exactly one branch of an if constexpr chain is compiled: the constants
// of the other branches are dead in that instantiation, and the peak is
// the largest branch (12 constants, 8 own, out), not the 36 constants of
// all three. An ordinary if may take any branch in any iteration.
func TestConstexprAlternatives(t *testing.T) {
	if p := peak(t, constexprChain(true), VReg); p.Peak != 12+8+1 {
		t.Errorf("if constexpr: peak %d, want 21", p.Peak)
	}
	if p := peak(t, constexprChain(false), VReg); p.Peak < 36 {
		t.Errorf("plain if: peak %d, want at least 36", p.Peak)
	}
}

// A register written in every branch of an if constexpr chain without a
// final else and read after it carries no value before the chain; one
// that is also defined before it does (the instantiation that takes no
// branch reads that definition).
func TestConstexprNoElse(t *testing.T) {
	for _, before := range []bool{false, true} {
		b := it.New("k")
		var rs []ir.RegID
		for k := 0; k < 20; k++ {
			rs = append(rs, b.VReg(fmt.Sprintf("r%d", k), "float"))
		}
		x := b.VReg("x", "float")
		if before {
			b.Instr(ir.OpDuplicate, it.W(x), it.S("0"))
		}
		for _, r := range rs {
			b.Instr(ir.OpLoadAlign, it.W(r), it.Ptr("src"))
		}
		for _, r := range rs {
			b.Instr(ir.OpStoreAlign, it.Ptr("dst"), it.R(r))
		}
		b.If(func() { b.Instr(ir.OpLoadAlign, it.W(x), it.Ptr("a")) }, func() {
			b.If(func() { b.Instr(ir.OpLoadAlign, it.W(x), it.Ptr("b")) }, nil).Constexpr = true
		}).Constexpr = true
		b.Instr(ir.OpStoreAlign, it.Ptr("dst"), it.R(x))
		want := 20
		if before {
			want = 21
		}
		if p := peak(t, b, VReg); p.Peak != want {
			t.Errorf("defined before %v: peak %d, want %d", before, p.Peak, want)
		}
	}
}

// A constant mask is made again for each instruction that reads it, and
// dies there: the instruction reads its sources before it writes its
// destination, so the mask it defines may take the constant's register.
// Four compares under CreateMask<float>() whose results all stay live hold
// four masks at the last compare, not five. An instruction that reads the
// constant while the four are live (a MaskAnd under it) needs all five at
// once: there the constant counts, and is listed.
func TestConstMaskDiesIntoDef(t *testing.T) {
	for _, underFull := range []bool{false, true} {
		b := it.New("k")
		x := b.VReg("x", "float")
		full := b.Mask("full")
		b.Instr(ir.OpCreateMask, it.W(full)).TArgs = []string{"float"}
		b.Instr(ir.OpLoadAlign, it.W(x), it.Ptr("a"))
		var ms []ir.RegID
		for k := 0; k < 4; k++ {
			m := b.Mask(fmt.Sprintf("m%d", k))
			b.Instr(ir.OpCompares, it.W(m), it.R(x), it.S(fmt.Sprint(k)), it.M(full))
			ms = append(ms, m)
		}
		pred := ms[3]
		if underFull {
			pred = full
		}
		b.Instr(ir.OpMaskAnd, it.W(ms[0]), it.R(ms[0]), it.R(ms[1]), it.M(pred))
		b.Instr(ir.OpMaskAnd, it.W(ms[2]), it.R(ms[2]), it.R(ms[3]), it.M(ms[0]))
		b.Instr(ir.OpSelect, it.W(x), it.R(x), it.R(x), it.M(ms[0]))
		b.Instr(ir.OpSelect, it.W(x), it.R(x), it.R(x), it.M(ms[2]))
		b.Instr(ir.OpStoreAlign, it.Ptr("c"), it.R(x))
		fn := b.Func()
		p := New(b.File()).Analyze(fn).Classes[Mask]
		got := names(fn, p.Live)
		if !underFull && (p.Peak != 4 || len(got) != 4) {
			t.Errorf("mask peak %d at %v, live %v; want 4 (full dies into m3)", p.Peak, p.At.Op, got)
		}
		if underFull && (p.Peak != 5 || fmt.Sprint(got) != "[m0 m1 m2 m3 full]") {
			t.Errorf("MaskAnd under full: mask peak %d at %v, live %v; want 5: m0 m1 m2 m3 full", p.Peak, p.At.Op, got)
		}
	}
}

// TestCountMasks: count by class masks adds up what a walk over the slots
// does (registers of one and two slots, array elements, masks, registers
// owned by an if constexpr branch, rematerialisable constant masks), on
// every instruction's live sets and on sets of every slot and none.
func TestCountMasks(t *testing.T) {
	b := constexprChain(true)
	two := b.VRegTwo("two", "float")
	arr := b.VRegArray("arr", "float", 5)
	m := b.Mask("m")
	c := b.Mask("c")
	b.Instr(ir.OpCreateMask, it.W(c)).TArgs = []string{"float", "AscendC::Reg::MaskPattern::ALL"}
	b.Instr(ir.OpCompares, it.W(m), it.R(two), it.S("0"), it.M(c))
	b.Instr(ir.OpDuplicate, it.W(two), it.S("0"))
	b.Instr(ir.OpDuplicate, it.WPart(arr, 3), it.S("1"))
	b.Instr(ir.OpAdd, it.W(two), it.R(two), it.RPart(arr, 3), it.M(m))
	b.Instr(ir.OpStoreAlign, it.Ptr("c"), it.R(two), it.R(arr), it.M(c))
	fn := b.Func()
	lv := newLiveness(fn)
	lv.solve()
	slow := func(s set, cl Class) int { // the walk count replaced
		n := 0
		var alts []alt
		for sl := range lv.weight {
			if !s.has(ir.RegID(sl)) || int(lv.class[sl]) != int(cl) || lv.remat[lv.reg[sl]] {
				continue
			}
			if o := lv.owner[lv.reg[sl]]; len(o) > 0 {
				alts = append(alts, alt{o, lv.weight[sl]})
				continue
			}
			n += lv.weight[sl]
		}
		return n + maxAlt(alts, 0)
	}
	all, none := newSet(len(lv.weight)), newSet(len(lv.weight))
	for sl := range lv.weight {
		all.add(ir.RegID(sl))
	}
	sets := []set{all, none}
	for _, in := range fn.Instrs {
		sets = append(sets, lv.in[in.ID], lv.out[in.ID])
	}
	owned, weights := false, map[int]bool{}
	for cl := Class(0); cl < NumClasses; cl++ {
		for k, s := range sets {
			if got, want := lv.count(s, cl), slow(s, cl); got != want {
				t.Errorf("class %d, set %d: count %d, the walk %d", cl, k, got, want)
			}
		}
		owned = owned || lv.masks[cl].owned != nil
		for _, wm := range lv.masks[cl].plain {
			weights[wm.w] = true
		}
	}
	if !owned || !weights[1] || !weights[2] {
		t.Errorf("the function does not exercise owned registers and weights 1 and 2 (owned %v, weights %v)", owned, weights)
	}
}
