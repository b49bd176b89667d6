package simcheck

import (
	"fmt"
	"slices"
	"strings"

	"github.com/ascvet/ascvet/cppfront/ir"
)

// Part is one loop, or one stretch of code between loops, of a simulated
// VF function.
type Part struct {
	Loop         *ir.Loop // nil for straight-line code
	Iterations   int      // simulated iterations of the loop (its trip count when known)
	Unroll       int      // the #pragma unroll factor applied, 1 for none
	Cycles       int      // its cycles, the loop's entry included
	Extrapolated bool     // too many instances to run: a prefix was run and its steady state extended
	Overlap      int      // in a function: cycles of its drain the next part overlaps (left out of Cycles)
	Body         Body
	Res          *Result // the run (of the prefix when Extrapolated)
}

// RegionResult is a VF function's simulation: the VF start, each top-level
// loop and stretch of straight-line code on its own in program order, and
// the drain. Cycles is their sum, so a function's cycles are its loops'
// plus what surrounds them.
type RegionResult struct {
	Cycles int
	Parts  []Part
	Notes  []string // every cap that shaped the result
}

// RunLoop simulates loop lp of fn for its trip count (iterations when it
// does not fold), with its #pragma unroll applied as the compiler does:
// copies interleaved, registers renamed, the remainder run plainly. skip
// drops instructions, as in BodyOf.
func (m *Machine) RunLoop(fn *ir.Func, lp *ir.Loop, iterations int, skip func(*ir.Instr) bool) Part {
	return m.RunLoopInstance(fn, fn.SoleInstance(), lp, iterations, skip)
}

// RunLoopInstance is RunLoop for the instantiation of fn that bind fixes.
func (m *Machine) RunLoopInstance(fn *ir.Func, bind ir.Bindings, lp *ir.Loop, iterations int, skip func(*ir.Instr) bool) Part {
	lp = bind.Loop(lp)
	return m.runLoopBody(lp, BodyOfInstance(fn, bind, lp, skip), Trip(lp, iterations))
}

// RunLoopBuilt is RunLoopInstance for a body built elsewhere (the loop
// fixes make of lp's body): body run as loop lp of the instantiation bind
// for its trip count, or half of it, rounded up, when halve (a fix that
// doubles the width of every op).
func (m *Machine) RunLoopBuilt(bind ir.Bindings, lp *ir.Loop, body Body, iterations int, halve bool) Part {
	lp = bind.Loop(lp)
	n := Trip(lp, iterations)
	if halve {
		n = (n + 1) / 2
	}
	return m.runLoopBody(lp, body, n)
}

// RunCyclesAs is RunCycles for body run n times as loop lp's body: with
// lp's #pragma unroll applied as RunLoopInstance applies it (the copies
// interleaved, registers renamed, the remainder at the rolled body's
// steady rate), so that a fix's price and ascvet sim time the loop alike.
// The loop's entry is not counted. Iterations counts lp's own iterations
// (fewer than n when the run was capped, MaxInstances).
func (m *Machine) RunCyclesAs(lp *ir.Loop, body Body, n int) *Result {
	u := unrollOf(lp, n)
	if u == 1 || len(body.Insts) == 0 {
		return m.RunCycles(body, n)
	}
	r := *m.RunCycles(Unroll(body, u), n/u)
	r.PerIter = len(body.Insts)
	whole := r.Iterations == n/u
	r.Iterations *= u
	if rem := n % u; rem > 0 && whole {
		r.Cycles += int(m.steadyRate(body)*float64(rem) + 0.5)
		r.Iterations += rem
	}
	return &r
}

// unrollOf returns how many copies of lp's body the compiler interleaves
// for n iterations: its #pragma unroll N (a bare one: fully, within
// reason), 1 when there is none or fewer iterations than copies.
func unrollOf(lp *ir.Loop, n int) int {
	u := lp.Unroll
	if u < 0 {
		u = min(n, 8)
	}
	if u <= 1 || n < u {
		return 1
	}
	return u
}

// runLoopBody runs body as loop lp for n iterations (unrolled as lp's
// pragma asks), its entry included.
func (m *Machine) runLoopBody(lp *ir.Loop, body Body, n int) Part {
	p := Part{Loop: lp, Iterations: n, Unroll: 1, Body: body}
	if n <= 0 || len(body.Insts) == 0 {
		p.Res = &Result{}
		return p
	}
	if u := unrollOf(lp, n); u > 1 {
		p.Unroll = u
		p.Body = Unroll(body, u) // Res's events index the unrolled body
		c, res, ex := m.runSteady(p.Body, n/u)
		p.Cycles, p.Res, p.Extrapolated = c, res, ex
		if r := n % u; r > 0 {
			// The remainder iterations follow in the same stream: they add
			// the rolled loop's steady cost per iteration, not a second
			// pipeline fill and drain.
			p.Cycles += int(m.steadyRate(body)*float64(r) + 0.5)
		}
	} else {
		p.Cycles, p.Res, p.Extrapolated = m.runSteady(body, n)
	}
	p.Cycles += m.LoopEntry
	return p
}

