package replay

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/ascvet/ascvet/cppfront/ir"
)

// fixKind is the rewrite being proven.
type fixKind uint8

const (
	hoist fixKind = iota // the Pre moves before the loop, priming at the first iteration's address
	sink                 // the Post moves after the loop
	drop                 // the Pre is deleted (it re-primes its stream in place)
)

// regKey names one register, or one element of a register array (part >= 0).
type regKey struct {
	reg  ir.RegID
	part int
}

// stepKind says how the replay executes one node of the loop body.
type stepKind uint8

const (
	stOpaque stepKind = iota // an instruction that does not touch the stream's buffer: uninterpreted
	stNested                 // an if or an inner loop that does not touch it: uninterpreted
	stPre                    // LoadUnAlignPre
	stLoadU                  // LoadUnAlign (plain or post-update)
	stStoreU                 // StoreUnAlign with a count, or of a MaskReg
	stPost                   // StoreUnAlignPost with an offset
	stLoadA                  // LoadAlign DIST_NORM
	stStoreA                 // StoreAlign DIST_NORM
	stLoadG                  // generic Load (Pre + LoadUnAlign on a hidden register)
	stStoreG                 // generic Store (StoreUnAlign + Post on a hidden register)
	stJump                   // break, continue or return: taken always, or per case when conditional
	stBranch                 // an if holding a jump: its branches run per case
)

// step is one node of the loop body with its operands decoded.
type step struct {
	kind   stepKind
	in     *ir.Instr // the instruction (nil for stNested)
	defs   []regKey  // stOpaque, stNested: registers written
	uses   []regKey  // stOpaque, stNested: registers read
	addr   *ir.Expr  // UB address, in elements of the stream's pointer
	ptrRW  bool      // the address is a pointer the instruction advances
	stride *ir.Expr  // post-update stride, StoreUnAlign count or Post offset (elements); nil when absent
	ureg   regKey    // the unaligned register
	data   regKey    // loaded register (loads) or stored register (stores)
	mask   regKey    // governing mask of a StoreAlign
	masked bool      // mask is set
	isMask bool      // stStoreU of a MaskReg (packed predicate bits)
	id     int       // index in prover.all, the step's identity in traces
	jump   ir.JumpKind
	branch int    // stJump, stBranch: the branch point deciding it; -1 for an unconditional jump
	then   []step // stBranch: the taken branch
	els    []step // stBranch: the other one
}

// prover holds what a proof needs from the IR, checked once.
type prover struct {
	fn       *ir.Func
	lp       *ir.Loop
	moved    *ir.Instr // the Pre or the Post
	kind     fixKind
	ureg     regKey   // the stream's unaligned register
	root     string   // the stream's base pointer
	rootType string   // element type name of the root whose size is bound per case ("" when known)
	rootSize int64    // element size of the root when known (0 otherwise)
	steps    []step   // the loop body in program order
	movedAt  int      // index of the moved instruction in steps
	fresh    bool     // the stream's register is declared inside the loop (a new one each iteration)
	after    bool     // the register's value at the loop's end may be read later (liveOut)
	types    []string // type names whose size is bound per case, sorted
	syms     []string // scalar symbols bound per case, sorted
	usesVar  bool     // the loop variable occurs in an executed expression
	init     int64    // loop variable's initial value, when folded
	initOK   bool     // init is folded
	stepBy   int64    // loop variable's step
	maskOnly bool     // a MaskReg stream: element sizes 1, 2 and 4 only
	all      []*step  // every step, nested ones included, by step.id
	branches []string // the branch points, described for messages ("the if (i == stop)")
	returns  bool     // a path leaves the function from inside the loop
	aliases  map[string]*alias
}

// alias is a pointer other than the stream's whose buffer may be the
// stream's: its provenance (the names its value comes from, fn.Names)
// meets the stream pointer's. When its value is the stream pointer's at
// the loop's entry plus an offset the replay can evaluate, its accesses are
// executed on the model; otherwise an access through it that could observe
// the rewrite makes the proof refuse.
type alias struct {
	name string
	off  *ir.Expr // the alias is root + off (elements of the root's type) at the loop's entry; nil when not known
	why  string   // why off is not known
}

