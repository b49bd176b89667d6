package replay

import (
	"strings"
	"testing"

	"github.com/ascvet/ascvet/cppfront/ir"
	"github.com/ascvet/ascvet/cppfront/ir/irtest"
)

// Expression helpers: addresses are in elements of their pointer.
func sym(n string) *ir.Expr      { return ir.Sym(n) }
func num(v int64) *ir.Expr       { return ir.Const(v) }
func add(x, y *ir.Expr) *ir.Expr { return ir.Bin("+", x, y) }
func sub(x, y *ir.Expr) *ir.Expr { return ir.Bin("-", x, y) }
func mul(x, y *ir.Expr) *ir.Expr { return ir.Bin("*", x, y) }
func div(x, y *ir.Expr) *ir.Expr { return ir.Bin("/", x, y) }
func sizeof(t string) *ir.Expr   { return &ir.Expr{Kind: ir.ExprSizeof, Name: t} }

// at returns base + i0 * k: the address of iteration i0 of the first loop.
func at(base string, k int64) *ir.Expr { return add(sym(base), mul(sym("i0"), num(k))) }

// set gives operand k of in the expression e.
func set(in *ir.Instr, k int, e *ir.Expr) *ir.Instr {
	in.Args[k].Expr = e
	in.Args[k].Text = e.String()
	return in
}

func elem(in *ir.Instr, t string) *ir.Instr {
	in.Elem = t
	return in
}

// scalar is a folded scalar operand (irtest.S leaves its text unparsed).
func scalar(in *ir.Instr, e *ir.Expr) *ir.Instr {
	in.Args = append(in.Args, ir.Operand{Role: ir.ArgScalar, Reg: ir.NoReg, Part: -1, Expr: e, Text: e.String(), Pos: in.End - 1, End: in.End - 1})
	return in
}

// post marks the address operand of in as advanced by it.
func post(in *ir.Instr, k int, name string) *ir.Instr {
	in.Args[k].Role = ir.ArgPtrRW
	in.PtrDefs = []string{name}
	in.Post = true
	return in
}

func wantProof(t *testing.T, name string, ok bool, why string) {
	t.Helper()
	if !ok {
		t.Errorf("%s: refused: %s", name, why)
	}
}

func wantRefusal(t *testing.T, name string, ok bool, why string, parts ...string) {
	t.Helper()
	if ok {
		t.Errorf("%s: proven, want a refusal", name)
		return
	}
	for _, p := range parts {
		if !strings.Contains(why, p) {
			t.Errorf("%s: why = %q, want it to contain %q", name, why, p)
		}
	}
}

// hoistExplicit builds for (i0) { Pre(u, src + i0*adv); LoadUnAlign(v, u,
// src + i0*adv + k*per) for each of loads; StoreAlign(dst + i0*64, v) }.
func hoistExplicit(adv int64, loads int, per int64) (*ir.Func, *ir.Loop, *ir.Instr) {
	b := irtest.New("k")
	v, u := b.VReg("v", "float"), b.ULoad("u")
	var pre *ir.Instr
	lp := b.Loop(-1, func() {
		pre = set(b.Instr(ir.OpLoadUnAlignPre, irtest.W(u), irtest.Ptr("src")), 1, at("src", adv))
		for k := range loads {
			ld := b.Instr(ir.OpLoadUnAlign, irtest.W(v), irtest.RW(u), irtest.Ptr("src"))
			set(elem(ld, "float"), 2, add(at("src", adv), num(int64(k)*per)))
		}
		set(elem(b.Instr(ir.OpStoreAlign, irtest.Ptr("dst"), irtest.R(v)), "float"), 0, at("dst", 64))
	})
	return b.Func(), lp, pre
}

func TestProveHoistExplicit(t *testing.T) {
	fn, lp, pre := hoistExplicit(64, 1, 0)
	ok, why := ProveHoist(fn, lp, pre)
	wantProof(t, "one vector per iteration", ok, why)

	fn, lp, pre = hoistExplicit(128, 2, 64)
	ok, why = ProveHoist(fn, lp, pre)
	wantProof(t, "two loads back to back", ok, why)

	// Half a vector per iteration: the register holds the block after the
	// 256 bytes loaded, not the block where the next iteration starts.
	fn, lp, pre = hoistExplicit(32, 1, 0)
	ok, why = ProveHoist(fn, lp, pre)
	wantRefusal(t, "half a vector", ok, why,
		"the replay could not prove the hoisted Pre loads the same data: with 4-byte elements, src at offset 0 of a 32-byte block, 2 iterations, iteration 2's LoadUnAlign loads different data")
}

