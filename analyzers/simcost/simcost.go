// Package simcost gives the performance rules a price: it loads the
// machine model (-chip, -machine) and simulates the loop holding a finding
// before and after its fix (package simcheck), so that the finding can say
// "saves ~N cycles per iteration (X% of the loop)" and carry
// cycles_before/cycles_after in JSON and SARIF.
package simcost

import (
	"fmt"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"golang.org/x/tools/go/analysis"

	"github.com/ascvet/ascvet/analyzers/settings"
	"github.com/ascvet/ascvet/analyzers/stop"
	"github.com/ascvet/ascvet/cppfront/ir"
	"github.com/ascvet/ascvet/simcheck"
)

// Analyzer provides the machine model to the rules that cost their findings.
var Analyzer = &analysis.Analyzer{
	Name:             "simcost",
	Doc:              "machine model and loop simulation for the cost of performance findings",
	Requires:         []*analysis.Analyzer{settings.Analyzer, stop.Analyzer},
	RunDespiteErrors: true,
	ResultType:       reflect.TypeOf((*Model)(nil)),
	Run:              run,
}

// Model is the provider's result, one per file: the rules of a file share
// its simulations.
type Model struct {
	M          *simcheck.Machine // the pricing machine (priceCap)
	Iterations int

	// stop is the file's stop flag (package stop): once it is set, Stats
	// simulates nothing more (what it returns then is never seen).
	stop *atomic.Bool

	mu      sync.Mutex
	stats   map[*ir.Loop]*statsEntry
	written map[writtenKey]written              // loops simulated as written, for Loop: several findings share a loop
	fixes   []fixRec                            // the fixes priced by Loop, for Finish: their costs combined per loop
	calls   map[callKey]*simcheck.RegionResult  // a VF call as written, by function and instantiation (Finish)
	callM   *simcheck.Machine                   // the machine VF calls are simulated on (callMachine)
	bodies  map[bodyRef]builtBody               // loop bodies as written, by instantiation (writtenBody)
	regions map[*ir.Func]*simcheck.RegionResult // regions run as written, for At: several findings share a region
}

// bodyRef names a loop's body as one instantiation builds it.
type bodyRef struct {
	lp   *ir.Loop
	inst string // Bindings.String
}

// builtBody is a loop's body as written and its bodyKey.
type builtBody struct {
	body simcheck.Body
	key  string
}

// writtenBody returns the body of loop lp of fn as the instantiation b
// builds it as written (no fix), and its bodyKey, built once per file:
// Stats builds every instantiation's, and each finding in the loop asks
// for them again (Loop), fix after fix. A body is only read once built.
func (md *Model) writtenBody(fn *ir.Func, b ir.Bindings, lp *ir.Loop) (simcheck.Body, string) {
	bb := memo(&md.mu, &md.bodies, bodyRef{lp, b.String()}, func() builtBody {
		body := simcheck.BodyOfInstance(fn, b, lp, nil)
		return builtBody{body, bodyKey(body)}
	})
	return bb.body, bb.key
}

// memo returns (*m)[k] under mu, made by build (without the lock, so that
// other callers are not held meanwhile) and kept when it is not there yet.
func memo[K comparable, V any](mu *sync.Mutex, m *map[K]V, k K, build func() V) V {
	mu.Lock()
	v, ok := (*m)[k]
	mu.Unlock()
	if ok {
		return v
	}
	v = build()
	mu.Lock()
	if *m == nil {
		*m = map[K]V{}
	}
	(*m)[k] = v
	mu.Unlock()
	return v
}

// fixRec is one fix priced on a loop: the instructions it removes (Loop),
// or how it rewrites the loop (Div64, HalfWidth, Spread): a 64-bit Div
// rewritten, a block stride padded, the iterations halved.
type fixRec struct {
	fn   *ir.Func
	lp   *ir.Loop
	drop func(*ir.Instr) bool // the instructions removed; nil for a rewrite
	// A rewrite's: the Div it rewrites and how, or the block-strided
	// access it pads and the body with the padding (ok false when the
	// instantiation does not build it), or the halving of the iterations.
	div    *ir.Instr
	remedy simcheck.Div64Remedy
	spread *ir.Instr
	pad    func(b ir.Bindings, body simcheck.Body) (simcheck.Body, bool)
	halve  bool
	cost   Cost
}

