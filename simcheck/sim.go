package simcheck

import (
	"slices"
	"sync"

	"github.com/ascvet/ascvet/cppfront/ir"
)

// Inst is one instruction of a simulated loop body.
type Inst struct {
	Instr *ir.Instr // source instruction (nil for an expansion step)
	Via   *ir.Instr // the caller's helper call this instruction was inlined from, nil when none
	Op    ir.Op
	Elem  string
	Defs  []ir.RegID
	Uses  []ir.RegID
	Ptrs  []string // pointers it advances (post-update)
	Addr  string   // its UB address as written (an aligned access through an unmodified pointer), "" when not comparable
	Iter  bool     // Addr depends on the loop variable: equal only within one iteration
	Text  string   // for reports
	Gate  bool     // the start of an inner loop's run: dispatch waits Machine.NestedGap after the previous one
	Banks int      // a block-strided access whose 32-byte blocks share UB banks: the cycles its port needs (0: 1)
	UB    *UBAddr  // an aligned access's place in UB relative to its buffer, when it folds
	Div64 bool     // a step of the library's sequence for a 64-bit integer Div (div64.go)
}

// UBAddr is where an aligned load or store falls in UB: a byte offset from
// the start of its buffer (a pointer parameter), so that two accesses of
// one buffer can be checked for bank conflicts.
type UBAddr struct {
	Base   string // the buffer's pointer
	Off    int64  // offset in elements in the loop's first iteration
	Step   int64  // what each iteration of the simulated loop adds to it
	Elem   int64  // element size in bytes
	Stride int64  // distance of its eight 32-byte blocks, in blocks (1: contiguous)
	Write  bool
}

// Body is a loop body to simulate.
type Body struct {
	Insts     []Inst
	Regs      []*ir.Reg // the region's registers, by ID
	Truncated bool      // inner loops were repeated fewer times than their trip count (MaxBodyInsts)
	Capped    bool      // an inner loop was repeated maxInner times, fewer than its trip count
	Loops     int       // loops met inside the body (of the loop, or of a helper it calls), each counted once per repetition
	Opaque    []string  // helpers called whose bodies are not known, each timed as one instruction
	Assumed   []string  // if constexpr whose condition does not fold, as the branch simulated (the costlier) assumes it: "C" or "!(C)", each once
}

// Event is what happened to one instruction instance.
type Event struct {
	Iter, Index                  int // iteration and position in the body
	Dispatch, Issue, Ready, Done int // cycles
	Retire                       int
	Port                         string
	Producer                     int  // index into Events of the instance that gated its issue, -1 if none
	Compute                      bool // issued to a compute unit (EXU0/EXU1)
}

// Result is the outcome of one simulation.
type Result struct {
	Iterations int
	PerIter    int     // instructions per iteration
	Cycles     int     // from the first dispatch to the last retire
	Events     []Event // every instance, in program order
	PortBusy   map[string]int
	Critical   []int // indexes into Events: the dependency chain that ends last
	MaxWindow  int   // most instructions waiting in the window at once

	// Cycles in which dispatch stopped at a full window, and for want of
	// a physical register (Machine.RegFreeDelay): what bound the loop
	// when no port or chain did.
	windowWaits, regWaits int

	computed int // instances issued to a compute unit

	// The first half of the iterations (Steady): when its last instance
	// retired, and how many of its instances were computed.
	halfCycles, halfComputed int

	// drain is the part of the run after its last dispatch (drainOf),
	// kept without Events too.
	drain int
	// outs is, for each register the run writes, when its last write is
	// ready to a reader, in cycles after the run's last dispatch (negative:
	// before it); ins is, for each register it reads before writing it,
	// when its first reader issued, in cycles after the first dispatch. A
	// part that reads what the part before it writes runs under that one's
	// drain only once the values are ready for it (region.go).
	outs, ins []regDone
}

// IPC is compute instructions (those issued to EXU0/EXU1) per cycle, the
// figure the vendor's dual-issue guide speaks of: at most 2. Loads, stores,
// scalar code and unknown calls do not count.
func (r *Result) IPC() float64 {
	if r.Cycles == 0 {
		return 0
	}
	return float64(r.computed) / float64(r.Cycles)
}

// Computed is the number of instances issued to a compute unit.
func (r *Result) Computed() int { return r.computed }

// CyclesPerIter is the average cost of one iteration, rounded up.
func (r *Result) CyclesPerIter() int {
	if r.Iterations == 0 {
		return 0
	}
	return (r.Cycles + r.Iterations - 1) / r.Iterations
}

// regDone is a register and a cycle: when its value is ready, or read.
type regDone struct {
	reg ir.RegID
	at  int
}