// hoistPost builds a post-update stream: Pre(u, src); LoadUnAlign(v, u,
// src&, stride).
func hoistPost(stride *ir.Expr, et string) (*ir.Func, *ir.Loop, *ir.Instr) {
	b := irtest.New("k")
	v, u := b.VReg("v", et), b.ULoad("u")
	var pre *ir.Instr
	lp := b.Loop(5, func() {
		pre = b.Instr(ir.OpLoadUnAlignPre, irtest.W(u), irtest.Ptr("src"))
		ld := b.Instr(ir.OpLoadUnAlign, irtest.W(v), irtest.RW(u), irtest.Ptr("src"))
		scalar(post(elem(ld, et), 2, "src"), stride)
		b.Instr(ir.OpAbs, irtest.W(v), irtest.R(v))
	})
	return b.Func(), lp, pre
}

func TestProveHoistPostUpdate(t *testing.T) {
	fn, lp, pre := hoistPost(num(128), "half")
	ok, why := ProveHoist(fn, lp, pre)
	wantProof(t, "128 halves", ok, why)

	fn, lp, pre = hoistPost(num(120), "half")
	ok, why = ProveHoist(fn, lp, pre)
	wantRefusal(t, "120 halves", ok, why, "2-byte elements", "iteration 2's LoadUnAlign loads different data")

	// VRegSize / sizeof(T) is one vector whatever T is.
	fn, lp, pre = hoistPost(div(num(256), sizeof("T")), "T")
	ok, why = ProveHoist(fn, lp, pre)
	wantProof(t, "256 / sizeof(T)", ok, why)

	// A vector of U is a vector of T only when the sizes agree: the replay
	// binds T and U to different sizes and finds the difference.
	fn, lp, pre = hoistPost(div(num(256), sizeof("U")), "T")
	ok, why = ProveHoist(fn, lp, pre)
	wantRefusal(t, "256 / sizeof(U) of T", ok, why, "sizeof(T) = 1, sizeof(U) = 2", "loads different data")
}

// The loop writes the next iteration's data into the stream's buffer after
// loading: a Pre each iteration sees it, a hoisted one does not.
func TestProveHoistStoreAhead(t *testing.T) {
	b := irtest.New("k")
	v, u := b.VReg("v", "float"), b.ULoad("u")
	var pre *ir.Instr
	lp := b.Loop(-1, func() {
		pre = set(b.Instr(ir.OpLoadUnAlignPre, irtest.W(u), irtest.Ptr("src")), 1, at("src", 64))
		set(elem(b.Instr(ir.OpLoadUnAlign, irtest.W(v), irtest.RW(u), irtest.Ptr("src")), "float"), 2, at("src", 64))
		b.Instr(ir.OpAbs, irtest.W(v), irtest.R(v))
		set(elem(b.Instr(ir.OpStoreAlign, irtest.Ptr("src"), irtest.R(v)), "float"), 0, add(at("src", 64), num(64)))
	})
	ok, why := ProveHoist(b.Func(), lp, pre)
	wantRefusal(t, "store ahead", ok, why, "iteration 2's LoadUnAlign loads different data")
}

// What the replay does not model is refused, never guessed.
func TestProveHoistUnmodelled(t *testing.T) {
	b := irtest.New("k")
	v, u := b.VReg("v", "float"), b.ULoad("u")
	var pre *ir.Instr
	lp := b.Loop(-1, func() {
		pre = set(b.Instr(ir.OpLoadUnAlignPre, irtest.W(u), irtest.Ptr("src")), 1, at("src", 64))
		set(elem(b.Instr(ir.OpLoadUnAlign, irtest.W(v), irtest.RW(u), irtest.Ptr("src")), "float"), 2, at("src", 64))
		call := b.Instr(ir.OpCall, irtest.S("src + 64"))
		call.Form, call.Name, call.Callee = ir.FormCall, "Fill", "Fill"
	})
	ok, why := ProveHoist(b.Func(), lp, pre)
	wantRefusal(t, "helper on the buffer", ok, why, "Fill may access the stream's buffer, which the replay does not model")

	// A read through another path (a gather) cannot tell the hoist apart.
	b = irtest.New("k")
	v, u = b.VReg("v", "float"), b.ULoad("u")
	g, idx := b.VReg("g", "float"), b.VReg("idx", "uint32_t")
	lp = b.Loop(-1, func() {
		pre = set(b.Instr(ir.OpLoadUnAlignPre, irtest.W(u), irtest.Ptr("src")), 1, at("src", 64))
		set(elem(b.Instr(ir.OpLoadUnAlign, irtest.W(v), irtest.RW(u), irtest.Ptr("src")), "float"), 2, at("src", 64))
		b.Instr(ir.OpGather, irtest.W(g), irtest.Ptr("src"), irtest.R(idx))
	})
	ok, why = ProveHoist(b.Func(), lp, pre)
	wantProof(t, "gather", ok, why)
}

