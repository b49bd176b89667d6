package stream

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/ascvet/ascvet/analyzers/internal/linear"
	"github.com/ascvet/ascvet/cppfront/ir"
)

// Verdict is the outcome of the contiguity decision.
type Verdict uint8

const (
	NotContiguous Verdict = iota // a legitimate pattern (padding, reset pointer, shared register, ...): never reported
	Contiguous                   // proven: reported by default
	Unknown                      // the addresses could not be folded: reported only at -confidence=low
)

func (v Verdict) String() string {
	return [...]string{"not contiguous", "contiguous", "unknown"}[v]
}

// Site is one LoadUnAlignPre (or StoreUnAlignPost) inside a loop, with the
// decision about its stream.
type Site struct {
	Func    *ir.Func
	Loop    *ir.Loop
	Instr   *ir.Instr   // the Pre or the Post
	Reg     ir.RegID    // its unaligned register
	Stream  []*ir.Instr // the loads (or stores) on Reg in the loop, in program order
	Verdict Verdict
	Why     string // for Unknown: what could not be proven

	// Redundant: a Pre (NotContiguous) that re-primes its stream in place,
	// where the load before it in the iteration ended, with nothing
	// between that may write memory: deleting it loads the same data
	// (ASC1001 reports it). Stream holds that load.
	Redundant bool
}

// place is where an instruction sits in the structured body.
type place struct {
	direct bool // a statement of its innermost loop's body itself, not under an if inside that loop
	dead   bool // in the branch of an if constexpr that the function's instantiation does not compile
}

// places maps each instruction of fn to its place. An if constexpr whose
// condition folds for the function's instantiation (ir.If.Taken) is no
// if: its taken branch's statements are where the if is, the other's are
// not compiled.
func places(fn *ir.Func) []place {
	ps := make([]place, len(fn.Instrs))
	bind := fn.SoleInstance()
	var walk func(b *ir.Block, underIf, dead bool)
	walk = func(b *ir.Block, underIf, dead bool) {
		if b == nil {
			return
		}
		for _, n := range b.Nodes {
			switch n := n.(type) {
			case *ir.Instr:
				ps[n.ID] = place{direct: !underIf, dead: dead}
			case *ir.Loop:
				walk(n.Body, false, dead)
			case *ir.If:
				if taken, ok := n.Taken(bind); ok {
					walk(taken, underIf, dead)
					other := n.Else
					if taken == n.Else {
						other = n.Then
					}
					walk(other, true, true)
					continue
				}
				walk(n.Then, true, dead)
				walk(n.Else, true, dead)
			}
		}
	}
	walk(fn.Body, false, false)
	return ps
}

func hasReg(rs []ir.RegID, r ir.RegID) bool {
	for _, x := range rs {
		if x == r {
			return true
		}
	}
	return false
}

func contains(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}

