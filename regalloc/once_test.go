package regalloc

import (
	"testing"

	"github.com/ascvet/ascvet/cppfront/ir"
	it "github.com/ascvet/ascvet/cppfront/ir/irtest"
)

// TestOnceLoop: a loop whose body runs exactly once (do { ... } while (0),
// the statement a macro expands to) is straight-line code. What it writes
// is written on every path: a value written there and read after it is not
// live before it, nor around an enclosing loop's back edge.
func TestOnceLoop(t *testing.T) {
	build := func(trip int64) (*it.Builder, ir.RegID) {
		b := it.New("k")
		a1, a2, s := b.VReg("a1", "float"), b.VReg("a2", "float"), b.VReg("s", "float")
		b.Loop(-1, func() {
			b.Instr(ir.OpLoadAlign, it.W(s), it.Ptr("src"))
			b.Loop(trip, func() {
				b.Instr(ir.OpAdd, it.W(a1), it.R(s), it.R(s))
				b.Instr(ir.OpAdd, it.W(a2), it.R(s), it.R(s))
			})
			b.Instr(ir.OpMul, it.W(s), it.R(a1), it.R(a2))
			b.Instr(ir.OpStoreAlign, it.Ptr("dst"), it.R(s))
		})
		return b, a1
	}
	b, _ := build(1)
	fn := b.Func()
	if p := New(b.File()).Analyze(fn).Classes[VReg]; p.Peak != 2 {
		t.Errorf("peak %d, want 2", p.Peak)
	}
	// A loop that may run no time does not kill: a1 flows around it.
	b, a1 := build(-1)
	fn = b.Func()
	lv := newLiveness(fn)
	lv.solve()
	if load := fn.Instrs[0]; !lv.out[load.ID].has(a1) {
		t.Error("a1 not live after the load with a loop that may not run")
	}
}