// sinkLoop builds for (i0) { LoadAlign(v, src + i0*64); body; } around a
// store stream on dst built by body, and returns the Post.
func sinkLoop(trip int64, body func(b *irtest.Builder, v, u ir.RegID) *ir.Instr) (*ir.Func, *ir.Loop, *ir.Instr) {
	b := irtest.New("k")
	v, u := b.VReg("v", "float"), b.UStore("u")
	var p *ir.Instr
	lp := b.Loop(trip, func() {
		set(elem(b.Instr(ir.OpLoadAlign, irtest.W(v), irtest.Ptr("src")), "float"), 1, at("src", 64))
		p = body(b, v, u)
	})
	return b.Func(), lp, p
}

func storeU(b *irtest.Builder, v, u ir.RegID, count *ir.Expr) *ir.Instr {
	st := b.Instr(ir.OpStoreUnAlign, irtest.PtrRW("dst"), irtest.R(v), irtest.RW(u))
	st.Elem, st.Post = "float", true
	if count != nil {
		scalar(st, count)
	}
	return st
}

func postU(b *irtest.Builder, u ir.RegID, off int64) *ir.Instr {
	return scalar(b.Instr(ir.OpStoreUnAlignPost, irtest.PtrRW("dst"), irtest.R(u)), num(off))
}

func TestProveSink(t *testing.T) {
	for _, count := range []*ir.Expr{num(64), num(1), num(13), sym("keep")} {
		fn, lp, p := sinkLoop(-1, func(b *irtest.Builder, v, u ir.RegID) *ir.Instr {
			storeU(b, v, u, count)
			return postU(b, u, 0)
		})
		ok, why := ProveSink(fn, lp, p)
		wantProof(t, "count "+count.String(), ok, why)
	}
	// Two stores per iteration, a folded trip count.
	fn, lp, p := sinkLoop(6, func(b *irtest.Builder, v, u ir.RegID) *ir.Instr {
		storeU(b, v, u, num(7))
		storeU(b, v, u, num(20))
		return postU(b, u, 0)
	})
	ok, why := ProveSink(fn, lp, p)
	wantProof(t, "two stores", ok, why)
}

func TestProveSinkMaskStream(t *testing.T) {
	b := irtest.New("k")
	v, m, u := b.VReg("v", "float"), b.Mask("m"), b.UStore("u")
	var p *ir.Instr
	lp := b.Loop(-1, func() {
		set(elem(b.Instr(ir.OpLoadAlign, irtest.W(v), irtest.Ptr("src")), "float"), 1, at("src", 64))
		b.Instr(ir.OpCompare, irtest.W(m), irtest.R(v), irtest.R(v))
		b.Instr(ir.OpStoreUnAlign, irtest.PtrRW("dst"), irtest.R(m), irtest.RW(u))
		p = postU(b, u, 0)
	})
	ok, why := ProveSink(b.Func(), lp, p)
	wantProof(t, "mask stream", ok, why)
}

