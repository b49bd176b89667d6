package ir

import (
	"go/token"
	"slices"
	"strconv"
	"strings"
)

// Instantiation and inlining: the code the compiler builds.
//
// A VF function is a template instantiated with element types and flags,
// and it calls __simd_callee__ helpers that the compiler inlines. The IR of
// a function is its text as written; Bindings say what one instantiation
// fixes, and two operations give the code that instantiation compiles:
//
//   - If.Taken picks the branch of an if constexpr whose condition folds
//     under the bindings (is_same, sizeof, flags, constants);
//   - Inline expands a call of a helper whose definition is lowered
//     (Instr.Target) into a copy of the helper's body: its own registers
//     renamed fresh, a reference parameter aliasing the caller's register,
//     scalar parameters bound to the caller's values, its template
//     parameters bound to the call's explicit arguments and to those
//     deduced from the registers it is passed, its if constexpr folded.
//
// Nothing is guessed: a condition that does not fold stays an If, a
// parameter whose argument is not known stays a symbol, and a helper whose
// body is not known stays an OpCall.

// Bindings is what one instantiation fixes.
type Bindings struct {
	Types  map[string]string // template type parameters: "T" -> "half"
	Values map[string]*Expr  // non-type template parameters and scalar parameters: "Mode" -> 2
	// Aliases are the type aliases of the function (Func.TypeAliases),
	// resolved under Types and Values when Type meets one: they bind
	// nothing of their own, so Empty and String leave them out.
	Aliases map[string]string
}

// Empty reports whether b binds nothing.
func (b Bindings) Empty() bool { return len(b.Types) == 0 && len(b.Values) == 0 }

// SoleInstance returns the bindings of fn's one instantiation: the types
// of its template parameters that every call site in its file agrees on
// (Func.Instances with a single type). Values bound by callers are folded
// into the IR already.
func (fn *Func) SoleInstance() Bindings {
	b := Bindings{Aliases: fn.TypeAliases}
	for p, ts := range fn.Instances {
		if len(ts) == 1 {
			if b.Types == nil {
				b.Types = map[string]string{}
			}
			b.Types[p] = ts[0]
		}
	}
	return b
}

// MaxInstantiations bounds the instantiations of one function that are
// analysed (Instantiations): past it, only what every call agrees on.
const MaxInstantiations = 8

// Instantiations returns the instantiations of fn its call sites make, as
// far as they say: every combination of the types Func.Instances gives
// each template parameter, in a stable order (by parameter name, then by
// the order the types were found); but the instantiations Func.Tuples
// names when it names some: those of the call sites that differ in a value
// argument, or those of the files that include fn's file. A function of
// which nothing says
// more, or that would have more than MaxInstantiations, has one: its
// SoleInstance.
func (fn *Func) Instantiations() []Bindings {
	var params []string
	n := 1
	for p, ts := range fn.Instances {
		if len(ts) > 0 {
			params = append(params, p)
			n *= len(ts)
		}
	}
	if len(fn.Tuples) > 0 && len(fn.Tuples) <= MaxInstantiations {
		// Named by the files that include this one, or by call sites
		// that differ in a value argument (each site's types with its
		// values: the product of Instances would pair them otherwise).
		out := make([]Bindings, len(fn.Tuples))
		sole := fn.SoleInstance()
		for i, t := range fn.Tuples {
			out[i] = t.with(sole)
		}
		return out
	}
	if n <= 1 || n > MaxInstantiations {
		return []Bindings{fn.SoleInstance()}
	}
	slices.Sort(params)
	out := []Bindings{{Types: map[string]string{}, Aliases: fn.TypeAliases}}
	for _, p := range params {
		var next []Bindings
		for _, b := range out {
			for _, t := range fn.Instances[p] {
				nb := Bindings{Types: make(map[string]string, len(b.Types)+1), Aliases: fn.TypeAliases}
				for k, v := range b.Types {
					nb.Types[k] = v
				}
				nb.Types[p] = t
				next = append(next, nb)
			}
		}
		out = next
	}
	return out
}

// with returns b with the bindings of o it does not make itself.
func (b Bindings) with(o Bindings) Bindings {
	out := Bindings{Types: map[string]string{}, Values: map[string]*Expr{}, Aliases: b.Aliases}
	if out.Aliases == nil {
		out.Aliases = o.Aliases
	}
	for k, v := range o.Types {
		out.Types[k] = v
	}
	for k, v := range o.Values {
		out.Values[k] = v
	}
	for k, v := range b.Types {
		out.Types[k] = v
	}
	for k, v := range b.Values {
		out.Values[k] = v
	}
	return out
}

