package align

import (
	"strings"

	"github.com/ascvet/ascvet/analyzers/internal/linear"
	"github.com/ascvet/ascvet/cppfront/ir"
)

// FaultKind says what breaks an alignment.
type FaultKind uint8

const (
	FaultOffset  FaultKind = iota // a constant offset from a 32-byte-aligned base parameter
	FaultStride                   // the address moves by a misaligned step each iteration of a loop
	FaultPost                     // a constant post-update stride
	FaultAddrReg                  // a constant AddrReg step (CreateAddrReg stride) per iteration
)

// Fault is one proven misalignment of an access.
type Fault struct {
	Kind   FaultKind
	Loop   *ir.Loop  // FaultStride, FaultAddrReg: the loop whose variable moves the address
	Base   string    // FaultOffset: the aligned base parameter
	Elems  int64     // the offset, step or stride in elements; 0 when it differs between candidate sizes
	Type   string    // the element type as written ("half", "T"), "" when unknown
	Size   int64     // element size in bytes; 0 when T is a template parameter and the fault holds at every size
	Align  int64     // required alignment in bytes (at the first candidate size)
	Create *ir.Instr // FaultAddrReg: the CreateAddrReg that sets the step
	Arg    int       // FaultAddrReg: argument index of the stride in Create
}

// Bytes returns the misaligned amount in bytes, when the size is known.
func (f Fault) Bytes() int64 { return f.Elems * f.Size }

// faultKey identifies a fault across candidate sizes.
type faultKey struct {
	kind FaultKind
	loop ir.LoopID
	arg  int
}

// intersect keeps the faults found at every candidate size (per is one map
// per size, in order), taking the first size's numbers; size is the one
// element size when there is one, else 0.
func intersect(per []map[faultKey]Fault, size int64) []Fault {
	if len(per) == 0 {
		return nil
	}
	var out []Fault
	for k, f := range per[0] {
		all := true
		for _, m := range per[1:] {
			if _, ok := m[k]; !ok {
				all = false
				break
			}
		}
		if !all {
			continue
		}
		for _, m := range per[1:] {
			if m[k].Elems != f.Elems {
				f.Elems = 0
			}
		}
		f.Size = size
		out = append(out, f)
	}
	// Deterministic order: by kind, then loop, then argument.
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && less(out[j], out[j-1]); j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
}

func less(a, b Fault) bool {
	if a.Kind != b.Kind {
		return a.Kind < b.Kind
	}
	la, lb := loopID(a.Loop), loopID(b.Loop)
	if la != lb {
		return la < lb
	}
	return a.Arg < b.Arg
}

func loopID(l *ir.Loop) ir.LoopID {
	if l == nil {
		return ir.NoLoop
	}
	return l.ID
}