type instance struct {
	// What the issue stage reads of every entry of the window every
	// cycle, first, on one cache line.
	readyAt int  // the cycle its operands are ready, once all its producers issued (0: not yet known)
	blocker int  // 1 + a producer found not issued yet, while readyAt is not known (0: none)
	fkey    int  // fullKey: its class, and whether it computes
	timed   bool // its op has a class in the model
	issued  bool
	retired bool

	*Inst
	t        Timing
	iter     int
	idx      int
	deps     []dep
	vdefs    int                 // RegTensor results: physical registers it holds from dispatch until they are read (Machine.RegFreeDelay)
	readers  int                 // reads of its RegTensor results by instances not issued yet
	pending  int                 // of those, by instances not dispatched yet
	lastRead int                 // the latest done cycle of an issued reader of its results
	banks    [blocksPerReg]uint8 // UB bank of each of its blocks, when ubKnown
	ubKnown  bool
	gate     int // the producer that sets readyAt
	ev       *Event
}

// lastIssue is what a unit issued last, for the initiation intervals
// between classes (Machine.II).
type lastIssue struct {
	class, cycle int
	done         []int // done cycles of its compute instructions still in flight (Machine.UnitInflight)
}

type dep struct {
	from    int // instance index
	latency int
	vreg    bool // it reads a RegTensor result of from: from's physical register waits for this read
}

// scratch holds the buffers of one Run, reused by the next: a file's
// loops are simulated three times each, and allocating them anew was a
// quarter of the memory a big file's check allocates.
type scratch struct {
	insts   []*instance
	slab    []instance
	deps    []dep
	events  []Event    // RunCycles's
	timings []opTiming // per body instruction
	lastDef []int      // run's: per register, 1 + its last writer
	seen    []bool     // poolSize's: per register

	// run's issue stage: its candidates, those joining them, the entries
	// waiting for a known cycle, and the lists of those waiting on a producer.
	cand, adds, merge    []int
	wait                 []waitEntry
	blockHead, blockNext []int32
}

// waitEntry is a window entry k whose operands are ready at cycle at.
type waitEntry struct{ at, k int }

// readyHeap is a min-heap of entries by the cycle they are ready.
type readyHeap []waitEntry

func (h *readyHeap) push(e waitEntry) {
	*h = append(*h, e)
	s := *h
	for i := len(s) - 1; i > 0; {
		p := (i - 1) / 2
		if s[p].at <= s[i].at {
			break
		}
		s[p], s[i] = s[i], s[p]
		i = p
	}
}

func (h *readyHeap) pop() int {
	s := *h
	top := s[0].k
	last := len(s) - 1
	s[0] = s[last]
	s = s[:last]
	for i := 0; ; {
		l, small := 2*i+1, i
		if l < len(s) && s[l].at < s[small].at {
			small = l
		}
		if r := l + 1; r < len(s) && s[r].at < s[small].at {
			small = r
		}
		if small == i {
			break
		}
		s[i], s[small] = s[small], s[i]
		i = small
	}
	*h = s
	return top
}

// poolSize is the physical registers the body's RegTensor results can
// take (registers.physical_vreg; none set: no limit): the pool less those
// holding the values the body reads and never writes, loop invariants
// live through it, of which a VF has at most registers.vreg. (A value
// live into the body that it writes again, an accumulator, holds its
// register only until its first readers are done, as the value's first
// rewrite renames it: not counted.) seen is scratch.
func (m *Machine) poolSize(body Body, seen *[]bool) int {
	phys := m.Registers["physical_vreg"]
	if phys <= 0 || body.Regs == nil {
		return 1 << 30
	}
	if cap(*seen) < len(body.Regs) {
		*seen = make([]bool, len(body.Regs))
	}
	written := (*seen)[:len(body.Regs)]
	clear(written)
	for i := range body.Insts {
		for _, r := range body.Insts[i].Defs {
			if r >= 0 && int(r) < len(written) {
				written[r] = true
			}
		}
	}
	live := 0
	for i := range body.Insts {
		for _, r := range body.Insts[i].Uses {
			if r >= 0 && int(r) < len(written) && !written[r] && body.Regs[r].Class == ir.ClassVReg {
				written[r] = true // counted once
				live++
			}
		}
	}
	if v := m.Registers["vreg"]; v > 0 {
		live = min(live, v)
	}
	return phys - live
}