// Type returns the type t names under b: a bound template parameter's
// type, or what a type alias of the function names under b (a
// std::conditional whose condition folds taking the arm it selects), else
// t.
func (b Bindings) Type(t string) string {
	for range 8 { // T -> U -> half, R -> conditional -> float
		k := strings.TrimSpace(t)
		u, ok := b.Types[k]
		if !ok {
			def, isAlias := b.Aliases[k]
			if !isAlias {
				return t
			}
			if u, ok = b.aliasType(def, 0); !ok {
				return t
			}
		}
		if u == t {
			return t
		}
		t = u
	}
	return t
}

// aliasType returns the type an alias's definition names under b: a
// single name (a type, another alias, a bound parameter), or the arm of a
// std::conditional whose condition folds. Anything else (a trait's ::type,
// a template of the parameters) is not resolved.
func (b Bindings) aliasType(def string, depth int) (string, bool) {
	if depth > 4 {
		return "", false
	}
	if cond, x, y, ok := SplitConditional(def); ok {
		v, ok := EvalCond(cond, nil, b)
		if !ok {
			return "", false
		}
		if v == 0 {
			x = y
		}
		return b.aliasType(x, depth+1)
	}
	def = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(def), "typename "))
	if def == "" || !isIdentStart(def[0]) || strings.ContainsAny(def, "<>()&* ") {
		return "", false
	}
	return strings.TrimPrefix(def, "::"), true
}

// SplitConditional reads a std::conditional: typename
// std::conditional<C, A, B>::type or std::conditional_t<C, A, B> (std::
// optional), its condition and its two types; ok is false for any other
// type. The types are split off from the right, the condition being what
// is left: sizeof(T) <= 2 holds a < that is no bracket.
func SplitConditional(t string) (cond, a, b string, ok bool) {
	t = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(t), "typename "))
	body := ""
	for _, pre := range []string{"std::conditional<", "conditional<", "std::conditional_t<", "conditional_t<"} {
		if rest, found := strings.CutPrefix(t, pre); found {
			body = rest
			break
		}
	}
	body = strings.TrimSpace(strings.TrimSuffix(body, "::type"))
	body, found := strings.CutSuffix(body, ">")
	if !found {
		return "", "", "", false
	}
	depth, commas := 0, []int{}
	for i := len(body) - 1; i >= 0 && len(commas) < 2; i-- {
		switch body[i] {
		case '>', ')', ']':
			depth++
		case '<', '(', '[':
			depth--
		case ',':
			if depth == 0 {
				commas = append(commas, i)
			}
		}
	}
	if len(commas) < 2 {
		return "", "", "", false
	}
	return strings.TrimSpace(body[:commas[1]]), strings.TrimSpace(body[commas[1]+1 : commas[0]]), strings.TrimSpace(body[commas[0]+1:]), true
}

// Subst returns e with the names b binds replaced by their values and
// sizeof of a bound type by its size, folded.
func (b Bindings) Subst(e *Expr) *Expr {
	if e == nil || b.Empty() && len(b.Aliases) == 0 {
		return e
	}
	return e.Subst(func(kind ExprKind, name string) *Expr {
		if kind == ExprSizeof {
			if sz, ok := ElemSize(b.Type(name)); ok {
				return Const(sz)
			}
			return nil
		}
		if v, ok := b.Values[name]; ok && v != nil {
			return v
		}
		return nil
	})
}

// Set binds name to the template argument arg as written: an integer,
// true or false binds a value, anything else a type.
func (b *Bindings) Set(name, arg string) {
	if v, ok := LiteralValue(arg); ok {
		if b.Values == nil {
			b.Values = map[string]*Expr{}
		}
		b.Values[name] = Const(v)
		return
	}
	if b.Types == nil {
		b.Types = map[string]string{}
	}
	b.Types[name] = arg
}

// Loop returns l with its header under b: a copy whose trip count folds
// when b binds what its bound or step names, else l itself.
func (b Bindings) Loop(l *Loop) *Loop {
	if l.TripKnown || len(b.Values) == 0 {
		return l
	}
	nl := *l
	nl.Init, nl.Bound, nl.Step = b.Subst(l.Init), b.Subst(l.Bound), b.Subst(l.Step)
	if nl.FoldTrip(); !nl.TripKnown {
		return l
	}
	return &nl
}