// rewrite reports whether r rewrites its loop rather than removing
// instructions from it.
func (r *fixRec) rewrite() bool { return r.drop == nil }

// touches returns what r changes in its loop's instructions, as keys that
// tell two fixes apart: the instructions it removes, the Div it rewrites,
// the access it pads, or the loop's iterations.
func (r *fixRec) touches(removed func(*fixRec) []*ir.Instr) []string {
	var out []string
	switch {
	case r.drop != nil:
		for _, in := range removed(r) {
			out = append(out, fmt.Sprintf("drop %p", in))
		}
	case r.div != nil:
		out = append(out, fmt.Sprintf("div %p", r.div))
	case r.spread != nil:
		out = append(out, fmt.Sprintf("pad %p", r.spread))
	case r.halve:
		out = append(out, "halve")
	}
	return out
}

// written is a loop simulated as written.
type written struct {
	res     *simcheck.Result
	opaque  []string
	assumed []string
}

type writtenKey struct {
	lp    *ir.Loop
	iters int
	inst  string // the instantiation's bindings (Bindings.String), "" for the function as written
}

// statsEntry is one loop's LoopStats, computed once: rules asking about
// other loops meanwhile do not wait for it.
type statsEntry struct {
	once sync.Once
	st   []LoopStats
}

// Load returns the machine model the flags name. Models are parsed once per
// process and shared: a Machine is read-only once parsed.
func Load(chipName, file string) (*simcheck.Machine, error) {
	l := load(chipName, file)
	return l.m, l.err
}

// pricing returns the machine rules price fixes on: Load's, capped at
// priceCap, with a memo of its own.
func pricing(chipName, file string) (*simcheck.Machine, error) {
	l := load(chipName, file)
	return l.price, l.err
}

// priceCap caps the instruction instances of one run when a rule prices a
// fix (Model.M): a loop whose body is long, mostly because it inlines
// helpers that hold loops of their own, runs fewer iterations, at least
// four (simcheck.Machine.Capped), and the message says how many. A loop
// of up to 512 instructions still runs its 32; the fidelity points run
// whole, and so do ascvet sim and the hover, on Load's machine. On the
// public repositories 38 runs of 65,536 instances or more were 64% of the
// instances the rules simulated; with the cap four findings' messages
// changed, from 15 simulated iterations to 4, with the same saving, and a
// cold run took about 1 s less CPU. At 8,192 the savings of loops bound
// elsewhere began to move by a cycle or two.
const priceCap = 1 << 14

// load parses the machine model the flags name once per process, and
// keeps it with its pricing copy.
func load(chipName, file string) loadResult {
	key := "chip:" + chipName
	if file != "" {
		key = "file:" + file
	}
	loadMu.Lock()
	defer loadMu.Unlock()
	if l, ok := loaded[key]; ok {
		return l
	}
	var l loadResult
	if file != "" {
		l.m, l.err = simcheck.Load(file)
	} else {
		l.m, l.err = simcheck.Chip(chipName)
	}
	if l.err == nil {
		l.price = l.m.Capped(priceCap).Memoized()
		l.m = l.m.Memoized()
	}
	loaded[key] = l
	return l
}

type loadResult struct {
	m     *simcheck.Machine
	price *simcheck.Machine // m capped at priceCap, for the rules (pricing)
	err   error
}

var (
	loadMu sync.Mutex
	loaded = map[string]loadResult{}
)

func run(pass *analysis.Pass) (any, error) {
	s := settings.Of(pass)
	m, err := pricing(s.Chip, s.Machine)
	if err != nil {
		return nil, err
	}
	return &Model{M: m, Iterations: max(s.Iterations, 1), stop: stop.Of(pass)}, nil
}

