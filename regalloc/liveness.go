package regalloc

import (
	"math/bits"
	"slices"

	"github.com/ascvet/ascvet/cppfront/ir"
)

// set is a bitset over a region's dense register IDs.
type set []uint64

func newSet(n int) set { return make(set, (n+63)/64) }

func (s set) add(r ir.RegID)      { s[r/64] |= 1 << (uint(r) % 64) }
func (s set) del(r ir.RegID)      { s[r/64] &^= 1 << (uint(r) % 64) }
func (s set) has(r ir.RegID) bool { return s[r/64]&(1<<(uint(r)%64)) != 0 }

func (s set) clone() set { return append(set(nil), s...) }

func (s set) union(t set) set {
	out := s.clone()
	for i := range t {
		out[i] |= t[i]
	}
	return out
}

func (s set) equal(t set) bool {
	for i := range s {
		if s[i] != t[i] {
			return false
		}
	}
	return true
}

// liveness holds the live-in and live-out set of every instruction.
//
// Sets range over slots, not registers: slot r is register r (element 0 of
// an array), and an array of n registers has n-1 more slots after the
// registers, one per element, so that an element indexed by a constant is
// a value of its own (acc[0] dies at its last use while acc[3] is still
// live). An operand that names no single element (acc[i], a whole array
// passed to a helper) reads or writes every slot of the array.
type liveness struct {
	fn      *ir.Func
	in, out []set
	kills   []set
	uses    []set
	gens    []set             // slots an instruction may write (kills or not): what makes them defined after it
	weight  []int             // physical registers per slot
	class   []int8            // budget class per slot, -1 when none
	reg     []ir.RegID        // register of each slot
	extra   []int             // per register: slot of its element 1 (elements 1..n-1 follow), 0 when it has one slot
	remat   []bool            // per register: a rematerialisable constant mask (remat.go)
	def     []*ir.Instr       // per register: its definition when remat
	entry   set               // live at the region's entry
	defIn   []set             // per instruction: slots some definition reaches before it
	defOut  []set             // the same after it
	path    [][]branch        // per instruction: the if constexpr branches it is in, outermost first
	owner   [][]branch        // per register: the innermost if constexpr branch holding all its reads
	phantom map[*ir.If]set    // per if constexpr ending a chain without a final else: slots dead on its skip path
	scoped  map[ir.LoopID]set // per loop: slots of registers declared inside it (its own or a nested loop's body)
	masks   []classMasks      // per class: what count adds up, made on its first call (after solve)
}

// branch is one alternative of an if constexpr: its Then (0) or Else (1).
type branch struct {
	s   *ir.If
	els bool
}

// maxSlots bounds the elements of one array tracked apart; a longer array
// is one value.
const maxSlots = 1024

// newLiveness prepares the analysis of fn. opaque reports the calls whose
// effect on registers is not known (unknown calls, and helper calls whose
// body is not a region of the file, such as function-like macros).
func newLiveness(fn *ir.Func, opaque ...func(*ir.Instr) bool) *liveness {
	return newLivenessCalls(fn, nil, opaque...)
}

// writeOnly reports, for argument k of a helper call, that the helper only
// writes that parameter (it is not live at the helper's entry).
type writeOnly func(in *ir.Instr, k int) bool

// nslots is the number of slots r has: its elements when it is an array of
// known length, else 1.
func nslots(r *ir.Reg) int {
	if r.ArrayLen > 1 && r.ArrayLen <= maxSlots {
		return r.ArrayLen
	}
	return 1
}

// slot returns the slot of element k of register r.
func (lv *liveness) slot(r ir.RegID, k int) int {
	if k == 0 {
		return int(r)
	}
	return lv.extra[r] + k - 1
}

// addSlots adds to s the slots of register r that operand part names: one
// element when part is a constant index of an array, else all of them.
func (lv *liveness) addSlots(s set, r ir.RegID, part int) {
	n := nslots(lv.fn.Regs[r])
	if n > 1 && part >= 0 && part < n {
		s.add(ir.RegID(lv.slot(r, part)))
		return
	}
	for k := 0; k < n; k++ {
		s.add(ir.RegID(lv.slot(r, k)))
	}
}

