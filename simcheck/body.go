package simcheck

import (
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/ascvet/ascvet/cppfront/ir"
)

// DefaultIterations is how many iterations a loop whose trip count does
// not fold is simulated for (-iterations overrides it).
const DefaultIterations = 16

// maxInner caps how many times an inner loop's body is repeated inside one
// iteration of the loop being simulated.
const maxInner = 4096

// MaxBodyInsts caps the instructions of one simulated body: nested loops
// repeat their bodies, which grows as the product of their trip counts, so
// past this size inner loops are no longer repeated (Body.Truncated says so).
const MaxBodyInsts = 8192

// BodyOf returns the body of loop lp of fn as the simulator sees it: its
// instructions in program order, with inner loops repeated by their trip
// count (DefaultIterations when it does not fold, capped), both branches of
// an if counted, and composite ops expanded (a generic Load is a Pre and a
// LoadUnAlign through a hidden unaligned register, a generic Store a
// StoreUnAlign and a Post, a MERGING op one more Move). skip drops
// instructions (how a rule simulates "after the fix").
//
// The body is the one the compiler builds for the function's instantiation
// (ir.Func.SoleInstance): an if constexpr whose condition folds contributes
// its taken branch, one that does not fold its costlier branch, and a call
// of a helper whose definition is lowered (Instr.Target) is the helper's
// body, inlined (ir.Inline).
func BodyOf(fn *ir.Func, lp *ir.Loop, skip func(*ir.Instr) bool) Body {
	return BodyOfInstance(fn, fn.SoleInstance(), lp, skip)
}

// BodyOfInstance is BodyOf for the instantiation of fn that bind fixes.
func BodyOfInstance(fn *ir.Func, bind ir.Bindings, lp *ir.Loop, skip func(*ir.Instr) bool) Body {
	b := newBuilder(fn, bind, skip)
	b.loopVar = lp.Var
	b.block(lp.Body)
	return b.body()
}

func newBuilder(fn *ir.Func, bind ir.Bindings, skip func(*ir.Instr) bool) *builder {
	b := &builder{fn: fn, skip: skip, regs: append([]*ir.Reg(nil), fn.Regs...), bind: bind}
	if buf, ok := instBufs.Get().(*[]Inst); ok {
		b.buf, b.insts = buf, (*buf)[:0]
	}
	return b
}

// instBufs holds the buffers bodies are built in. A body grows by appends
// to sizes not known beforehand (inner loops repeated, helpers inlined):
// grown from nothing, a body of n instructions allocated about 2.5n of
// them, and the rules build every innermost loop's body once per
// instantiation, a fifth of what a check allocates. Built in a reused
// buffer, a body allocates only its copy of the exact size.
var instBufs sync.Pool

// body returns the body built, in its own slice, and gives the buffer back.
func (b *builder) body() Body {
	var insts []Inst
	if len(b.insts) > 0 {
		insts = slices.Clone(b.insts)
	}
	if b.buf == nil {
		b.buf = new([]Inst)
	}
	clear(b.insts) // the pool keeps no IR alive
	*b.buf = b.insts[:0]
	instBufs.Put(b.buf)
	b.buf, b.insts = nil, nil
	return Body{Insts: insts, Regs: b.regs, Truncated: b.truncated, Capped: b.capped, Loops: b.loops, Opaque: b.opaque, Assumed: b.assumed}
}

// RegionBody returns a whole region as one straight-line body, loops
// repeated by their trip count (capped at iterations).
func RegionBody(fn *ir.Func, iterations int, skip func(*ir.Instr) bool) Body {
	b := newBuilder(fn, fn.SoleInstance(), skip)
	b.outer = iterations
	b.block(fn.Body)
	body := b.body()
	body.Capped = false
	return body
}

// Trip returns how many iterations to simulate lp for.
// A loop that runs at most once (ir.Loop.AtMostOnce) runs once.
func Trip(lp *ir.Loop, iterations int) int {
	if lp.TripKnown {
		return int(max(lp.Trip, 0))
	}
	if lp.AtMostOnce {
		return 1
	}
	return iterations
}