// Cost is a simulated before/after.
type Cost struct {
	Before, After int  // cycles of the loop (all its iterations), or of the region
	Iterations    int  // simulated iterations
	Region        bool // the finding is outside every loop: the whole region was simulated once
	// Opaque names the helpers the simulated code calls whose bodies are
	// not in the project: each was timed as one instruction.
	Opaque []string
	// Assumed lists the conditions of the if constexpr the instantiation
	// simulated does not decide (its template arguments are not known), as
	// the costlier branch timed assumes them.
	Assumed []string
	// Instance names the instantiation simulated, when the function's
	// instantiations are known ("T=half"); Of is how many build different
	// loops when more than one: Instance is the one the fix saves most in.
	Instance string
	Of       int
	// Only lists the instantiations that compile the instruction the fix
	// removes, when not all of them do (it is in an if constexpr branch
	// some do not take): the finding holds for those.
	Only []string
	// Bound says what binds the loop when the fix saves nothing
	// (simcheck.Binding: "bound by the single store port (96% busy)").
	Bound string
	// Trip says where Iterations came from: TripKnown (the trip count
	// folds), TripCapped (it folds, over MaxIterations: the steady state
	// is reached before), TripOnce (the loop runs at most once),
	// TripDefault (it does not fold: the -iterations setting) or
	// TripRegion (no loop: the region ran once); "" when not said.
	Trip string

	// Counter is the type of the priced loop's counter when it is not
	// uint16_t ("uint32_t"): by the vendor's Hardware Loop rules the loop
	// runs as a software loop, whose control the model does not time.
	Counter string

	// CallBefore and CallAfter are the cycles of one call of the VF
	// function (VF start, every loop for its trip count, drain: the
	// function-level simulation docs/fidelity.md checks) as written and
	// with the fix; 0 when not simulated (Finish sets them).
	CallBefore, CallAfter int

	fix int // the fix Loop priced (Model.fixes index + 1), 0 for none
}

// The sources of a cost's iteration count (Cost.Trip).
const (
	TripKnown   = "known"
	TripCapped  = "capped"
	TripOnce    = "once"
	TripDefault = "default"
	TripRegion  = "region"
)

// tripOf says where the iterations simulated for lp, iters of them, come
// from: a trip count that folds to more than iters was capped, at
// MaxIterations or, for a long body, by the pricing machine (priceCap).
func tripOf(lp *ir.Loop, iters int) string {
	switch {
	case lp.TripKnown && lp.Trip > int64(iters):
		return TripCapped
	case lp.TripKnown:
		return TripKnown
	case lp.AtMostOnce:
		return TripOnce
	}
	return TripDefault
}

// softCounters are the spellings of counter types that make a VF loop a
// software loop for certain: the vendor's Hardware Loop rules ask for a
// uint16_t counter (reference/vf-api.md §1). A type the front end cannot
// name (an alias, a template parameter, auto) is not guessed at.
var softCounters = map[string]bool{
	"int": true, "unsigned": true, "unsigned int": true, "long": true, "unsigned long": true,
	"long long": true, "unsigned long long": true, "int32_t": true, "uint32_t": true,
	"int64_t": true, "uint64_t": true, "size_t": true,
}

// counterOf returns the type of lp's counter when it makes lp a software
// loop, "" otherwise (Cost.Counter).
func counterOf(lp *ir.Loop) string {
	if lp == nil || lp.Unroll < 0 || lp.Unroll > 0 && lp.TripKnown && int64(lp.Unroll) >= lp.Trip {
		return "" // unrolled fully (#pragma unroll): no loop control is left
	}
	t := strings.Join(strings.Fields(strings.TrimPrefix(strings.TrimPrefix(lp.VarType, "std::"), "const ")), " ")
	if softCounters[t] {
		return t
	}
	return ""
}