// hasReg reports whether some slot of r is in s.
func (lv *liveness) hasReg(s set, r ir.RegID) bool {
	for k, n := 0, nslots(lv.fn.Regs[r]); k < n; k++ {
		if s.has(ir.RegID(lv.slot(r, k))) {
			return true
		}
	}
	return false
}

// delReg removes every slot of r from s.
func (lv *liveness) delReg(s set, r ir.RegID) {
	for k, n := 0, nslots(lv.fn.Regs[r]); k < n; k++ {
		s.del(ir.RegID(lv.slot(r, k)))
	}
}

// countOperand returns the physical registers of the slots that operand a
// names and s holds.
func (lv *liveness) countOperand(s set, a ir.Operand) int {
	t := newSet(len(lv.weight))
	lv.addSlots(t, a.Reg, a.Part)
	n := 0
	for i := range t {
		t[i] &= s[i]
	}
	for sl := range lv.weight {
		if t.has(ir.RegID(sl)) && !lv.remat[lv.reg[sl]] {
			n += lv.weight[sl]
		}
	}
	return n
}

// reads reports whether an operand role reads the register.
func reads(r ir.ArgRole) bool {
	switch r {
	case ir.ArgR, ir.ArgRW, ir.ArgMask, ir.ArgAddr, ir.ArgNone:
		return true
	}
	return false
}

func newLivenessCalls(fn *ir.Func, wo writeOnly, opaque ...func(*ir.Instr) bool) *liveness {
	isOpaque := func(in *ir.Instr) bool {
		if in.Op == ir.OpUnknown {
			return true
		}
		for _, o := range opaque {
			if o(in) {
				return true
			}
		}
		return false
	}
	n := len(fn.Regs)
	lv := &liveness{fn: fn, in: make([]set, len(fn.Instrs)), out: make([]set, len(fn.Instrs)),
		kills: make([]set, len(fn.Instrs)), uses: make([]set, len(fn.Instrs)), gens: make([]set, len(fn.Instrs)),
		extra: make([]int, n)}
	lv.remat, lv.def = rematMasks(fn)
	ns := n
	for i, r := range fn.Regs {
		if k := nslots(r); k > 1 {
			lv.extra[i] = ns
			ns += k - 1
		}
	}
	lv.weight, lv.class, lv.reg = make([]int, ns), make([]int8, ns), make([]ir.RegID, ns)
	for i, r := range fn.Regs {
		c, ok := classOf(r)
		for k, m := 0, nslots(r); k < m; k++ {
			sl := lv.slot(ir.RegID(i), k)
			lv.reg[sl] = ir.RegID(i)
			lv.weight[sl] = Size(r) / m
			lv.class[sl] = -1
			if ok && !r.Implicit {
				lv.class[sl] = int8(c)
			}
		}
	}
	// A register that no known operation writes is produced by the unknown
	// calls (typically a macro) it is passed to: there it is written, not
	// read. Otherwise it would look live around every loop it is in.
	knownDef := make([]bool, n)
	for _, in := range fn.Instrs {
		if !isOpaque(in) {
			for _, r := range in.Defs {
				knownDef[r] = true
			}
		}
	}
	for _, in := range fn.Instrs {
		k, u, g := newSet(ns), newSet(ns), newSet(ns)
		opq := isOpaque(in)
		for _, r := range in.Uses {
			if !knownDef[r] && opq {
				lv.addSlots(k, r, -1)
				lv.addSlots(g, r, -1)
				continue
			}
			// The slots read: those of the operands that read r, or all
			// of r when no operand names it (an implicit use).
			named := false
			for _, a := range in.Args {
				if a.Reg == r && reads(a.Role) {
					lv.addSlots(u, r, a.Part)
					named = true
				}
			}
			if !named {
				lv.addSlots(u, r, -1)
			}
			if opq {
				lv.addSlots(g, r, -1) // a macro may write what it is given
			}
		}
		for ai, a := range in.Args {
			if a.Reg == ir.NoReg {
				continue
			}
			reg := fn.Regs[a.Reg]
			if a.Role == ir.ArgW || a.Role == ir.ArgRW {
				lv.addSlots(g, a.Reg, a.Part)
			}
			// A whole-register write kills; so does a write to one element
			// of an array by a constant index (acc[2]), but not a write to
			// an element by a variable index (acc[i]), nor to one half of
			// a two-register tensor (x.reg[0], or acc[2] of an array of
			// them, which may be acc[2].reg[0]).
			if a.Role == ir.ArgW {
				switch n := nslots(reg); {
				case n == 1 && a.Part < 0 && reg.ArrayLen <= 1:
					k.add(a.Reg)
				case n > 1 && a.Part >= 0 && a.Part < n && !reg.TwoRegs:
					k.add(ir.RegID(lv.slot(a.Reg, a.Part)))
				}
			}
			// A helper that only writes a parameter: the caller's register
			// is written by the call, not read.
			if in.Op == ir.OpCall && wo != nil && wo(in, ai) && !argElsewhere(in, ai) {
				switch n := nslots(reg); {
				case a.Part < 0:
					lv.addSlots(k, a.Reg, -1)
					for j := 0; j < n; j++ {
						u.del(ir.RegID(lv.slot(a.Reg, j)))
					}
				case n > 1 && a.Part < n && !reg.TwoRegs:
					sl := ir.RegID(lv.slot(a.Reg, a.Part))
					k.add(sl)
					u.del(sl)
				}
			}
		}
		for _, r := range in.Defs {
			if !hasArgReg(in, r) {
				lv.addSlots(g, r, -1)
				if in.Assign != "" && nslots(fn.Regs[r]) == 1 {
					k.add(r) // m = CreateMask(): the assigned register is replaced
				}
			}
		}
		for i := range k {
			k[i] &^= u[i]
			g[i] |= k[i]
		}
		lv.kills[in.ID], lv.uses[in.ID], lv.gens[in.ID] = k, u, g
	}
	return lv
}