// String prints b as template arguments are written: "T=half, Mode=2",
// names sorted.
func (b Bindings) String() string {
	var parts []string
	for k, v := range b.Types {
		parts = append(parts, k+"="+v)
	}
	for k, v := range b.Values {
		parts = append(parts, k+"="+v.String())
	}
	slices.Sort(parts)
	return strings.Join(parts, ", ")
}

// MaxInlineDepth bounds how deep helpers are inlined into each other; a
// call deeper than that (or a recursive one) stays an OpCall.
const MaxInlineDepth = 8

// MaxExpandInstrs bounds the instructions of a function Expand builds:
// helpers that call helpers many times each multiply, so past it the calls
// left stay calls (a helper's peak is then counted at the call).
const MaxExpandInstrs = 1 << 14

// Inline returns the body of the helper that call calls (call.Target) as
// this call runs it, and regs grown with the helper's own registers under
// fresh IDs. b is the caller's bindings (an instantiation of the caller):
// the call's template arguments and values are read through them. ok is
// false when the call has no Target or passes more arguments than the
// helper takes.
//
// The copy's instructions are new: their registers are the caller's (a
// parameter register is the argument's, a local one fresh), their
// addresses and counts have the parameters replaced by the caller's
// values, their element types are bound, their Loop is the call's, and
// their positions stay in the helper (a finding there names the helper's
// line). The copy's loops are new too, their trip counts folded again.
// Calls inside the helper are copied with their Target, for the caller to
// inline in turn.
func Inline(call *Instr, regs []*Reg, b Bindings) (*Block, []*Reg, Bindings, bool) {
	// The helper's registers are appended to a slice of the caller's
	// own: clipped, so that the append never writes into spare capacity
	// of the caller's array, which other analyses of the same function,
	// running at the same time, may be appending to as well.
	return InlineOwned(call, slices.Clip(regs), b)
}

// InlineOwned is Inline into registers the caller owns (a copy of its
// own that nothing else reads, such as a simulated body's while it is
// built): the helper's registers are appended to regs in place, where
// Inline copies them all first. A simulated body that inlines helper
// after helper copied its whole register list at each call: over the
// public repositories 200 MB of the 540 MB its bodies allocated.
func InlineOwned(call *Instr, regs []*Reg, b Bindings) (*Block, []*Reg, Bindings, bool) {
	h := call.Target
	if h == nil || h.Body == nil || len(call.Args) > len(h.Params) {
		return nil, regs, Bindings{}, false
	}
	c := &copier{h: h, call: call, m: make([]RegID, len(h.Regs)), inner: bindCall(call, h, regs, b)}
	for i := range c.m {
		c.m[i] = NoReg
	}
	for k, p := range h.Params {
		if p.Reg == NoReg || k >= len(call.Args) || call.Args[k].Reg == NoReg || int(p.Reg) >= len(c.m) {
			continue
		}
		c.m[p.Reg] = call.Args[k].Reg
	}
	if dst, ok := assigned(call, regs); ok {
		// x = Helper(...): the register the helper returns is x.
		if !h.RetKnown || int(h.Ret) >= len(c.m) || c.m[h.Ret] != NoReg {
			return nil, regs, Bindings{}, false // what is returned is not known: the call stays a call
		}
		c.m[h.Ret] = dst
	}
	for _, r := range h.Regs {
		if c.m[r.ID] != NoReg {
			continue
		}
		if r.Implicit {
			if id := implicitReg(regs, r); id != NoReg {
				c.m[r.ID] = id
				continue
			}
		}
		nr := *r
		nr.ID = RegID(len(regs))
		nr.Elem = c.inner.Type(r.Elem)
		nr.Param = false
		if h.Foreign {
			nr.Pos, nr.End = call.Pos, call.End // declared in another file
		}
		regs = append(regs, &nr)
		c.m[r.ID] = nr.ID
	}
	c.regsOut = regs
	return c.block(h.Body), regs, c.inner, true
}

// assigned returns the register a call's result is assigned to
// (MaskReg m = Helper(...)), when it is one.
func assigned(call *Instr, regs []*Reg) (RegID, bool) {
	if call.Assign == "" {
		return NoReg, false
	}
	for _, r := range call.Defs {
		if int(r) < len(regs) && regs[r].Name == call.Assign {
			return r, true
		}
	}
	return NoReg, false
}

// implicitReg finds the caller's implicit register of r's name and class.
func implicitReg(regs []*Reg, r *Reg) RegID {
	for _, x := range regs {
		if x.Implicit && x.Name == r.Name && x.Class == r.Class {
			return x.ID
		}
	}
	return NoReg
}