// Saving returns the cycles one iteration saves (rounded) and the share of
// the loop.
func (c Cost) Saving() (perIter int, percent int) {
	if c.Iterations <= 0 || c.Before <= 0 {
		return 0, 0
	}
	d := c.Before - c.After
	return (d + c.Iterations/2) / c.Iterations, 100 * d / c.Before
}

// Saved returns the cycles the fix saves over all the simulated
// iterations (or the region): a saving is measurable when it is positive,
// even when it rounds to no cycle per iteration (6 cycles over 16
// iterations is a saving the user gets).
func (c Cost) Saved() int {
	if c.Before <= 0 {
		return 0
	}
	return c.Before - c.After
}

// Phrase is the text a finding carries: "saves ~N cycles per iteration (X% of the loop)",
// and which helpers were timed as one instruction, their bodies unknown.
func (c Cost) Phrase() string {
	s := c.phrase() + opaquePhrase(c.Opaque) + counterPhrase(c.Counter)
	switch {
	case c.Instance != "" && c.Of > 1 && c.Saved() <= 0:
		s += fmt.Sprintf(" (timed for each of %d instantiations)", c.Of)
	case c.Instance != "" && c.Of > 1:
		s += fmt.Sprintf(" (timed for %s, of %d instantiations the one it saves most in)", c.Instance, c.Of)
	case c.Instance != "":
		s += fmt.Sprintf(" (timed for %s)", c.Instance)
	}
	if len(c.Only) > 0 {
		only, more := c.Only, ""
		if len(only) > 3 {
			only, more = only[:3], fmt.Sprintf(" and %d more", len(c.Only)-3)
		}
		s += fmt.Sprintf(" (compiled for %d of %d instantiations: %s%s)", len(c.Only), c.Of, strings.Join(only, "; "), more)
	}
	if len(c.Assumed) > 0 {
		as := c.Assumed
		more := ""
		if len(as) > 2 {
			as, more = as[:2], fmt.Sprintf(" and %d more", len(c.Assumed)-2)
		}
		s += fmt.Sprintf(" (timed assuming %s%s, the costlier branches: the file does not give the template arguments)", strings.Join(as, " and "), more)
	}
	return s
}

func (c Cost) phrase() string {
	n, _ := c.Saving()
	if d := c.Saved(); d > 0 && d < c.Iterations && !c.Region {
		// Under a cycle an iteration: the cycles themselves, not a
		// rounded 1 (a cycle over 2 iterations is no cycle per iteration).
		s := fmt.Sprintf("saves ~%d %s over the %d simulated iterations (under 1 per iteration, %s of the loop)", d, cyclesWord(d), c.Iterations, share(d, c.Before))
		if c.Bound != "" {
			s += ", " + c.Bound
		}
		return s
	}
	if n <= 0 {
		if c.Region && c.Bound != "" {
			return "no saving measurable in the simulated region, " + c.Bound
		}
		if c.Region {
			return "no saving measurable in the simulated region"
		}
		if c.Bound != "" {
			return "no saving measurable in the simulated loop, " + c.Bound
		}
		return "no saving measurable in the simulated loop"
	}
	if c.Region {
		return fmt.Sprintf("saves ~%d %s (%s of the region)", n, cyclesWord(n), share(c.Saved(), c.Before))
	}
	return fmt.Sprintf("saves ~%d %s per iteration (%s of the loop)", n, cyclesWord(n), share(c.Saved(), c.Before))
}

// share is d of all as a whole percentage, "under 1%" for a saving that
// rounds to none.
func share(d, all int) string {
	if all <= 0 {
		return "0%"
	}
	if p := 100 * d / all; p > 0 || d <= 0 {
		return fmt.Sprintf("%d%%", p)
	}
	return "under 1%"
}

// cyclesWord is "cycle" or "cycles", for n of them.
func cyclesWord(n int) string {
	if n == 1 {
		return "cycle"
	}
	return "cycles"
}