// argElsewhere reports whether the register of argument k is also passed
// at another position of the same call.
func argElsewhere(in *ir.Instr, k int) bool {
	for j, a := range in.Args {
		if j != k && a.Reg == in.Args[k].Reg {
			return true
		}
	}
	return false
}

func hasArgReg(in *ir.Instr, r ir.RegID) bool {
	for _, a := range in.Args {
		if a.Reg == r {
			return true
		}
	}
	return false
}

// solve runs the backward analysis to a fixpoint, and the forward facts
// that pressure needs (reaching definitions, if constexpr alternatives).
func (lv *liveness) solve() {
	lv.phantom = map[*ir.If]set{}
	lv.chains(lv.fn.Body)
	end := newSet(len(lv.weight))
	lv.entry = lv.block(lv.fn.Body, end)
	lv.solveDefs()
	lv.solveBranches()
}

// chains finds the if constexpr chains without a final else
// (if constexpr (A) {...} else if constexpr (B) {...}) and, for the last if
// of each, the registers dead on its skip path: those whose every
// definition lies inside the chain. The skip path is compiled only in an
// instantiation where no branch of the chain is, and there such a register
// is never written, so no value of it can flow along that path, around a
// loop either: a value written in every branch and read after the chain
// is not live across the loop's back edge.
func (lv *liveness) chains(b *ir.Block) {
	if b == nil {
		return
	}
	for _, node := range b.Nodes {
		switch n := node.(type) {
		case *ir.If:
			if n.Constexpr {
				lv.chain(n)
			}
			lv.chainsIn(n)
		case *ir.Loop:
			lv.chains(n.Body)
		}
	}
}