// AddressFaults returns the proven misalignments of a's UB address: a step
// per iteration of an enclosing loop that breaks the mode's alignment (the
// address is then misaligned in one of two consecutive iterations, whatever
// the base), or a constant offset from a base parameter assumed 32-byte
// aligned. Addresses that do not fold, that hold a cast, or whose element
// size cannot be tied to T are never reported.
func (fr *Frame) AddressFaults(a *Access) []Fault {
	op := a.Instr.Args[a.Ptr]
	if op.Expr == nil || hasCast(op.Text) || !a.Mode.Known() {
		return nil
	}
	l0, ok := linear.Of(op.Expr)
	if !ok {
		return nil
	}
	base := ""
	for k, c := range l0.Terms {
		if _, isParam := fr.params[k]; !isParam {
			continue
		}
		if c != 1 || base != "" {
			return nil
		}
		base = k
	}
	sizes, tname, typ := a.Sizes(), a.Elem, a.Elem
	if _, known := ir.ElemSize(a.Elem); known {
		tname = ""
	}
	if p, isParam := fr.params[base]; isParam && base != "" {
		if sz, ok := ir.ElemSize(p.Type); ok {
			if asz, aok := ir.ElemSize(a.Elem); aok && asz != sz && a.Kind == KindData {
				return nil // the pointer is not a T pointer: a cast the IR does not show
			}
			sizes, tname, typ = []int64{sz}, "", p.Type
		} else if p.Type != a.Elem {
			sizes, tname, typ = []int64{1, 2, 4, 8}, p.Type, p.Type
		}
	}
	_, aligned := fr.Base(base)
	in := a.Instr
	var per []map[faultKey]Fault
	for _, s := range sizes {
		A := a.Mode.Align(s)
		if A <= 0 {
			return nil
		}
		l, ok := linear.Of(bindSizeof(op.Expr, tname, s))
		if !ok {
			return nil
		}
		m := map[faultKey]Fault{}
		type loopTerm struct {
			l    *ir.Loop
			key  string
			step int64 // elements per iteration
		}
		var loops []loopTerm
		other := false
		for _, k := range sortedKeys(l.Terms) {
			if k == base {
				continue
			}
			if lp := fr.loopOf(in, k); lp != nil {
				if st, ok := Step(lp); ok {
					loops = append(loops, loopTerm{lp, k, l.Terms[k] * st})
					continue
				}
			}
			other = true
		}
		onGrid := true
		for _, t := range loops {
			if Mod(t.step*s, A) == 0 {
				continue
			}
			onGrid = false
			if !fr.everyIteration(in, t.l) || base != "" && fr.varies(base, t.l) {
				continue
			}
			inv := true
			for k := range l.Terms {
				if k != t.key && k != base && fr.varies(k, t.l) {
					inv = false
				}
			}
			if inv {
				m[faultKey{FaultStride, t.l.ID, 0}] = Fault{Kind: FaultStride, Loop: t.l, Elems: t.step, Type: typ, Align: A}
			}
		}
		if aligned && !other && onGrid && Mod(l.C*s, A) != 0 {
			m[faultKey{FaultOffset, ir.NoLoop, 0}] = Fault{Kind: FaultOffset, Base: base, Elems: l.C, Type: typ, Align: A}
		}
		per = append(per, m)
	}
	return intersect(per, single(sizes))
}

// single returns the only element of sizes, or 0.
func single(sizes []int64) int64 {
	if len(sizes) == 1 {
		return sizes[0]
	}
	return 0
}

// loopOf returns the loop around in whose variable is name.
func (fr *Frame) loopOf(in *ir.Instr, name string) *ir.Loop {
	for _, l := range fr.Enclosing(in) {
		if l.Var == name {
			return l
		}
	}
	return nil
}

// PostFault returns the fault of a's constant post-update stride, when
// stride * sizeof(T) breaks the mode's alignment at every size T may have.
// Mask loads and stores (whose offset the documentation gives in bytes but
// the implementation applies to a uint32_t pointer) and block copies
// (whose stride counts DataBlocks) are not checked.
func (fr *Frame) PostFault(a *Access) (Fault, bool) {
	if a.Stride < 0 || a.Kind != KindData || !a.Mode.Known() {
		return Fault{}, false
	}
	e := a.Instr.Args[a.Stride].Expr
	sizes := a.Sizes()
	var per []map[faultKey]Fault
	for _, s := range sizes {
		A := a.Mode.Align(s)
		v, ok := Const(e, a.Elem, s)
		if A <= 0 || !ok {
			return Fault{}, false
		}
		m := map[faultKey]Fault{}
		if Mod(v*s, A) != 0 {
			m[faultKey{FaultPost, ir.NoLoop, a.Stride}] = Fault{Kind: FaultPost, Elems: v, Type: a.Elem, Align: A, Arg: a.Stride}
		}
		per = append(per, m)
	}
	fs := intersect(per, single(sizes))
	if len(fs) == 0 {
		return Fault{}, false
	}
	return fs[0], true
}