type builder struct {
	fn        *ir.Func
	skip      func(*ir.Instr) bool
	regs      []*ir.Reg
	insts     []Inst
	buf       *[]Inst   // the pooled buffer insts grows in (instBufs), nil when none
	outer     int       // for RegionBody: the cap of every loop's repetition
	loopVar   string    // the simulated loop's variable
	truncated bool      // inner-loop repetitions were cut at MaxBodyInsts
	capped    bool      // an inner loop was repeated maxInner times, fewer than its trip count
	reps      []loopRep // the repeated loops around the current instruction, outermost first
	bind      ir.Bindings
	div64Alt  map[*ir.Instr]Div64Remedy // the 64-bit Divs a fix rewrites (BodyWithDiv64)
	depth     int                       // helpers being inlined around the current instruction
	opaque    []string                  // helpers whose bodies are not known, each once
	assumed   []string                  // if constexpr not folded, as assumed
	loops     int                       // loops met
	via       *ir.Instr                 // the caller's call being inlined
}

// loopRep is a loop the builder repeats and the repetition being built:
// an address that names its variable is another address in each.
type loopRep struct {
	v   string
	rep int
}

func (b *builder) block(bl *ir.Block) {
	if bl == nil {
		return
	}
	for _, n := range bl.Nodes {
		switch n := n.(type) {
		case *ir.Instr:
			b.instr(n)
		case *ir.If:
			if taken, ok := n.Taken(b.bind); ok {
				b.block(taken)
				continue
			}
			if n.Constexpr {
				// One branch is compiled, which one is not known here:
				// time the instantiation that costs more.
				cond := n.CondText
				if Cost(n.Else) > Cost(n.Then) {
					cond = "!(" + cond + ")"
					b.block(n.Else)
				} else {
					b.block(n.Then)
				}
				if !slices.Contains(b.assumed, cond) {
					b.assumed = append(b.assumed, cond)
				}
				continue
			}
			b.block(n.Then)
			b.block(n.Else)
		case *ir.Loop:
			b.loops++
			limit := maxInner
			if b.outer > 0 {
				limit = b.outer
			}
			trip := Trip(b.bind.Loop(n), DefaultIterations)
			reps := min(trip, limit)
			if reps < trip {
				b.capped = true
			}
			if b.outer == 0 && len(b.reps) == 0 && reps > 0 {
				// A hardware loop nested in the simulated one starts a run.
				b.insts = append(b.insts, Inst{Op: ir.OpUnknown, Gate: true, Text: "(inner loop start)"})
			}
			for r := 0; r < reps; r++ {
				if r > 0 && len(b.insts) >= MaxBodyInsts {
					b.truncated = true
					break
				}
				b.reps = append(b.reps, loopRep{n.Var, r})
				b.block(n.Body)
				b.reps = b.reps[:len(b.reps)-1]
			}
		}
	}
}

// hidden adds a register the source does not name (a generic Load's
// unaligned register).
func (b *builder) hidden(class ir.RegClass) ir.RegID {
	id := ir.RegID(len(b.regs))
	b.regs = append(b.regs, &ir.Reg{ID: id, Name: "hidden", Class: class, ArrayLen: 1, Implicit: true})
	return id
}

func (b *builder) instr(in *ir.Instr) {
	if b.skip != nil && b.skip(in) {
		return
	}
	if len(b.insts) >= 4*MaxBodyInsts {
		b.truncated = true // a straight-line body this long: stop adding
		return
	}
	if in.Op == ir.OpCall && b.call(in) {
		return
	}
	if in.Op == ir.OpUnknown && len(in.Defs)+len(in.Uses) > 0 && in.Name != "" && !slices.Contains(b.opaque, in.Name) {
		b.opaque = append(b.opaque, in.Name) // a call on registers whose body is not known: a helper of another file, a macro
	}
	base := Inst{Instr: in, Via: b.via, Op: in.Op, Elem: b.bind.Type(in.Elem), Defs: in.Defs, Uses: in.Uses, Ptrs: in.PtrDefs, Text: in.Callee}
	for _, a := range in.Args {
		// Only a plain address (not post-updated, no AddrReg offset) can be
		// proven equal to another: the text of the expression.
		if a.Role == ir.ArgPtr && a.Expr != nil && a.Expr.Kind != ir.ExprUnknown && !hasAddrArg(in) {
			base.Addr = a.Expr.String()
			base.Iter = b.loopVar != "" && a.Expr.Mentions(b.loopVar)
			for _, r := range b.reps {
				if r.v != "" && a.Expr.Mentions(r.v) {
					base.Addr += "#" + r.v + "=" + strconv.Itoa(r.rep) // another repetition, other bytes
				}
			}
		}
	}
	base.Banks = b.blockBanks(in)
	base.UB = b.ubAddr(in)
	switch in.Op {
	case ir.OpLoad:
		u := b.hidden(ir.ClassUnalignLoad)
		pre := base
		pre.Op, pre.Defs, pre.Uses, pre.Text = ir.OpLoadUnAlignPre, []ir.RegID{u}, nil, in.Callee+" (Pre)"
		ld := base
		ld.Op, ld.Uses, ld.Defs = ir.OpLoadUnAlign, append(append([]ir.RegID(nil), in.Uses...), u), append(append([]ir.RegID(nil), in.Defs...), u)
		b.insts = append(b.insts, pre, ld)
	case ir.OpStore:
		u := b.hidden(ir.ClassUnalignStore)
		st := base
		st.Op, st.Uses, st.Defs = ir.OpStoreUnAlign, append(append([]ir.RegID(nil), in.Uses...), u), []ir.RegID{u}
		post := base
		post.Op, post.Uses, post.Defs, post.Text = ir.OpStoreUnAlignPost, []ir.RegID{u}, nil, in.Callee+" (Post)"
		b.insts = append(b.insts, st, post)
	default:
		if b.traitOne64(in) {
			b.viaTraitTwo(base)
			return
		}
		if intDiv64(in, base.Elem) {
			b.div64(base)
			return
		}
		if n := softOpName(in.Op, base.Elem); n != "" && !slices.Contains(b.opaque, n) {
			b.opaque = append(b.opaque, n) // timed as the float op it is not
		}
		b.insts = append(b.insts, base)
		if in.Merging && in.Op != ir.OpMove && in.Op != ir.OpMaskMove && in.Op != ir.OpDuplicate && len(in.Defs) > 0 {
			// MERGING outside Move/Duplicate is emulated: compute, then a masked move.
			mv := Inst{Instr: in, Via: b.via, Op: ir.OpMove, Elem: base.Elem, Defs: in.Defs[:1], Uses: in.Defs[:1], Text: in.Callee + " (merge)"}
			b.insts = append(b.insts, mv)
		}
	}
}