// chainsIn looks for chains inside the branches of s, skipping the else-if
// links of s's own chain.
func (lv *liveness) chainsIn(s *ir.If) {
	lv.chains(s.Then)
	if e := s.Else; e != nil {
		if next, ok := elseIf(s); ok {
			lv.chainsIn(next)
			return
		}
		lv.chains(e)
	}
}

// elseIf returns the if constexpr that is the whole else of s, if any.
func elseIf(s *ir.If) (*ir.If, bool) {
	if !s.Constexpr || s.Else == nil || len(s.Else.Nodes) != 1 {
		return nil, false
	}
	next, ok := s.Else.Nodes[0].(*ir.If)
	return next, ok && next.Constexpr
}

// chain records the phantom skip path of the chain rooted at root.
func (lv *liveness) chain(root *ir.If) {
	last := root
	for {
		next, ok := elseIf(last)
		if !ok {
			break
		}
		last = next
	}
	if last.Else != nil {
		return // a final else: some branch is always compiled
	}
	inside := map[ir.InstrID]bool{}
	walkInstrs(root, func(in *ir.Instr) { inside[in.ID] = true })
	in, out := map[ir.RegID]int{}, map[ir.RegID]int{}
	for _, ins := range lv.fn.Instrs {
		for _, r := range ins.Defs {
			if inside[ins.ID] {
				in[r]++
			} else {
				out[r]++
			}
		}
	}
	dead := newSet(len(lv.weight))
	found := false
	for r, n := range in {
		if n > 0 && out[r] == 0 && !lv.fn.Regs[r].Param && !lv.fn.Regs[r].Ref {
			lv.addSlots(dead, r, -1)
			found = true
		}
	}
	if found {
		lv.phantom[last] = dead
	}
}

// once reports whether l's body runs exactly once (do { ... } while (0),
// the statement of a macro, or a for loop of one trip): straight-line code,
// with no path around it and no back edge.
func once(l *ir.Loop) bool { return l.TripKnown && l.Trip == 1 }

// walkInstrs calls f for every instruction inside n.
func walkInstrs(n ir.Node, f func(*ir.Instr)) {
	switch n := n.(type) {
	case *ir.Instr:
		f(n)
	case *ir.If:
		for _, b := range []*ir.Block{n.Then, n.Else} {
			if b != nil {
				for _, c := range b.Nodes {
					walkInstrs(c, f)
				}
			}
		}
	case *ir.Loop:
		for _, c := range n.Body.Nodes {
			walkInstrs(c, f)
		}
	}
}

// block computes live-in of b from its live-out, filling in/out of every
// instruction inside; it returns live-in.
func (lv *liveness) block(b *ir.Block, out set) set {
	live := out
	if b == nil {
		return live
	}
	for i := len(b.Nodes) - 1; i >= 0; i-- {
		switch n := b.Nodes[i].(type) {
		case *ir.Instr:
			lv.out[n.ID] = live
			in := live.clone()
			for j := range in {
				in[j] &^= lv.kills[n.ID][j]
				in[j] |= lv.uses[n.ID][j]
			}
			lv.in[n.ID] = in
			live = in
		case *ir.If:
			t := lv.block(n.Then, live)
			e := live
			if n.Else != nil {
				e = lv.block(n.Else, live)
			} else if dead, ok := lv.phantom[n]; ok {
				e = e.clone()
				for j := range e {
					e[j] &^= dead[j]
				}
			}
			live = t.union(e)
		case *ir.Loop:
			if once(n) {
				live = lv.block(n.Body, live)
				continue
			}
			head := live
			for iter := 0; ; iter++ {
				next := live.union(lv.block(n.Body, head))
				if next.equal(head) || iter > 64 {
					head = next
					break
				}
				head = next
			}
			// One more pass so that every instruction's sets belong to the fixpoint.
			lv.block(n.Body, head)
			live = head
		}
	}
	return live
}