// AddrRegFaults returns the faults of the AddrReg offset of a: for every
// CreateAddrReg in the region that defines the register, each index that is
// the variable of a loop around both the CreateAddrReg and the access, and
// whose constant stride times the loop step is, in bytes (elements of the
// CreateAddrReg type), off the mode's alignment at every size. An AddrReg
// parameter is the caller's, and is not followed.
func (fr *Frame) AddrRegFaults(a *Access) []Fault {
	if a.AddrReg < 0 || a.Kind != KindData || !a.Mode.Known() {
		return nil
	}
	r := a.Instr.Args[a.AddrReg].Reg
	if r == ir.NoReg || fr.Fn.Regs[r].Param {
		return nil
	}
	var defs []*ir.Instr
	for _, c := range fr.Fn.Instrs {
		if defines(c, r) {
			defs = append(defs, c)
		}
	}
	// One definition reaches every use. With several, only an
	// unconditional one that is the last before the access is sure to be
	// the one the access reads.
	if len(defs) > 1 {
		var last *ir.Instr
		for _, c := range defs {
			if c.ID < a.Instr.ID {
				last = c
			}
		}
		if last == nil || last.Cond {
			return nil
		}
		defs = []*ir.Instr{last}
	}
	var out []Fault
	for _, c := range defs {
		if c.Op != ir.OpCreateAddrReg || c.Form == ir.FormRaw {
			continue
		}
		out = append(out, fr.createFaults(a, c)...)
	}
	return out
}

func defines(in *ir.Instr, r ir.RegID) bool {
	for _, d := range in.Defs {
		if d == r {
			return true
		}
	}
	return false
}

// createFaults checks the index/stride pairs of one CreateAddrReg.
func (fr *Frame) createFaults(a *Access, c *ir.Instr) []Fault {
	if len(c.Args)%2 != 0 {
		return nil
	}
	// Candidate (CreateAddrReg size, access size) pairs: tied when both are
	// the same template parameter.
	type pair struct{ cs, as int64 }
	var pairs []pair
	csz, cok := createSize(c)
	switch {
	case cok:
		for _, s := range a.Sizes() {
			pairs = append(pairs, pair{csz, s})
		}
	case c.Elem != "" && c.Elem == a.Elem:
		for _, s := range a.Sizes() {
			pairs = append(pairs, pair{s, s})
		}
	default:
		for _, cs := range []int64{1, 2, 4, 8} {
			for _, s := range a.Sizes() {
				pairs = append(pairs, pair{cs, s})
			}
		}
	}
	var per []map[faultKey]Fault
	for _, p := range pairs {
		A := a.Mode.Align(p.as)
		if A <= 0 {
			return nil
		}
		m := map[faultKey]Fault{}
		for k := 0; k+1 < len(c.Args); k += 2 {
			idx := c.Args[k].Expr
			if idx == nil || idx.Kind != ir.ExprSym {
				continue
			}
			l := fr.loopOf(c, idx.Name)
			if l == nil || !fr.inside(a.Instr, l) || !fr.everyIteration(a.Instr, l) {
				continue
			}
			st, ok := Step(l)
			if !ok {
				continue
			}
			v, ok := Const(c.Args[k+1].Expr, c.Elem, p.cs)
			if !ok || Mod(v*st*p.cs, A) == 0 {
				continue
			}
			m[faultKey{FaultAddrReg, l.ID, k + 1}] = Fault{Kind: FaultAddrReg, Loop: l, Elems: v * st, Type: c.Elem, Align: A, Create: c, Arg: k + 1}
		}
		per = append(per, m)
	}
	size := pairs[0].cs
	for _, p := range pairs {
		if p.cs != size {
			size = 0 // the numbers hold at no single size
		}
	}
	return intersect(per, size)
}

// createSize returns the element size of a CreateAddrReg: its type argument,
// or the _b8/_b16/_b32 suffix of the C name.
func createSize(c *ir.Instr) (int64, bool) {
	if sz, ok := ir.ElemSize(c.Elem); ok {
		return sz, true
	}
	if c.Form == ir.FormCAPI {
		for suf, sz := range map[string]int64{"_b8": 1, "_b16": 2, "_b32": 4} {
			if strings.HasSuffix(c.Name, suf) {
				return sz, true
			}
		}
	}
	return 0, false
}
