package simcost

import (
	"fmt"
	"strings"

	"github.com/ascvet/ascvet/cppfront/ir"
	"github.com/ascvet/ascvet/simcheck"
)

// HalfWidth prices a loop that fills half of each vector register
// (ASC5001): the fix doubles the width of every op, which leaves the body
// as it is (an instruction costs the same whatever its mask covers) and
// halves the iterations. Before is loop lp of fn as written for its trip
// count (capped as Loop caps it), After the same body run for half as many
// iterations, rounded up (the odd one out is the tail, under a partial
// mask). insts are the instantiations of fn the finding holds for; each
// that builds a different body is priced, and the cost is that of the one
// the fix saves most in, named (Cost.Instance) when fn's instantiations
// are known, with Of the number priced when more than one.
func (md *Model) HalfWidth(fn *ir.Func, lp *ir.Loop, insts []ir.Bindings) Cost {
	return md.rewritten(fn, lp, insts, instantiated(fn), func(_ ir.Bindings, _ *ir.Loop, body simcheck.Body) (simcheck.Body, bool, bool) {
		return body, true, true
	}, &fixRec{halve: true})
}

// HalvedPhrase is the text of a HalfWidth cost: "halving the iterations
// saves ~N cycles of M over the T simulated iterations (X%)", and, as
// Phrase says them, the helpers timed as one instruction, the
// instantiation timed and the branches assumed.
func (c Cost) HalvedPhrase() string {
	var s string
	if d := c.Saved(); d > 0 {
		s = fmt.Sprintf("halving the iterations saves ~%d %s of %d over the %d simulated iterations (%d%%)", d, cyclesWord(d), c.Before, c.Iterations, 100*d/c.Before)
	} else {
		s = fmt.Sprintf("halving the iterations saves nothing measurable over the %d simulated iterations", c.Iterations)
	}
	s += opaquePhrase(c.Opaque) + counterPhrase(c.Counter)
	switch {
	case c.Instance != "" && c.Of > 1:
		s += fmt.Sprintf(" (timed for %s, of %d instantiations the one it saves most in)", c.Instance, c.Of)
	case c.Instance != "":
		s += fmt.Sprintf(" (timed for %s)", c.Instance)
	}
	if len(c.Assumed) > 0 {
		as, more := c.Assumed, ""
		if len(as) > 2 {
			as, more = as[:2], fmt.Sprintf(" and %d more", len(c.Assumed)-2)
		}
		s += fmt.Sprintf(" (timed assuming %s%s, the costlier branches: the file does not give the template arguments)", strings.Join(as, " and "), more)
	}
	return s
}