// refusal is a reason the replay cannot run a loop.
type refusal string

func (r refusal) Error() string { return string(r) }

func refuse(format string, args ...any) error { return refusal(fmt.Sprintf(format, args...)) }

// describe names an instruction for messages: its canonical op, or the
// callee of a call the op table does not know.
func (p *prover) describe(in *ir.Instr) string {
	name := in.Op.String()
	if in.Op == ir.OpUnknown || in.Op == ir.OpCall {
		name = in.Name
	}
	return name
}

// mentionsWord reports whether the identifier w occurs as a whole word in s.
func mentionsWord(s, w string) bool {
	for i := 0; ; {
		k := strings.Index(s[i:], w)
		if k < 0 {
			return false
		}
		k += i
		before := k == 0 || !identChar(s[k-1])
		after := k+len(w) >= len(s) || !identChar(s[k+len(w)])
		if before && after {
			return true
		}
		i = k + 1
	}
}

func identChar(c byte) bool {
	return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
}

// inLoop reports whether loop l is lp or nested in it.
func inLoop(fn *ir.Func, l ir.LoopID, lp *ir.Loop) bool {
	for ; l != ir.NoLoop; l = fn.Loops[l].Parent {
		if l == lp.ID {
			return true
		}
	}
	return false
}

func hasReg(rs []ir.RegID, r ir.RegID) bool { return slices.Contains(rs, r) }

// uregArg returns the unaligned register operand of in.
func uregArg(fn *ir.Func, in *ir.Instr) (regKey, bool) {
	for _, a := range in.Args {
		if a.Reg != ir.NoReg && fn.Regs[a.Reg].Class.IsUnalign() {
			return regKey{a.Reg, a.Part}, true
		}
	}
	return regKey{}, false
}

// ptrArg returns the index of the UB address operand, or -1.
func ptrArg(in *ir.Instr) int {
	for k, a := range in.Args {
		if a.Role == ir.ArgPtr || a.Role == ir.ArgPtrRW {
			return k
		}
	}
	return -1
}

// scalarAfter returns the first scalar operand after the address, or nil.
func scalarAfter(in *ir.Instr, k int) *ir.Expr {
	for _, a := range in.Args[k+1:] {
		if a.Role == ir.ArgScalar {
			if a.Expr == nil {
				return ir.Unknown(a.Text)
			}
			return a.Expr
		}
	}
	return nil
}

// rootOf returns the base pointer of an address: the one symbol with
// coefficient 1 other than the loop variable, preferring a parameter or a
// post-updated pointer when there are several.
func rootOf(fn *ir.Func, lp *ir.Loop, e *ir.Expr) (string, bool) {
	if e == nil {
		return "", false
	}
	if e.Kind == ir.ExprSym {
		return e.Name, true
	}
	var cands []string
	walkSyms(e, func(kind ir.ExprKind, name string) {
		if kind != ir.ExprSym || name == lp.Var || slices.Contains(cands, name) {
			return
		}
		if _, c, ok := e.Linear(name); ok && c == 1 {
			cands = append(cands, name)
		}
	})
	if len(cands) == 1 {
		return cands[0], true
	}
	var ptrs []string
	for _, c := range cands {
		if isPointerName(fn, c) {
			ptrs = append(ptrs, c)
		}
	}
	if len(ptrs) == 1 {
		return ptrs[0], true
	}
	return "", false
}

// isPointerName reports whether name is a parameter or a pointer some
// instruction of fn post-updates.
func isPointerName(fn *ir.Func, name string) bool {
	for _, in := range fn.Instrs {
		if slices.Contains(in.PtrDefs, name) {
			return true
		}
	}
	for _, p := range fn.Params {
		if p.Name == name && p.Reg == ir.NoReg {
			return true
		}
	}
	return false
}