// runPart runs one part of a region: Run, whose Result holds the Events a
// view or a binding needs, or RunCycles on a machine that prices only
// (CyclesOnly).
func (m *Machine) runPart(body Body, n int) *Result {
	if m.cyclesOnly {
		return m.RunCycles(body, n)
	}
	return m.Run(body, n)
}

// runSteady runs n iterations of body, or, past MaxInstances, a prefix of
// them and the prefix's steady rate for the rest.
func (m *Machine) runSteady(body Body, n int) (int, *Result, bool) {
	res := m.runPart(body, n)
	if res.Iterations >= n {
		return res.Cycles, res, false
	}
	k := res.Iterations
	rate := float64(res.Cycles) // one iteration ran: no rate between two runs to take
	if k >= 2 {
		rate = rateBetween(res, m.RunCycles(body, k/2))
	}
	return res.Cycles + int(rate*float64(n-k)+0.5), res, true
}

// rateBetween is the cost of one more iteration: the cycles two runs of a
// body differ by, over the iterations they differ by.
func rateBetween(long, short *Result) float64 {
	return float64(long.Cycles-short.Cycles) / float64(max(long.Iterations-short.Iterations, 1))
}

// Steady returns body's cost per iteration once the pipeline is full, and
// its compute IPC there: in one run of 16 iterations (fewer for a long
// body), what the second half costs after the first half has retired, so
// that neither the VF start nor the fill and drain of the pipeline counts.
// It is what a loop of many iterations costs each one.
func (m *Machine) Steady(body Body) (cyclesPerIter, ipc float64) {
	k := max(min(16, MaxInstances/max(len(body.Insts), 1)), 2)
	r := m.RunCycles(body, k)
	dc := r.Cycles - r.halfCycles
	if dc <= 0 {
		return 0, 0
	}
	return float64(dc) / float64(max(r.Iterations-r.Iterations/2, 1)), float64(r.computed-r.halfComputed) / float64(dc)
}

// steadyRate is body's cost per iteration once the pipeline is full.
func (m *Machine) steadyRate(body Body) float64 {
	k := max(min(16, MaxInstances/max(len(body.Insts), 1)), 2)
	return rateBetween(m.RunCycles(body, k), m.RunCycles(body, k/2))
}

// RunRegion simulates a VF function (see RegionResult). Loops run for
// their trip counts, iterations when one does not fold.
func (m *Machine) RunRegion(fn *ir.Func, iterations int, skip func(*ir.Instr) bool) *RegionResult {
	return m.RunInstance(fn, fn.SoleInstance(), iterations, skip)
}

// RunInstance is RunRegion for the instantiation of fn that bind fixes
// (ir.Bindings): its if constexpr folded under bind, its element types
// bound.
func (m *Machine) RunInstance(fn *ir.Func, bind ir.Bindings, iterations int, skip func(*ir.Instr) bool) *RegionResult {
	rr := &RegionResult{Cycles: m.VFStart + m.VFDrain}
	var straight []ir.Node
	flush := func() {
		if len(straight) == 0 {
			return
		}
		b := newBuilder(fn, bind, skip)
		b.outer = iterations
		b.block(&ir.Block{Nodes: straight})
		straight = straight[:0]
		body := b.body()
		if len(body.Insts) == 0 {
			return
		}
		res := m.runPart(body, 1)
		rr.Parts = append(rr.Parts, Part{Iterations: 1, Unroll: 1, Cycles: res.Cycles, Body: body, Res: res})
	}
	if fn.Body != nil {
		for _, n := range fn.Body.Nodes {
			lp, ok := n.(*ir.Loop)
			if !ok {
				straight = append(straight, n)
				continue
			}
			flush()
			p := m.RunLoopInstance(fn, bind, lp, iterations, skip)
			rr.Parts = append(rr.Parts, p)
			rr.Notes = append(rr.Notes, LoopNotes(lp, p, iterations)...)
		}
	}
	flush()
	for _, p := range rr.Parts {
		if p.Loop == nil && (p.Body.Capped || p.Body.Truncated) {
			rr.Notes = append(rr.Notes, fmt.Sprintf("a loop outside the top level (in an if) was repeated at most %d times, or its body cut at %d instructions", iterations, MaxBodyInsts))
		}
	}
	for i, ov := range overlaps(rr.Parts) {
		rr.Parts[i].Cycles -= ov
		rr.Parts[i].Overlap = ov
		rr.Cycles += rr.Parts[i].Cycles
	}
	return rr
}

// span is a part of a function as overlaps composes it: its cycles, and
// the drain after its last dispatch that the parts after it may hide.
type span struct{ full, tail int }

// spanOf is part p as a span, the parts after it being rest.
func spanOf(p Part, rest []Part) span {
	s := span{full: p.Cycles + p.Overlap}
	// The next part starts when this one's last instruction has been
	// dispatched (VfSim: a top-level loop's VLOOP starts once the previous
	// one's instructions are all in the core), unless a LocalMemBar between
	// them makes it wait; and where it reads what this one writes, not
	// before those values are ready for it (a loop's result is its last
	// iteration's, often at the end of the drain).
	if len(rest) > 0 && !(hasBarrier(rest[0].Body) && rest[0].Loop == nil) {
		if tail := drainOf(p.Res) - waitFor(p.Res, rest[0].Res); tail > 0 && tail < s.full {
			s.tail = tail
		}
	}
	return s
}