// MaxIterations caps the iterations simulated for a cost: a loop reaches
// its steady state long before, and per-iteration savings do not change.
const MaxIterations = 32

// iters returns how many iterations of lp to simulate.
func (md *Model) iters(lp *ir.Loop) int {
	return min(max(simcheck.Trip(lp, md.Iterations), 1), MaxIterations)
}

// Loop simulates loop lp of fn as written and without the instructions
// drop removes (the fix).
//
// When fn's instantiations are known (ir.Func.Instantiations: its file's
// calls, or the files that include it), each that builds a different loop
// is simulated, and the cost is that of the one the fix saves most in,
// named (Cost.Instance): a real build, not the costlier branch of every
// if constexpr.
func (md *Model) Loop(fn *ir.Func, lp *ir.Loop, drop func(*ir.Instr) bool) Cost {
	c := md.loop(fn, lp, drop)
	if drop != nil {
		md.mu.Lock()
		md.fixes = append(md.fixes, fixRec{fn: fn, lp: lp, drop: drop, cost: c})
		c.fix = len(md.fixes)
		md.mu.Unlock()
	}
	return c
}

func (md *Model) loop(fn *ir.Func, lp *ir.Loop, drop func(*ir.Instr) bool) Cost {
	if insts := fn.Instantiations(); len(insts) > 1 || len(insts) == 1 && !insts[0].Empty() {
		return md.loopInstances(fn, lp, drop, insts)
	}
	asWritten := func() simcheck.Body {
		body, _ := md.writtenBody(fn, fn.SoleInstance(), lp)
		return body
	}
	w := md.writtenRun(writtenKey{lp, md.iters(lp), ""}, asWritten)
	after := md.M.RunCyclesAs(lp, simcheck.BodyOf(fn, lp, drop), w.res.Iterations)
	c := Cost{Before: w.res.Cycles, After: after.Cycles, Iterations: w.res.Iterations, Opaque: w.opaque, Assumed: w.assumed, Trip: tripOf(lp, w.res.Iterations), Counter: counterOf(lp)}
	md.bind(&c, asWritten)
	return c
}

// bind names, on a cost that saves nothing, or under a cycle an
// iteration and under 1% of the loop, what binds the loop as written
// (simcheck.Machine.Bound), from a full run of its body: the message then
// says what to relieve instead of only "no saving", or a cycle or two over
// the simulated iterations that a VF call hardly sees.
func (md *Model) bind(c *Cost, body func() simcheck.Body) {
	if d := c.Saved(); d >= c.Iterations || 100*d >= c.Before || c.Region || c.Iterations <= 0 || c.Bound != "" {
		return
	}
	c.Bound = md.M.RunBound(body(), c.Iterations).String()
}

// loopInstances is Loop over the instantiations insts of fn. A build in
// which the fix removes nothing (the instruction is in an if constexpr
// branch it does not take) saves nothing and is not run, unless no build
// takes it.
func (md *Model) loopInstances(fn *ir.Func, lp *ir.Loop, drop func(*ir.Instr) bool, insts []ir.Bindings) Cost {
	type build struct {
		b           ir.Bindings
		body, fixed simcheck.Body
	}
	var builds, priced []build
	seen := map[string]bool{}
	for _, b := range insts {
		body, key := md.writtenBody(fn, b, lp)
		if seen[key] {
			continue
		}
		seen[key] = true
		bd := build{b, body, simcheck.BodyOfInstance(fn, b, lp, drop)}
		builds = append(builds, bd)
		if len(bd.fixed.Insts) != len(body.Insts) {
			priced = append(priced, bd)
		}
	}
	compiled := len(priced) > 0
	if !compiled && len(builds) > 0 {
		priced = builds[:1]
	}
	var best Cost
	var bestBody simcheck.Body
	bestSave := math.MinInt
	for _, bd := range priced {
		before := md.writtenRun(writtenKey{lp, md.iters(bd.b.Loop(lp)), bd.b.String()}, func() simcheck.Body { return bd.body }).res
		after := md.M.RunCyclesAs(lp, bd.fixed, before.Iterations)
		c := Cost{Before: before.Cycles, After: after.Cycles, Iterations: before.Iterations, Opaque: bd.body.Opaque, Assumed: bd.body.Assumed, Instance: bd.b.String(), Trip: tripOf(bd.b.Loop(lp), before.Iterations), Counter: counterOf(bd.b.Loop(lp))}
		if save := c.Before - c.After; save > bestSave {
			best, bestSave, bestBody = c, save, bd.body
		}
	}
	md.bind(&best, func() simcheck.Body { return bestBody })
	if len(builds) > 1 {
		best.Of = len(builds)
		if compiled && len(priced) < len(builds) {
			// The instruction is compiled only in some builds: the
			// finding holds for those.
			for _, bd := range priced {
				best.Only = append(best.Only, bd.b.String())
			}
		}
	}
	return best
}