// walkSyms calls f for every symbol and sizeof in e.
func walkSyms(e *ir.Expr, f func(kind ir.ExprKind, name string)) {
	if e == nil {
		return
	}
	switch e.Kind {
	case ir.ExprSym, ir.ExprSizeof:
		f(e.Kind, e.Name)
	case ir.ExprBin:
		walkSyms(e.X, f)
		walkSyms(e.Y, f)
	case ir.ExprNeg:
		walkSyms(e.X, f)
	}
}

// hasUnknown reports whether e holds a part that could not be represented.
func hasUnknown(e *ir.Expr) bool {
	if e == nil {
		return false
	}
	switch e.Kind {
	case ir.ExprUnknown:
		return true
	case ir.ExprBin:
		return hasUnknown(e.X) || hasUnknown(e.Y)
	case ir.ExprNeg:
		return hasUnknown(e.X)
	}
	return false
}

// touchesRoot reports whether in may access UB through the stream's
// pointer or a known alias of it: its address names one, it advances one,
// or (for calls the op table does not describe) any argument names one.
func (p *prover) touchesRoot(in *ir.Instr) bool {
	return p.touches(in, func(name string) bool { return name == p.root || p.aliases[name] != nil && p.aliases[name].off != nil })
}

// touchesUnknown returns an alias of the stream's buffer at an offset the
// replay does not know that in may access, or nil.
func (p *prover) touchesUnknown(in *ir.Instr) *alias {
	var found *alias
	p.touches(in, func(name string) bool {
		if a := p.aliases[name]; a != nil && a.off == nil {
			found = a
			return true
		}
		return false
	})
	return found
}

// touches reports whether in may access UB through a pointer name for
// which match is true.
func (p *prover) touches(in *ir.Instr, match func(string) bool) bool {
	for _, d := range in.PtrDefs {
		if match(d) {
			return true
		}
	}
	describedOp := in.Op != ir.OpUnknown && in.Op != ir.OpCall && in.Form != ir.FormRaw && in.Form != ir.FormUnknown
	for _, a := range in.Args {
		if describedOp && a.Role != ir.ArgPtr && a.Role != ir.ArgPtrRW {
			continue
		}
		if a.Expr != nil {
			found := false
			walkSyms(a.Expr, func(kind ir.ExprKind, name string) {
				if kind == ir.ExprSym && match(name) {
					found = true
				}
			})
			if found {
				return true
			}
			if !hasUnknown(a.Expr) && !mentionsWord(a.Text, p.root) {
				continue // the folded value says what the text's names stand for
			}
		}
		for _, w := range words(a.Text) {
			if match(w) {
				return true
			}
		}
	}
	return false
}

// words returns the identifiers of s.
func words(s string) []string {
	var out []string
	for i := 0; i < len(s); {
		if !identChar(s[i]) || s[i] >= '0' && s[i] <= '9' {
			i++
			continue
		}
		j := i
		for j < len(s) && identChar(s[j]) {
			j++
		}
		out = append(out, s[i:j])
		i = j
	}
	return out
}

// touchesReg reports whether in reads or writes the register r.
func touchesReg(in *ir.Instr, r ir.RegID) bool {
	return hasReg(in.Uses, r) || hasReg(in.Defs, r)
}

// isRead reports whether in only reads UB (it stores nothing and advances
// no pointer the stream uses).
func isRead(in *ir.Instr) bool {
	c := in.Op.Info().Cat
	return c.IsLoad() && in.Op != ir.OpUnknown && in.Op != ir.OpCall
}