// uregOf returns the unaligned register operand of an unaligned op.
func uregOf(fn *ir.Func, in *ir.Instr) (ir.RegID, bool) {
	for _, a := range in.Args {
		if a.Reg != ir.NoReg && fn.Regs[a.Reg].Class.IsUnalign() {
			return a.Reg, true
		}
	}
	return ir.NoReg, false
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

// strideArg returns the scalar operand after the address (the post-update
// stride or the count), or nil.
func strideArg(in *ir.Instr) *ir.Expr {
	k := ptrArg(in)
	if k < 0 {
		return nil
	}
	for _, a := range in.Args[k+1:] {
		if a.Role == ir.ArgScalar {
			return a.Expr
		}
	}
	return nil
}

// ptrName returns the variable a post-updated address operand names.
func ptrName(in *ir.Instr) string {
	if len(in.PtrDefs) > 0 {
		return in.PtrDefs[0]
	}
	return ""
}

// collect returns the instructions of the loop lp that touch register u,
// or false when one of them is not a direct statement of lp's own body.
func collect(fn *ir.Func, lp *ir.Loop, u ir.RegID, ps []place) ([]*ir.Instr, bool) {
	var out []*ir.Instr
	for _, in := range fn.InstrsIn(lp) {
		if !fn.Within(in.Loop, lp.ID) || !(hasReg(in.Uses, u) || hasReg(in.Defs, u)) || ps[in.ID].dead {
			continue
		}
		if in.Loop != lp.ID || !ps[in.ID].direct {
			return nil, false
		}
		out = append(out, in)
	}
	return out, true
}

// sizes are the element sizes tried for a type whose size is not known.
var sizes = []int64{1, 2, 4, 8}

// decide runs check for every element size the stream may have, and merges
// the outcomes: contiguous for every size, not contiguous for every size, or
// unknown, saying for which sizes it is contiguous. check returns Unknown
// itself when something cannot be folded.
func decide(fn *ir.Func, ins []*ir.Instr, check func(size int64) (Verdict, string)) (Verdict, string) {
	if !symbolicElem(ins...) {
		return check(0)
	}
	var first Verdict
	var why string
	var yes []string // the sizes for which the stream is contiguous
	mixed := false
	for i, sz := range sizesOf(fn, ins) {
		v, w := check(sz)
		if v == Unknown {
			return Unknown, w
		}
		if v == Contiguous {
			yes = append(yes, strconv.FormatInt(sz, 10))
		}
		if i == 0 {
			first, why = v, w
		} else if v != first {
			mixed = true
		}
	}
	if mixed {
		return Unknown, fmt.Sprintf("the stream is contiguous only for %s-byte elements", strings.Join(yes, "/"))
	}
	return first, why
}

// sizesOf returns the element sizes to try for the one template element
// type of the instructions: the sizes of the types the function is
// instantiated with in its file (ir.Func.Instances), else all of them.
func sizesOf(fn *ir.Func, ins []*ir.Instr) []int64 {
	names := map[string]bool{}
	for _, in := range ins {
		if _, ok := ir.ElemSize(in.Elem); !ok && in.Elem != "" {
			names[in.Elem] = true
		}
		for _, a := range in.Args {
			a.Expr.Subst(func(k ir.ExprKind, name string) *ir.Expr {
				if _, ok := ir.ElemSize(name); k == ir.ExprSizeof && !ok {
					names[name] = true
				}
				return nil
			})
		}
	}
	if len(names) != 1 {
		return sizes
	}
	var out []int64
	for name := range names {
		for _, t := range fn.Instances[name] {
			if sz, ok := ir.ElemSize(t); ok && !slices.Contains(out, sz) {
				out = append(out, sz)
			}
		}
	}
	if len(out) == 0 {
		return sizes
	}
	slices.Sort(out)
	return out
}

// bound returns e with unknown sizeof bound to size (0 leaves it as is).
func bound(e *ir.Expr, size int64) *ir.Expr {
	if size == 0 || e == nil {
		return e
	}
	return bindSizes(e, size)
}

func symbolicElem(ins ...*ir.Instr) bool {
	for _, in := range ins {
		if _, ok := ir.ElemSize(in.Elem); !ok {
			return true
		}
	}
	return false
}

// storesTo reports whether a store in lp writes through the pointer root
// (data overwritten and re-read in the same iteration).
func storesTo(fn *ir.Func, lp *ir.Loop, root string) bool {
	if root == "" {
		return false
	}
	for _, in := range fn.InstrsIn(lp) {
		if !fn.Within(in.Loop, lp.ID) || !in.Op.Info().Cat.IsStore() {
			continue
		}
		if k := ptrArg(in); k >= 0 {
			if e := in.Args[k].Expr; e != nil && e.Mentions(root) || linear.MentionsWord(in.Args[k].Text, root) {
				return true
			}
		}
	}
	return false
}

func isIdent(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !linear.IdentChar(s[i]) && s[i] != '.' && s[i] != ':' {
			return false
		}
	}
	return true
}

// PreSites returns every LoadUnAlignPre inside a loop of fn with its verdict.
func PreSites(fn *ir.Func) []Site {
	ps := places(fn)
	var out []Site
	for _, pre := range fn.Instrs {
		if pre.Op != ir.OpLoadUnAlignPre || pre.Form == ir.FormRaw || pre.Loop == ir.NoLoop {
			continue
		}
		u, ok := uregOf(fn, pre)
		if !ok {
			continue
		}
		lp := fn.Loops[pre.Loop]
		s := Site{Func: fn, Loop: lp, Instr: pre, Reg: u}
		s.Verdict, s.Why, s.Stream = preVerdict(fn, lp, pre, u, ps)
		s.Redundant = s.Verdict == NotContiguous && s.Why == redundantWhy && len(s.Stream) == 1
		out = append(out, s)
	}
	return out
}