// solveDefs computes, before and after every instruction, the slots that
// some definition reaches (forward, may). A register is live for pressure
// only where it is both read later and defined before: a path on which no
// definition reaches carries no value, and no compiler keeps a register
// for it. This is what removes the phantom path of an if constexpr chain
// without a final else: in
//
//	if constexpr (A) { r = f(); } else if constexpr (B) { r = g(); }
//	use(r);
//
// backward liveness sees r read after the chain on the path that takes no
// branch, so r looked live from the region's entry down to the chain; no
// definition reaches there. The path is not dropped outright: when a
// definition does reach it (r = Dup(); if constexpr (A) { r = f(); } use(r))
// an instantiation where A is false keeps r live from Dup to use, and
// dropping the path would under-count it.
//
// Parameters, references and implicit registers are defined at the entry,
// and so is a register that no instruction writes (its definition is
// something the front end does not lower, such as a copy x = y).
func (lv *liveness) solveDefs() {
	ns := len(lv.weight)
	lv.defIn, lv.defOut = make([]set, len(lv.fn.Instrs)), make([]set, len(lv.fn.Instrs))
	written := newSet(ns)
	for _, g := range lv.gens {
		for i := range g {
			written[i] |= g[i]
		}
	}
	entry := newSet(ns)
	for sl := 0; sl < ns; sl++ {
		r := lv.fn.Regs[lv.reg[sl]]
		if r.Param || r.Ref || r.Implicit || !written.has(ir.RegID(sl)) {
			entry.add(ir.RegID(sl))
		}
	}
	lv.scoped = lv.scopedSlots()
	lv.forward(lv.fn.Body, entry)
}

// scopedSlots returns, per loop, the slots of the registers declared in
// its body or the body of a loop nested in it: a local of the body (its
// declarator inside the loop) or a register of a helper inlined there
// (Func.Scoped). Each iteration has its own, so no definition of one
// reaches around the loop's back edge: what an iteration leaves in it is
// not what the next reads.
func (lv *liveness) scopedSlots() map[ir.LoopID]set {
	fn := lv.fn
	declLoop := func(r *ir.Reg) ir.LoopID {
		if l, ok := fn.Scoped[r.ID]; ok {
			return l
		}
		if r.Param || r.Ref || r.Implicit || r.Pos < fn.Pos || r.Pos >= fn.End {
			return ir.NoLoop
		}
		in := ir.NoLoop
		for _, l := range fn.Loops { // pre-order: the last one holding the declarator is the innermost
			if l.Body != nil && l.Pos <= r.Pos && r.Pos < l.End {
				in = l.ID
			}
		}
		return in
	}
	var out map[ir.LoopID]set
	for sl, id := range lv.reg {
		l := declLoop(fn.Regs[id])
		for ; l != ir.NoLoop; l = fn.Loops[l].Parent {
			if out == nil {
				out = map[ir.LoopID]set{}
			}
			s := out[l]
			if s == nil {
				s = newSet(len(lv.reg))
				out[l] = s
			}
			s.add(ir.RegID(sl))
		}
	}
	return out
}

// forward propagates the defined slots def through b and returns them at
// its end.
func (lv *liveness) forward(b *ir.Block, def set) set {
	if b == nil {
		return def
	}
	for _, node := range b.Nodes {
		switch n := node.(type) {
		case *ir.Instr:
			lv.defIn[n.ID] = def
			def = def.union(lv.gens[n.ID])
			lv.defOut[n.ID] = def
		case *ir.If:
			t := lv.forward(n.Then, def)
			e := def
			if n.Else != nil {
				e = lv.forward(n.Else, def)
			}
			def = t.union(e)
		case *ir.Loop:
			if once(n) {
				def = lv.forward(n.Body, def)
				continue
			}
			head := def
			for iter := 0; ; iter++ {
				back := lv.forward(n.Body, head)
				if sc := lv.scoped[n.ID]; sc != nil {
					back = back.clone()
					for j := range back {
						back[j] &^= sc[j]
					}
				}
				next := def.union(back)
				if next.equal(head) || iter > 64 {
					head = next
					break
				}
				head = next
			}
			lv.forward(n.Body, head)
			def = head
		}
	}
	return def
}

