// Package regalloc computes, for each VF region, how many registers of each
// class are live at once: the number that decides whether the compiler
// spills RegTensor and MaskReg values to UB (above 32 and 8) or refuses to
// compile (above 4 load or 4 store unaligned registers).
//
// Algorithm: backward liveness over the structured IR. A register is live
// at a point if some path from there reads it before fully writing it.
//
//	live_in(instr)  = uses ∪ (live_out − kills)
//	live_in(if)     = live_in(then) ∪ live_in(else, or live_out when absent)
//	head(loop)      = live_out ∪ live_in(body, head)   (fixpoint; the body may run 0 times)
//
// A register that no known operation writes but that is passed to an
// unknown call (a macro such as DAWSN_COMPUTE(x, y, m)) is taken as written
// by that call; at such a call only the registers live before or after it
// count, not every register it may write at once. A write kills only when it replaces the whole register: a write to one
// element of an array (c[1]) or one half of a RegTraitNumTwo tensor
// (x.reg[0]) does not, and read-modify-write operands (accumulators,
// MERGING, unaligned registers) are uses too. Through the back edge, a value
// read in a later iteration than it was written stays live across the whole
// loop: accumulators, unaligned registers, anything carried.
//
// The pressure at an instruction is the larger of its live-in count and its
// live-out count plus the registers it writes; the region's peak is the
// largest of those, with the registers live there. An instruction reads its
// sources before it writes its results, so a source whose last read it is
// does not count after it: the result may take its register (the vendor's
// own MaskAnd(m, m, t, mask) and Compare(m, a, b, m) write what they read).
// A constant mask made again where it is read (remat.go) is such a source
// at each of its reads. A register never read
// costs nothing; RegTraitNumTwo and 64-bit tensors count twice; an array
// counts its length. A generic Load or Store holds a hidden unaligned
// register while it runs. A call of a same-file helper adds the helper's
// own peak (its locals, not the registers the caller passes in).
package regalloc

import (
	"sort"

	"github.com/ascvet/ascvet/cppfront/ir"
)

// Class is a register file that has a budget.
type Class uint8

const (
	VReg       Class = iota // RegTensor
	Mask                    // MaskReg
	ULoad                   // unaligned registers in the load role
	UStore                  // unaligned registers in the store role
	Addr                    // AddrReg
	NumClasses              // number of classes
)

var classNames = [...]string{"RegTensor", "MaskReg", "UnalignRegForLoad", "UnalignRegForStore", "AddrReg"}

func (c Class) String() string { return classNames[c] }

var classFlags = [...]string{"vreg", "mask", "uload", "ustore", "addr"}

// Flag returns the short name of c in option names: "vreg", "mask",
// "uload", "ustore", "addr" (budget-vreg, [budgets] vreg = 28).
func (c Class) Flag() string { return classFlags[c] }

// Budget is the number of architectural registers of each class one VF
// can keep live before the compiler spills (or, for unaligned registers,
// refuses to compile).
type Budget [NumClasses]int

// Ascend950 is the budget of the Ascend 950PR/950DT (vf-api.md §5.1, seed
// 002): 32 RegTensor, 8 MaskReg, 4+4 unaligned, 8 AddrReg.
var Ascend950 = Budget{VReg: 32, Mask: 8, ULoad: 4, UStore: 4, Addr: 8}

// classOf maps a register to its budget class, and false for registers
// that have none (the implicit AR).
func classOf(r *ir.Reg) (Class, bool) {
	switch r.Class {
	case ir.ClassVReg:
		return VReg, true
	case ir.ClassMask:
		return Mask, true
	case ir.ClassUnalignLoad:
		return ULoad, true
	case ir.ClassUnalignStore:
		return UStore, true
	case ir.ClassUnalign:
		if r.Role == ir.RoleStore {
			return UStore, true
		}
		return ULoad, true
	case ir.ClassAddr:
		return Addr, true
	}
	return 0, false
}

// Size is the number of physical registers r occupies.
func Size(r *ir.Reg) int {
	n := r.Width()
	if r.ArrayLen > 1 {
		n *= r.ArrayLen
	}
	return n
}

// Pressure is the result for one class in one region.
type Pressure struct {
	Declared int        // physical registers declared (a RegTraitNumTwo tensor counts 2, an array its length), used or not
	Used     int        // of those, registers some instruction reads or writes
	Peak     int        // most physical registers live at once
	At       *ir.Instr  // where the peak is first reached (nil when Peak is 0)
	Live     []ir.RegID // registers live at the peak
	Weight   []int      // physical registers each of Live holds there (elements of an array that are dead do not count)
	Helper   int        // part of Peak that a called helper holds internally
}