// bindCall returns the bindings of the helper's instantiation at call: its
// template parameters from the call's explicit arguments (through the
// caller's bindings b) and from the element types of the registers passed
// to parameters declared RegTensor<U>, and its scalar parameters bound to
// the values the caller passes.
func bindCall(call *Instr, h *Func, regs []*Reg, b Bindings) Bindings {
	in := Bindings{Types: map[string]string{}, Values: map[string]*Expr{}, Aliases: h.TypeAliases}
	for k, t := range call.TArgs {
		if k >= len(h.TParams) || h.TParams[k] == "" {
			continue
		}
		name := h.TParams[k]
		t = strings.TrimSpace(t)
		if v, ok := LiteralValue(t); ok {
			in.Values[name] = Const(v)
			continue
		}
		if v, ok := b.Values[t]; ok {
			in.Values[name] = v
			continue
		}
		if isIdentStart(t[0]) {
			in.Types[name] = b.Type(t)
		}
	}
	tparam := map[string]bool{}
	for _, t := range h.TParams {
		tparam[t] = true
	}
	for k, p := range h.Params {
		if k >= len(call.Args) {
			break
		}
		a := call.Args[k]
		if p.Reg != NoReg && int(p.Reg) < len(h.Regs) && a.Reg != NoReg && int(a.Reg) < len(regs) {
			u := h.Regs[p.Reg].Elem
			if _, bound := in.Types[u]; tparam[u] && !bound {
				if e := b.Type(regs[a.Reg].Elem); e != "" && !tparam[e] {
					in.Types[u] = e
				}
			}
			continue
		}
		if p.Reg == NoReg && p.Name != "" && a.Expr != nil && a.Expr.Kind != ExprUnknown {
			in.Values[p.Name] = b.Subst(a.Expr)
		}
	}
	return in
}

// literalValue reads an integer or boolean template argument.
func LiteralValue(t string) (int64, bool) {
	switch t {
	case "true":
		return 1, true
	case "false":
		return 0, true
	}
	v, err := strconv.ParseInt(strings.TrimRight(t, "uUlL"), 0, 64)
	return v, err == nil
}

// copier copies a helper's body into a caller.
type copier struct {
	h       *Func
	call    *Instr
	m       []RegID // the helper's register -> the caller's
	inner   Bindings
	regsOut []*Reg // the caller's registers, the helper's fresh ones added
}

func (c *copier) reg(r RegID) RegID {
	if r >= 0 && int(r) < len(c.m) {
		return c.m[r]
	}
	return r
}

func (c *copier) regs(rs []RegID) []RegID {
	if rs == nil {
		return nil
	}
	out := make([]RegID, len(rs))
	for i, r := range rs {
		out[i] = c.reg(r)
	}
	return out
}

func (c *copier) block(bl *Block) *Block {
	if bl == nil {
		return nil
	}
	out := &Block{Nodes: make([]Node, 0, len(bl.Nodes))}
	for _, n := range bl.Nodes {
		switch n := n.(type) {
		case *Instr:
			out.Nodes = append(out.Nodes, c.instr(n))
		case *Loop:
			nl := *n
			c.here(&nl.Pos, &nl.End)
			nl.Init, nl.Bound, nl.Step = c.inner.Subst(n.Init), c.inner.Subst(n.Bound), c.inner.Subst(n.Step)
			if !n.TripKnown {
				nl.FoldTrip()
			}
			if init, ok := nl.Init.Value(); ok && init == 0 && nl.CmpOp == "<" && nl.Bound.ZeroOne() {
				if step, ok := nl.Step.Value(); ok && step == 1 {
					nl.AtMostOnce = true // bounded by a 0/1 value the caller passes
				}
			}
			nl.Body = c.block(n.Body)
			out.Nodes = append(out.Nodes, &nl)
		case *If:
			if taken, ok := n.Taken(c.inner); ok {
				out.Nodes = append(out.Nodes, c.block(taken).Nodes...)
				continue
			}
			ns := *n
			c.here(&ns.Pos, &ns.End)
			ns.Cond = c.inner.Subst(n.Cond)
			ns.Then, ns.Else = c.block(n.Then), c.block(n.Else)
			out.Nodes = append(out.Nodes, &ns)
		case *Jump:
			nj := *n
			c.here(&nj.Pos, &nj.End)
			out.Nodes = append(out.Nodes, &nj)
		default:
			out.Nodes = append(out.Nodes, n)
		}
	}
	return out
}