// solveBranches records the if constexpr branches around every
// instruction, and for every register the innermost branch that holds all
// its reads. Exactly one branch of an if constexpr is compiled per
// instantiation, so a register read only inside one branch is dead in
// every instantiation that compiles a sibling branch: inside the sibling it
// does not count (exclusive), although the union of the branches makes it
// look live there whenever it is live around the chain (defined before a
// loop holding the chain, say). Pressure inside a branch is therefore that
// of its own instantiation, and the region's peak the largest over the
// alternatives.
func (lv *liveness) solveBranches() {
	lv.path = make([][]branch, len(lv.fn.Instrs))
	lv.walkBranches(lv.fn.Body, nil)
	lv.owner = make([][]branch, len(lv.fn.Regs))
	seen := make([]bool, len(lv.fn.Regs))
	for _, in := range lv.fn.Instrs {
		for _, r := range in.Uses {
			p := lv.path[in.ID]
			if !seen[r] {
				seen[r], lv.owner[r] = true, p
				continue
			}
			o := lv.owner[r]
			k := 0
			for k < len(o) && k < len(p) && o[k] == p[k] {
				k++
			}
			lv.owner[r] = o[:k:k]
		}
	}
}

func (lv *liveness) walkBranches(b *ir.Block, path []branch) {
	if b == nil {
		return
	}
	for _, node := range b.Nodes {
		switch n := node.(type) {
		case *ir.Instr:
			lv.path[n.ID] = path
		case *ir.If:
			if !n.Constexpr {
				lv.walkBranches(n.Then, path)
				lv.walkBranches(n.Else, path)
				continue
			}
			for k, blk := range []*ir.Block{n.Then, n.Else} {
				p := make([]branch, len(path), len(path)+1)
				copy(p, path)
				lv.walkBranches(blk, append(p, branch{s: n, els: k == 1}))
			}
		case *ir.Loop:
			lv.walkBranches(n.Body, path)
		}
	}
}

// exclusive reports whether register r is read only inside an if constexpr
// branch that cannot be compiled together with instruction in.
func (lv *liveness) exclusive(in *ir.Instr, r ir.RegID) bool {
	p, o := lv.path[in.ID], lv.owner[r]
	for k := 0; k < len(p) && k < len(o); k++ {
		if p[k] != o[k] {
			return p[k].s == o[k].s
		}
	}
	return false
}

// pressureSets returns the slots that count for pressure before and after
// in: live, defined, not exclusive to a sibling if constexpr branch, and
// not a rematerialisable mask.
func (lv *liveness) pressureSets(in *ir.Instr) (set, set) {
	lin, lout := lv.in[in.ID].clone(), lv.out[in.ID].clone()
	for i := range lin {
		lin[i] &= lv.defIn[in.ID][i]
		lout[i] &= lv.defOut[in.ID][i]
	}
	if len(lv.path[in.ID]) > 0 {
		for sl := range lv.weight {
			if (lin.has(ir.RegID(sl)) || lout.has(ir.RegID(sl))) && lv.exclusive(in, lv.reg[sl]) {
				lin.del(ir.RegID(sl))
				lout.del(ir.RegID(sl))
			}
		}
	}
	return lin, lout
}

// count returns the physical registers of class c in s. Registers read
// only inside different branches of one if constexpr are never live in the
// same instantiation: of those, count the largest alternative, not their
// sum (constants that a loop sets up for each branch of a type switch
// inside it, say).
func (lv *liveness) count(s set, c Class) int {
	if lv.masks == nil {
		lv.makeMasks()
	}
	m := &lv.masks[c]
	n := 0
	for _, wm := range m.plain {
		k := 0
		for w := range min(len(s), len(wm.m)) {
			k += bits.OnesCount64(s[w] & wm.m[w])
		}
		n += k * wm.w
	}
	if m.owned == nil {
		return n
	}
	var alts []alt
	for w := range min(len(s), len(m.owned)) {
		word := s[w] & m.owned[w]
		for word != 0 {
			b := bits.TrailingZeros64(word)
			word &^= 1 << uint(b)
			sl := w*64 + b
			alts = append(alts, alt{lv.owner[lv.reg[sl]], lv.weight[sl]})
		}
	}
	return n + maxAlt(alts, 0)
}

