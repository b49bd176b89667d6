package simcost

import (
	"math"

	"github.com/ascvet/ascvet/cppfront/ir"
	"github.com/ascvet/ascvet/simcheck"
)

// Div64 prices rewriting the 64-bit integer Div div, in loop lp of fn, as
// remedy says (simcheck.BodyWithDiv64): the loop as written, where the Div
// runs the library's sequence, against the loop the fix builds. insts are
// the instantiations in which div divides 64-bit integers (nil: fn as
// written); the cost is that of the one the fix saves most in, named when
// the function has several.
func (md *Model) Div64(fn *ir.Func, lp *ir.Loop, div *ir.Instr, remedy simcheck.Div64Remedy, insts []ir.Bindings) Cost {
	all := fn.Instantiations()
	several := len(all) > 1 || len(all) == 1 && !all[0].Empty()
	if !several || len(insts) == 0 {
		insts = []ir.Bindings{fn.SoleInstance()}
	}
	var best Cost
	var bestBody, bestFixed simcheck.Body
	var bestBind ir.Bindings
	bestSave := math.MinInt
	for _, b := range insts {
		key := ""
		if several {
			key = b.String()
		}
		body, _ := md.writtenBody(fn, b, lp)
		before := md.writtenRun(writtenKey{lp, md.iters(b.Loop(lp)), key}, func() simcheck.Body { return body }).res
		fixed := simcheck.BodyWithDiv64(fn, b, lp, div, remedy)
		after := md.M.RunCycles(fixed, before.Iterations)
		c := Cost{Before: before.Cycles, After: after.Cycles, Iterations: before.Iterations, Opaque: body.Opaque, Assumed: body.Assumed, Trip: tripOf(b.Loop(lp), before.Iterations)}
		if several {
			c.Instance = b.String()
		}
		if save := c.Before - c.After; save > bestSave {
			best, bestSave, bestBody, bestFixed, bestBind = c, save, body, fixed, b
		}
	}
	md.bind(&best, func() simcheck.Body { return bestBody })
	md.callRewritten(&best, fn, bestBind, lp, bestFixed, simcheck.Trip(bestBind.Loop(lp), md.Iterations))
	return best
}