// refParam reports whether name is a parameter of the helper declared by
// reference.
func (c *copier) refParam(name string) bool {
	for _, p := range c.h.Params {
		if p.Name == name {
			return p.Ref
		}
	}
	return false
}

// here gives a copy of a node of a helper of another file the call's
// position: the helper's positions are not the caller's file's.
func (c *copier) here(pos, end *token.Pos) {
	if c.h.Foreign {
		*pos, *end = c.call.Pos, c.call.End
	}
}

func (c *copier) instr(in *Instr) *Instr {
	ni := *in
	if c.h.Foreign && in.Origin == nil {
		ni.Origin = &Origin{Func: c.h, Pos: in.Pos}
	}
	c.here(&ni.Pos, &ni.End)
	ni.Defs, ni.Uses = c.regs(in.Defs), c.regs(in.Uses)
	ni.Elem = c.inner.Type(in.Elem)
	if ni.Elem == "" && len(ni.Defs) > 0 && int(ni.Defs[0]) < len(c.regsOut) {
		// A helper over RegT& (a template parameter) knows no element
		// type: the register the caller passes has one.
		ni.Elem = c.regsOut[ni.Defs[0]].Elem
	}
	ni.Loop, ni.Cond = c.call.Loop, c.call.Cond || in.Cond
	if len(in.TArgs) > 0 {
		ni.TArgs = make([]string, len(in.TArgs))
		for k, t := range in.TArgs {
			ni.TArgs[k] = c.inner.Type(t)
			if v, ok := c.inner.Values[t]; ok {
				if x, ok := v.Value(); ok {
					ni.TArgs[k] = strconv.FormatInt(x, 10)
				}
			}
		}
	}
	ni.Args = make([]Operand, len(in.Args))
	for k, a := range in.Args {
		a.Reg = c.reg(a.Reg)
		a.Expr = c.inner.Subst(a.Expr)
		c.here(&a.Pos, &a.End)
		ni.Args[k] = a
	}
	if len(in.PtrDefs) > 0 {
		ni.PtrDefs = make([]string, len(in.PtrDefs))
		for k, name := range in.PtrDefs {
			// A pointer parameter taken by reference (T*& p) is the
			// caller's pointer: advancing it advances the caller's. Any
			// other pointer the helper advances (a parameter taken by
			// value, a local) is the helper's own, named apart from the
			// caller's names.
			ni.PtrDefs[k] = name + "@" + c.h.Name
			if v, ok := c.inner.Values[name]; ok && v.Kind == ExprSym && c.refParam(name) {
				ni.PtrDefs[k] = v.Name
			}
		}
	}
	return &ni
}

// Expand returns fn as the instantiation bind builds it: every if
// constexpr whose condition folds under bind replaced by its taken branch,
// element types bound, loops whose trip counts fold under bind folded, and
// every call of a helper whose body is known (Instr.Target) replaced by
// that body, inlined as Inline does, to MaxInlineDepth: the function as the
// compiler builds it, for analyses that count what is live at each
// instruction (register pressure). The inlined instructions keep their
// positions in the helpers of the file; those of a helper of another file
// (Foreign) take the call's, and Instr.Origin says where they are written.
func (fn *Func) Expand(bind Bindings) *Func {
	if bind.Empty() && !callsHelpers(fn) && !foldsConstexpr(fn.Body) {
		return fn
	}
	return fn.specialise(bind, true)
}

// foldsConstexpr reports whether b holds an if constexpr whose condition
// folds without bindings (a constant of the file, a build macro given by
// -D): the copy Expand makes drops its other branch, as the compiler does.
func foldsConstexpr(b *Block) bool {
	if b == nil {
		return false
	}
	for _, n := range b.Nodes {
		switch n := n.(type) {
		case *If:
			if _, ok := n.Taken(Bindings{}); ok || foldsConstexpr(n.Then) || foldsConstexpr(n.Else) {
				return true
			}
		case *Loop:
			if foldsConstexpr(n.Body) {
				return true
			}
		}
	}
	return false
}

// specialise builds the copy Expand returns; inline false leaves helper
// calls as calls. The copy has its own registers, instructions and loops,
// numbered densely in program order; positions are the original's.

