package simcost

import (
	"fmt"
	"go/token"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/ascvet/ascvet/cppfront/ir"
	"github.com/ascvet/ascvet/simcheck"
)

// Combined savings.
//
// Each rule prices its own fix: the loop simulated as written and without
// the instructions the fix removes (Loop). Two fixes to one loop often save
// more together than apart: a Pre hoisted out of a loop bound by the single
// store port saves nothing until the Post is sunk as well. Once every rule
// of the file has reported, Finish simulates each loop that several
// findings' fixes apply to with all of them applied, and each of those
// findings says what they save together, after its own saving:
//
//	saves ~1 cycle per iteration (14% of the loop) (with the fix on line 206 as well: ~3 cycles per iteration together, 38% of the loop)

// Finish revises the file's diagnostics once every analyzer has run (the
// runner calls it: runner.Finisher): where the fixes of several findings
// apply to one loop, each says what they save together. It removes the
// marks Attach leaves for it.
func (md *Model) Finish(fset *token.FileSet, diags []*analysis.Diagnostic) {
	type entry struct {
		d   *analysis.Diagnostic
		rec *fixRec
		k   int // rec's number (Attach's mark)
	}
	byLoop := map[*ir.Loop][]entry{}
	var loops []*ir.Loop
	md.mu.Lock()
	fixes := md.fixes
	md.mu.Unlock()
	for _, d := range diags {
		var rec *fixRec
		num := 0
		var kept []analysis.RelatedInformation
		for _, r := range d.Related {
			if n, ok := strings.CutPrefix(r.Message, fixPrefix); ok {
				if k, err := strconv.Atoi(n); err == nil && k > 0 && k <= len(fixes) {
					rec, num = &fixes[k-1], k
				}
				continue
			}
			kept = append(kept, r)
		}
		d.Related = kept
		if rec == nil {
			continue
		}
		if !rec.rewrite() {
			md.perCall(d, rec) // a rewrite's cost has its VF call's saving already (callRewritten)
		}
		if _, seen := byLoop[rec.lp]; !seen {
			loops = append(loops, rec.lp)
		}
		byLoop[rec.lp] = append(byLoop[rec.lp], entry{d, rec, num})
	}
	combined := map[string]Cost{} // by the findings' fixes together
	removes := map[*fixRec][]*ir.Instr{}
	removed := func(r *fixRec) []*ir.Instr {
		if got, ok := removes[r]; ok {
			return got
		}
		out := removedBy(r.fn, r.lp, r.drop)
		removes[r] = out
		return out
	}
	for _, lp := range loops {
		es := byLoop[lp]
		if len(es) < 2 {
			continue
		}
		for _, e := range es {
			// The partners: the other findings whose fix is compiled
			// in an instantiation e's is (fixes under if constexpr
			// branches no instantiation takes both of never meet), and
			// changes something e's does not (two findings about one
			// AddrReg price one fix).
			group := []entry{e}
			var lines []int
			own := e.rec.touches(removed)
			for _, o := range es {
				if o.d == e.d || !meet(e.rec.cost.Only, o.rec.cost.Only) {
					continue
				}
				if !slices.ContainsFunc(o.rec.touches(removed), func(k string) bool { return !slices.Contains(own, k) }) {
					continue
				}
				group = append(group, o)
				if l := fset.Position(o.d.Pos).Line; !slices.Contains(lines, l) {
					lines = append(lines, l)
				}
			}
			phrase := e.rec.cost.Phrase()
			if e.rec.halve {
				phrase = e.rec.cost.HalvedPhrase()
			}
			k := strings.Index(e.d.Message, phrase)
			if k < 0 || len(lines) == 0 {
				continue
			}
			nums := make([]int, len(group))
			for i, g := range group {
				nums[i] = g.k
			}
			slices.Sort(nums)
			key := fmt.Sprint(nums)
			all, ok := combined[key]
			if !ok {
				recs := make([]*fixRec, len(group))
				for i, g := range group {
					recs[i] = g.rec
				}
				all = md.together(e.rec.fn, lp, recs)
				combined[key] = all
			}
			slices.Sort(lines)
			k += len(phrase)
			if rest := e.d.Message[k:]; strings.HasPrefix(rest, callPrefix) {
				k += strings.IndexByte(rest, ')') + 1 // after the VF call's saving
			}
			e.d.Message = e.d.Message[:k] + together(all, lines) + e.d.Message[k:]
		}
	}
}

// meet reports whether two fixes are compiled in a common instantiation:
// each lists those it is compiled in (Cost.Only), none for all.
func meet(a, b []string) bool {
	if len(a) == 0 || len(b) == 0 {
		return true
	}
	for _, x := range a {
		if slices.Contains(b, x) {
			return true
		}
	}
	return false
}

