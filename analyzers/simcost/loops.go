package simcost

import (
	"runtime"
	"strings"
	"sync"

	"github.com/ascvet/ascvet/cppfront/ir"
	"github.com/ascvet/ascvet/regalloc"
	"github.com/ascvet/ascvet/simcheck"
)

// LoopStats is what the scheduling rules need of one loop.
type LoopStats struct {
	Loop       *ir.Loop
	Iterations int
	Chain      int           // longest dependency chain in one iteration, in instructions
	Cycles     int           // simulated cycles of all iterations
	IPC        float64       // simulated
	Unrolled   [5]int        // Unrolled[k]: cycles with a k-times interleaved unroll (k = 2, 4), 0 when not simulated (IPC at or above LowIPC, a #pragma unroll, or too few iterations)
	Pragma     bool          // the loop carries a #pragma unroll: simulated as the compiler unrolls it
	Body       simcheck.Body // one iteration as simulated: helpers inlined, if constexpr folded
	Instances  []ir.Bindings // the instantiations of the function that build this loop; nil when it has one
}

// LowIPC is the compute IPC below which a loop counts as low in
// parallelism (ASC4001, ASC4002): the machine can reach 2, and the
// published guidance calls 1.4-1.5 good ("1.4–1.5 取得较优性能", vf-api
// §5.1, S10). Stats simulates the unrolls only below it.
const LowIPC = 1.4

// MinChain is the shortest dependency chain for which Stats simulates a
// loop: with shorter chains the window holds several iterations at once
// and the loop is limited by issue bandwidth, not by its dependences.
const MinChain = 16

// Stats simulates loop lp of fn, and its 2x and 4x unrolls when the trip
// count allows them, once for each instantiation of fn (ir.Func.
// Instantiations) that builds a different loop: instantiations whose
// simulated bodies are the same (the same operations on the same element
// types) share one LoopStats, which lists them in Instances. Loops whose
// longest chain is shorter than MinChain are not simulated (Cycles stays
// 0), and a loop no build of which can hold such a chain
// (simcheck.InstsBelow) has none: Stats returns none for it. Once the
// file's analysis is stopped (package stop) it returns none:
// the scheduling rules, which simulate every innermost loop, end soon.
func (md *Model) Stats(fn *ir.Func, lp *ir.Loop) []LoopStats {
	md.mu.Lock()
	if md.stats == nil {
		md.stats = map[*ir.Loop]*statsEntry{}
	}
	e := md.stats[lp]
	if e == nil {
		e = &statsEntry{}
		md.stats[lp] = e
	}
	md.mu.Unlock()
	e.once.Do(func() {
		if md.stop != nil && md.stop.Load() {
			return
		}
		if simcheck.InstsBelow(lp.Body, MinChain) {
			// No build of the loop can hold a chain of MinChain: none
			// would be simulated, and the scheduling rules read nothing
			// of an unsimulated loop: spare building them. On the public
			// repositories 4,325 of the 7,009 innermost loops Stats is
			// asked about (6,845 have no such chain, but most of the
			// others have too many instructions to tell without a build).
			return
		}
		insts := fn.Instantiations()
		seen := map[string]int{}
		for _, b := range insts {
			body, key := md.writtenBody(fn, b, lp)
			if k, ok := seen[key]; ok {
				e.st[k].Instances = append(e.st[k].Instances, b)
				continue
			}
			seen[key] = len(e.st)
			st := md.stats1(lp, b.Loop(lp), body)
			st.Instances = []ir.Bindings{b}
			e.st = append(e.st, st)
		}
		if len(insts) == 1 {
			e.st[0].Instances = nil
		}
	})
	return e.st
}

// bodyKey is what the scheduling rules read of a simulated body: its
// operations and their element types, in order.
func bodyKey(b simcheck.Body) string {
	var sb strings.Builder
	for _, in := range b.Insts {
		sb.WriteString(in.Op.String())
		sb.WriteByte(':')
		sb.WriteString(in.Elem)
		sb.WriteByte(';')
	}
	return sb.String()
}

// Instances names the instantiations a finding on st holds for, "" when
// the function has one: " (for T=half; T=float)".
func (st LoopStats) InstancesNote(all int) string {
	if len(st.Instances) == 0 || len(st.Instances) == all {
		return ""
	}
	var parts []string
	for _, b := range st.Instances {
		parts = append(parts, b.String())
	}
	return " (instantiated with " + strings.Join(parts, "; ") + ")"
}