// classMasks are the slots count adds up for one class: those held apart
// by an if constexpr branch (owned), and the others by weight (plain).
// Rematerialisable registers are in neither.
type classMasks struct {
	plain []weightMask
	owned set // nil when none
}

type weightMask struct {
	w int
	m set
}

// makeMasks fills lv.masks from the slots' classes, weights, owners and
// rematerialisable registers, which solve has settled: count, asked for
// every class at every instruction, then counts by popcount.
func (lv *liveness) makeMasks() {
	lv.masks = make([]classMasks, NumClasses)
	for sl := range lv.weight {
		c := int(lv.class[sl])
		if c < 0 || c >= int(NumClasses) || lv.remat[lv.reg[sl]] {
			continue
		}
		m := &lv.masks[c]
		if len(lv.owner[lv.reg[sl]]) > 0 {
			if m.owned == nil {
				m.owned = newSet(len(lv.weight))
			}
			m.owned.add(ir.RegID(sl))
			continue
		}
		k := slices.IndexFunc(m.plain, func(wm weightMask) bool { return wm.w == lv.weight[sl] })
		if k < 0 {
			k = len(m.plain)
			m.plain = append(m.plain, weightMask{lv.weight[sl], newSet(len(lv.weight))})
		}
		m.plain[k].m.add(ir.RegID(sl))
	}
}

// alt is a register read only inside the if constexpr branch path.
type alt struct {
	path []branch
	w    int
}

// maxAlt returns the registers of the instantiation that keeps the most of
// alts live, all of whose paths are longer than depth: per if constexpr at
// depth, the largest of its branches; separate ifs add up.
func maxAlt(alts []alt, depth int) int {
	total := 0
	for len(alts) > 0 {
		s := alts[0].path[depth].s
		var here, rest []alt
		for _, a := range alts {
			if a.path[depth].s == s {
				here = append(here, a)
			} else {
				rest = append(rest, a)
			}
		}
		best := 0
		for _, els := range []bool{false, true} {
			n := 0
			var deeper []alt
			for _, a := range here {
				if a.path[depth].els != els {
					continue
				}
				if len(a.path) == depth+1 {
					n += a.w
				} else {
					deeper = append(deeper, a)
				}
			}
			if n += maxAlt(deeper, depth+1); n > best {
				best = n
			}
		}
		total += best
		alts = rest
	}
	return total
}

// members returns the registers of class c with a slot in s, in
// declaration order, and the physical registers of those slots.
func (lv *liveness) members(s set, c Class) ([]ir.RegID, []int) {
	w := map[ir.RegID]int{}
	var out []ir.RegID
	for sl := range lv.weight {
		if r := lv.reg[sl]; s.has(ir.RegID(sl)) && int(lv.class[sl]) == int(c) && !lv.remat[r] {
			if _, ok := w[r]; !ok {
				out = append(out, r)
			}
			w[r] += lv.weight[sl]
		}
	}
	sortRegs(out)
	ws := make([]int, len(out))
	for i, r := range out {
		ws[i] = w[r]
	}
	return out, ws
}

// Live answers liveness questions about one region.
type Live struct{ lv *liveness }

// Liveness solves liveness for fn.
func Liveness(fn *ir.Func) *Live {
	lv := newLiveness(fn)
	lv.solve()
	return &Live{lv: lv}
}

// In reports whether r is live just before in.
func (l *Live) In(in *ir.Instr, r ir.RegID) bool {
	s := l.lv.in[in.ID]
	return s != nil && l.lv.hasReg(s, r)
}

// Out reports whether r is live just after in.
func (l *Live) Out(in *ir.Instr, r ir.RegID) bool {
	s := l.lv.out[in.ID]
	return s != nil && l.lv.hasReg(s, r)
}
