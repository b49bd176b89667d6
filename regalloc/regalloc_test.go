package regalloc

import (
	"testing"

	"github.com/ascvet/ascvet/cppfront/ir"
	it "github.com/ascvet/ascvet/cppfront/ir/irtest"
)

func peak(t *testing.T, b *it.Builder, c Class) Pressure {
	t.Helper()
	fn := b.Func()
	return New(b.File()).Analyze(fn).Classes[c]
}

func names(fn *ir.Func, ids []ir.RegID) []string {
	var out []string
	for _, id := range ids {
		out = append(out, fn.Regs[id].Name)
	}
	return out
}

// Straight line: a value is live from its definition to its last use.
func TestStraightLine(t *testing.T) {
	b := it.New("k")
	x, y, z := b.VReg("x", "float"), b.VReg("y", "float"), b.VReg("z", "float")
	m := b.Mask("m")
	b.Instr(ir.OpCreateMask, it.W(m))
	b.Instr(ir.OpLoadAlign, it.W(x), it.Ptr("a"))
	b.Instr(ir.OpLoadAlign, it.W(y), it.Ptr("b"))
	b.Instr(ir.OpAdd, it.W(z), it.R(x), it.R(y), it.M(m)) // x, y die here; z born
	b.Instr(ir.OpStoreAlign, it.Ptr("c"), it.R(z), it.M(m))
	p := peak(t, b, VReg)
	if p.Peak != 2 || p.At.Op != ir.OpLoadAlign && p.At.Op != ir.OpAdd {
		t.Errorf("peak %d at %v, want 2", p.Peak, p.At.Op)
	}
	if p.Declared != 3 || p.Used != 3 {
		t.Errorf("declared %d used %d", p.Declared, p.Used)
	}
}

// A register declared but never used costs nothing.
func TestUnusedIsFree(t *testing.T) {
	b := it.New("k")
	for i := 0; i < 40; i++ {
		b.VReg("unused", "float")
	}
	x := b.VReg("x", "float")
	b.Instr(ir.OpLoadAlign, it.W(x), it.Ptr("a"))
	b.Instr(ir.OpStoreAlign, it.Ptr("c"), it.R(x))
	p := peak(t, b, VReg)
	if p.Peak != 1 || p.Declared != 41 || p.Used != 1 {
		t.Errorf("peak %d declared %d used %d, want 1, 41, 1", p.Peak, p.Declared, p.Used)
	}
}

// An accumulator read before it is written in the loop is live across the
// whole loop, together with the values of one iteration.
func TestLoopCarried(t *testing.T) {
	b := it.New("k")
	acc, x, tmp := b.VReg("acc", "float"), b.VReg("x", "float"), b.VReg("tmp", "float")
	b.Instr(ir.OpDuplicate, it.W(acc), it.S("0"))
	b.Loop(16, func() {
		b.Instr(ir.OpLoadAlign, it.W(x), it.Ptr("src"))
		b.Instr(ir.OpMul, it.W(tmp), it.R(x), it.R(x))
		b.Instr(ir.OpAdd, it.W(acc), it.R(acc), it.R(tmp))
	})
	b.Instr(ir.OpStoreAlign, it.Ptr("dst"), it.R(acc))
	fn := b.Func()
	p := New(b.File()).Analyze(fn).Classes[VReg]
	if p.Peak != 2 {
		t.Errorf("peak %d, want 2 (acc and one temporary)", p.Peak)
	}
	// acc is live at every instruction of the loop body.
	lv := newLiveness(fn)
	lv.solve()
	for _, in := range fn.Instrs[1:4] {
		if !lv.in[in.ID].has(acc) {
			t.Errorf("acc not live into %v", in.Op)
		}
	}
	// A value written before the loop and read only in the next iteration
	// (the unaligned register) stays live around the back edge.
	b2 := it.New("u")
	u, v := b2.ULoad("u"), b2.VReg("v", "half")
	b2.Instr(ir.OpLoadUnAlignPre, it.W(u), it.Ptr("src"))
	b2.Loop(-1, func() {
		b2.Instr(ir.OpLoadUnAlign, it.W(v), it.RW(u), it.PtrRW("src"), it.S("128"))
		b2.Instr(ir.OpStoreAlign, it.Ptr("dst"), it.R(v))
	})
	fn2 := b2.Func()
	lv2 := newLiveness(fn2)
	lv2.solve()
	if st := fn2.Instrs[2]; !lv2.out[st.ID].has(u) {
		t.Error("u not live at the end of the loop body")
	}
	if p := New(b2.File()).Analyze(fn2).Classes[ULoad]; p.Peak != 1 {
		t.Errorf("ULoad peak %d", p.Peak)
	}
}