// The loop reads back what it stored an iteration earlier: with the Post
// sunk, the tail of that store is still in the register.
func TestProveSinkReadBack(t *testing.T) {
	fn, lp, p := sinkLoop(-1, func(b *irtest.Builder, v, u ir.RegID) *ir.Instr {
		ul, prev := b.ULoad("ul"), b.VReg("prev", "float")
		set(b.Instr(ir.OpLoadUnAlignPre, irtest.W(ul), irtest.Ptr("dst")), 1, sub(sym("dst"), num(8)))
		set(elem(b.Instr(ir.OpLoadUnAlign, irtest.W(prev), irtest.RW(ul), irtest.Ptr("dst")), "float"), 2, sub(sym("dst"), num(8)))
		b.Instr(ir.OpAdd, irtest.W(v), irtest.R(v), irtest.R(prev))
		storeU(b, v, u, num(8))
		return postU(b, u, 0)
	})
	ok, why := ProveSink(fn, lp, p)
	wantRefusal(t, "read back", ok, why,
		"the replay could not prove the sunk Post writes the same bytes: with 4-byte elements, dst at offset 4 of a 32-byte block, 2 iterations, iteration 2's LoadUnAlign loads different data")
}

func TestProveSinkRefusals(t *testing.T) {
	cases := []struct {
		name string
		body func(b *irtest.Builder, v, u ir.RegID) *ir.Instr
		want string
	}{
		{"AR form", func(b *irtest.Builder, v, u ir.RegID) *ir.Instr {
			storeU(b, v, u, nil)
			return postU(b, u, 0)
		}, "the AR-addressed StoreUnAlign (its count comes from Squeeze through AR) is not modelled"},
		{"Post moves the end", func(b *irtest.Builder, v, u ir.RegID) *ir.Instr {
			storeU(b, v, u, num(60))
			return postU(b, u, 8)
		}, "0 iterations, the pointer dst ends elsewhere"},
		{"Post at another pointer", func(b *irtest.Builder, v, u ir.RegID) *ir.Instr {
			storeU(b, v, u, num(60))
			return scalar(b.Instr(ir.OpStoreUnAlignPost, irtest.Ptr("other"), irtest.R(u)), num(0))
		}, "StoreUnAlign uses the stream's register u away from the stream's buffer"},
		{"stream under an if", func(b *irtest.Builder, v, u ir.RegID) *ir.Instr {
			b.If(func() { storeU(b, v, u, num(60)) }, nil)
			return postU(b, u, 0)
		}, "the stream's register is used under an if or in an inner loop"},
		{"count assigned in the loop", func(b *irtest.Builder, v, u ir.RegID) *ir.Instr {
			storeU(b, v, u, sym("cur"))
			return postU(b, u, 0)
		}, "depends on cur, which changes inside the loop"},
	}
	for _, c := range cases {
		fn, lp, p := sinkLoop(-1, c.body)
		if strings.Contains(c.name, "assigned") {
			lp.Assigns = []string{"cur"}
		}
		ok, why := ProveSink(fn, lp, p)
		wantRefusal(t, c.name, ok, why, c.want)
	}
}

// A register declared in the loop is a fresh one each iteration; the fix
// declares it before the loop. Both write the same bytes.
func TestProveSinkFreshRegister(t *testing.T) {
	fn, lp, p := sinkLoop(-1, func(b *irtest.Builder, v, u ir.RegID) *ir.Instr {
		storeU(b, v, u, num(8))
		return postU(b, u, 0)
	})
	lp.Decls = []string{"u"}
	ok, why := ProveSink(fn, lp, p)
	wantProof(t, "fresh register", ok, why)
}

// A Pre used again after the loop must leave the register as the loop
// did, even when the loop does not run: hoisting it primes the register
// although the loop never ran.
func TestProveHoistRegisterUsedAfter(t *testing.T) {
	b := irtest.New("k")
	v, u := b.VReg("v", "float"), b.ULoad("u")
	var pre *ir.Instr
	lp := b.Loop(-1, func() {
		pre = set(b.Instr(ir.OpLoadUnAlignPre, irtest.W(u), irtest.Ptr("src")), 1, at("src", 64))
		set(elem(b.Instr(ir.OpLoadUnAlign, irtest.W(v), irtest.RW(u), irtest.Ptr("src")), "float"), 2, at("src", 64))
	})
	b.Instr(ir.OpLoadUnAlign, irtest.W(v), irtest.RW(u), irtest.Ptr("src"))
	ok, why := ProveHoist(b.Func(), lp, pre)
	wantRefusal(t, "used after", ok, why, "0 iterations, the register u ends with different contents")
}