// together says what the fixes of a loop save together: all is the loop
// with every fix applied, lines those of the other findings.
func together(all Cost, lines []int) string {
	who := "the fix on line " + strconv.Itoa(lines[0])
	if len(lines) > 1 {
		s := make([]string, len(lines))
		for i, l := range lines {
			s[i] = strconv.Itoa(l)
		}
		who = "the fixes on lines " + strings.Join(s[:len(s)-1], ", ") + " and " + s[len(s)-1]
	}
	n, _ := all.Saving()
	switch d := all.Saved(); {
	case d <= 0:
		return fmt.Sprintf(" (with %s as well: no saving measurable together)", who)
	case d < all.Iterations:
		return fmt.Sprintf(" (with %s as well: ~%d %s over the %d simulated iterations together, %s of the loop)", who, d, cyclesWord(d), all.Iterations, share(d, all.Before))
	}
	return fmt.Sprintf(" (with %s as well: ~%d %s per iteration together, %s of the loop)", who, n, cyclesWord(n), share(all.Saved(), all.Before))
}

// together prices loop lp of fn with the fixes of recs applied together:
// as Loop prices removals when they are all removals, else as rewritten
// prices a rewrite (each instantiation that the fixes change, the one
// they save most in), the removals and rewrites made in one build.
func (md *Model) together(fn *ir.Func, lp *ir.Loop, recs []*fixRec) Cost {
	if !slices.ContainsFunc(recs, (*fixRec).rewrite) {
		return md.loop(fn, lp, dropAny(recs))
	}
	return md.rewritten(fn, lp, fn.Instantiations(), instantiated(fn), func(b ir.Bindings, at *ir.Loop, written simcheck.Body) (simcheck.Body, bool, bool) {
		return applyFixes(recs, fn, b, at, written)
	}, nil)
}

// applyFixes builds loop lp of fn, as instantiation b builds it (written:
// the body as written), with every fix of recs applied: the instructions
// they remove removed, the Divs they rewrite rewritten, the accesses they
// pad padded; halve when one of them halves the iterations. changed is
// false when none of them changes this build.
func applyFixes(recs []*fixRec, fn *ir.Func, b ir.Bindings, lp *ir.Loop, written simcheck.Body) (body simcheck.Body, halve, changed bool) {
	var drops []*fixRec
	var divs map[*ir.Instr]simcheck.Div64Remedy
	for _, r := range recs {
		switch {
		case r.drop != nil:
			drops = append(drops, r)
		case r.div != nil:
			if divs == nil {
				divs = map[*ir.Instr]simcheck.Div64Remedy{}
			}
			divs[r.div] = r.remedy
		case r.halve:
			halve = true
		}
	}
	body = written
	if len(drops) > 0 || len(divs) > 0 {
		var skip func(*ir.Instr) bool
		if len(drops) > 0 {
			skip = dropAny(drops)
		}
		body = simcheck.BodyWithFixes(fn, b, lp, skip, divs)
	}
	changed = halve || bodyKey(body) != bodyKey(written)
	for _, r := range recs {
		if r.pad != nil {
			if padded, ok := r.pad(b, body); ok {
				body, changed = padded, true
			}
		}
	}
	return body, halve, changed
}

// FixSet is every fix the file's findings price in one loop, applied
// together: what `ascvet sim -fixed` simulates.
type FixSet struct {
	fn   *ir.Func
	lp   *ir.Loop
	recs []*fixRec
	// Removed are the instructions the fixes remove, in program order.
	Removed []*ir.Instr
}

// Fixed returns the fixes the file's findings price in loop lp of fn, nil
// when none does.
func (md *Model) Fixed(fn *ir.Func, lp *ir.Loop) *FixSet {
	md.mu.Lock()
	var recs []*fixRec
	for i := range md.fixes {
		if md.fixes[i].lp == lp {
			recs = append(recs, &md.fixes[i])
		}
	}
	md.mu.Unlock()
	if len(recs) == 0 {
		return nil
	}
	fs := &FixSet{fn: fn, lp: lp, recs: recs}
	var drops []*fixRec
	for _, r := range recs {
		if r.drop != nil {
			drops = append(drops, r)
		}
	}
	if len(drops) > 0 {
		fs.Removed = removedBy(fn, lp, dropAny(drops))
	}
	return fs
}

// removedBy returns the instructions of loop lp of fn that drop removes,
// in program order.
func removedBy(fn *ir.Func, lp *ir.Loop, drop func(*ir.Instr) bool) []*ir.Instr {
	var out []*ir.Instr
	for _, in := range fn.InstrsIn(lp) {
		if drop(in) {
			out = append(out, in)
		}
	}
	return out
}