// mergeSorted returns the entries of cand (in order) and adds (sorted
// here) in order, in cand's array; buf is scratch.
func mergeSorted(cand, adds []int, buf *[]int) []int {
	slices.Sort(adds)
	if len(cand) == 0 || cand[len(cand)-1] < adds[0] {
		return append(cand, adds...)
	}
	out := (*buf)[:0]
	i, j := 0, 0
	for i < len(cand) && j < len(adds) {
		if cand[i] < adds[j] {
			out = append(out, cand[i])
			i++
		} else {
			out = append(out, adds[j])
			j++
		}
	}
	out = append(out, cand[i:]...)
	out = append(out, adds[j:]...)
	*buf = cand[:0]
	return out
}

// storeKey is the address a store writes, as the simulator compares
// them: the pointer expression, and the iteration when the pointer moves
// with the loop (-1 when it does not).
type storeKey struct {
	addr string
	iter int
}

// opTiming is the timing of one body instruction, looked up once a run.
type opTiming struct {
	t     Timing
	timed bool
	bar   barrierKinds // what it orders, when t.Barrier
}

var scratchPool = sync.Pool{New: func() any { return new(scratch) }}

// grow makes room for n instances. A buffer kept from a run holds
// pointers into that run's body; they are overwritten before use.
func (sc *scratch) grow(n int) {
	if cap(sc.slab) < n {
		sc.slab = make([]instance, n)
		sc.insts = make([]*instance, 0, n)
		sc.deps = make([]dep, 0, 2*n)
	}
}

// MaxInstances caps the instruction instances of one run: iterations are
// reduced so that iterations * len(body) stays below it.
const MaxInstances = 1 << 17

// Run simulates iterations of body on m (fewer when the run would exceed
// MaxInstances instances; Result.Iterations says how many ran).
func (m *Machine) Run(body Body, iterations int) *Result {
	return m.run(body, iterations, true)
}

// RunCycles is Run for a caller that needs only Cycles, Iterations,
// PerIter and IPC: it keeps no Events, Critical or PortBusy, and reuses
// its buffers (the rules simulate every loop of a file up to three times).
func (m *Machine) RunCycles(body Body, iterations int) *Result {
	if r, key, ok := m.cached(body, iterations); ok {
		if r != nil {
			return r
		}
		r = m.run(body, iterations, false)
		m.keep(key, r)
		return r
	}
	return m.run(body, iterations, false)
}