// prepare decodes the loop for the replay, or says why it cannot be replayed.
func prepare(fn *ir.Func, lp *ir.Loop, moved *ir.Instr, kind fixKind) (*prover, error) {
	p := &prover{fn: fn, lp: lp, moved: moved, kind: kind, movedAt: -1}
	u, ok := uregArg(fn, moved)
	if !ok {
		return nil, refuse("the %s has no unaligned register", moved.Op)
	}
	p.ureg = u
	k := ptrArg(moved)
	if k < 0 {
		return nil, refuse("the %s has no address", moved.Op)
	}
	root, ok := rootOf(fn, lp, moved.Args[k].Expr)
	if !ok {
		return nil, refuse("the base pointer of %s is not clear", moved.Args[k].Text)
	}
	p.root = root
	for _, d := range lp.Decls {
		if d == fn.Regs[u.reg].Name {
			p.fresh = true
		}
		if d == root {
			return nil, refuse("the stream's pointer %s is declared inside the loop", root)
		}
	}
	if slices.Contains(lp.Assigns, root) {
		return nil, refuse("the stream's pointer %s is assigned inside the loop", root)
	}
	p.after = liveOut(fn, lp, u.reg)
	p.findAliases()
	steps, err := p.decodeBlock(lp.Body.Nodes, true)
	if err != nil {
		return nil, err
	}
	p.steps = steps
	for i := range p.steps {
		if p.steps[i].in == moved {
			p.movedAt = i
		}
	}
	p.index(p.steps)
	if p.movedAt < 0 {
		return nil, refuse("the %s is not a statement of the loop body", moved.Op)
	}
	want := stPre
	if kind == sink {
		want = stPost
	}
	if p.steps[p.movedAt].kind != want {
		return nil, refuse("the %s is not one the replay models", moved.Op)
	}
	if err := p.bindings(); err != nil {
		return nil, err
	}
	return p, nil
}

// liveOut reports whether the value the register r holds when lp ends may
// be read: walking the statements that follow lp (the rest of its block,
// then of each enclosing block, and for an enclosing loop its body again
// from the start, the next iteration), the first one that touches r reads
// it, or touches it under an if or in an inner loop (not followed further).
// A Pre that re-primes r first ends the question: the value is dead.
func liveOut(fn *ir.Func, lp *ir.Loop, r ir.RegID) bool {
	type level struct {
		nodes []ir.Node // a block
		at    int       // index of the node holding lp
		loop  bool      // the block is a loop body
	}
	var path []level
	var find func(nodes []ir.Node, loop bool) bool
	find = func(nodes []ir.Node, loop bool) bool {
		for i, n := range nodes {
			found := false
			switch n := n.(type) {
			case *ir.Loop:
				found = n == lp || find(n.Body.Nodes, true)
			case *ir.If:
				found = find(n.Then.Nodes, false) || (n.Else != nil && find(n.Else.Nodes, false))
			}
			if found {
				path = append(path, level{nodes, i, loop})
				return true
			}
		}
		return false
	}
	if fn.Body == nil || !find(fn.Body.Nodes, false) {
		return true
	}
	// decide returns whether node n settles the question, and how.
	decide := func(n ir.Node) (settled, live bool) {
		if in, ok := n.(*ir.Instr); ok {
			if !touchesReg(in, r) {
				return false, false
			}
			return true, hasReg(in.Uses, r)
		}
		for _, in := range fn.Instrs {
			a, b := n.Span()
			if in.Pos >= a && in.End <= b && touchesReg(in, r) {
				return true, true
			}
		}
		return false, false
	}
	for _, lv := range path { // innermost first
		for _, n := range lv.nodes[lv.at+1:] {
			if settled, live := decide(n); settled {
				return live
			}
		}
		if lv.loop {
			for _, n := range lv.nodes[:lv.at] {
				if settled, live := decide(n); settled {
					return live
				}
			}
		}
	}
	return false
}