// Branches: a value defined in one branch and used after the if is live
// through the other branch; the join is a union.
func TestBranches(t *testing.T) {
	b := it.New("k")
	x, y, z := b.VReg("x", "float"), b.VReg("y", "float"), b.VReg("z", "float")
	b.Instr(ir.OpLoadAlign, it.W(x), it.Ptr("a"))
	b.If(func() {
		b.Instr(ir.OpLoadAlign, it.W(y), it.Ptr("b"))
		b.Instr(ir.OpAdd, it.W(z), it.R(x), it.R(y))
	}, func() {
		b.Instr(ir.OpAbs, it.W(y), it.R(x))
	})
	b.Instr(ir.OpStoreAlign, it.Ptr("c"), it.R(y))
	b.Instr(ir.OpStoreAlign, it.Ptr("c"), it.R(z))
	fn := b.Func()
	lv := newLiveness(fn)
	lv.solve()
	// z is live into the else branch (not written there) and so into the if.
	if abs := fn.Instrs[3]; !lv.in[abs.ID].has(z) {
		t.Error("z not live through the else branch")
	}
	if first := fn.Instrs[0]; !lv.in[first.ID].has(z) {
		t.Error("z, maybe unwritten, must be live at entry")
	}
}

// RegTraitNumTwo tensors count twice (a 64-bit RegTraitNumOne tensor once); arrays count their length;
// writing one element does not kill the array.
func TestWidths(t *testing.T) {
	b := it.New("k")
	two := b.VRegTwo("two", "float")
	wide := b.VReg("wide", "int64_t")
	arr := b.VRegArray("arr", "float", 4)
	b.Instr(ir.OpDuplicate, it.W(two), it.S("0"))
	b.Instr(ir.OpDuplicate, it.W(wide), it.S("0"))
	b.Instr(ir.OpDuplicate, it.WPart(arr, 0), it.S("0"))
	b.Instr(ir.OpDuplicate, it.WPart(arr, 1), it.S("1"))
	b.Instr(ir.OpAdd, it.W(two), it.R(two), it.R(wide))
	b.Instr(ir.OpStoreAlign, it.Ptr("c"), it.R(two), it.R(arr))
	fn := b.Func()
	p := New(b.File()).Analyze(fn).Classes[VReg]
	if p.Peak != 2+1+4 {
		t.Errorf("peak %d, want 7 (2 + 1 + 4)", p.Peak)
	}
	if p.Declared != 7 {
		t.Errorf("declared %d, want 7", p.Declared)
	}
	lv := newLiveness(fn)
	lv.solve()
	// arr[0] = ... replaces element 0 (dead before it); elements 2 and 3,
	// which nothing writes, stay live.
	if in := lv.in[fn.Instrs[2].ID]; in.has(ir.RegID(lv.slot(arr, 0))) || !in.has(ir.RegID(lv.slot(arr, 2))) || !lv.hasReg(in, arr) {
		t.Error("a write to arr[0] did not kill element 0 alone")
	}
}