func (m *Machine) run(body Body, iterations int, keep bool) *Result {
	n := len(body.Insts)
	limit := MaxInstances
	if m.runCap > 0 {
		limit = min(MaxInstances, max(m.runCap, 4*n)) // at least 4 iterations for a rate (runSteady)
	}
	if n > 0 && n*iterations > limit {
		iterations = max(limit/n, 1)
	}
	res := &Result{Iterations: iterations, PerIter: n, PortBusy: map[string]int{}}
	if n == 0 || iterations <= 0 {
		return res
	}
	sc := scratchPool.Get().(*scratch)
	defer scratchPool.Put(sc)
	sc.grow(n * iterations)
	insts, slab, depBuf := sc.insts[:0], sc.slab[:n*iterations], sc.deps[:0]
	if cap(sc.timings) < n {
		sc.timings = make([]opTiming, n)
	}
	timings := sc.timings[:n]      // the timing of each body instruction, looked up once
	var waitLoads, waitStores bool // some barrier of the body waits for the loads, the stores before it
	for i := range body.Insts {
		tm := &timings[i]
		tm.t, tm.timed = m.InstTiming(&body.Insts[i])
		tm.bar = barrierKinds{}
		if tm.t.Barrier {
			tm.bar = barrierOf(body.Insts[i].Instr)
			waitLoads, waitStores = waitLoads || tm.bar.srcLoad, waitStores || tm.bar.srcStore
		}
	}
	// lastDef[r] is 1 + the instance that last wrote register r (0: none);
	// register numbers are small, dense indices of the body's registers
	// (those it reads too: Result.ins lists those it never writes).
	maxReg := ir.RegID(-1)
	for i := range body.Insts {
		for _, r := range body.Insts[i].Defs {
			maxReg = max(maxReg, r)
		}
		for _, r := range body.Insts[i].Uses {
			maxReg = max(maxReg, r)
		}
	}
	if cap(sc.lastDef) <= int(maxReg) {
		sc.lastDef = make([]int, maxReg+1)
	}
	lastDef := sc.lastDef[:maxReg+1]
	clear(lastDef)
	lastPtr := map[string]int{}       // pointer -> instance that last advanced it
	lastStore := map[storeKey]int{}   // address (and iteration, for one that moves) -> last store through it
	var storesSince, loadsSince []int // stores and loads no barrier has waited for yet
	lastBarrier := [2]int{-1, -1}     // the last LocalMemBar that holds loads, and stores
	for it := 0; it < iterations; it++ {
		for i := range body.Insts {
			k := len(insts)
			in := &slab[k]
			*in = instance{Inst: &body.Insts[i], iter: it, idx: i, t: timings[i].t, timed: timings[i].timed}
			if in.Banks > 1 {
				in.t.Occ *= in.Banks
			}
			if in.timed {
				in.fkey = fullKey(in)
			}
			if u := in.UB; u != nil {
				if v := u.Off + u.Step*int64(it); v*u.Elem%32 == 0 {
					first := v * u.Elem / 32
					for k := range int64(blocksPerReg) {
						b := first + k*u.Stride
						in.banks[k] = uint8(((b%ubGroups)+ubGroups)%ubGroups + ubGroups*(((b/ubGroups)%2+2)%2))
					}
					in.ubKnown = true
				}
			}
			first := len(depBuf) // the instance's deps are depBuf[first:], taken at the end
			for _, r := range in.Uses {
				if r < 0 || r > maxReg || lastDef[r] == 0 {
					continue // no instance wrote it yet
				}
				p := lastDef[r] - 1
				lat := m.DepOf(insts[p].t, in.t)
				if body.Regs != nil && int(r) < len(body.Regs) && body.Regs[r].Class.IsUnalign() {
					lat = insts[p].t.UregDep
				}
				vreg := body.Regs != nil && int(r) < len(body.Regs) && body.Regs[r].Class == ir.ClassVReg
				if vreg {
					insts[p].readers++
					insts[p].pending++
				}
				depBuf = append(depBuf, dep{p, lat, vreg})
			}
			for _, ptr := range in.Ptrs {
				if p, ok := lastPtr[ptr]; ok {
					depBuf = append(depBuf, dep{p, m.PointerDep, false})
				}
			}
			addr := storeKey{in.Addr, -1}
			if in.Iter {
				addr.iter = it
			}
			if in.t.Load && addr.addr != "" {
				if s, ok := lastStore[addr]; ok {
					depBuf = append(depBuf, dep{s, insts[s].t.Latency, false}) // a load of what a store wrote: the same address
				}
			}
			switch {
			case in.t.Barrier:
				// A LocalMemBar<src, dst> waits until the accesses of
				// its source pipes before it are done, and the accesses
				// of its destination pipes after it wait for it.
				bk := timings[i].bar
				if bk.srcStore {
					for _, s := range storesSince {
						depBuf = append(depBuf, dep{s, insts[s].t.Latency, false})
					}
					storesSince = storesSince[:0]
				}
				if bk.srcLoad {
					for _, s := range loadsSince {
						depBuf = append(depBuf, dep{s, insts[s].t.Latency, false})
					}
					loadsSince = loadsSince[:0]
				}
				if bk.dstLoad {
					lastBarrier[0] = k
				}
				if bk.dstStore {
					lastBarrier[1] = k
				}
			case in.t.Load && lastBarrier[0] >= 0:
				depBuf = append(depBuf, dep{lastBarrier[0], 1, false})
			case in.t.Store && lastBarrier[1] >= 0:
				depBuf = append(depBuf, dep{lastBarrier[1], 1, false})
			}
			if in.t.Store && waitStores {
				storesSince = append(storesSince, k)
			} else if in.t.Load && waitLoads {
				loadsSince = append(loadsSince, k)
			}
			if body.Regs != nil {
				for _, r := range in.Defs {
					if int(r) < len(body.Regs) && body.Regs[r].Class == ir.ClassVReg {
						in.vdefs++
					}
				}
			}
			in.deps = depBuf[first:len(depBuf):len(depBuf)]
			for _, r := range in.Defs {
				lastDef[r] = k + 1
			}
			for _, ptr := range in.Ptrs {
				lastPtr[ptr] = k
			}
			if in.t.Store && addr.addr != "" {
				lastStore[addr] = k
			}
			insts = append(insts, in)
		}
	}
	sc.deps = depBuf[:0] // keep what appends grew
	var events []Event
	if keep {
		events = make([]Event, len(insts))
	} else {
		if cap(sc.events) < len(insts) {
			sc.events = make([]Event, len(insts))
		}
		events = sc.events[:len(insts)]
	}
	for i, in := range insts {
		events[i] = Event{Iter: in.iter, Index: in.idx, Dispatch: -1, Issue: -1, Ready: -1, Done: -1, Retire: -1, Producer: -1}
		in.ev = &events[i]
	}

	portFree := make([][]int, len(m.portNames))     // port -> next cycle each unit can issue
	pipeFree := make([][][]int, len(m.portNames))   // port -> unit -> pipe -> next free cycle
	lastOn := make([][]lastIssue, len(m.portNames)) // port -> unit -> its last issue
	for i, p := range m.portNames {
		portFree[i] = make([]int, m.Ports[p])
		pipeFree[i] = make([][]int, m.Ports[p])
		lastOn[i] = make([]lastIssue, m.Ports[p])
		for u := range lastOn[i] {
			lastOn[i][u].class = -1
		}
		for u := range pipeFree[i] {
			pipeFree[i][u] = make([]int, len(m.pipes))
		}
	}
	var ubNow []*instance // UB accesses issued this cycle with known banks
	// full[fullKey(in)] is 1 + the cycle in which no unit could take an
	// instruction of in's class (compute or not: UnitInflight counts only
	// compute instructions).
	full := make([]int, 2*len(m.Classes))
	nextDispatch, nextRetire := 0, 0
	lastGate := -1 // dispatch cycle of the last inner loop run's start
	window := 0    // entries taken: dispatched and not yet freed (see Machine.WindowFrees)
	pregs := m.poolSize(body, &sc.seen)
	var regFrees readyHeap // registers returning to the pool: (cycle, how many)
	// freeable is the registers held by values whose readers have all
	// dispatched: they come back without anything more dispatching.
	freeable := 0
	// readDone is called when in issues: the registers of the values it
	// was the last to read, and its own when nothing reads them, return to
	// the pool once those reads are done (Machine.RegFreeDelay).
	readDone := func(in *instance) {
		for _, d := range in.deps {
			if !d.vreg {
				continue
			}
			p := insts[d.from]
			p.readers--
			p.lastRead = max(p.lastRead, in.ev.Done)
			if p.readers == 0 {
				regFrees.push(waitEntry{p.lastRead + m.RegFreeDelay, p.vdefs})
			}
		}
		if in.vdefs > 0 && in.readers == 0 {
			regFrees.push(waitEntry{in.ev.Done, in.vdefs})
		}
	}
	// The window's entries not issued yet are in one of three places, so
	// that a cycle looks only at those that may issue (the issue stage used
	// to test every entry every cycle, most of them waiting on operands):
	// cand, in program order, the entries to try this cycle; wait, by the
	// cycle their operands are ready (known once every producer issued);
	// and the list of the producer they wait on (blocked, until it issues).
	// An entry is tried in the cycle it would have been found ready, and in
	// program order among those, so the schedule is the same.
	cand := sc.cand[:0]
	adds := sc.adds[:0]
	wait := readyHeap(sc.wait[:0])
	if cap(sc.blockHead) < len(insts) {
		sc.blockHead = make([]int32, len(insts))
		sc.blockNext = make([]int32, len(insts))
	}
	blockHead, blockNext := sc.blockHead[:len(insts)], sc.blockNext[:len(insts)]
	clear(blockHead) // 1 + the first entry waiting on each instance (0: none)
	defer func() { sc.cand, sc.adds, sc.wait = cand[:0], adds[:0], wait[:0] }()
	var frees []int // window_frees = "done": the done cycles of issued instructions still holding an entry
	nextFree := -1  // the earliest of frees, -1 when none
	loopBase := 0   // the cycle the first instruction dispatched (Machine.IterStride)
	for cycle := 0; nextRetire < len(insts); cycle++ {
		progress := false
		if nextFree >= 0 && nextFree <= cycle {
			kept, next := frees[:0], -1
			for _, t := range frees {
				if t <= cycle {
					window--
					continue
				}
				kept = append(kept, t)
				if next < 0 || t < next {
					next = t
				}
			}
			frees, nextFree = kept, next
			progress = true
		}
		for len(regFrees) > 0 && regFrees[0].at <= cycle {
			n := regFrees.pop()
			pregs += n
			freeable -= n
			progress = true
		}
		// Retire in order.
		for r := 0; r < m.RetireWidth && nextRetire < len(insts); r++ {
			in := insts[nextRetire]
			if !in.issued || in.ev.Done > cycle {
				break
			}
			in.ev.Retire, in.retired = cycle, true
			nextRetire++
			if m.WindowFrees == "retire" {
				window--
			}
			progress = true
		}
		// The entries whose operands are ready now, or whose producer issued
		// last cycle, join the candidates.
		for len(wait) > 0 && wait[0].at <= cycle {
			adds = append(adds, wait.pop())
		}
		if len(adds) > 0 {
			cand = mergeSorted(cand, adds, &sc.merge)
			adds = adds[:0]
		}
		// Issue out of order, oldest first.
		issued, compute, ub, ubw, writes := 0, 0, 0, 0, 0
		ubNow = ubNow[:0]
		kept := cand[:0]
		for _, k := range cand {
			in := insts[k]
			// (Every entry here was dispatched in an earlier cycle: the
			// window is filled after the issue, and a cycle that dispatches
			// is followed by the next.)
			// Not ready, as tryIssue would find before anything else, told
			// without the call and without a walk of its producers; or no
			// unit of its class is free this cycle (full): tryIssue would
			// find none either, as issuing only takes units within a cycle.
			skip := in.readyAt > cycle || in.readyAt == 0 && in.blocker > 0 && !insts[in.blocker-1].issued ||
				in.timed && full[in.fkey] == cycle+1
			if skip || issued >= m.IssueWidth && in.timed || !m.tryIssue(in, insts, cycle, portFree, pipeFree, lastOn, &compute, &ub, &ubw, &writes, &ubNow, full) {
				switch {
				case in.readyAt > cycle:
					wait.push(waitEntry{in.readyAt, k})
				case in.readyAt == 0 && in.blocker > 0 && !insts[in.blocker-1].issued:
					b := in.blocker - 1
					blockNext[k], blockHead[b] = blockHead[b], int32(k+1)
				default:
					kept = append(kept, k) // ready: tried again next cycle
				}
				continue
			}
			// Those waiting on it are tried from the next cycle: their
			// operands are ready at the earliest then.
			for w := blockHead[k]; w != 0; w = blockNext[w-1] {
				adds = append(adds, int(w-1))
			}
			blockHead[k] = 0
			readDone(in)
			switch {
			case m.LoadQueue && in.t.Load:
			case m.WindowFrees == "done":
				frees = append(frees, in.ev.Done)
				if nextFree < 0 || in.ev.Done < nextFree {
					nextFree = in.ev.Done
				}
			case m.WindowFrees != "retire":
				window--
			}
			progress = true
			if in.timed {
				issued++
			}
		}
		cand = kept
		// Dispatch in order into the window.
		waits := &res.windowWaits // what stopped dispatch this cycle, if anything
		for d := 0; d < m.DispatchWidth && nextDispatch < len(insts) && window < m.Window; d++ {
			in := insts[nextDispatch]
			// No free physical register for its result until a value is
			// read; unless no register can come back before more
			// dispatches (every value held waits for a reader yet to
			// come): with more values live than the pool holds, the
			// compiler would have spilled (regalloc prices that), and the
			// model takes the register it would have freed.
			if in.vdefs > pregs && freeable > 0 {
				waits = &res.regWaits
				break
			}
			if in.Gate {
				if lastGate >= 0 && cycle < lastGate+m.NestedGap {
					break // the hardware loop of the next inner run is not started yet
				}
				lastGate = cycle
			}
			if nextDispatch == 0 {
				loopBase = cycle
			} else if cycle < loopBase+in.iter*m.IterStride {
				break // the hardware loop has not started this iteration yet
			}
			pregs -= in.vdefs
			in.ev.Dispatch = cycle
			for _, d := range in.deps {
				if p := insts[d.from]; d.vreg {
					if p.pending--; p.pending == 0 {
						freeable += p.vdefs
					}
				}
			}
			if in.readers == 0 {
				freeable += in.vdefs
			}
			cand = append(cand, nextDispatch) // the youngest: cand stays in order
			if !m.LoadQueue || !in.t.Load {
				window++
			}
			nextDispatch++
			progress = true
		}
		res.MaxWindow = max(res.MaxWindow, window)
		step := 1
		if !progress {
			// Nothing moved: jump to the next cycle at which something can.
			next := m.nextEvent(cycle, insts, cand, nextRetire, portFree, pipeFree, lastOn, lastGate+m.NestedGap)
			if len(wait) > 0 && wait[0].at < next {
				next = wait[0].at // > cycle: the earlier ones joined cand
			}
			if nextDispatch > 0 && nextDispatch < len(insts) {
				if t := loopBase + insts[nextDispatch].iter*m.IterStride; t > cycle && t < next {
					next = t
				}
			}
			if nextFree > cycle && nextFree < next {
				next = nextFree
			}
			if len(regFrees) > 0 && regFrees[0].at < next {
				next = regFrees[0].at // > cycle: the earlier ones returned
			}
			step = next - cycle
			cycle = next - 1
		}
		if nextDispatch < len(insts) && (window >= m.Window || waits == &res.regWaits) {
			*waits += step
		}
		if cycle > 1<<24 {
			panic("internal error: simulation does not converge")
		}
	}
	first, last, half, lastDispatch := insts[0].ev.Dispatch, 0, 0, 0
	for _, in := range insts {
		last = max(last, in.ev.Retire)
		lastDispatch = max(lastDispatch, in.ev.Dispatch)
		if in.iter < iterations/2 {
			half = max(half, in.ev.Retire)
		}
	}
	res.Cycles = last - first + 1
	res.halfCycles = half - first + 1
	res.drain = res.Cycles - (lastDispatch - first + 1)
	// lastDef now: 1 for a register written before, or read before
	// written; the first iteration reads each register first.
	clear(lastDef)
	for _, in := range insts[:len(body.Insts)] {
		for _, r := range in.Uses {
			if r >= 0 && r <= maxReg && lastDef[r] == 0 {
				lastDef[r] = 1
				res.ins = append(res.ins, regDone{r, in.ev.Issue - first})
			}
		}
		for _, r := range in.Defs {
			lastDef[r] = 1
		}
	}
	clear(lastDef) // now: 1 for a register whose last write is in outs
	for k := len(insts) - 1; k >= 0 && k >= len(insts)-len(body.Insts); k-- {
		in := insts[k] // the last iteration writes each register last
		for _, r := range in.Defs {
			if r >= 0 && r <= maxReg && lastDef[r] == 0 {
				lastDef[r] = 1
				ready := in.ev.Issue + in.t.Dep // to a consumer of no class of its own ([forward] aside)
				if body.Regs != nil && int(r) < len(body.Regs) && body.Regs[r].Class.IsUnalign() {
					ready = in.ev.Issue + in.t.UregDep
				}
				res.outs = append(res.outs, regDone{r, ready - lastDispatch})
			}
		}
	}
	for i := range events {
		if events[i].Compute {
			res.computed++
			if events[i].Iter < iterations/2 {
				res.halfComputed++
			}
		}
	}
	if !keep {
		return res
	}
	res.Events = events
	for _, in := range insts {
		if in.ev.Port != "" {
			if in.t.Class.pipeID >= 0 {
				res.PortBusy[in.ev.Port]++ // its issue slot; its pipe is busy longer, alongside the unit's other pipe
			} else {
				res.PortBusy[in.ev.Port] += in.t.Occ
			}
		}
	}
	res.Critical = critical(events)
	return res
}