// Result is the pressure of one region.
type Result struct {
	Func    *ir.Func
	Classes [NumClasses]Pressure
}

// Analyzer computes the pressure of the regions of one file, following
// calls into same-file helpers (memoised, cycle-safe).
type Analyzer struct {
	funcs   *ir.FuncIndex // the file's regions by name, for a Python file (whose calls have no Target)
	python  bool
	summary map[*ir.Func]*summary // a helper's peak, parameters included, and which parameters are live there
	active  map[*ir.Func]bool
}

// summary is what a caller needs of a helper: its peak per class, counting
// the registers the caller passes in, and which parameters (by index) are
// live at that peak.
type summary struct {
	peak       [NumClasses]int
	liveParams [NumClasses]map[int]bool
	writeOnly  map[int]bool // parameters the helper writes before any read (not live at its entry)
}

// callee returns the helper a call calls: its Target (the one definition
// the call picks; a call that several overloads could take has none, and
// is opaque), or for a Python file the region of its name. A helper of
// another header is opaque: its registers are not counted at the call.
func (a *Analyzer) callee(in *ir.Instr) *ir.Func {
	if in.Target != nil && in.Target.Foreign {
		return nil // a helper of another header: an opaque call, as before it was linked
	}
	if in.Target != nil || !a.python {
		return in.Target
	}
	return a.funcs.Func(in.Name)
}

// New returns an Analyzer for the regions of f.
func New(f *ir.File) *Analyzer {
	return &Analyzer{funcs: ir.NewFuncIndex(f), python: f.Lang == ir.Python, summary: map[*ir.Func]*summary{}, active: map[*ir.Func]bool{}}
}

// Analyze returns the pressure of fn.
func (a *Analyzer) Analyze(fn *ir.Func) *Result {
	res := &Result{Func: fn}
	if !fn.Kind.Analysed() || fn.Body == nil {
		return res
	}
	used := make([]bool, len(fn.Regs))
	for _, in := range fn.Instrs {
		for _, r := range in.Defs {
			used[r] = true
		}
		for _, r := range in.Uses {
			used[r] = true
		}
	}
	for _, r := range fn.Regs {
		c, ok := classOf(r)
		if !ok || r.Implicit {
			continue
		}
		res.Classes[c].Declared += Size(r)
		if used[r.ID] {
			res.Classes[c].Used += Size(r)
		}
	}
	read := make([]bool, len(fn.Regs))
	for _, in := range fn.Instrs {
		for _, r := range in.Uses {
			read[r] = true
		}
	}
	deadCode := func(in *ir.Instr) bool {
		if len(in.Defs) == 0 || in.Op == ir.OpCall || in.Op == ir.OpUnknown || len(in.PtrDefs) > 0 || in.Op.Info().Cat.IsStore() {
			return false
		}
		for _, d := range in.Defs {
			if read[d] || fn.Regs[d].Param || fn.Regs[d].Ref {
				return false // read somewhere, or an output of the region
			}
		}
		return true
	}
	opaque := func(in *ir.Instr) bool {
		return in.Op == ir.OpUnknown || in.Op == ir.OpCall && a.callee(in) == nil
	}
	sums := map[*ir.Instr]*summary{}
	for _, in := range fn.Instrs {
		if in.Op == ir.OpCall {
			if h := a.callee(in); h != nil && h != fn {
				if s := a.helperPeak(h); s != nil {
					sums[in] = s
				}
			}
		}
	}
	wo := func(in *ir.Instr, k int) bool { s := sums[in]; return s != nil && s.writeOnly[k] }
	type peak struct {
		seen bool       // Peak was reached at some instruction
		set  set        // the registers live at the highest peak so far
		add  []ir.RegID // the constant masks made again there
	}
	var peaks [NumClasses]peak
	lv := newLivenessCalls(fn, wo, opaque)
	lv.solve()
	for _, in := range fn.Instrs {
		lin, lout := lv.pressureSets(in)
		var extra [NumClasses]int
		switch in.Op {
		case ir.OpLoad:
			extra[ULoad]++ // the hidden unaligned register of the generic Load
		case ir.OpStore:
			extra[UStore]++
		}
		// The constant masks read here, made again where they are needed:
		// one register per distinct value. Each dies here (its next reader
		// makes it again), and an instruction reads its sources before it
		// writes its destinations, so they count before the instruction
		// only: what it defines may take their registers, as it may a
		// dying source's (MaskAnd(m, m, t, mask) writes the m it reads).
		var remat []ir.RegID
		keys := map[string]bool{}
		for _, r := range in.Uses {
			if lv.remat[r] {
				if k := maskKey(lv.def[r]); !keys[k] {
					keys[k] = true
					remat = append(remat, r)
				}
			}
		}
		sum := sums[in]
		across := lout.union(lv.gens[in.ID])
		if opaque(in) || deadCode(in) {
			// What happens inside an unknown call or a macro is not
			// visible: count what is provably live around it, not every
			// register it may write at once. An instruction whose results
			// nothing reads is dead code the compiler removes: it holds
			// no register.
			across = lout
		}
		for c := Class(0); c < NumClasses; c++ {
			nIn, nAcross := lv.count(lin, c), lv.count(across, c)
			var add []ir.RegID
			if c == Mask {
				nIn, add = nIn+len(remat), remat
			}
			n, set := nIn, lin
			if nAcross > nIn {
				n, set, add = nAcross, across, nil
			}
			n += extra[c]
			helper := extra[c]
			if sum != nil {
				// At a call: the caller's registers still needed after it
				// (not passed in), plus the helper's own peak, which
				// counts the registers passed in that it still uses, plus
				// the arguments the caller needs after the call that the
				// helper no longer uses at its peak.
				// An argument the helper only writes (an out-parameter)
				// holds nothing before the helper writes it: it counts
				// only where the helper's summary says so. One that
				// passes through (live before and after the call) and is
				// not live at the helper's peak stays in rest, listed.
				rest := lout.clone()
				for k, arg := range in.Args {
					if arg.Reg == ir.NoReg {
						continue
					}
					through := int(lv.class[arg.Reg]) == int(c) && !sum.liveParams[c][k] && lv.countOperand(lin, arg) > 0
					if !through {
						lv.delReg(rest, arg.Reg)
					}
				}
				if m := lv.count(rest, c) + sum.peak[c]; m > n {
					n, set, helper, add = m, rest, sum.peak[c], nil
				}
			}
			p := &res.Classes[c]
			if n > p.Peak {
				p.Peak, p.At, p.Helper = n, in, helper
				peaks[c] = peak{true, set.clone(), add}
			}
		}
	}
	// The registers live at each peak, listed once the peak is known: a
	// region whose pressure rises at every instruction would list them
	// again at each.
	for c := Class(0); c < NumClasses; c++ {
		if pk := peaks[c]; pk.seen {
			p := &res.Classes[c]
			p.Live, p.Weight = lv.members(pk.set, c)
			for _, r := range pk.add {
				p.Live = append(p.Live, r)
				p.Weight = append(p.Weight, 1)
			}
		}
	}
	return res
}