// writtenRun is the run of one build of a loop as written (body builds
// it, only when it has not been run yet), kept for the loop's other
// findings.
func (md *Model) writtenRun(k writtenKey, body func() simcheck.Body) written {
	return memo(&md.mu, &md.written, k, func() written {
		b := body()
		return written{md.M.RunCyclesAs(k.lp, b, k.iters), b.Opaque, b.Assumed}
	})
}

// assumedOf lists the if constexpr a region's run did not decide.
func assumedOf(rr *simcheck.RegionResult) []string {
	return unionOf(rr, func(b simcheck.Body) []string { return b.Assumed })
}

// opaqueOf names the helpers whose bodies are unknown in a region's run.
func opaqueOf(rr *simcheck.RegionResult) []string {
	return unionOf(rr, func(b simcheck.Body) []string { return b.Opaque })
}

// unionOf is what of gives for the parts of a region's run, each once, in
// order.
func unionOf(rr *simcheck.RegionResult, of func(simcheck.Body) []string) []string {
	var out []string
	for _, p := range rr.Parts {
		for _, x := range of(p.Body) {
			if !slices.Contains(out, x) {
				out = append(out, x)
			}
		}
	}
	return out
}

// At simulates the innermost loop around in (or the whole region when in
// is in no loop) without drop.
func (md *Model) At(fn *ir.Func, in *ir.Instr, drop func(*ir.Instr) bool) Cost {
	if in.Loop != ir.NoLoop {
		return md.Loop(fn, fn.Loops[in.Loop], drop)
	}
	before := memo(&md.mu, &md.regions, fn, func() *simcheck.RegionResult { return md.M.RunRegion(fn, md.Iterations, nil) })
	after := md.M.RunRegion(fn, md.Iterations, drop)
	c := Cost{Before: before.Cycles, After: after.Cycles, Iterations: 1, Region: true, Opaque: opaqueOf(before), Assumed: assumedOf(before), Trip: TripRegion}
	md.bindRegion(&c, before)
	return c
}

// bindRegion names, on a region's cost that saves nothing, what binds
// the costliest part of the region as written (its parts are full runs).
func (md *Model) bindRegion(c *Cost, rr *simcheck.RegionResult) {
	if c.Saved() > 0 || rr == nil {
		return
	}
	var costliest *simcheck.Part
	for i := range rr.Parts {
		if p := &rr.Parts[i]; p.Res != nil && (costliest == nil || p.Cycles > costliest.Cycles) {
			costliest = p
		}
	}
	if costliest != nil {
		c.Bound = "its costliest part is " + md.M.Bound(costliest.Res).String()
	}
}