// nextEvent returns the first cycle after cycle at which an instruction can
// retire, become ready, or find its port free.
func (m *Machine) nextEvent(cycle int, insts []*instance, pending []int, nextRetire int, portFree [][]int, pipeFree [][][]int, lastOn [][]lastIssue, gateOpen int) int {
	next := cycle + 1
	best := -1
	consider := func(t int) {
		if t > cycle && (best < 0 || t < best) {
			best = t
		}
	}
	if nextRetire < len(insts) && insts[nextRetire].issued {
		consider(insts[nextRetire].ev.Done)
	}
	consider(gateOpen)
	for _, k := range pending {
		in := insts[k]
		ready, ok := in.ev.Dispatch+1, true
		for _, d := range in.deps {
			p := insts[d.from]
			if !p.issued {
				ok = false
				break
			}
			ready = max(ready, p.ev.Issue+max(d.latency, 1))
		}
		if ok {
			consider(ready)
		}
	}
	for _, units := range portFree {
		for _, t := range units {
			consider(t)
		}
	}
	for _, units := range pipeFree {
		for _, pipes := range units {
			for _, t := range pipes {
				consider(t)
			}
		}
	}
	for _, units := range lastOn {
		for _, l := range units {
			if l.class >= 0 {
				for _, ii := range m.ii[l.class] {
					consider(l.cycle + int(ii))
				}
			}
			for _, d := range l.done {
				consider(d)
			}
		}
	}
	if best < 0 {
		return next
	}
	return best
}