// call inlines a call of a helper whose body is known, and reports
// whether it did. A helper that is not known, or is called deeper than
// ir.MaxInlineDepth, stays one instruction, and is named in Body.Opaque.
func (b *builder) call(in *ir.Instr) bool {
	if in.Target != nil && b.depth < ir.MaxInlineDepth {
		body, regs, inner, ok := ir.InlineOwned(in, b.regs, b.bind) // b.regs is the builder's own copy
		if ok {
			b.regs = regs
			outer := b.bind
			b.bind = inner
			if b.depth == 0 {
				b.via = in
			}
			b.depth++
			b.block(body)
			b.depth--
			b.bind = outer
			if b.depth == 0 {
				b.via = nil
			}
			return true
		}
	}
	if !slices.Contains(b.opaque, in.Name) {
		b.opaque = append(b.opaque, in.Name)
	}
	return false
}

// Cost is the number of instructions a block issues once as the simulator
// counts them: an if constexpr its costlier branch, a runtime if both, a
// loop its body once, a helper call one.
func Cost(bl *ir.Block) int {
	if bl == nil {
		return 0
	}
	n := 0
	for _, x := range bl.Nodes {
		switch x := x.(type) {
		case *ir.Instr:
			n++
		case *ir.Loop:
			n += Cost(x.Body)
		case *ir.If:
			if x.Constexpr {
				n += max(Cost(x.Then), Cost(x.Else))
			} else {
				n += Cost(x.Then) + Cost(x.Else)
			}
		}
	}
	return n
}

// InstsBelow reports whether every body built from bl (BodyOf,
// BodyOfInstance: any instantiation, any skip) that meets no loop
// (Body.Loops == 0) holds fewer than limit instructions. It counts every
// branch of every if, inlines each helper whose body is known as the
// builder does (to ir.MaxInlineDepth, the call itself counted too, for
// when Inline refuses it), and counts each instruction at the most it
// expands to: a generic Load or Store two, a MERGING op two, an Add, Sub,
// Mul or Div its sources and two more (viaTraitTwo). A Div on 64-bit
// integers counts so too, not as the library's sequence it runs (div64):
// the rules that ask (the scheduling rules, through simcost.Stats) leave a
// loop that runs one alone, and a template's Div counted as that sequence
// would keep most loops from being spared. A loop inside counts
// nothing: a body that meets one is no straight line (Body.Loops). It
// stops counting at limit, so its work is bounded by limit, not by the
// helpers' sizes. LongestChain of such a body is below limit too.
func InstsBelow(bl *ir.Block, limit int) bool {
	return instsUpTo(bl, 0, limit) < limit
}