// Spill simulates the loop around at (or the whole region when at is in no
// loop) as written and with n of the registers live there spilled, as a
// compiler spills: those whose next use is farthest are stored to the
// reserved UB area after the peak and reloaded just before that use, so the
// use waits for the store and the reload. Before is the spilled run, After
// the run as written: what keeping within the budget saves (at most one
// spill per live register: an array spills as one). ok is false when
// nothing live here can be spilled.
func (md *Model) Spill(fn *ir.Func, at *ir.Instr, live []ir.RegID, n int) (c Cost, ok bool) {
	if n <= 0 || len(live) == 0 {
		return Cost{}, false
	}
	var body simcheck.Body
	iters, region := 1, false
	var lp *ir.Loop
	if at.Loop != ir.NoLoop {
		lp = fn.Loops[at.Loop]
		iters = md.iters(lp)
		body = simcheck.BodyOf(fn, lp, nil)
	} else {
		body, region = simcheck.RegionBody(fn, md.Iterations, nil), true
	}
	after := md.M.RunCycles(body, iters)
	trip := TripRegion
	if lp != nil {
		trip = tripOf(lp, after.Iterations)
	}
	pos := -1
	for i := range body.Insts {
		if body.Insts[i].Instr == at {
			pos = i
			break
		}
		if body.Insts[i].Via == at {
			pos = i // a helper call, inlined: the peak is across it, at its last instruction
		}
	}
	if pos < 0 {
		return Cost{}, false
	}
	// The next use of each live register after the peak (len: none in
	// this iteration, so the next one reads it).
	next := map[ir.RegID]int{}
	for _, r := range live {
		next[r] = len(body.Insts)
		for i := pos + 1; i < len(body.Insts); i++ {
			if slices.Contains(body.Insts[i].Uses, r) {
				next[r] = i
				break
			}
		}
	}
	// The registers the peak instruction reads or writes are in registers
	// there whatever is spilled (a constant mask it reads is made again
	// for it, not reloaded): the victims are the others first.
	operand := func(r ir.RegID) bool { return slices.Contains(at.Uses, r) || slices.Contains(at.Defs, r) }
	victims := append([]ir.RegID(nil), live...)
	slices.SortStableFunc(victims, func(a, b ir.RegID) int {
		if oa, ob := operand(a), operand(b); oa != ob {
			if oa {
				return 1
			}
			return -1
		}
		return next[b] - next[a]
	})
	victims = victims[:min(n, len(victims))]
	reloadAt := map[int][]ir.RegID{}
	for _, r := range victims {
		reloadAt[next[r]] = append(reloadAt[next[r]], r)
	}
	spill := func(r ir.RegID, store bool) simcheck.Inst {
		addr := "ascvet:spill#" + strconv.Itoa(int(r))
		if store {
			return simcheck.Inst{Op: ir.OpStoreAlign, Elem: "float", Addr: addr, Uses: []ir.RegID{r}, Text: "spill store"}
		}
		return simcheck.Inst{Op: ir.OpLoadAlign, Elem: "float", Addr: addr, Defs: []ir.RegID{r}, Text: "spill reload"}
	}
	spilled := body
	spilled.Insts = nil
	for i, in := range body.Insts {
		for _, r := range reloadAt[i] {
			spilled.Insts = append(spilled.Insts, spill(r, false))
		}
		spilled.Insts = append(spilled.Insts, in)
		if i == pos {
			for _, r := range victims {
				spilled.Insts = append(spilled.Insts, spill(r, true))
			}
			// The synchronisation the compiler adds: the reloads wait until
			// the spill stores are done.
			spilled.Insts = append(spilled.Insts, simcheck.Inst{Op: ir.OpLocalMemBar, Text: "spill barrier"})
		}
	}
	for _, r := range reloadAt[len(body.Insts)] {
		spilled.Insts = append(spilled.Insts, spill(r, false))
	}
	before := md.M.RunCycles(spilled, after.Iterations)
	c = Cost{Before: before.Cycles, After: after.Cycles, Iterations: after.Iterations, Region: region, Opaque: body.Opaque, Assumed: body.Assumed, Trip: trip, Counter: counterOf(lp)}
	if c.Saved() <= 0 && c.Iterations > 0 {
		c.Bound = md.M.RunBound(body, c.Iterations).String() // the loop, or the region's flattened body
	}
	return c, true
}