// decodeBlock decodes a block of the loop body (top: the body itself; else
// a branch of an if that holds a jump, whose instructions must not touch
// the stream).
func (p *prover) decodeBlock(nodes []ir.Node, top bool) ([]step, error) {
	var out []step
	for _, n := range nodes {
		switch n := n.(type) {
		case *ir.Instr:
			if !top {
				st := opaqueStep(n)
				if err := p.inner(n); err != nil {
					return nil, err
				}
				out = append(out, st)
				continue
			}
			st, err := p.decode(n)
			if err != nil {
				return nil, err
			}
			out = append(out, st)
		case *ir.Jump:
			// In the loop's body a conditional jump is under a switch or
			// an #if; in a branch, it is the branch's.
			st, err := p.jumpStep(n.Kind, top && n.Cond, "the "+n.Kind.String()+" under a switch or preprocessor conditional")
			if err != nil {
				return nil, err
			}
			out = append(out, st)
		case *ir.If:
			if !p.escapes(n) {
				st, err := p.nested(n)
				if err != nil {
					return nil, err
				}
				out = append(out, st)
				continue
			}
			st := step{kind: stBranch, branch: p.branchPoint("the if (" + n.CondText + ")")}
			var err error
			if st.then, err = p.decodeBlock(n.Then.Nodes, false); err != nil {
				return nil, err
			}
			if n.Else != nil {
				if st.els, err = p.decodeBlock(n.Else.Nodes, false); err != nil {
					return nil, err
				}
			}
			out = append(out, st)
		case *ir.Loop:
			st, err := p.nested(n)
			if err != nil {
				return nil, err
			}
			out = append(out, st)
			if p.escapes(n) { // a return inside the inner loop
				st, err := p.jumpStep(ir.JumpReturn, true, "the return inside the inner loop")
				if err != nil {
					return nil, err
				}
				out = append(out, st)
			}
		}
	}
	return out, nil
}

// jumpStep decodes a jump of the loop body; a conditional one is decided
// per case (what names its branch point).
func (p *prover) jumpStep(kind ir.JumpKind, cond bool, what string) (step, error) {
	switch kind {
	case ir.JumpGoto:
		return step{}, refuse("a goto in the loop leaves its structure, which the replay does not follow")
	case ir.JumpContinue:
		if p.lp.Kind != ir.LoopFor && p.lp.Var != "" {
			return step{}, refuse("a continue in a %s loop may skip the update of %s, which the replay does not follow", p.lp.Kind, p.lp.Var)
		}
	case ir.JumpReturn:
		p.returns = true
	}
	st := step{kind: stJump, jump: kind, branch: -1}
	if cond {
		st.branch = p.branchPoint(what)
	}
	return st, nil
}

func (p *prover) branchPoint(what string) int {
	p.branches = append(p.branches, what)
	return len(p.branches) - 1
}

// escapes reports whether n holds a jump that leaves it for the loop:
// a return or goto, or a break or continue of the loop itself.
func (p *prover) escapes(n ir.Node) bool {
	found := false
	inside(n, func(x ir.Node) {
		if j, ok := x.(*ir.Jump); ok && (j.Loop == ir.NoLoop || j.Loop == p.lp.ID) {
			found = true
		}
	})
	return found
}

// inside calls f for every node inside the loop or if n (not n itself), in
// program order.
func inside(n ir.Node, f func(ir.Node)) {
	var walk func(b *ir.Block)
	walk = func(b *ir.Block) {
		if b == nil {
			return
		}
		for _, x := range b.Nodes {
			f(x)
			switch x := x.(type) {
			case *ir.Loop:
				walk(x.Body)
			case *ir.If:
				walk(x.Then)
				walk(x.Else)
			}
		}
	}
	switch x := n.(type) {
	case *ir.Loop:
		walk(x.Body)
	case *ir.If:
		walk(x.Then)
		walk(x.Else)
	}
}

// index numbers the steps, nested ones included, in program order.
func (p *prover) index(steps []step) {
	for i := range steps {
		steps[i].id = len(p.all)
		p.all = append(p.all, &steps[i])
		p.index(steps[i].then)
		p.index(steps[i].els)
	}
}