// instsUpTo is InstsBelow's count, at helper depth depth, stopped once it
// reaches limit.
func instsUpTo(bl *ir.Block, depth, limit int) int {
	if bl == nil {
		return 0
	}
	n := 0
	for _, x := range bl.Nodes {
		if n >= limit {
			return n
		}
		switch x := x.(type) {
		case *ir.Instr:
			switch {
			case x.Op == ir.OpCall && x.Target != nil && x.Target.Body != nil && depth < ir.MaxInlineDepth:
				n += 1 + instsUpTo(x.Target.Body, depth+1, limit-n)
			case x.Op == ir.OpLoad, x.Op == ir.OpStore, x.Merging:
				n += 2
			case x.Op == ir.OpAdd, x.Op == ir.OpSub, x.Op == ir.OpMul, x.Op == ir.OpDiv:
				n += len(x.Uses) + 2
			default:
				n++
			}
		case *ir.If:
			n += instsUpTo(x.Then, depth, limit-n)
			n += instsUpTo(x.Else, depth, limit-n)
		}
	}
	return n
}

// traitOne64 reports whether in is a 64-bit Add, Sub, Mul or Div on
// RegTraitNumOne registers. The 950 library computes those on the two
// 32-bit halves: it splits each source into a RegTraitNumTwo pair and
// joins the result (CalTraitOneByTransToTraitTwo in asc-devkit's
// impl/basic_api/reg_compute/dav_3510/kernel_reg_compute_vec_binary_impl.h),
// which a RegTraitNumTwo register, loaded already split, does not pay.
func (b *builder) traitOne64(in *ir.Instr) bool {
	switch in.Op {
	case ir.OpAdd, ir.OpSub, ir.OpMul, ir.OpDiv:
	default:
		return false
	}
	if sz, ok := ir.ElemSize(in.Elem); !ok || sz != 8 || strings.HasPrefix(strings.TrimPrefix(in.Elem, "AscendC::"), "complex") {
		return false
	}
	n := 0
	for _, id := range in.Uses {
		if r := b.reg(id); r != nil && r.Class == ir.ClassVReg {
			if r.TwoRegs {
				return false
			}
			n++
		}
	}
	return n > 0
}

// viaTraitTwo appends in as the library runs it on RegTraitNumOne
// registers: a DeInterleave (VDINTLV) of each vector source into a hidden
// pair, the op on the pairs, an Interleave (VINTLV) back into the
// destination. The zero register and the packed mask the library also
// makes are loop-invariant and left out.
func (b *builder) viaTraitTwo(in Inst) {
	op := in
	op.Uses = append([]ir.RegID(nil), in.Uses...)
	for i, id := range op.Uses {
		if r := b.reg(id); r == nil || r.Class != ir.ClassVReg {
			continue
		}
		t := b.hidden(ir.ClassVReg)
		b.insts = append(b.insts, Inst{Instr: in.Instr, Via: in.Via, Op: ir.OpDeInterleave, Elem: "uint32_t", Defs: []ir.RegID{t}, Uses: []ir.RegID{id}, Text: in.Text + " (split to RegTraitNumTwo)"})
		op.Uses[i] = t
	}
	if len(in.Defs) == 0 {
		b.insts = append(b.insts, op)
		return
	}
	d := b.hidden(ir.ClassVReg)
	op.Defs = append([]ir.RegID{d}, in.Defs[1:]...)
	if intDiv64(in.Instr, in.Elem) {
		b.div64(op)
	} else {
		b.insts = append(b.insts, op)
	}
	b.insts = append(b.insts,
		Inst{Instr: in.Instr, Via: in.Via, Op: ir.OpInterleave, Elem: "uint32_t", Defs: in.Defs[:1], Uses: []ir.RegID{d}, Text: in.Text + " (join to RegTraitNumOne)"})
}

func (b *builder) reg(id ir.RegID) *ir.Reg {
	if int(id) < 0 || int(id) >= len(b.regs) {
		return nil
	}
	return b.regs[id]
}

func hasAddrArg(in *ir.Instr) bool {
	for _, a := range in.Args {
		if a.Role == ir.ArgAddr {
			return true
		}
	}
	return false
}

// UB on the 950: 16 banks of 32-byte blocks in 8 groups of 2, addresses
// interleaved {row, bank[0], group[2:0], byte[4:0]}. Per cycle a bank
// serves one access, a group two reads or one write (the 3510 bank
// conflict guide).
const (
	ubGroups     = 8
	ubBanks      = 16
	blocksPerReg = 8 // 32-byte blocks in a 256-byte register
)