// fullKey indexes run's full: in's class, and whether it computes.
func fullKey(in *instance) int {
	k := 2 * in.t.Class.id
	if in.t.Compute {
		k++
	}
	return k
}

// tryIssue issues in at cycle if its operands are ready and a port is free.
func (m *Machine) tryIssue(in *instance, insts []*instance, cycle int, portFree [][]int, pipeFree [][][]int, lastOn [][]lastIssue, compute, ub, ubw, writes *int, ubNow *[]*instance, full []int) bool {
	if in.ev.Dispatch >= cycle { // dispatched this cycle: issues from the next
		return false
	}
	if in.readyAt == 0 {
		// Known once every producer has issued; kept, as the window is
		// scanned every cycle.
		ready, gate := in.ev.Dispatch+1, -1
		for _, d := range in.deps {
			p := insts[d.from]
			if !p.issued {
				in.blocker = d.from + 1
				return false
			}
			if t := p.ev.Issue + max(d.latency, 1); t > ready {
				ready, gate = t, d.from
			}
		}
		in.readyAt, in.gate = ready, gate
	}
	ready, gate := in.readyAt, in.gate
	if ready > cycle {
		return false
	}
	if !in.timed { // no port, no time: scalar code, barriers, unknown calls
		in.ev.Issue, in.ev.Ready, in.ev.Done, in.ev.Producer, in.issued = cycle, ready, cycle, gate, true
		return true
	}
	if in.t.Compute && *compute >= m.ComputeIssue {
		return false
	}
	if (in.t.Load || in.t.Store) && *ub >= m.UBAccesses {
		return false
	}
	if in.t.Store && *ubw >= m.UBWrites {
		return false
	}
	if m.RegWrites > 0 && in.vdefs > 0 && *writes+in.vdefs > m.RegWrites {
		return false // the register file takes reg_writes results a cycle
	}
	if in.ubKnown && bankConflict(in, *ubNow) {
		return false
	}
	port, unit := -1, -1
	pipe := in.t.Class.pipeID
	for _, p := range in.t.Class.portIDs {
		for u, free := range portFree[p] {
			if pipe >= 0 {
				free = max(free, pipeFree[p][u][pipe])
			}
			if l := &lastOn[p][u]; l.class >= 0 {
				if ii := int(m.ii[l.class][in.t.Class.id]); ii > 1 {
					free = max(free, l.cycle+ii)
				}
				if m.UnitInflight > 0 && in.t.Compute {
					l.done = slices.DeleteFunc(l.done, func(d int) bool { return d <= cycle })
					if len(l.done) >= m.UnitInflight {
						free = max(free, slices.Min(l.done))
					}
				}
			}
			if free <= cycle && unit < 0 {
				port, unit = p, u
			}
		}
	}
	if unit < 0 {
		full[fullKey(in)] = cycle + 1
		return false
	}
	lastOn[port][unit].class, lastOn[port][unit].cycle = in.t.Class.id, cycle
	if m.UnitInflight > 0 && in.t.Compute {
		lastOn[port][unit].done = append(lastOn[port][unit].done, cycle+in.t.Latency)
	}
	if pipe >= 0 {
		// The unit takes another instruction next cycle; its pipe is busy
		// for the occupancy (an Exp lets an Add follow, not an Exp).
		portFree[port][unit] = cycle + 1
		pipeFree[port][unit][pipe] = cycle + in.t.Occ
	} else {
		portFree[port][unit] = cycle + in.t.Occ
	}
	if in.t.Compute {
		*compute++
	}
	if in.t.Load || in.t.Store {
		*ub++
	}
	if in.t.Store {
		*ubw++
	}
	*writes += in.vdefs
	if in.ubKnown {
		*ubNow = append(*ubNow, in)
	}
	in.ev.Issue, in.ev.Ready, in.ev.Done, in.ev.Port, in.ev.Producer, in.issued = cycle, ready, cycle+in.t.Latency, m.portNames[port], gate, true
	in.ev.Compute = in.t.Compute
	return true
}