// decode classifies one instruction of the loop body.
func (p *prover) decode(in *ir.Instr) (step, error) {
	if a := p.touchesUnknown(in); a != nil {
		if p.kind != sink && isRead(in) && !touchesReg(in, p.ureg.reg) {
			return opaqueStep(in), nil // a read cannot tell a hoisted Pre apart
		}
		return step{}, refuse("%s accesses %s, which may point into the stream's buffer %s (%s)", p.describe(in), a.name, p.root, a.why)
	}
	if !p.touchesRoot(in) {
		if touchesReg(in, p.ureg.reg) {
			return step{}, refuse("%s uses the stream's register %s away from the stream's buffer", p.describe(in), p.fn.Regs[p.ureg.reg].Name)
		}
		return opaqueStep(in), nil
	}
	for _, a := range in.Args {
		if a.Role == ir.ArgAddr {
			return step{}, refuse("%s addresses the stream's buffer through an AddrReg, which the replay does not model", p.describe(in))
		}
	}
	st := step{in: in}
	k := ptrArg(in)
	if k >= 0 {
		st.addr = in.Args[k].Expr
		st.ptrRW = in.Args[k].Role == ir.ArgPtrRW
		st.stride = scalarAfter(in, k)
		if st.ptrRW && (len(in.PtrDefs) == 0 || in.PtrDefs[0] != p.root) {
			return step{}, refuse("%s advances a pointer other than the stream's", p.describe(in))
		}
	}
	var dataRegs []ir.Operand
	for _, a := range in.Args {
		if a.Reg == ir.NoReg || p.fn.Regs[a.Reg].Class.IsUnalign() {
			continue
		}
		switch a.Role {
		case ir.ArgW, ir.ArgR, ir.ArgRW:
			dataRegs = append(dataRegs, a)
		case ir.ArgMask:
			st.mask, st.masked = regKey{a.Reg, a.Part}, true
		}
	}
	if len(dataRegs) == 1 {
		st.data = regKey{dataRegs[0].Reg, dataRegs[0].Part}
	}
	if u, ok := uregArg(p.fn, in); ok {
		st.ureg = u
	}
	fail := func(what string) (step, error) {
		if p.kind != sink && isRead(in) && !st.ptrRW && !touchesReg(in, p.ureg.reg) {
			return opaqueStep(in), nil // a read cannot tell a hoisted Pre apart
		}
		return step{}, refuse("%s %s, which the replay does not model", p.describe(in), what)
	}
	if k < 0 {
		return fail("may access the stream's buffer")
	}
	if st.addr == nil || hasUnknown(st.addr) {
		return step{}, refuse("the address %s of %s does not fold", in.Args[k].Text, p.describe(in))
	}
	switch in.Op {
	case ir.OpLoadUnAlignPre:
		st.kind = stPre
		st.stride = nil
	case ir.OpLoadUnAlign:
		if len(dataRegs) != 1 || st.ptrRW && st.stride == nil {
			return fail("has a form")
		}
		st.kind = stLoadU
	case ir.OpStoreUnAlign:
		if len(dataRegs) != 1 {
			return fail("has a form")
		}
		st.isMask = p.fn.Regs[st.data.reg].Class == ir.ClassMask
		if st.isMask {
			if st.stride != nil {
				return fail("stores a MaskReg with a count")
			}
			p.maskOnly = true
		} else if st.stride == nil {
			return step{}, refuse("the AR-addressed %s (its count comes from Squeeze through AR) is not modelled", p.describe(in))
		}
		st.kind = stStoreU
	case ir.OpStoreUnAlignPost:
		if st.stride == nil {
			return step{}, refuse("the AR-addressed %s (its offset comes from AR) is not modelled", p.describe(in))
		}
		st.kind = stPost
	case ir.OpLoadAlign:
		if len(dataRegs) != 1 || (in.Dist != "" && in.Dist != "DIST_NORM") || st.ptrRW && st.stride == nil {
			return fail("has a distribution mode")
		}
		st.kind = stLoadA
	case ir.OpStoreAlign:
		switch in.Dist {
		case "", "DIST_NORM", "DIST_NORM_B8", "DIST_NORM_B16", "DIST_NORM_B32":
		default:
			return fail("has a distribution mode")
		}
		if len(dataRegs) != 1 || st.ptrRW && st.stride == nil {
			return fail("has a form")
		}
		st.kind = stStoreA
	case ir.OpLoad:
		if len(dataRegs) != 1 || st.ptrRW {
			return fail("has a form")
		}
		st.kind = stLoadG
	case ir.OpStore:
		if len(dataRegs) != 1 || st.ptrRW {
			return fail("has a form")
		}
		st.kind = stStoreG
	default:
		return fail("accesses the stream's buffer")
	}
	if st.kind != stStoreU && st.kind != stPost && st.kind != stLoadU && st.kind != stPre && touchesReg(in, p.ureg.reg) {
		return step{}, refuse("%s uses the stream's register", p.describe(in))
	}
	if !st.ptrRW && (st.kind == stLoadA || st.kind == stStoreA || st.kind == stLoadG) {
		st.stride = nil // no pointer to advance: the scalar after the address is something else (a mask)
	}
	if hasUnknown(st.stride) {
		return step{}, refuse("the count %s of %s does not fold", st.stride, p.describe(in))
	}
	return st, nil
}