// RelatedPrefix marks the related entry that carries a cost from an
// analyzer to the driver (analysis.Diagnostic has no field of its own).
const RelatedPrefix = "ascvet:cycles "

// Attach records c on d; Extract reads it back: the cycles, the
// iterations and where they came from, and what binds the loop, last
// (the rest of the line).
func Attach(d *analysis.Diagnostic, c Cost) {
	trip := c.Trip
	if trip == "" {
		trip = "-"
	}
	msg := fmt.Sprintf("%sbefore=%d after=%d iterations=%d trip=%s", RelatedPrefix, c.Before, c.After, c.Iterations, trip)
	if c.CallBefore > 0 {
		msg += fmt.Sprintf(" call=%d/%d", c.CallBefore, c.CallAfter)
	}
	if c.Bound != "" {
		msg += " bound=" + c.Bound
	}
	d.Related = append(d.Related, analysis.RelatedInformation{Pos: d.Pos, End: d.Pos, Message: msg})
	if c.fix > 0 {
		d.Related = append(d.Related, analysis.RelatedInformation{Pos: d.Pos, End: d.Pos, Message: fmt.Sprintf("%s%d", fixPrefix, c.fix)})
	}
}

// fixPrefix marks the related entry that names the fix a finding's cost
// priced, for Finish, which removes it.
const fixPrefix = "ascvet:fix "

// Extract returns the cost attached to d, and d's related information
// without it.
func Extract(related []analysis.RelatedInformation) (Cost, bool, []analysis.RelatedInformation) {
	var c Cost
	found := false
	var rest []analysis.RelatedInformation
	for _, r := range related {
		if strings.HasPrefix(r.Message, fixPrefix) {
			continue
		}
		if strings.HasPrefix(r.Message, RelatedPrefix) {
			text := r.Message[len(RelatedPrefix):]
			if k := strings.Index(text, " bound="); k >= 0 {
				c.Bound, text = text[k+len(" bound="):], text[:k]
			}
			if k := strings.Index(text, " call="); k >= 0 {
				if _, err := fmt.Sscanf(text[k+len(" call="):], "%d/%d", &c.CallBefore, &c.CallAfter); err != nil {
					c.CallBefore, c.CallAfter = 0, 0
				}
				text = text[:k]
			}
			if _, err := fmt.Sscanf(text, "before=%d after=%d iterations=%d trip=%s", &c.Before, &c.After, &c.Iterations, &c.Trip); err == nil {
				if c.Trip == "-" {
					c.Trip = ""
				}
				c.Region = c.Trip == TripRegion
				found = true
				continue
			}
		}
		rest = append(rest, r)
	}
	return c, found, rest
}

// counterPhrase says that a loop counting with typ is a software loop the
// price does not fully cover; "" when typ is.
func counterPhrase(typ string) string {
	if typ == "" {
		return ""
	}
	return fmt.Sprintf(" (the loop counts with %s, not uint16_t: by the vendor's Hardware Loop rules it runs as a software loop, whose count, compare and jump the model does not time, so it costs more on hardware)", typ)
}

// opaquePhrase says which parts of the simulated code were timed as one
// instruction: helpers whose bodies are not in the project, and integer
// Divs, which the compiler expands into a sequence it does not publish
// (simcheck.SoftDiv).
func opaquePhrase(opaque []string) string {
	var helpers, soft []string
	for _, o := range opaque {
		if elem, ok := simcheck.SoftDiv(o); ok {
			soft = append(soft, elem)
		} else {
			helpers = append(helpers, o)
		}
	}
	var s string
	if len(helpers) > 0 {
		s += fmt.Sprintf(" (timed with %s as one instruction: not defined in the file)", strings.Join(helpers, ", "))
	}
	if len(soft) > 0 {
		s += fmt.Sprintf(" (timed with each Div on %s as one float Div: the compiler expands an integer Div into a software sequence that is not published, so the loop costs more on hardware)", strings.Join(soft, " and "))
	}
	return s
}
