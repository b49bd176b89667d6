package asc4002

import (
	"testing"

	"github.com/ascvet/ascvet/analyzers/simcost"
	"github.com/ascvet/ascvet/cppfront/ir"
	"github.com/ascvet/ascvet/regalloc"
	"github.com/ascvet/ascvet/simcheck"
)

// TestWorthOpaque: a loop whose unroll saves 39% is worth reporting,
// unless it calls a helper whose body is not known (timed as one
// instruction that reads and writes every register it is passed, the
// serial rate may be that helper's false dependence, as in the corpus's
// dynamic_mx_quant_not_tail_axis.h, where the hand-written loop saves 16%
// for one instantiation and nothing for the others).
func TestWorthOpaque(t *testing.T) {
	m, err := simcheck.Chip("ascend950")
	if err != nil {
		t.Fatal(err)
	}
	md := &simcost.Model{M: m, Iterations: 16}
	peak := &regalloc.Result{Func: &ir.Func{}}
	st := simcost.LoopStats{Iterations: 16, Chain: 30, Cycles: 800, IPC: 0.52}
	st.Unrolled[2] = 490
	if _, k, ok := worth(md, st, peak, regalloc.Ascend950); !ok || k != 2 {
		t.Fatalf("a 39%% saving that fits is not worth reporting (k=%d)", k)
	}
	st.Body.Opaque = []string{"LoadData"}
	if _, _, ok := worth(md, st, peak, regalloc.Ascend950); ok {
		t.Error("a loop timed with an opaque helper is reported")
	}
}