// Drop returns the fixes as one drop when they all remove instructions,
// nil when one rewrites the loop (Body builds it then) or fs is nil.
func (fs *FixSet) Drop() func(*ir.Instr) bool {
	if fs == nil || slices.ContainsFunc(fs.recs, (*fixRec).rewrite) {
		return nil
	}
	return dropAny(fs.recs)
}

// Body builds the loop as instantiation b builds it with every fix
// applied, and whether to run it for half the iterations.
func (fs *FixSet) Body(b ir.Bindings) (simcheck.Body, bool) {
	written := simcheck.BodyOfInstance(fs.fn, b, b.Loop(fs.lp), nil)
	body, halve, _ := applyFixes(fs.recs, fs.fn, b, fs.lp, written)
	return body, halve
}

// Describe says what the fixes do, with the lines lineOf gives: "the
// instructions of lines 12, 14 removed from the loop; the Div of line 20
// rewritten; the block stride of line 22 padded by a block; the iterations
// halved (each op at the full width)".
func (fs *FixSet) Describe(lineOf func(token.Pos) int) string {
	var parts []string
	if len(fs.Removed) > 0 {
		var ls []string
		for _, in := range fs.Removed {
			if l := strconv.Itoa(lineOf(in.Pos)); !slices.Contains(ls, l) {
				ls = append(ls, l)
			}
		}
		word := "lines"
		if len(ls) == 1 {
			word = "line"
		}
		parts = append(parts, fmt.Sprintf("the instructions of %s %s removed from the loop", word, strings.Join(ls, ", ")))
	}
	for _, r := range fs.recs {
		switch {
		case r.div != nil && r.remedy == simcheck.Div64FastDiv:
			parts = append(parts, fmt.Sprintf("the 64-bit Div of line %d done by a multiply and a shift", lineOf(r.div.Pos)))
		case r.div != nil:
			parts = append(parts, fmt.Sprintf("the 64-bit Div of line %d done on 32-bit data", lineOf(r.div.Pos)))
		case r.spread != nil:
			parts = append(parts, fmt.Sprintf("the block stride of line %d padded by a block", lineOf(r.spread.Pos)))
		case r.halve:
			parts = append(parts, "the iterations halved (each op at the full width)")
		}
	}
	return strings.Join(slices.Compact(parts), "; ")
}

// Lines returns the lines the fixes change, in order, for JSON.
func (fs *FixSet) Lines(lineOf func(token.Pos) int) []string {
	var ls []int
	add := func(p token.Pos) {
		if l := lineOf(p); !slices.Contains(ls, l) {
			ls = append(ls, l)
		}
	}
	for _, in := range fs.Removed {
		add(in.Pos)
	}
	for _, r := range fs.recs {
		switch {
		case r.div != nil:
			add(r.div.Pos)
		case r.spread != nil:
			add(r.spread.Pos)
		case r.halve:
			add(fs.lp.Pos)
		}
	}
	slices.Sort(ls)
	out := make([]string, len(ls))
	for i, l := range ls {
		out[i] = strconv.Itoa(l)
	}
	return out
}

// dropAny removes what any of recs' fixes removes.
func dropAny(recs []*fixRec) func(*ir.Instr) bool {
	return func(in *ir.Instr) bool {
		for _, r := range recs {
			if r.drop(in) {
				return true
			}
		}
		return false
	}
}

// perCall puts on d, whose fix rec prices, what the fix saves in one call
// of the VF function: the function simulated as a whole (VF start, each
// loop for its trip count, drain), as written and with the fix, for the
// instantiation the loop's price names. The clause follows the loop's
// saving; the cycles go with the cost (Attach).
func (md *Model) perCall(d *analysis.Diagnostic, rec *fixRec) {
	bind, ok := instanceNamed(rec.fn, rec.cost.Instance)
	if !ok || rec.cost.Saved() <= 0 {
		return
	}
	rr := memo(&md.mu, &md.calls, callKey{rec.fn, rec.cost.Instance}, func() *simcheck.RegionResult {
		return md.callMachine().RunInstance(rec.fn, bind, md.Iterations, nil)
	})
	top := topLoop(rec.fn, rec.lp)
	before := rr.Cycles
	after, ok := md.callMachine().CyclesWith(rr, rec.fn, bind, top, md.Iterations, rec.drop)
	if !ok {
		after = md.callMachine().RunInstance(rec.fn, bind, md.Iterations, rec.drop).Cycles // the loop is under an if: the whole call again
	}
	if before <= 0 {
		return
	}
	phrase := rec.cost.Phrase()
	k := strings.Index(d.Message, phrase)
	if k < 0 {
		return
	}
	k += len(phrase)
	d.Message = d.Message[:k] + callPhrase(before, after, partCycles(rr, top)) + d.Message[k:]
	for i, r := range d.Related {
		if strings.HasPrefix(r.Message, RelatedPrefix) {
			c := rec.cost
			c.CallBefore, c.CallAfter = before, after
			var one analysis.Diagnostic
			Attach(&one, c)
			d.Related[i].Message = one.Related[0].Message
		}
	}
}

