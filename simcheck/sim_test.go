package simcheck

import (
	"slices"
	"strings"
	"testing"

	"github.com/ascvet/ascvet/cppfront/ir"
	it "github.com/ascvet/ascvet/cppfront/ir/irtest"
)

func chip(t *testing.T) *Machine {
	t.Helper()
	m, err := Chip("ascend950")
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestModelLoads(t *testing.T) {
	m := chip(t)
	if m.Window != 64 || m.ComputeIssue != 2 || m.Ports["LD"] != 2 || m.Ports["ST"] != 1 {
		t.Errorf("model: %+v", m)
	}
	tm, ok := m.Timing(ir.OpExp, "half")
	if !ok || tm.Occ != 8 || tm.Latency != 21 {
		t.Errorf("Exp half: %+v", tm)
	}
	if tm, _ := m.Timing(ir.OpAdd, "int32_t"); tm.Occ != 2 {
		t.Errorf("int Add occ %d, want 2", tm.Occ)
	}
	if _, err := Parse("bad.toml", []byte("name = 'x'\nbogus = 1\n")); err == nil {
		t.Error("an unknown key must be an error")
	}
	if _, err := Chip("nope"); err == nil {
		t.Error("unknown chip must be an error")
	}
}

// chain builds a loop body of n instructions each depending on the previous.
func chain(n int, op ir.Op) (*ir.Func, *ir.Loop) {
	b := it.New("k")
	x := b.VReg("x", "float")
	var lp *ir.Loop
	b.Instr(ir.OpDuplicate, it.W(x), it.S("0"))
	lp = b.Loop(16, func() {
		for i := 0; i < n; i++ {
			b.Instr(op, it.W(x), it.R(x), it.R(x))
		}
	})
	return b.Func(), lp
}

// Independent instructions dual-issue: IPC close to 2.
func TestDualIssue(t *testing.T) {
	b := it.New("k")
	var regs []ir.RegID
	for i := 0; i < 8; i++ {
		regs = append(regs, b.VReg("r", "float"))
	}
	lp := b.Loop(32, func() {
		for _, r := range regs {
			b.Instr(ir.OpMaxs, it.W(r), it.R(r), it.S("0"))
		}
	})
	fn := b.Func()
	res := chip(t).Run(BodyOf(fn, lp, nil), 32)
	if ipc := res.IPC(); ipc < 1.8 || ipc > 2.0 {
		t.Errorf("independent Maxs: IPC %.2f, want ~2", ipc)
	}
}

// A dependent chain runs at one instruction per dep latency.
func TestDependentChain(t *testing.T) {
	fn, lp := chain(4, ir.OpAdd)
	res := chip(t).Run(BodyOf(fn, lp, nil), 16)
	// 64 dependent Adds, forwarding 3 each (VfSim VADD->VADD): about 192 cycles.
	if res.Cycles < 185 || res.Cycles > 210 {
		t.Errorf("64 dependent adds: %d cycles", res.Cycles)
	}
	if len(res.Critical) < 60 {
		t.Errorf("critical chain %d long, want the whole chain", len(res.Critical))
	}
}

func TestDeterministic(t *testing.T) {
	fn, lp := chain(4, ir.OpMul)
	a := chip(t).Run(BodyOf(fn, lp, nil), 16)
	b := chip(t).Run(BodyOf(fn, lp, nil), 16)
	if a.Cycles != b.Cycles || len(a.Events) != len(b.Events) {
		t.Fatal("not deterministic")
	}
	for i := range a.Events {
		if a.Events[i] != b.Events[i] {
			t.Fatalf("event %d differs", i)
		}
	}
}

func TestUnrollAndChain(t *testing.T) {
	fn, lp := longChain(1)
	body := BodyOf(fn, lp, nil)
	if n := LongestChain(body); n != 1+1+70+1 {
		t.Errorf("longest chain %d, want 73 (load, adds, 70 dependent ops, store)", n)
	}
	u := Unroll(body, 4)
	if len(u.Insts) != 4*len(body.Insts) || LongestChain(u) != LongestChain(body) {
		t.Errorf("unroll: %d insts, chain %d", len(u.Insts), LongestChain(u))
	}
	// A loop-carried accumulator keeps one chain across the copies.
	fa, la := chain(4, ir.OpAdd)
	acc := BodyOf(fa, la, nil)
	if got := LongestChain(Unroll(acc, 2)); got != 8 {
		t.Errorf("accumulator chain over 2 copies %d, want 8", got)
	}
}

// Deeply nested loops do not blow up: the body is capped and says so.
func TestNestedBodyCapped(t *testing.T) {
	b := it.New("k")
	x := b.VReg("x", "float")
	outer := b.Loop(64, func() {
		b.Loop(64, func() {
			b.Loop(64, func() {
				b.Loop(64, func() {
					b.Instr(ir.OpAdds, it.W(x), it.R(x), it.S("1"))
				})
			})
		})
	})
	fn := b.Func()
	body := BodyOf(fn, outer, nil)
	if !body.Truncated || len(body.Insts) > 4*MaxBodyInsts {
		t.Fatalf("body of %d instructions, truncated %v", len(body.Insts), body.Truncated)
	}
	res := chip(t).Run(body, 64)
	if len(res.Events) > MaxInstances || res.Iterations < 1 {
		t.Errorf("%d instances in %d iterations", len(res.Events), res.Iterations)
	}
}

// independentMuls builds a loop of n independent Muls per iteration, each
// fed by a load of its own when loads is set.
func independentMuls(n int, loads bool) (*ir.Func, *ir.Loop) {
	b := it.New("k")
	var regs []ir.RegID
	for i := 0; i < n; i++ {
		regs = append(regs, b.VReg("r", "float"))
	}
	lp := b.Loop(8, func() {
		for _, r := range regs {
			if loads {
				b.Instr(ir.OpLoadAlign, it.W(r), it.PtrRW("src"))
			}
			b.Instr(ir.OpMuls, it.W(r), it.R(r), it.S("2"))
		}
	})
	return b.Func(), lp
}

// TestWindowFrees: with window_frees = "done" an entry stays taken until
// the result is written, so a small window fills with instructions in
// flight and dispatch waits for the oldest to finish, where freeing at
// issue lets it go on.
func TestWindowFrees(t *testing.T) {
	fn, lp := independentMuls(8, false)
	m := chip(t)
	small := *m
	small.Window = 4
	small.IterStride = 0
	small.WindowFrees = "issue"
	atIssue := small.Run(BodyOf(fn, lp, nil), 8)
	small.WindowFrees = "done"
	atDone := small.Run(BodyOf(fn, lp, nil), 8)
	t.Logf("64 independent Muls, window 4: %d cycles freed at issue, %d freed when done", atIssue.Cycles, atDone.Cycles)
	// Freed at issue: two Muls a cycle. Held to done (Mul latency 8): four
	// in flight at most, one every two cycles.
	if atIssue.Cycles > 64/2+20 {
		t.Errorf("freed at issue: %d cycles, want about 32 + the latency", atIssue.Cycles)
	}
	if atDone.Cycles < 64*8/4 {
		t.Errorf("held until done: %d cycles, want at least %d (4 entries, 8 cycles each)", atDone.Cycles, 64*8/4)
	}
	for i, e := range atDone.Events {
		if i >= 4 && e.Dispatch < atDone.Events[i-4].Done {
			t.Fatalf("instruction %d dispatched at %d, before instruction %d (4 entries back) was done at %d", i, e.Dispatch, i-4, atDone.Events[i-4].Done)
		}
	}
	if _, err := Parse("bad.toml", []byte("name = 'x'\nwindow_frees = 'later'\n")); err == nil {
		t.Error("window_frees = 'later' must be an error")
	}
}

// TestLoadQueue: with load_queue, loads take no window entry, so a window
// of compute instructions holds as many of them with loads between as
// without.
func TestLoadQueue(t *testing.T) {
	fn, lp := independentMuls(8, true)
	m := chip(t)
	small := *m
	small.Window = 4
	small.Registers = map[string]int{} // no register pool: the window alone binds
	small.WindowFrees = "done"         // an entry held until its result is written: a load holds it 9 cycles
	small.LoadQueue = false
	with := small.Run(BodyOf(fn, lp, nil), 8)
	small.LoadQueue = true
	without := small.Run(BodyOf(fn, lp, nil), 8)
	t.Logf("64 load+Mul pairs, window 4: %d cycles with loads in the window, %d with a load queue (high-water %d, %d)", with.Cycles, without.Cycles, with.MaxWindow, without.MaxWindow)
	if without.Cycles >= with.Cycles {
		t.Errorf("a load queue should leave the window to the Muls: %d cycles, not fewer than %d", without.Cycles, with.Cycles)
	}
	if without.MaxWindow > 4 {
		t.Errorf("window high-water %d, above its 4 entries", without.MaxWindow)
	}
}

// TestIterStride: iteration k dispatches no earlier than k * iter_stride
// cycles after the first instruction.
func TestIterStride(t *testing.T) {
	b := it.New("k")
	x := b.VReg("x", "float")
	lp := b.Loop(16, func() { b.Instr(ir.OpMuls, it.W(x), it.R(x), it.S("2")) })
	fn := b.Func()
	m := *chip(t)
	for _, stride := range []int{0, 1, 3} {
		m.IterStride = stride
		r := m.Run(BodyOf(fn, lp, nil), 16)
		first := r.Events[0].Dispatch
		for _, e := range r.Events {
			if e.Dispatch < first+e.Iter*stride {
				t.Errorf("stride %d: iteration %d dispatched at %d, before %d", stride, e.Iter, e.Dispatch, first+e.Iter*stride)
			}
		}
		if stride == 3 && r.Events[15].Dispatch != first+45 {
			t.Errorf("stride 3: the last iteration dispatched at %d, want %d: nothing else holds this loop's dispatch back", r.Events[15].Dispatch, first+45)
		}
	}
}

// held returns, for each cycle a run dispatched in, how many RegTensor
// results held a physical register then: from dispatch until the last
// reader of the value is done plus the machine's delay (its own done when
// nothing reads it). Readers are the later instances that use a register
// an instance was the last to write.
func held(m *Machine, body Body, r *Result) (most int) {
	n := len(body.Insts)
	free := make([]int, len(r.Events))
	last := map[ir.RegID]int{}
	for k := range r.Events {
		in := &body.Insts[k%n]
		for _, u := range in.Uses {
			if p, ok := last[u]; ok && body.Regs[u].Class == ir.ClassVReg {
				free[p] = max(free[p], r.Events[k].Done+m.RegFreeDelay)
			}
		}
		for _, d := range in.Defs {
			last[d] = k
		}
	}
	vdef := func(k int) bool {
		for _, d := range body.Insts[k%n].Defs {
			if body.Regs[d].Class == ir.ClassVReg {
				return true
			}
		}
		return false
	}
	for k := range r.Events {
		if free[k] == 0 {
			free[k] = r.Events[k].Done
		}
	}
	for _, e := range r.Events {
		c := 0
		for k, o := range r.Events {
			if vdef(k) && o.Dispatch <= e.Dispatch && e.Dispatch < free[k] {
				c++
			}
		}
		most = max(most, c)
	}
	return most
}

// TestRegisterPool: a RegTensor result holds a physical register from
// dispatch until the last reader of its value is done + reg_free_delay
// (VfSim's camodel dumps), so a long chain stops dispatch once the pool
// is taken; the delay, the pool's size and the values live into the loop
// all move the time, and the loop is then bound by the registers.
func TestRegisterPool(t *testing.T) {
	b := it.New("k")
	x := b.VReg("x", "float")
	lp := b.Loop(4, func() { // one chain an iteration, iterations independent
		b.Instr(ir.OpLoadAlign, it.W(x), it.PtrRW("src"))
		for range 96 {
			b.Instr(ir.OpAdds, it.W(x), it.R(x), it.S("1"))
		}
		b.Instr(ir.OpStoreAlign, it.R(x), it.PtrRW("dst"))
	})
	m := chip(t)
	body := BodyOf(b.Func(), lp, nil)
	if got := m.poolSize(body, new([]bool)); got != 68 {
		t.Errorf("pool %d for a body with no value live into it, want 68", got)
	}
	r := m.Run(body, 4)
	if most := held(m, body, r); most > 68 || most < 60 {
		t.Errorf("%d registers held at once, want the pool's 68 nearly full and never more", most)
	}
	if b := m.Bound(r); b.Kind != "registers" || !strings.Contains(b.String(), "68 physical vector registers") {
		t.Errorf("bound: %+v %q, want the registers", b, b.String())
	}
	noPool := *m
	noPool.Registers = map[string]int{}
	free := noPool.Run(body, 4)
	slow := *m
	slow.RegFreeDelay = 12
	late := slow.Run(body, 4)
	t.Logf("96-Add chain, 4 iterations: %d cycles with no pool, %d with 68 registers (delay 3), %d with delay 12", free.Cycles, r.Cycles, late.Cycles)
	if !(free.Cycles < r.Cycles && r.Cycles < late.Cycles) {
		t.Errorf("cycles: no pool %d, delay 3 %d, delay 12 %d; want each slower than the last", free.Cycles, r.Cycles, late.Cycles)
	}
	// Values live into the loop keep their registers: the pool is smaller.
	b = it.New("k")
	var ins []ir.RegID
	for range 40 {
		ins = append(ins, b.VReg("c", "float"))
	}
	acc := b.VReg("acc", "float")
	lp = b.Loop(8, func() {
		for _, c := range ins {
			b.Instr(ir.OpAdd, it.W(acc), it.R(acc), it.R(c))
		}
	})
	if got := m.poolSize(BodyOf(b.Func(), lp, nil), new([]bool)); got != 68-32 {
		t.Errorf("pool %d with 41 values live in, want 68 less the 32 a VF holds", got)
	}
}

// TestRegisterPoolOverflow: a body with more values live at once than the
// pool holds (80 loads, then 80 stores of them: a compiler would spill)
// still runs to the end, in order, instead of waiting forever for a read
// that cannot dispatch.
func TestRegisterPoolOverflow(t *testing.T) {
	b := it.New("k")
	var regs []ir.RegID
	for range 80 {
		regs = append(regs, b.VReg("r", "float"))
	}
	lp := b.Loop(2, func() {
		for _, r := range regs {
			b.Instr(ir.OpLoadAlign, it.W(r), it.PtrRW("src"))
		}
		for _, r := range regs {
			b.Instr(ir.OpStoreAlign, it.R(r), it.PtrRW("dst"))
		}
	})
	m := chip(t)
	body := BodyOf(b.Func(), lp, nil)
	r := m.Run(body, 2)
	if len(r.Events) != 320 || r.Cycles <= 0 {
		t.Fatalf("%d events, %d cycles", len(r.Events), r.Cycles)
	}
	for _, e := range r.Events {
		if e.Retire < 0 {
			t.Fatalf("an instruction never retired: %+v", e)
		}
	}
	if r.regWaits == 0 {
		t.Error("dispatch never waited for a register: the 80 values must overflow the pool")
	}
}

// TestRegFreeDelayParse: the delay is a machine file's, bounded.
func TestRegFreeDelayParse(t *testing.T) {
	for _, bad := range []string{"-1", "1001"} {
		if _, err := Parse("bad.toml", []byte("name = 'x'\nwindow = 4\ndispatch_width = 1\nretire_width = 1\nissue_width = 1\ncompute_issue = 1\nub_accesses = 1\nub_writes = 1\nreg_free_delay = "+bad+"\n")); err == nil || !strings.Contains(err.Error(), "reg_free_delay") {
			t.Errorf("reg_free_delay = %s: %v, want an error naming it", bad, err)
		}
	}
}

// TestOverlaps: a part's drain runs under the parts after it, but no
// longer than they last; the function waits for the rest.
func TestOverlaps(t *testing.T) {
	for _, c := range []struct {
		spans []span
		want  []int
	}{
		{[]span{{100, 30}, {50, 0}}, []int{30, 0}},             // hidden whole
		{[]span{{100, 80}, {10, 0}}, []int{10, 0}},             // a short part hides 10 of 80
		{[]span{{100, 80}, {10, 5}, {10, 0}}, []int{15, 5, 0}}, // what follows: 5 + 10 charged
		{[]span{{40, 0}, {100, 0}}, []int{0, 0}},               // no tail (a barrier, or the last)
	} {
		if got := hiddenDrains(c.spans); !slices.Equal(got, c.want) {
			t.Errorf("hiddenDrains(%v) = %v, want %v", c.spans, got, c.want)
		}
	}
}