func preVerdict(fn *ir.Func, lp *ir.Loop, pre *ir.Instr, u ir.RegID, ps []place) (Verdict, string, []*ir.Instr) {
	if lp.AtMostOnce {
		return NotContiguous, "the loop runs at most once", nil
	}
	if !ps[pre.ID].direct {
		return NotContiguous, "the Pre is conditional", nil
	}
	touch, ok := collect(fn, lp, u, ps)
	if !ok {
		return NotContiguous, "the register is also used under an if or in an inner loop", nil
	}
	var loads []*ir.Instr
	for _, in := range touch {
		switch {
		case in == pre:
		case in.Op == ir.OpLoadUnAlign && in.ID > pre.ID:
			loads = append(loads, in)
		default:
			// A second Pre (two streams share the register, unless it
			// re-primes in place), a load before the Pre, or any other
			// use: not one simple stream.
			if same, why := SecondPre(fn, touch, pre, in); !same {
				if why == redundantWhy {
					if ld, ok := redundantAfter(fn, touch, pre); ok {
						return NotContiguous, why, []*ir.Instr{ld} // the load the stream stands after (Site.Redundant)
					}
				}
				return NotContiguous, why, nil
			}
		}
	}
	if len(loads) == 0 {
		return NotContiguous, "no load on the register in the loop", nil
	}
	pk := ptrArg(pre)
	if pk < 0 {
		return Unknown, "the Pre has no address", loads
	}
	// Post-update stream: every load advances the same pointer p, the Pre
	// re-primes at p, and each stride is one vector length.
	if ptrName(loads[0]) != "" {
		p := ptrName(loads[0])
		for _, ld := range loads {
			if ptrName(ld) != p {
				return NotContiguous, "the loads advance different pointers", loads
			}
		}
		pe := pre.Args[pk].Expr
		rederived := false
		if pe == nil || pe.Kind != ir.ExprSym || pe.Name != p {
			// auto p = base + i * K; Pre(u, p); Load(r, u, p, VL): the
			// pointer declared in the loop is re-derived from the loop
			// variable, and the Pre primes at its value.
			lk := ptrArg(loads[0])
			if !contains(lp.Decls, p) || contains(lp.Assigns, p) || lk < 0 || pe == nil || loads[0].Args[lk].Expr == nil || pe.String() != loads[0].Args[lk].Expr.String() {
				return NotContiguous, "the Pre primes another address than the stream's pointer", loads
			}
			rederived = true
		} else if contains(lp.Assigns, p) || contains(lp.Decls, p) {
			return NotContiguous, "the pointer is reset in the loop", loads
		}
		for _, in := range fn.InstrsIn(lp) {
			if fn.Within(in.Loop, lp.ID) && contains(in.PtrDefs, p) && !containsInstr(loads, in) {
				return NotContiguous, "the pointer is advanced by other instructions too", loads
			}
		}
		if storesTo(fn, lp, p) {
			return NotContiguous, "the loop stores to the data it re-reads", loads
		}
		v, why := decide(fn, append([]*ir.Instr{pre}, loads...), func(size int64) (Verdict, string) {
			for _, ld := range loads {
				st, ok := linear.Of(bound(strideArg(ld), size))
				vl, ok2 := linear.Of(bound(vectorLen(ld.Elem), size))
				if !ok || !ok2 || !st.IsConst() || !vl.IsConst() {
					return Unknown, "the post-update stride does not fold"
				}
				if st.C != vl.C {
					return NotContiguous, "the stride differs from the vector length"
				}
			}
			if rederived {
				return rederivedStep(fn, lp, pre, loads, bound(pe, size), bound(vectorLen(loads[0].Elem), size), size)
			}
			return Contiguous, ""
		})
		return v, why, loads
	}
	if mixedTypes(append([]*ir.Instr{pre}, loads...)) {
		return Unknown, "the stride and the data use different template element types", loads
	}
	// Explicit addresses: linear in the loop variable.
	if lp.Var == "" || contains(lp.Assigns, lp.Var) {
		return Unknown, "the loop has no plain induction variable", loads
	}
	step, ok := lp.Step.Value()
	if !ok || step == 0 {
		return Unknown, "the loop step does not fold", loads
	}
	v, why := decide(fn, append([]*ir.Instr{pre}, loads...), func(size int64) (Verdict, string) {
		ap, ok := linear.Of(bound(pre.Args[pk].Expr, size))
		if !ok {
			return Unknown, "the Pre address does not fold"
		}
		cp, ok := ap.Coef(lp.Var)
		if !ok {
			return Unknown, "the Pre address is not linear in " + lp.Var
		}
		if x := changedIn(fn, lp, ap); x != "" {
			return Unknown, fmt.Sprintf("the address uses %s, which the loop changes", x)
		}
		if cp == 0 {
			return NotContiguous, "the Pre re-primes the same address every iteration"
		}
		baseP := ap.Without(lp.Var)
		var consumed int64
		for k, ld := range loads {
			lk := ptrArg(ld)
			if lk < 0 {
				return Unknown, "a load has no address"
			}
			al, ok := linear.Of(bound(ld.Args[lk].Expr, size))
			if !ok {
				return Unknown, "a load address does not fold"
			}
			c, ok := al.Coef(lp.Var)
			if !ok || c != cp {
				if !ok {
					return Unknown, "a load address is not linear in " + lp.Var
				}
				return NotContiguous, "the loads advance differently from the Pre"
			}
			vl, ok := linear.Of(bound(vectorLen(ld.Elem), size))
			if !ok || !vl.IsConst() {
				return Unknown, "the element size is not known"
			}
			want := baseP.Add(linear.Const(consumed), 1)
			if !al.Without(lp.Var).Equal(want) {
				if k == 0 {
					return NotContiguous, "the first load does not start where the Pre primes"
				}
				return NotContiguous, "the loads of one iteration are not back to back"
			}
			consumed += vl.C
		}
		if storesOver(fn, lp, pre, loads, ap, consumed, size) {
			return NotContiguous, "the loop stores to the data it re-reads"
		}
		// Non-constant parts of the coefficient (rowStride) never reach
		// here: coef is an integer. The stream is contiguous when one
		// iteration's step moves the Pre exactly past what was loaded.
		if cp*step != consumed {
			if hasSymbolicStride(pre.Args[pk].Expr, lp.Var) {
				return Unknown, "the stride is not a constant"
			}
			return NotContiguous, fmt.Sprintf("the address advances %d elements per iteration but %d are loaded", cp*step, consumed)
		}
		return Contiguous, ""
	})
	return v, why, loads
}