// helperPeak returns the summary of a helper: its peak per class (the
// registers passed in that it still uses there included) and the indexes of
// the parameters live at the peak.
func (a *Analyzer) helperPeak(h *ir.Func) *summary {
	if s, ok := a.summary[h]; ok {
		return s
	}
	if a.active[h] || !h.Kind.Analysed() {
		return nil // recursion: count the helper's registers once
	}
	a.active[h] = true
	defer delete(a.active, h)
	r := a.Analyze(h)
	s := &summary{writeOnly: map[int]bool{}}
	lh := Liveness(h).lv
	for k, prm := range h.Params {
		if prm.Reg != ir.NoReg && h.Regs[prm.Reg].Ref && !lh.hasReg(lh.entry, prm.Reg) {
			s.writeOnly[k] = true
		}
	}
	for c := Class(0); c < NumClasses; c++ {
		s.peak[c] = r.Classes[c].Peak
		s.liveParams[c] = map[int]bool{}
		for _, id := range r.Classes[c].Live {
			for k, prm := range h.Params {
				if prm.Reg == id {
					s.liveParams[c][k] = true
				}
			}
		}
	}
	a.summary[h] = s
	return s
}

// AnalyzeFile returns the pressure of every analysed region of f, in order.
func AnalyzeFile(f *ir.File) []*Result {
	a := New(f)
	var out []*Result
	for _, fn := range f.Funcs {
		if fn.Kind.Analysed() {
			out = append(out, a.Analyze(fn))
		}
	}
	return out
}

// Over returns the classes whose peak exceeds the budget.
func (r *Result) Over(b Budget) []Class {
	var out []Class
	for c := Class(0); c < NumClasses; c++ {
		if r.Classes[c].Peak > b[c] {
			out = append(out, c)
		}
	}
	return out
}

// sortRegs orders register IDs by declaration.
func sortRegs(ids []ir.RegID) {
	sort.Slice(ids, func(i, j int) bool { return ids[i] < ids[j] })
}
