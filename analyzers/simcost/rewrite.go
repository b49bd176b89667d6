package simcost

import (
	"math"

	"github.com/ascvet/ascvet/cppfront/ir"
	"github.com/ascvet/ascvet/simcheck"
)

// rewriteFn builds, from loop lp's body as instantiation b builds it as
// written, the loop a fix makes of it, and whether that loop runs half the
// iterations. lp is the loop the fix is for, or the top-level loop around
// it when a VF call is priced (callRewritten). ok is false when the fix changes nothing in that build (an
// instruction in an if constexpr branch it does not take).
type rewriteFn func(b ir.Bindings, lp *ir.Loop, body simcheck.Body) (fixed simcheck.Body, halve, ok bool)

// rewritten prices a fix that rewrites loop lp of fn rather than dropping
// instructions (ASC5001, ASC5002, ASC5003): the loop as written for each
// instantiation in insts that builds a different body, against the loop
// fix makes of it. The cost is that of the build the fix saves most in,
// named (Cost.Instance) when named, with Of the number priced when more
// than one, what binds the loop when it saves nothing, and what it saves
// in one VF call (callRewritten). insts is ignored, fn priced as written,
// when named is false; a zero Cost when no build changes. rec, when not
// nil, describes the fix for Finish, which prices it with the loop's other
// fixes (the cost's fix mark, Attach); nil prices without recording.
func (md *Model) rewritten(fn *ir.Func, lp *ir.Loop, insts []ir.Bindings, named bool, fix rewriteFn, rec *fixRec) Cost {
	if !named || len(insts) == 0 {
		insts, named = []ir.Bindings{fn.SoleInstance()}, false
	}
	var (
		best                Cost
		bestBody, bestFixed simcheck.Body
		bestBind            ir.Bindings
		bestHalve           bool
		priced              int
	)
	bestSave := math.MinInt
	seen := map[string]bool{}
	for _, b := range insts {
		body, key := md.writtenBody(fn, b, lp)
		if seen[key] {
			continue
		}
		seen[key] = true
		fixed, halve, ok := fix(b, lp, body)
		if !ok {
			continue
		}
		priced++
		inst, name := b.Loop(lp), ""
		if named {
			name = b.String()
		}
		before := md.writtenRun(writtenKey{lp, md.iters(inst), name}, func() simcheck.Body { return body }).res
		iters := before.Iterations
		if halve {
			iters = (iters + 1) / 2
		}
		after := md.M.RunCyclesAs(lp, fixed, iters)
		c := Cost{Before: before.Cycles, After: after.Cycles, Iterations: before.Iterations, Opaque: body.Opaque,
			Assumed: body.Assumed, Instance: name, Trip: tripOf(inst, before.Iterations), Counter: counterOf(inst)}
		if save := c.Before - c.After; save > bestSave {
			best, bestSave, bestBody, bestFixed, bestBind, bestHalve = c, save, body, fixed, b, halve
		}
	}
	if priced == 0 {
		return Cost{}
	}
	if priced > 1 {
		best.Of = priced
	}
	md.bind(&best, func() simcheck.Body { return bestBody })
	n := simcheck.Trip(bestBind.Loop(lp), md.Iterations)
	if bestHalve {
		n = (n + 1) / 2
	}
	md.callRewritten(&best, fn, bestBind, lp, bestFixed, n, fix)
	if rec != nil {
		r := *rec
		r.fn, r.lp, r.cost = fn, lp, best
		md.mu.Lock()
		md.fixes = append(md.fixes, r)
		best.fix = len(md.fixes)
		md.mu.Unlock()
	}
	return best
}

// instantiated reports whether fn's instantiations are known, so that a
// cost names the one it times.
func instantiated(fn *ir.Func) bool {
	all := fn.Instantiations()
	return len(all) > 1 || len(all) == 1 && !all[0].Empty()
}