// critical follows the gating producers back from the instance that
// finishes last.
func critical(ev []Event) []int {
	end := -1
	for i := range ev {
		if end < 0 || ev[i].Done > ev[end].Done {
			end = i
		}
	}
	var chain []int
	for i := end; i >= 0; i = ev[i].Producer {
		chain = append(chain, i)
		if len(chain) > len(ev) {
			break
		}
	}
	for l, r := 0, len(chain)-1; l < r; l, r = l+1, r-1 {
		chain[l], chain[r] = chain[r], chain[l]
	}
	return chain
}

// bankConflict reports whether in, issued now, would meet a UB bank
// conflict with the accesses of the same buffer already issued this cycle
// (the 3510 rules): a bank serves one access a cycle; a bank group two
// reads, or one read and one write, and on the 950 never two reads and a
// write. Accesses of different buffers are not compared: where buffers
// lie relative to each other is not known.
func bankConflict(in *instance, now []*instance) bool {
	var reads, writes [ubGroups]int
	var used [ubBanks]bool
	for _, o := range now {
		if o.UB.Base != in.UB.Base {
			continue
		}
		for _, b := range o.banks {
			used[b] = true
			if o.UB.Write {
				writes[b%ubGroups]++
			} else {
				reads[b%ubGroups]++
			}
		}
	}
	for _, b := range in.banks {
		g := b % ubGroups
		switch {
		case used[b]:
			return true
		case in.UB.Write && (writes[g] > 0 || reads[g] >= 2):
			return true
		case !in.UB.Write && (reads[g] >= 2 || reads[g] >= 1 && writes[g] > 0):
			return true
		}
	}
	return false
}