// blockBanks returns the port cycles of a DataBlock-mode LoadAlign or
// StoreAlign (DataCopyMode::DATA_BLOCK_COPY, a block stride in blocks):
// its eight blocks go to the banks the stride sends them to, so a stride
// that puts several in one bank (a multiple of 16 blocks: all eight) or
// one group (a multiple of 8) serialises them. 0 for any other access. The
// count does not depend on where the buffer starts.
func blockBanks(in *ir.Instr) int {
	stride, ok := blockStride(in)
	if !ok {
		return 0
	}
	var perBank [ubBanks]int
	var perGroup [ubGroups]int
	for k := range int64(blocksPerReg) {
		b := k * stride
		perGroup[b%ubGroups]++
		perBank[(b%ubGroups)+ubGroups*((b/ubGroups)%2)]++
	}
	bank, group := slices.Max(perBank[:]), slices.Max(perGroup[:])
	if in.Op == ir.OpStoreAlign {
		return group // one write per group a cycle
	}
	return max(bank, (group+1)/2) // one read per bank, two per group
}

// ubAddr returns where an aligned load or store falls in its buffer, when
// its address is a pointer plus an offset that folds once the loop
// variables are known.
func (b *builder) ubAddr(in *ir.Instr) *UBAddr {
	if in.Op != ir.OpLoadAlign && in.Op != ir.OpStoreAlign || hasAddrArg(in) {
		return nil
	}
	size, ok := ir.ElemSize(in.Elem)
	if !ok {
		return nil
	}
	var addr *ir.Expr
	for _, a := range in.Args {
		if a.Role == ir.ArgPtr && a.Expr != nil && a.Expr.Kind != ir.ExprUnknown {
			addr = a.Expr
		}
	}
	if addr == nil {
		return nil
	}
	// The repeated loops' variables are fixed in this copy of the body.
	off := addr.Subst(func(_ ir.ExprKind, name string) *ir.Expr {
		for i := len(b.reps) - 1; i >= 0; i-- {
			if b.reps[i].v == name {
				return ir.Const(int64(b.reps[i].rep))
			}
		}
		return nil
	})
	base := ""
	multi := false
	off.Subst(func(kind ir.ExprKind, name string) *ir.Expr {
		if kind == ir.ExprSym && name != b.loopVar {
			if base != "" && base != name {
				multi = true
			}
			base = name
		}
		return nil
	})
	if base == "" || multi {
		return nil
	}
	// The offset must be affine in the loop variable: fold it at 0, 1 and
	// 2 iterations.
	at := func(iter int64) (int64, bool) {
		return off.Subst(func(_ ir.ExprKind, name string) *ir.Expr {
			switch name {
			case base:
				return ir.Const(0)
			case b.loopVar:
				return ir.Const(iter)
			}
			return nil
		}).Value()
	}
	v0, ok0 := at(0)
	v1, ok1 := at(1)
	v2, ok2 := at(2)
	if !ok0 || !ok1 || !ok2 || v2-v1 != v1-v0 {
		return nil
	}
	stride := int64(1)
	if s, dataBlock, ok := DataBlockStride(in, b.bind); dataBlock {
		if !ok {
			return nil // block-strided by a stride that does not fold: its banks are not known
		}
		stride = s
	}
	return &UBAddr{Base: base, Off: v0, Step: v1 - v0, Elem: size, Stride: stride, Write: in.Op == ir.OpStoreAlign}
}

// blockCopy reports a DataCopyMode::DATA_BLOCK_COPY access.
func blockCopy(in *ir.Instr) bool {
	return slices.ContainsFunc(in.TArgs, func(t string) bool { return strings.Contains(t, "DATA_BLOCK_COPY") })
}

// blockBanks is blockBanks of in under the builder's instantiation: a
// stride a template or scalar parameter fixes folds, and the C API's
// block-strided loads and stores count (DataBlockStride).
func (b *builder) blockBanks(in *ir.Instr) int {
	stride, _, ok := DataBlockStride(in, b.bind)
	if !ok {
		return 0
	}
	return StrideBanks(in.Op == ir.OpStoreAlign, stride)
}

// blockStride returns the block stride (in 32-byte blocks) of a
// DataBlock-mode LoadAlign or StoreAlign (DataCopyMode::DATA_BLOCK_COPY);
// ok is false for any other access, or a stride that does not fold.
func blockStride(in *ir.Instr) (stride int64, ok bool) {
	if in.Op != ir.OpLoadAlign && in.Op != ir.OpStoreAlign {
		return 0, false
	}
	if !blockCopy(in) {
		return 0, false
	}
	for _, a := range in.Args {
		if a.Role == ir.ArgScalar && a.Expr != nil {
			v, ok := a.Expr.Value()
			return v, ok && v >= 0
		}
	}
	return 0, false
}