// A call of a helper adds the helper's own peak at the call.
func TestHelperCall(t *testing.T) {
	b := it.New("k")
	x := b.VReg("x", "float")
	b.Instr(ir.OpLoadAlign, it.W(x), it.Ptr("a"))
	b.Call("Helper", x)
	b.Instr(ir.OpStoreAlign, it.Ptr("c"), it.R(x))
	caller := b.Func()

	h := it.New("Helper")
	p := h.VReg("p", "float")
	t1, t2, t3 := h.VReg("t1", "float"), h.VReg("t2", "float"), h.VReg("t3", "float")
	h.Instr(ir.OpMul, it.W(t1), it.R(p), it.R(p))
	h.Instr(ir.OpMul, it.W(t2), it.R(p), it.R(t1))
	h.Instr(ir.OpMul, it.W(t3), it.R(t1), it.R(t2))
	h.Instr(ir.OpAdd, it.W(p), it.R(t3), it.R(p))
	helper := h.Func()
	helper.Regs[p].Param, helper.Regs[p].Ref = true, true
	helper.Params = []ir.Param{{Name: "p", Type: "RegTensor<float>&", Reg: p}}

	f := b.File()
	f.Funcs = append(f.Funcs, helper)
	res := New(it.Link(f)).Analyze(caller).Classes[VReg]
	// At the call: x is the helper's p, live at the helper's peak with t1
	// and t2: 3, not x counted once more by the caller.
	if res.Peak != 3 || res.Helper != 3 {
		t.Errorf("peak %d (helper %d), want 3 (3)", res.Peak, res.Helper)
	}
	// A caller register needed after the call that the helper does not use
	// at its peak still occupies a register there.
	b2 := it.New("k2")
	y, z := b2.VReg("y", "float"), b2.VReg("z", "float")
	b2.Instr(ir.OpLoadAlign, it.W(y), it.Ptr("a"))
	b2.Instr(ir.OpLoadAlign, it.W(z), it.Ptr("b"))
	b2.Call("Helper", y)
	b2.Instr(ir.OpStoreAlign, it.Ptr("c"), it.R(y), it.R(z))
	caller2 := b2.Func()
	f2 := b2.File()
	f2.Funcs = append(f2.Funcs, helper)
	if got := New(it.Link(f2)).Analyze(caller2).Classes[VReg]; got.Peak != 4 {
		t.Errorf("peak %d, want 4 (z across the call + the helper's 3)", got.Peak)
	}
	// Recursion does not loop.
	b3 := it.New("Rec")
	r := b3.VReg("r", "float")
	b3.Instr(ir.OpLoadAlign, it.W(r), it.Ptr("a"))
	b3.Call("Rec", r)
	rec := b3.Func()
	if p := New(it.Link(b3.File())).Analyze(rec).Classes[VReg]; p.Peak != 1 {
		t.Errorf("recursive peak %d", p.Peak)
	}
}

// The hidden unaligned register of a generic Load counts while it runs.
func TestGenericLoad(t *testing.T) {
	b := it.New("k")
	x := b.VReg("x", "float")
	b.Instr(ir.OpLoad, it.W(x), it.Ptr("a"))
	b.Instr(ir.OpStoreAlign, it.Ptr("c"), it.R(x))
	if p := peak(t, b, ULoad); p.Peak != 1 {
		t.Errorf("hidden ureg: peak %d", p.Peak)
	}
}

// Peak registers are reported with where they are live.
func TestPeakLive(t *testing.T) {
	b := it.New("k")
	var regs []ir.RegID
	for _, n := range []string{"a", "b", "c", "d"} {
		regs = append(regs, b.VReg(n, "half"))
	}
	for _, r := range regs {
		b.Instr(ir.OpLoadAlign, it.W(r), it.Ptr("src"))
	}
	sum := b.VReg("sum", "half")
	b.Instr(ir.OpAdd, it.W(sum), it.R(regs[0]), it.R(regs[1]))
	b.Instr(ir.OpAdd, it.W(sum), it.R(sum), it.R(regs[2]))
	b.Instr(ir.OpAdd, it.W(sum), it.R(sum), it.R(regs[3]))
	b.Instr(ir.OpStoreAlign, it.Ptr("dst"), it.R(sum))
	fn := b.Func()
	p := New(b.File()).Analyze(fn).Classes[VReg]
	got := names(fn, p.Live)
	// a and b die at the first Add, so sum takes one of their registers.
	if p.Peak != 4 || len(got) != 4 || got[0] != "a" || got[3] != "d" {
		t.Errorf("peak %d live %v, want 4: a b c d", p.Peak, got)
	}
}