func opaqueStep(in *ir.Instr) step {
	st := step{kind: stOpaque, in: in}
	covered := map[ir.RegID]bool{}
	for _, a := range in.Args {
		if a.Reg == ir.NoReg {
			continue
		}
		k := regKey{a.Reg, a.Part}
		switch a.Role {
		case ir.ArgW:
			st.defs = append(st.defs, k)
		case ir.ArgRW:
			st.defs = append(st.defs, k)
			st.uses = append(st.uses, k)
		default:
			st.uses = append(st.uses, k)
		}
		covered[a.Reg] = true
	}
	for _, r := range in.Uses {
		if !covered[r] {
			st.uses = append(st.uses, regKey{r, -1})
		}
	}
	for _, r := range in.Defs {
		if !covered[r] {
			st.defs = append(st.defs, regKey{r, -1})
		}
	}
	return st
}

// nested checks an if or inner loop of the body: it must not touch the
// stream's register, nor write (for a sink: nor read) the stream's buffer.
// Every register it writes becomes uninterpreted.
func (p *prover) nested(n ir.Node) (step, error) {
	st := step{kind: stNested}
	var err error
	inside(n, func(x ir.Node) {
		if err != nil {
			return
		}
		switch x := x.(type) {
		case *ir.Jump:
			if x.Kind == ir.JumpGoto {
				err = refuse("a goto in the loop leaves its structure, which the replay does not follow")
			}
		case *ir.Instr:
			if err = p.inner(x); err != nil {
				return
			}
			for _, r := range x.Defs {
				if k := (regKey{r, -1}); !slices.Contains(st.defs, k) {
					st.defs = append(st.defs, k)
				}
			}
			for _, r := range x.Uses {
				if k := (regKey{r, -1}); !slices.Contains(st.uses, k) {
					st.uses = append(st.uses, k)
				}
			}
		}
	})
	return st, err
}

// inner checks an instruction under an if or in an inner loop: it must not
// touch the stream's register, nor write (for a sink: nor read) the
// stream's buffer or a buffer that may be it.
func (p *prover) inner(in *ir.Instr) error {
	if touchesReg(in, p.ureg.reg) {
		return refuse("the stream's register is used under an if or in an inner loop")
	}
	if p.touchesRoot(in) && (p.kind == sink || !isRead(in) || slices.Contains(in.PtrDefs, p.root)) {
		return refuse("%s accesses the stream's buffer under an if or in an inner loop", p.describe(in))
	}
	if a := p.touchesUnknown(in); a != nil && (p.kind == sink || !isRead(in)) {
		return refuse("%s accesses %s, which may point into the stream's buffer %s (%s)", p.describe(in), a.name, p.root, a.why)
	}
	return nil
}

