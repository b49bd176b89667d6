package simcost

import (
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
	return md.rewritten(fn, lp, insts, instantiated(fn), func(b ir.Bindings, at *ir.Loop, _ simcheck.Body) (simcheck.Body, bool, bool) {
		return simcheck.BodyWithDiv64(fn, b, at, div, remedy), false, true
	}, &fixRec{div: div, remedy: remedy})
}