// A register written only by an unknown call (a macro) is produced there,
// not live around the loop.
func TestUnknownCallProduces(t *testing.T) {
	b := it.New("k")
	x := b.VReg("x", "float")
	masks := []ir.RegID{b.Mask("m0"), b.Mask("m1"), b.Mask("m2")}
	out := b.VReg("out", "float")
	b.Loop(-1, func() {
		b.Instr(ir.OpLoadAlign, it.W(x), it.Ptr("src"))
		args := []it.Arg{it.R(x), it.R(out)}
		for _, m := range masks {
			args = append(args, it.R(m))
		}
		b.Instr(ir.OpUnknown, args...)
		b.Instr(ir.OpStoreAlign, it.Ptr("dst"), it.R(out))
	})
	fn := b.Func()
	lv := newLiveness(fn)
	lv.solve()
	if load := fn.Instrs[0]; lv.in[load.ID].has(masks[0]) || lv.in[load.ID].has(out) {
		t.Error("registers produced by the macro are live around the loop")
	}
	if st := fn.Instrs[2]; !lv.in[st.ID].has(out) {
		t.Error("out, produced by the macro, is not live into the store")
	}
	if !lv.in[fn.Instrs[1].ID].has(x) {
		t.Error("x, written by a known load, is not read by the macro")
	}
}

// A helper that only writes a parameter makes the caller's register
// written by the call: it is not live before the call.
func TestHelperWritesOnly(t *testing.T) {
	b := it.New("k")
	in, out := b.VReg("in", "float"), b.VReg("out", "float")
	b.Instr(ir.OpLoadAlign, it.W(in), it.Ptr("a"))
	b.Call("Produce", out, in)
	b.Instr(ir.OpStoreAlign, it.Ptr("c"), it.R(out))
	caller := b.Func()

	h := it.New("Produce")
	po, pi := h.VReg("o", "float"), h.VReg("i", "float")
	h.Instr(ir.OpAbs, it.W(po), it.R(pi))
	helper := h.Func()
	for _, r := range []ir.RegID{po, pi} {
		helper.Regs[r].Param, helper.Regs[r].Ref = true, true
	}
	helper.Params = []ir.Param{{Name: "o", Reg: po}, {Name: "i", Reg: pi}}

	f := b.File()
	f.Funcs = append(f.Funcs, helper)
	a := New(it.Link(f))
	a.Analyze(caller)
	lv := newLivenessCalls(caller, func(in *ir.Instr, k int) bool {
		return in.Op == ir.OpCall && a.summary[helper].writeOnly[k]
	})
	lv.solve()
	if lv.in[caller.Instrs[1].ID].has(out) {
		t.Error("out, only written by the helper, is live before the call")
	}
	if !lv.in[caller.Instrs[1].ID].has(in) {
		t.Error("in, read by the helper, is not live before the call")
	}
}

// A mask written and never read is dead code: the compiler removes it, and
// it holds no register at its definition.
func TestDeadDefNotCounted(t *testing.T) {
	b := it.New("k")
	x := b.VReg("x", "float")
	m1, m2, dead := b.Mask("m1"), b.Mask("m2"), b.Mask("dead")
	b.Instr(ir.OpLoadAlign, it.W(x), it.Ptr("a"))
	b.Instr(ir.OpCompares, it.W(m1), it.R(x), it.S("0"))
	b.Instr(ir.OpCompares, it.W(m2), it.R(x), it.S("1"))
	b.Instr(ir.OpMaskNot, it.W(dead), it.R(m1))
	b.Instr(ir.OpSelect, it.W(x), it.R(x), it.R(x), it.M(m1))
	b.Instr(ir.OpSelect, it.W(x), it.R(x), it.R(x), it.M(m2))
	b.Instr(ir.OpStoreAlign, it.Ptr("c"), it.R(x))
	fn := b.Func()
	if p := New(b.File()).Analyze(fn).Classes[Mask]; p.Peak != 2 {
		t.Errorf("mask peak %d, want 2 (dead is never read)", p.Peak)
	}
}
