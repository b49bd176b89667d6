package ir_test

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/ascvet/ascvet/cppfront/ir"
	"github.com/ascvet/ascvet/cppfront/ir/irtest"
)

// TestInstrsIn: over random regions of nested loops and ifs (empty bodies
// and branches included), InstrsIn returns exactly the instructions that
// Within places in the loop, in order.
func TestInstrsIn(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for range 500 {
		b := irtest.New("k")
		v := b.VReg("v", "float")
		var body func(depth int)
		body = func(depth int) {
			for range rng.IntN(4) {
				switch r := rng.IntN(4); {
				case r == 0 || depth > 3:
					b.Instr(ir.OpAdds, irtest.W(v), irtest.R(v), irtest.S("1"))
				case r == 1:
					b.Loop(4, func() { body(depth + 1) })
				case r == 2:
					b.If(func() { body(depth + 1) }, nil)
				default:
					b.If(func() { body(depth + 1) }, func() { body(depth + 1) })
				}
			}
		}
		body(0)
		fn := b.Func()
		for _, l := range fn.Loops {
			var want []*ir.Instr
			for _, in := range fn.Instrs {
				if fn.Within(in.Loop, l.ID) {
					want = append(want, in)
				}
			}
			if got := fn.InstrsIn(l); !slices.Equal(got, want) {
				t.Fatalf("InstrsIn(L%d) = %d instructions, want %d", l.ID, len(got), len(want))
			}
		}
	}
}