// rederivedStep decides a stream whose pointer is re-derived each
// iteration at pre (linear in the loop variable) and advanced by its loads
// of one vector (vl elements) each: contiguous when one iteration's step
// moves the start exactly past what the loads consumed, and no store of the
// loop writes the block carried from one iteration into the next
// (storesOver, by byte ranges from the base of pre, whatever the pointer's
// name). preIn is the Pre itself.
func rederivedStep(fn *ir.Func, lp *ir.Loop, preIn *ir.Instr, loads []*ir.Instr, pre, vl *ir.Expr, size int64) (Verdict, string) {
	n := len(loads)
	if lp.Var == "" || contains(lp.Assigns, lp.Var) {
		return Unknown, "the loop has no plain induction variable"
	}
	step, ok := lp.Step.Value()
	if !ok || step == 0 {
		return Unknown, "the loop step does not fold"
	}
	a, ok := linear.Of(pre)
	if !ok {
		return Unknown, "the Pre address does not fold"
	}
	c, ok := a.Coef(lp.Var)
	if !ok {
		return Unknown, "the Pre address is not linear in " + lp.Var
	}
	v, ok := linear.Of(vl)
	if !ok || !v.IsConst() {
		return Unknown, "the element size is not known"
	}
	if c*step != int64(n)*v.C {
		return NotContiguous, fmt.Sprintf("the pointer is re-derived %d elements further each iteration but %d are loaded", c*step, int64(n)*v.C)
	}
	if storesOver(fn, lp, preIn, loads, a, int64(n)*v.C, size) {
		return NotContiguous, "the loop stores to the data it re-reads"
	}
	return Contiguous, ""
}

// changedIn returns a name of the linear form l, other than the loop
// variable, that the loop assigns (by a statement or a post-update), or "".
func changedIn(fn *ir.Func, lp *ir.Loop, l linear.Form) string {
	for _, k := range l.Keys() {
		if k == lp.Var || linear.IsAtom(k) {
			continue
		}
		if contains(lp.Assigns, k) {
			return k
		}
		for _, in := range fn.InstrsIn(lp) {
			if fn.Within(in.Loop, lp.ID) && contains(in.PtrDefs, k) {
				return k
			}
		}
	}
	return ""
}

func containsInstr(ins []*ir.Instr, x *ir.Instr) bool {
	for _, in := range ins {
		if in == x {
			return true
		}
	}
	return false
}

// mixedTypes reports whether the instructions involve more than one element
// type whose size is unknown (sizeof(T) in a stride, U as the data): their
// sizes are tried independently of each other only by the replay, so the
// verdict here is unknown.
func mixedTypes(ins []*ir.Instr) bool {
	names := map[string]bool{}
	var walk func(e *ir.Expr)
	walk = func(e *ir.Expr) {
		if e == nil {
			return
		}
		switch e.Kind {
		case ir.ExprSizeof:
			if _, ok := ir.ElemSize(e.Name); !ok {
				names[e.Name] = true
			}
		case ir.ExprBin:
			walk(e.X)
			walk(e.Y)
		case ir.ExprNeg:
			walk(e.X)
		}
	}
	for _, in := range ins {
		for _, a := range in.Args {
			walk(a.Expr)
		}
		if in.Op == ir.OpLoadUnAlign && in.Elem != "" {
			if _, ok := ir.ElemSize(in.Elem); !ok {
				names[in.Elem] = true
			}
		}
	}
	return len(names) > 1
}

// hasSymbolicStride reports whether the loop variable is multiplied by
// something that is not a constant (src + i * rowStride).
func hasSymbolicStride(e *ir.Expr, v string) bool {
	l, ok := linear.Of(e)
	if !ok {
		return true
	}
	for k := range l.Terms {
		if k != v && linear.MentionsWord(k, v) {
			return true
		}
	}
	return false
}