// callCap caps the instruction instances of one run in a VF call's
// simulation (Finish): a loop of many iterations runs a prefix and extends
// its steady rate, as a long loop past simcheck.MaxInstances does; the
// fidelity points, at most a few thousand instances a loop, run whole.
const callCap = 1 << 13

// callMachine returns the machine VF calls are simulated on (callCap).
func (md *Model) callMachine() *simcheck.Machine {
	md.mu.Lock()
	defer md.mu.Unlock()
	if md.callM == nil {
		md.callM = md.M.Capped(callCap).CyclesOnly().Memoized() // Finish reads only cycles; the findings of one function run its loops' bodies again
	}
	return md.callM
}

// callKey names a function-level run as written: the function and the
// instantiation (Bindings.String).
type callKey struct {
	fn   *ir.Func
	inst string
}

// instanceNamed returns the instantiation of fn whose template arguments
// print as name ("" for the function as written).
func instanceNamed(fn *ir.Func, name string) (ir.Bindings, bool) {
	if name == "" {
		return fn.SoleInstance(), true
	}
	for _, b := range fn.Instantiations() {
		if b.String() == name {
			return b, true
		}
	}
	return ir.Bindings{}, false
}

// topLoop returns the top-level loop of fn that holds lp (lp itself when
// it is one).
func topLoop(fn *ir.Func, lp *ir.Loop) *ir.Loop {
	for lp.Parent != ir.NoLoop {
		lp = fn.Loops[lp.Parent]
	}
	return lp
}

// callPrefix starts the clause callPhrase writes.
const callPrefix = " (a VF call: "

// callPhrase says what a fix saves in one VF call. When it saves nothing
// there, and the loop's run in the call is known (loop > 0), it says how
// few of the call's cycles the loop takes: what binds the call is
// elsewhere.
func callPhrase(before, after, loop int) string {
	d := before - after
	if d <= 0 && loop > 0 && loop < before {
		return fmt.Sprintf("%sno saving measurable in its %d cycles, of which the loop takes %d)", callPrefix, before, loop)
	}
	if d <= 0 {
		return fmt.Sprintf("%sno saving measurable in its %d cycles)", callPrefix, before)
	}
	return fmt.Sprintf("%s~%d %s of %d, %s)", callPrefix, d, cyclesWord(d), before, share(d, before))
}

// callRewritten sets on c what a fix that rewrites loop lp of fn, rather
// than dropping instructions, saves in one VF call (CallBefore,
// CallAfter): the function simulated as a whole for the instantiation bind
// (the one c names), as written and with lp run as body for n iterations.
// When lp is nested in another loop, the top-level loop around it is run
// as fix builds it (the rewrite made in every run of lp its body repeats).
// Nothing is set when the fix saves nothing in the loop, when it halves a
// nested loop's iterations, or when the call's run has no part for the
// loop (a loop under an if).
func (md *Model) callRewritten(c *Cost, fn *ir.Func, bind ir.Bindings, lp *ir.Loop, body simcheck.Body, n int, fix rewriteFn) {
	if c.Saved() <= 0 || lp == nil {
		return
	}
	rr := memo(&md.mu, &md.calls, callKey{fn, c.Instance}, func() *simcheck.RegionResult {
		return md.callMachine().RunInstance(fn, bind, md.Iterations, nil)
	})
	top := topLoop(fn, lp)
	if top != lp {
		// A loop inside another: the top-level loop the call runs, built
		// with the fix made wherever its body repeats the inner loop's.
		// Halving the inner loop's iterations is no rewrite of that body:
		// no clause then.
		written, _ := md.writtenBody(fn, bind, top)
		fixed, halve, ok := fix(bind, top, written)
		if !ok || halve {
			return
		}
		body, n = fixed, simcheck.Trip(bind.Loop(top), md.Iterations)
	}
	after, ok := md.callMachine().CyclesWithBody(rr, top, bind, body, n)
	if ok && rr.Cycles > 0 {
		c.CallBefore, c.CallAfter = rr.Cycles, after
	}
}

// CallPhrase says what the fix saves in one VF call (" (a VF call: ~N
// cycles of M, X%)"), "" when that was not simulated.
func (c Cost) CallPhrase() string {
	if c.CallBefore <= 0 {
		return ""
	}
	return callPhrase(c.CallBefore, c.CallAfter, 0)
}

// partCycles returns the cycles the run of top-level loop top takes in
// rr, a VF call's run; 0 when it is no part of it.
func partCycles(rr *simcheck.RegionResult, top *ir.Loop) int {
	for _, p := range rr.Parts {
		if p.Loop == top && top != nil {
			return p.Cycles
		}
	}
	return 0
}
