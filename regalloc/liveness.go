package regalloc

import (
	"math/bits"

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
type liveness struct {
	fn      *ir.Func
	in, out []set
	kills   []set
	uses    []set
	weight  []int  // physical registers per register
	class   []int8 // budget class per register, -1 when none
	entry   set    // live at the region's entry
}

// newLiveness prepares the analysis of fn. opaque reports the calls whose
// effect on registers is not known (unknown calls, and helper calls whose
// body is not a region of the file, such as function-like macros).
func newLiveness(fn *ir.Func, opaque ...func(*ir.Instr) bool) *liveness {
	return newLivenessCalls(fn, nil, opaque...)
}

// writeOnly reports, for argument k of a helper call, that the helper only
// writes that parameter (it is not live at the helper's entry).
type writeOnly func(in *ir.Instr, k int) bool

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
		kills: make([]set, len(fn.Instrs)), uses: make([]set, len(fn.Instrs)), weight: make([]int, n), class: make([]int8, n)}
	for i, r := range fn.Regs {
		lv.weight[i] = Size(r)
		lv.class[i] = -1
		if c, ok := classOf(r); ok && !r.Implicit {
			lv.class[i] = int8(c)
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
		k, u := newSet(n), newSet(n)
		for _, r := range in.Uses {
			if !knownDef[r] && isOpaque(in) {
				k.add(r)
				continue
			}
			u.add(r)
		}
		for ai, a := range in.Args {
			// A whole-register write kills; a write to one element of an
			// array or one half of a two-register tensor does not.
			if a.Reg != ir.NoReg && a.Role == ir.ArgW && a.Part < 0 && fn.Regs[a.Reg].ArrayLen <= 1 {
				k.add(a.Reg)
			}
			// A helper that only writes a parameter: the caller's register
			// is written by the call, not read.
			if a.Reg != ir.NoReg && in.Op == ir.OpCall && wo != nil && a.Part < 0 && wo(in, ai) && !argElsewhere(in, ai) {
				k.add(a.Reg)
				u.del(a.Reg)
			}
		}
		for _, r := range in.Defs {
			if !hasArgReg(in, r) && in.Assign != "" {
				k.add(r) // m = CreateMask(): the assigned register is replaced
			}
		}
		for _, r := range in.Uses {
			if u.has(r) {
				k.del(r)
			}
		}
		lv.kills[in.ID], lv.uses[in.ID] = k, u
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

// defSet returns the registers an instruction writes.
func defSet(fn *ir.Func, in *ir.Instr) set {
	s := newSet(len(fn.Regs))
	for _, r := range in.Defs {
		s.add(r)
	}
	return s
}

// solve runs the backward analysis to a fixpoint.
func (lv *liveness) solve() {
	end := newSet(len(lv.fn.Regs))
	lv.entry = lv.block(lv.fn.Body, end)
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
			}
			live = t.union(e)
		case *ir.Loop:
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

// count returns the physical registers of class c in s.
func (lv *liveness) count(s set, c Class) int {
	n := 0
	for w, word := range s {
		for word != 0 {
			b := bits.TrailingZeros64(word)
			word &^= 1 << uint(b)
			r := w*64 + b
			if int(lv.class[r]) == int(c) {
				n += lv.weight[r]
			}
		}
	}
	return n
}

// members returns the registers of class c in s, in declaration order.
func (lv *liveness) members(s set, c Class) []ir.RegID {
	var out []ir.RegID
	for r := range lv.fn.Regs {
		if s.has(ir.RegID(r)) && int(lv.class[r]) == int(c) {
			out = append(out, ir.RegID(r))
		}
	}
	sortRegs(out)
	return out
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
	return s != nil && s.has(r)
}

// Out reports whether r is live just after in.
func (l *Live) Out(in *ir.Instr, r ir.RegID) bool {
	s := l.lv.out[in.ID]
	return s != nil && s.has(r)
}