// Prefetch computes, on GOMAXPROCS goroutines, the Stats of every loop the
// scheduling rules ask about in pkg: the innermost loops that may run more
// than once. A rule calls it first, so that in a big file the simulations
// use every CPU even when the rule runs alone. A panic in one is raised
// again in the caller, after the others stopped.
func (md *Model) Prefetch(pkg *ir.Package) {
	type job struct {
		fn *ir.Func
		lp *ir.Loop
	}
	var jobs []job
	for _, f := range pkg.Files {
		for _, fn := range f.Funcs {
			if !fn.Kind.Analysed() {
				continue
			}
			for _, lp := range fn.Loops {
				if !lp.AtMostOnce && Innermost(fn, lp) {
					jobs = append(jobs, job{fn, lp})
				}
			}
		}
	}
	workers := min(runtime.GOMAXPROCS(0), len(jobs))
	if workers < 2 {
		return
	}
	next := make(chan job, len(jobs))
	for _, j := range jobs {
		next <- j
	}
	close(next)
	var (
		wg      sync.WaitGroup
		mu      sync.Mutex
		stopped any
	)
	work := func() {
		defer func() {
			if r := recover(); r != nil {
				mu.Lock()
				stopped = r
				mu.Unlock()
			}
		}()
		for j := range next {
			md.Stats(j.fn, j.lp)
		}
	}
	for range workers - 1 {
		wg.Go(work)
	}
	work() // the caller is a worker too: its stack is grown already
	wg.Wait()
	if stopped != nil {
		panic(stopped)
	}
}

// Innermost reports whether lp holds no other loop: the scheduling rules
// look at innermost loops, where unrolling and splitting apply. Loops are
// in pre-order, so a loop that holds one is followed by its first child.
func Innermost(fn *ir.Func, lp *ir.Loop) bool {
	next := int(lp.ID) + 1
	return next >= len(fn.Loops) || fn.Loops[next].Parent != lp.ID
}

// stats1 simulates one instantiation's loop: lp as written, inst its
// header under the instantiation, body its body.
func (md *Model) stats1(lp, inst *ir.Loop, body simcheck.Body) LoopStats {
	n := md.iters(inst)
	if trip := simcheck.Trip(inst, md.Iterations); trip > n {
		n -= n % 4 // keep the unrolls whole
	}
	if body.Loops > 0 {
		// A helper the loop calls holds a loop: the loop is not innermost
		// as the compiler builds it, and its copies cannot be interleaved.
		return LoopStats{Loop: lp, Iterations: n}
	}
	if body.Divides64() {
		// The library's sequence for a 64-bit integer Div: ASC5002
		// reports the Div, and the scheduling rules leave the loop
		// alone (a split or an unroll is not its remedy): spare its runs.
		return LoopStats{Loop: lp, Iterations: n, Body: body}
	}
	st := LoopStats{Loop: lp, Iterations: n, Chain: simcheck.LongestChain(body), Body: body}
	if n <= 0 || len(body.Insts) == 0 || st.Chain < MinChain {
		return st
	}
	// A loop whose trip count folds is simulated for it, start and drain
	// included: what it costs. One whose trip count does not is priced at
	// its steady state, n times the cost of an iteration once the pipeline
	// is full: a run of n iterations would count the VF start and the
	// pipeline's fill and drain, which weigh more in few iterations than
	// in the many such a loop usually runs.
	run := func(b simcheck.Body, iters int) (int, float64) {
		if inst.TripKnown {
			r := md.M.RunCycles(b, iters)
			return r.Cycles, r.IPC()
		}
		rate, ipc := md.M.Steady(b)
		return int(rate*float64(iters) + 0.5), ipc
	}
	if u := lp.Unroll; u > 1 && n >= u && n%u == 0 {
		// The compiler unrolls it already (#pragma unroll): simulate what
		// it makes of the loop, and offer no unroll on top.
		st.Pragma = true
		st.Cycles, st.IPC = run(simcheck.Unroll(body, u), n/u)
		return st
	}
	if lp.Unroll != 0 {
		st.Pragma = true
	}
	st.Cycles, st.IPC = run(body, n)
	if st.IPC >= LowIPC || st.Pragma {
		return st // no rule offers an unroll here: spare the two runs
	}
	for _, k := range []int{2, 4} {
		if n >= k && n%k == 0 {
			st.Unrolled[k], _ = run(simcheck.Unroll(body, k), n/k)
		}
	}
	return st
}

// Fits reports whether the loop unrolled k times stays within the
// register budgets: each further copy needs its own registers for what the
// body writes and keeps live (the registers of the helpers it calls
// included), at most the region's peak (a body already unrolled 2x with 17
// live RegTensor cannot go to 4x).
func (st LoopStats) Fits(peak *regalloc.Result, b regalloc.Budget, k int) bool {
	if peak == nil {
		return false
	}
	written := map[ir.RegID]bool{}
	var vregs, masks int
	for _, in := range st.Body.Insts {
		for _, r := range in.Defs {
			if written[r] || int(r) >= len(st.Body.Regs) {
				continue
			}
			written[r] = true
			reg := st.Body.Regs[r]
			if reg.Implicit && reg.Name == "hidden" {
				continue // the simulator's own expansion registers
			}
			n := reg.Width() * max(reg.ArrayLen, 1)
			switch reg.Class {
			case ir.ClassVReg:
				vregs += n
			case ir.ClassMask:
				masks += n
			}
		}
	}
	v, m := peak.Classes[regalloc.VReg].Peak, peak.Classes[regalloc.Mask].Peak
	return v+(k-1)*min(v, vregs) <= b[regalloc.VReg] && m+(k-1)*min(m, masks) <= b[regalloc.Mask]
}
