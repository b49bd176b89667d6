package simcheck

import (
	"fmt"
	"strings"
	"testing"

	"github.com/ascvet/ascvet/cppfront/ir"
	it "github.com/ascvet/ascvet/cppfront/ir/irtest"
)

// TestBound: what binds a loop is read off its simulation: a loop of
// stores is bound by the single store port, a chain of dependent adds by
// the chain, independent compute by the two compute units; a loop that
// is neither says which resource is busiest.
func TestBound(t *testing.T) {
	m := chip(t)
	stores := func() (*ir.Func, *ir.Loop) {
		b := it.New("k")
		v := b.VReg("v", "float")
		mk := b.Mask("m")
		lp := b.Loop(32, func() {
			for range 4 {
				b.Instr(ir.OpStoreAlign, it.PtrRW("dst"), it.R(v), it.M(mk))
			}
		})
		return b.Func(), lp
	}
	independent := func() (*ir.Func, *ir.Loop) {
		b := it.New("k")
		var regs []ir.RegID
		for range 8 {
			regs = append(regs, b.VReg("r", "float"))
		}
		lp := b.Loop(32, func() {
			for _, r := range regs {
				b.Instr(ir.OpMaxs, it.W(r), it.R(r), it.S("0"))
			}
		})
		return b.Func(), lp
	}
	mixed := func() (*ir.Func, *ir.Loop) {
		b := it.New("k")
		v, w := b.VReg("v", "float"), b.VReg("w", "float")
		mk := b.Mask("m")
		lp := b.Loop(2, func() {
			b.Instr(ir.OpLoadAlign, it.W(v), it.PtrRW("src"))
			b.Instr(ir.OpMaxs, it.W(w), it.R(v), it.S("0"))
			b.Instr(ir.OpStoreAlign, it.PtrRW("dst"), it.R(w), it.M(mk))
		})
		return b.Func(), lp
	}
	for _, c := range []struct {
		name string
		loop func() (*ir.Func, *ir.Loop)
		kind string
		want string
	}{
		{"stores", stores, "port", "bound by the single store port ("},
		{"dependent adds", func() (*ir.Func, *ir.Loop) { return chain(4, ir.OpAdd) }, "chain", "bound by a chain of "},
		{"independent compute", independent, "port", "bound by the two compute units ("},
		{"two short iterations: a load's latency to its store", mixed, "chain", "bound by a chain of 3 dependent instructions ("},
	} {
		fn, lp := c.loop()
		res := m.Run(BodyOf(fn, lp, nil), Trip(lp, 16))
		b := m.Bound(res)
		if b.Kind != c.kind || !strings.HasPrefix(b.String(), c.want) {
			t.Errorf("%s: %+v %q, want %s %q", c.name, b, b.String(), c.kind, c.want)
		}
	}
	if b := m.Bound(&Result{}); b.Kind != "none" || b.String() != "bound by no one resource over its 0 cycles" {
		t.Errorf("an empty run: %+v %q", b, b.String())
	}
	full := &Result{Cycles: 100, Iterations: 16, MaxWindow: m.Window, PortBusy: map[string]int{"ST": 40}}
	if b := m.Bound(full); b.Kind != "window" || b.String() != fmt.Sprintf("bound by the %d-entry issue window, full of instructions waiting for their operands", m.Window) {
		t.Errorf("a full window: %+v %q", b, b.String())
	}
	spread := &Result{Cycles: 100, Iterations: 16, PortBusy: map[string]int{"ST": 40, "LD": 60, "EXU0": 30, "EXU1": 20}}
	if b := m.Bound(spread); b.Kind != "none" || b.String() != "bound by no one resource (the busiest, the single store port, is busy 40% of its 100 cycles)" {
		t.Errorf("no port over 3/4, no chain: %+v %q", b, b.String())
	}
}