// bindsRegs reports whether a call in fn passes to every register
// parameter of its helper a register, or a parameter of fn (a register
// the front end did not type: live at fn's entry, as it is). Any other
// argument (spelled by a macro the front end did not expand, say) would
// become a new register, read before any write and so live from fn's
// entry, which the code the compiler builds does not hold: such a call
// stays a call (register pressure counts it as a helper's summary, or as
// opaque).
func bindsRegs(call *Instr, fn *Func) bool {
	h := call.Target
	for k, p := range h.Params {
		if p.Reg == NoReg {
			continue
		}
		if k >= len(call.Args) {
			return false
		}
		a := call.Args[k]
		if a.Reg != NoReg {
			continue
		}
		if a.Expr == nil || a.Expr.Kind != ExprSym || !slices.ContainsFunc(fn.Params, func(q Param) bool { return q.Name == a.Expr.Name }) {
			return false
		}
	}
	return true
}

// callsHelpers reports whether fn calls a helper whose body is known.
func callsHelpers(fn *Func) bool {
	for _, in := range fn.Instrs {
		if in.Op == OpCall && in.Target != nil {
			return true
		}
	}
	return false
}

func (fn *Func) specialise(bind Bindings, inline bool) *Func {
	nf := *fn
	nf.Regs = make([]*Reg, len(fn.Regs))
	for i, r := range fn.Regs {
		nr := *r
		nr.Elem = bind.Type(r.Elem)
		nf.Regs[i] = &nr
	}
	nf.Instrs, nf.Loops = nil, nil
	if !bind.Empty() {
		nf.Instances = nil // one instantiation, its types bound in the copy
	}
	s := &specialiser{fn: &nf, bind: bind, inline: inline, loops: map[LoopID]LoopID{NoLoop: NoLoop}}
	nf.Body = s.block(fn.Body, NoLoop)
	return &nf
}

type specialiser struct {
	fn     *Func
	bind   Bindings
	inline bool              // expand helper calls
	depth  int               // helpers being expanded around the current node
	loops  map[LoopID]LoopID // the original's loop -> the copy's
}

func (s *specialiser) block(bl *Block, parent LoopID) *Block {
	if bl == nil {
		return nil
	}
	out := &Block{Nodes: make([]Node, 0, len(bl.Nodes))}
	for _, n := range bl.Nodes {
		switch n := n.(type) {
		case *Instr:
			if s.inline && n.Op == OpCall && n.Target != nil && s.depth < MaxInlineDepth && len(s.fn.Instrs) < MaxExpandInstrs && bindsRegs(n, s.fn) {
				before := len(s.fn.Regs)
				body, regs, inner, ok := Inline(n, s.fn.Regs, s.bind)
				if ok {
					s.fn.Regs = regs
					if parent != NoLoop {
						if s.fn.Scoped == nil {
							s.fn.Scoped = map[RegID]LoopID{}
						}
						for id := before; id < len(regs); id++ {
							s.fn.Scoped[RegID(id)] = parent
						}
					}
					outer, loops := s.bind, s.loops
					s.bind, s.loops = inner, map[LoopID]LoopID{NoLoop: NoLoop}
					s.depth++
					out.Nodes = append(out.Nodes, s.block(body, parent).Nodes...)
					s.depth--
					s.bind, s.loops = outer, loops
					continue
				}
			}
			ni := *n
			ni.ID = InstrID(len(s.fn.Instrs))
			ni.Loop = parent
			ni.Elem = s.bind.Type(n.Elem)
			s.fn.Instrs = append(s.fn.Instrs, &ni)
			out.Nodes = append(out.Nodes, &ni)
		case *Loop:
			nl := *s.bind.Loop(n)
			nl.ID, nl.Parent, nl.Depth = LoopID(len(s.fn.Loops)), parent, 1
			if parent != NoLoop {
				nl.Depth = s.fn.Loops[parent].Depth + 1
			}
			s.loops[n.ID] = nl.ID
			s.fn.Loops = append(s.fn.Loops, &nl)
			nl.Body = s.block(n.Body, nl.ID)
			out.Nodes = append(out.Nodes, &nl)
		case *If:
			if taken, ok := n.Taken(s.bind); ok {
				out.Nodes = append(out.Nodes, s.block(taken, parent).Nodes...)
				continue
			}
			ns := *n
			ns.Then, ns.Else = s.block(n.Then, parent), s.block(n.Else, parent)
			out.Nodes = append(out.Nodes, &ns)
		case *Jump:
			nj := *n
			if l, ok := s.loops[n.Loop]; ok {
				nj.Loop = l
			}
			out.Nodes = append(out.Nodes, &nj)
		default:
			out.Nodes = append(out.Nodes, n)
		}
	}
	return out
}