// The usual main loop and tail: the tail primes the register again, so
// what the loop leaves in it is dead and the hoist is proven.
func TestProveHoistTailReprimes(t *testing.T) {
	b := irtest.New("k")
	v, u := b.VReg("v", "float"), b.ULoad("u")
	var pre *ir.Instr
	lp := b.Loop(-1, func() {
		pre = set(b.Instr(ir.OpLoadUnAlignPre, irtest.W(u), irtest.Ptr("src")), 1, at("src", 64))
		set(elem(b.Instr(ir.OpLoadUnAlign, irtest.W(v), irtest.RW(u), irtest.Ptr("src")), "float"), 2, at("src", 64))
	})
	b.Instr(ir.OpLoadUnAlignPre, irtest.W(u), irtest.Ptr("tail"))
	b.Instr(ir.OpLoadUnAlign, irtest.W(v), irtest.RW(u), irtest.Ptr("tail"))
	ok, why := ProveHoist(b.Func(), lp, pre)
	wantProof(t, "tail re-primes", ok, why)
}

// In an enclosing loop, the register is read at the start of the next
// outer iteration: live, so trip count 0 must leave it as the loop did.
func TestProveHoistLiveAcrossOuterLoop(t *testing.T) {
	b := irtest.New("k")
	v, u := b.VReg("v", "float"), b.ULoad("u")
	var pre *ir.Instr
	var lp *ir.Loop
	b.Loop(-1, func() {
		b.Instr(ir.OpLoadUnAlign, irtest.W(v), irtest.RW(u), irtest.Ptr("other"))
		lp = b.Loop(-1, func() {
			pre = set(b.Instr(ir.OpLoadUnAlignPre, irtest.W(u), irtest.Ptr("src")), 1, at("src", 64))
			set(elem(b.Instr(ir.OpLoadUnAlign, irtest.W(v), irtest.RW(u), irtest.Ptr("src")), "float"), 2, add(sym("src"), mul(sym("i1"), num(64))))
		})
	})
	set(pre, 1, add(sym("src"), mul(sym("i1"), num(64))))
	ok, why := ProveHoist(b.Func(), lp, pre)
	wantRefusal(t, "live across the outer loop", ok, why, "0 iterations, the register u ends with different contents")
}

// dropPair builds for (i0) { Pre(u, src + i0*128); LoadUnAlign(a, u, src +
// i0*128); [StoreAlign(src + i0*128 + store, a)]; Pre(u, src + i0*128 +
// second); LoadUnAlign(b, u, src + i0*128 + second) } and returns its
// second Pre. store < 0 leaves the store out.
func dropPair(second, store int64) (*ir.Func, *ir.Loop, *ir.Instr) {
	b := irtest.New("k")
	a, v, u := b.VReg("a", "float"), b.VReg("b", "float"), b.ULoad("u")
	var pre2 *ir.Instr
	lp := b.Loop(-1, func() {
		set(b.Instr(ir.OpLoadUnAlignPre, irtest.W(u), irtest.Ptr("src")), 1, at("src", 128))
		set(elem(b.Instr(ir.OpLoadUnAlign, irtest.W(a), irtest.RW(u), irtest.Ptr("src")), "float"), 2, at("src", 128))
		if store >= 0 {
			set(elem(b.Instr(ir.OpStoreAlign, irtest.Ptr("src"), irtest.R(a)), "float"), 0, add(at("src", 128), num(store)))
		}
		pre2 = set(b.Instr(ir.OpLoadUnAlignPre, irtest.W(u), irtest.Ptr("src")), 1, add(at("src", 128), num(second)))
		set(elem(b.Instr(ir.OpLoadUnAlign, irtest.W(v), irtest.RW(u), irtest.Ptr("src")), "float"), 2, add(at("src", 128), num(second)))
	})
	return b.Func(), lp, pre2
}

// TestProveDrop: a second Pre that re-primes where the first load ended is
// proven deletable; one that primes elsewhere, or after a store rewrote
// the block the register holds, is not.
func TestProveDrop(t *testing.T) {
	fn, lp, pre := dropPair(64, -1)
	ok, why := ProveDrop(fn, lp, pre)
	wantProof(t, "in place", ok, why)

	fn, lp, pre = dropPair(72, -1)
	ok, why = ProveDrop(fn, lp, pre)
	wantRefusal(t, "8 elements further", ok, why, "the replay could not prove the deleted Pre changes nothing")

	fn, lp, pre = dropPair(64, 64)
	ok, why = ProveDrop(fn, lp, pre)
	wantRefusal(t, "a store over the held block", ok, why, "the replay could not prove the deleted Pre changes nothing")
}