// waitFor is how long after the last dispatch of run r the run next
// after it waits for the values of r it reads: the most that one of them
// is ready after next's first reader of it would issue on its own (0 when
// it reads none of them).
func waitFor(r, next *Result) int {
	if r == nil || next == nil {
		return 0
	}
	wait := 0
	for _, in := range next.ins {
		for _, o := range r.outs {
			if o.reg == in.reg {
				wait = max(wait, o.at-in.at)
			}
		}
	}
	return wait
}

// overlaps returns the cycles of each part's drain that the parts after it
// hide (their Cycles and Overlap are taken as the part's own cycles).
func overlaps(parts []Part) []int {
	spans := make([]span, len(parts))
	for i, p := range parts {
		spans[i] = spanOf(p, parts[i+1:])
	}
	return hiddenDrains(spans)
}

// hiddenDrains returns the cycles of each span's drain that the spans after it
// hide: its tail, but no more than they last. A drain longer than all that
// follows (a loop's backlog of Exps, say, dispatched long before they
// issue) ends the function, which waits for it.
func hiddenDrains(spans []span) []int {
	ov := make([]int, len(spans))
	after := 0 // cycles the spans after i add
	for i := len(spans) - 1; i >= 0; i-- {
		ov[i] = min(spans[i].tail, after)
		after += spans[i].full - ov[i]
	}
	return ov
}

// CyclesWith returns the cycles of rr, RunInstance's run of fn under bind,
// had the part of its top-level loop top been run without the
// instructions skip removes: that part run again, the others as they
// were (each part runs on its own, so nothing else changes). ok is false
// when top is no part of rr.
func (m *Machine) CyclesWith(rr *RegionResult, fn *ir.Func, bind ir.Bindings, top *ir.Loop, iterations int, skip func(*ir.Instr) bool) (cycles int, ok bool) {
	if !slices.ContainsFunc(rr.Parts, func(p Part) bool { return p.Loop == top && top != nil }) {
		return 0, false
	}
	bound := bind.Loop(top)
	return m.CyclesWithBody(rr, top, bind, BodyOfInstance(fn, bind, bound, skip), Trip(bound, iterations))
}

// CyclesWithBody is CyclesWith for a fix that rewrites top-level loop top
// rather than dropping instructions: the loop the fix builds runs body for
// n iterations (ASC5001 halves them, ASC5002 and ASC5003 rewrite an
// instruction), as instantiation bind builds it.
func (m *Machine) CyclesWithBody(rr *RegionResult, top *ir.Loop, bind ir.Bindings, body Body, n int) (cycles int, ok bool) {
	for i, p := range rr.Parts {
		if p.Loop != top || top == nil {
			continue
		}
		np := m.runLoopBody(bind.Loop(top), body, n)
		parts := slices.Clone(rr.Parts)
		parts[i] = np
		cycles = m.VFStart + m.VFDrain
		for j, ov := range overlaps(parts) {
			cycles += parts[j].Cycles + parts[j].Overlap - ov
		}
		return cycles, true
	}
	return 0, false
}

// drainOf is the part of a run after its last dispatch: the cycles the
// next part overlaps.
func drainOf(r *Result) int {
	if r == nil {
		return 0
	}
	return r.drain
}

func hasBarrier(b Body) bool {
	for _, in := range b.Insts {
		if in.Op.Info().Cat == ir.CatBarrier {
			return true
		}
	}
	return false
}

// LoopNotes says which caps shaped a loop's run p (the loop's line is the
// caller's to add).
func LoopNotes(lp *ir.Loop, p Part, iterations int) []string {
	var out []string
	if !lp.TripKnown {
		out = append(out, fmt.Sprintf("the loop's trip count does not fold: simulated for %d iterations (-iterations)", iterations))
	}
	if p.Extrapolated {
		out = append(out, fmt.Sprintf("%d iterations of %d instructions are too many to run: a prefix ran and its steady state was extended", p.Iterations, len(p.Body.Insts)))
	}
	if p.Body.Capped {
		out = append(out, fmt.Sprintf("an inner loop was repeated %d times, fewer than its trip count", maxInner))
	}
	if p.Body.Truncated {
		out = append(out, fmt.Sprintf("the body was cut at %d instructions: inner loops repeated fewer times", MaxBodyInsts))
	}
	var helpers []string
	for _, o := range p.Body.Opaque {
		if elem, ok := SoftDiv(o); ok {
			out = append(out, fmt.Sprintf("each Div on %s was timed as one float Div: the compiler expands an integer Div into a software sequence that is not published, so the loop costs more on hardware", elem))
		} else {
			helpers = append(helpers, o)
		}
	}
	if len(helpers) > 0 {
		out = append(out, fmt.Sprintf("%s timed as one instruction: not defined in the file", strings.Join(helpers, ", ")))
	}
	return out
}