// bindings finds what each case binds: element types whose size is not
// known, free scalar symbols, the loop variable's start and step.
func (p *prover) bindings() error {
	changes := map[string]bool{}
	for _, n := range p.lp.Assigns {
		changes[n] = true
	}
	for _, n := range p.lp.Decls {
		if n != p.lp.Var {
			changes[n] = true
		}
	}
	for _, in := range p.fn.InstrsIn(p.lp) {
		if inLoop(p.fn, in.Loop, p.lp) {
			for _, n := range in.PtrDefs {
				if n != p.root {
					changes[n] = true
				}
			}
		}
	}
	types := map[string]bool{}
	syms := map[string]bool{}
	addType := func(t string) {
		if t == "" {
			return
		}
		if _, ok := ir.ElemSize(t); !ok {
			types[t] = true
		}
	}
	var err error
	for _, st := range p.all {
		if st.in == nil || st.kind == stOpaque || st.kind == stNested {
			continue
		}
		addType(st.in.Elem)
		var exprs []*ir.Expr
		for _, e := range []*ir.Expr{st.addr, st.stride} {
			exprs = append(exprs, e)
			walkSyms(e, func(kind ir.ExprKind, name string) {
				if a := p.aliases[name]; kind == ir.ExprSym && a != nil && a.off != nil {
					exprs = append(exprs, a.off)
				}
			})
		}
		for _, e := range exprs {
			walkSyms(e, func(kind ir.ExprKind, name string) {
				switch {
				case kind == ir.ExprSizeof:
					addType(name)
				case kind == ir.ExprSym && p.aliases[name] != nil:
				case name == p.root:
				case name == p.lp.Var:
					p.usesVar = true
				case changes[name]:
					if err == nil {
						err = refuse("%s of %s depends on %s, which changes inside the loop", e, p.describe(st.in), name)
					}
				default:
					syms[name] = true
				}
			})
		}
	}
	if err != nil {
		return err
	}
	// The root's element size: its parameter's type, else the stream's
	// element type.
	for _, prm := range p.fn.Params {
		if prm.Name == p.root && prm.Reg == ir.NoReg && prm.Type != "" {
			t := strings.TrimSpace(strings.TrimPrefix(prm.Type, "const "))
			if sz, ok := ir.ElemSize(t); ok {
				p.rootSize = sz
			} else if isTypeIdent(t) {
				p.rootType = t
			}
		}
	}
	if p.rootSize == 0 && p.rootType == "" {
		for _, st := range p.all {
			if st.in == nil || st.kind == stOpaque || st.kind == stNested || st.in.Elem == "" {
				continue
			}
			if sz, ok := ir.ElemSize(st.in.Elem); ok {
				p.rootSize = sz
			} else {
				p.rootType = st.in.Elem
			}
			break
		}
	}
	if p.rootSize == 0 && p.rootType == "" {
		p.rootType = "T" // nothing names it: every size is tried
	}
	addType(p.rootType)
	for t := range types {
		p.types = append(p.types, t)
	}
	for s := range syms {
		p.syms = append(p.syms, s)
	}
	sort.Strings(p.types)
	sort.Strings(p.syms)
	if v, ok := p.lp.Init.Value(); ok {
		p.init, p.initOK = v, true
	} else if p.kind != sink && p.usesVar {
		return refuse("the loop's start %s does not fold", p.lp.Init)
	}
	if p.usesVar && slices.Contains(p.lp.Assigns, p.lp.Var) {
		return refuse("the loop assigns its variable %s in its body", p.lp.Var)
	}
	p.stepBy = 1
	if v, ok := p.lp.Step.Value(); ok {
		p.stepBy = v
	} else if p.usesVar {
		return refuse("the loop's step does not fold")
	}
	return nil
}

func isTypeIdent(t string) bool {
	if t == "" {
		return false
	}
	for i := 0; i < len(t); i++ {
		if !identChar(t[i]) && t[i] != ':' {
			return false
		}
	}
	return true
}
