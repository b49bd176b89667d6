package simcost

import (
	"github.com/ascvet/ascvet/cppfront/ir"
	"github.com/ascvet/ascvet/simcheck"
)

// LoopStats is what the scheduling rules need of one loop.
type LoopStats struct {
	Loop       *ir.Loop
	Iterations int
	Chain      int     // longest dependency chain in one iteration, in instructions
	Cycles     int     // simulated cycles of all iterations
	IPC        float64 // simulated
	Unrolled   [5]int  // Unrolled[k]: cycles with a k-times interleaved unroll (k = 2, 4), 0 when not simulated
}

// Stats simulates loop lp of fn, and its 2x and 4x unrolls when the trip
// count allows them.
func (md *Model) Stats(fn *ir.Func, lp *ir.Loop) LoopStats {
	n := simcheck.Trip(lp, md.Iterations)
	body := simcheck.BodyOf(fn, lp, nil)
	st := LoopStats{Loop: lp, Iterations: n, Chain: simcheck.LongestChain(body)}
	if n <= 0 || len(body.Insts) == 0 {
		return st
	}
	r := md.M.Run(body, n)
	st.Cycles, st.IPC = r.Cycles, r.IPC()
	for _, k := range []int{2, 4} {
		if n >= k && n%k == 0 {
			st.Unrolled[k] = md.M.Run(simcheck.Unroll(body, k), n/k).Cycles
		}
	}
	return st
}
