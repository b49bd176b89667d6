package pyfront

import (
	"go/token"
	"slices"
	"sort"

	"github.com/ascvet/ascvet/cppfront/ir"
)

// binding is what a name means inside a region. Python scopes are per
// function, so one map serves the whole body.
type binding struct {
	reg     ir.RegID // the register it names, or NoReg
	alias   bool     // it names another name's register (b = a, b = vf.bit_cast(a)): binding it again makes a register of its own
	isConst bool     // a folded integer constant
	val     int64    // its value
	sym     *ir.Expr // a value built from constants only that does not fold
	bool01  bool     // can only be 0 or 1 (a comparison, a bool): a loop bound that makes the loop run at most once
	param   bool     // the parameter's own binding, not yet rebound
}

// funcBuilder lowers the body of one region.
type funcBuilder struct {
	lw       *lowerer
	fn       *ir.Func
	fl       *flat
	env      *exprEnv
	names    map[string]*binding
	count    map[string]int        // how often each name is bound in the function (2 for any augmented or loop binding)
	local    map[string]bool       // names bound anywhere in the function
	callRegs map[int32]ir.RegID    // the register a nested vf call's result went to, by call node
	ar       ir.RegID              // the implicit AR register, NoReg until used
	tmp      int                   // temporaries made for unnamed results
	dtypes   map[ir.InstrID]string // the element type each vf call's dtype= names (inferElems)
	viewed   map[ir.RegID]bool     // registers vf.bit_cast reads as another type (inferElems)

	loopNames map[loopName]bool // the names in every loop's Decls and Assigns
	stmtAt    uint32            // start of the statement being lowered, for NameDefs
}

// loopName is a name in a loop's Decls (assign false) or Assigns (true).
type loopName struct {
	loop   ir.LoopID
	name   string
	assign bool
}

func newFuncBuilder(lw *lowerer, fn *ir.Func, def int32) *funcBuilder {
	fb := &funcBuilder{lw: lw, fn: fn, fl: lw.fl, names: map[string]*binding{}, count: map[string]int{}, local: map[string]bool{},
		callRegs: map[int32]ir.RegID{}, ar: ir.NoReg, loopNames: map[loopName]bool{},
		dtypes: map[ir.InstrID]string{}, viewed: map[ir.RegID]bool{}}
	fb.env = &exprEnv{lw: lw, fb: fb}
	if body := lw.fl.child(def, "body"); body >= 0 {
		fb.countBindings(body)
	}
	return fb
}

// countBindings counts the bindings of each name in the body at i, not
// descending into nested functions, classes and lambdas.
func (fb *funcBuilder) countBindings(i int32) {
	fl := fb.fl
	add := func(t int32, n int) {
		for _, name := range targetNames(fl, t) {
			fb.count[name] += n
			fb.local[name] = true
		}
	}
	var walk func(int32)
	walk = func(i int32) {
		fb.lw.budget.tick()
		switch fl.n[i].kind {
		case "function_definition", "class_definition", "lambda":
			if nm := fl.child(i, "name"); nm >= 0 {
				add(nm, 2)
			}
			return
		case "assignment":
			add(fl.child(i, "left"), 1)
		case "augmented_assignment":
			add(fl.child(i, "left"), 2)
		case "for_statement", "for_in_clause":
			add(fl.child(i, "left"), 2)
		case "named_expression":
			add(fl.child(i, "name"), 2)
		case "as_pattern":
			add(fl.child(i, "alias"), 2)
		}
		for c := fl.n[i].first; c >= 0; c = fl.n[c].next {
			walk(c)
		}
	}
	walk(i)
}

func (fb *funcBuilder) pos(off uint32) token.Pos { return fb.lw.pos(off) }

// modules are the module names kernels call through.
var modules = map[string]bool{"vf": true, "pl": true, "np": true, "math": true, "Vf": true}

// variables returns the names an expression reads, sorted: identifiers
// outside called functions, attribute names and keyword names.
func (fb *funcBuilder) variables(i int32) []string {
	fl := fb.fl
	var out []string
	var walk func(j int32, depth int)
	walk = func(j int32, depth int) {
		if depth > 64 {
			return
		}
		switch fl.n[j].kind {
		case "identifier":
			if t := fl.text(j); !slices.Contains(out, t) {
				out = append(out, t)
			}
			return
		case "attribute":
			if o := fl.child(j, "object"); o >= 0 {
				walk(o, depth+1)
			}
			return
		case "call":
			if f := fl.child(j, "function"); f >= 0 && fl.n[f].kind == "attribute" {
				if o := fl.child(f, "object"); o >= 0 && !(fl.n[o].kind == "identifier" && modules[fl.text(o)]) {
					walk(o, depth+1) // t.get_addr(): t, but not the module of vf.load_align
				}
			}
			if a := fl.child(j, "arguments"); a >= 0 {
				walk(a, depth+1)
			}
			return
		case "keyword_argument":
			if v := fl.child(j, "value"); v >= 0 {
				walk(v, depth+1)
			}
			return
		}
		for c := fl.n[j].first; c >= 0; c = fl.n[c].next {
			walk(c, depth+1)
		}
	}
	walk(i, 0)
	slices.Sort(out)
	return out
}

// jump records a break, continue, return or raise statement.
func (fb *funcBuilder) jump(i int32, kind ir.JumpKind, loop ir.LoopID, cond bool, out *[]ir.Node) {
	*out = append(*out, &ir.Jump{Kind: kind, Loop: loop, Cond: cond, Pos: fb.pos(fb.fl.n[i].start), End: fb.pos(fb.fl.n[i].end)})
}

// newReg adds a register declared at node n (-1: no position).
func (fb *funcBuilder) newReg(name string, class ir.RegClass, elem string, n int32) ir.RegID {
	id := ir.RegID(len(fb.fn.Regs))
	r := &ir.Reg{ID: id, Name: name, Class: class, Elem: elem, ArrayLen: 1}
	if n >= 0 {
		r.Pos, r.End = fb.pos(fb.fl.n[n].start), fb.pos(fb.fl.n[n].end)
	}
	fb.fn.Regs = append(fb.fn.Regs, r)
	return id
}

func (fb *funcBuilder) arReg() ir.RegID {
	if fb.ar == ir.NoReg {
		fb.ar = fb.newReg("AR", ir.ClassSpecial, "", -1)
		fb.fn.Regs[fb.ar].Implicit = true
	}
	return fb.ar
}

// params lowers the parameter list. Parameters are tiles and scalars; one
// that VF code uses where the op wants a register becomes a register
// parameter when it is first used so (paramReg).
func (fb *funcBuilder) params(pl int32) {
	if pl < 0 {
		return
	}
	fl := fb.fl
	for _, p := range fl.named(pl) {
		name, typ := "", ""
		switch fl.n[p].kind {
		case "identifier":
			name = fl.text(p)
		case "typed_parameter":
			for _, c := range fl.named(p) {
				if fl.n[c].kind == "identifier" && name == "" {
					name = fl.text(c)
				}
			}
			if t := fl.child(p, "type"); t >= 0 {
				typ = normSpace(fl.text(t))
			}
		case "default_parameter", "typed_default_parameter":
			if nm := fl.child(p, "name"); nm >= 0 {
				name = fl.text(nm)
			}
			if t := fl.child(p, "type"); t >= 0 {
				typ = normSpace(fl.text(t))
			}
		case "list_splat_pattern", "dictionary_splat_pattern":
			if ch := fl.named(p); len(ch) == 1 {
				name = fl.text(ch[0])
			}
		default:
			continue
		}
		fb.fn.Params = append(fb.fn.Params, ir.Param{Name: name, Type: typ, Reg: ir.NoReg, Pos: fb.pos(fl.n[p].start)})
		if name != "" {
			fb.names[name] = &binding{reg: ir.NoReg, bool01: typ == "bool" || lastName(typ) == "DT_BOOL", param: true}
			fb.count[name]++
			fb.local[name] = true
		}
	}
}

// paramReg makes the parameter name a register of class c, when it is a
// parameter that names no register yet.
func (fb *funcBuilder) paramReg(name string, c ir.RegClass) ir.RegID {
	for k := range fb.fn.Params {
		p := &fb.fn.Params[k]
		if p.Name != name || p.Reg != ir.NoReg {
			continue
		}
		if b := fb.names[name]; b == nil || b.reg != ir.NoReg || !b.param {
			return ir.NoReg // rebound before this use: not the parameter any more
		}
		id := ir.RegID(len(fb.fn.Regs))
		end := p.Pos + token.Pos(len(name))
		fb.fn.Regs = append(fb.fn.Regs, &ir.Reg{ID: id, Name: name, Class: c, ArrayLen: 1, Param: true, Pos: p.Pos, End: end})
		p.Reg = id
		fb.names[name].reg = id
		return id
	}
	return ir.NoReg
}

// declared records a name first bound inside loop (and its enclosing loops).
func (fb *funcBuilder) declared(name string, loop ir.LoopID) {
	for l := loop; l != ir.NoLoop; l = fb.fn.Loops[l].Parent {
		if !fb.noteLoopName(l, name, false) {
			break
		}
		fb.fn.Loops[l].Decls = append(fb.fn.Loops[l].Decls, name)
	}
}

// assigned records a name bound again inside loop (and its enclosing loops).
func (fb *funcBuilder) assigned(name string, loop ir.LoopID) {
	for l := loop; l != ir.NoLoop; l = fb.fn.Loops[l].Parent {
		if !fb.noteLoopName(l, name, true) {
			break
		}
		fb.fn.Loops[l].Assigns = append(fb.fn.Loops[l].Assigns, name)
	}
}

func (fb *funcBuilder) noteLoopName(l ir.LoopID, name string, assign bool) bool {
	k := loopName{l, name, assign}
	if fb.loopNames[k] {
		return false
	}
	fb.loopNames[k] = true
	return true
}

// bindScalar binds name to a value that is not a register; val is the node
// of the value (-1 when unknown).
func (fb *funcBuilder) bindScalar(name string, val int32, loop ir.LoopID) {
	if name == "" {
		return
	}
	_, bound := fb.names[name]
	if bound {
		fb.assigned(name, loop)
	} else {
		fb.declared(name, loop)
	}
	// The write for the replay's provenance: Python declares a name by
	// its first binding.
	nd := ir.NameDef{Name: name, Decl: !bound, Pos: fb.pos(fb.stmtAt)}
	if val >= 0 {
		nd.Op, nd.Init, nd.From = "=", fb.env.expr(val), fb.variables(val)
		nd.Pos = fb.pos(fb.fl.n[val].start)
	}
	fb.fn.Names = append(fb.fn.Names, nd)
	b := &binding{reg: ir.NoReg}
	if val >= 0 {
		b.bool01 = fb.zeroOne(val)
		if fb.count[name] == 1 {
			e := fb.env.expr(val)
			if v, ok := e.Value(); ok {
				b.isConst, b.val = true, v
				fb.fn.Locals[name] = v
			} else if e.Pure() || e.Known() && fb.stable(e, loop) {
				b.sym = e
			}
		}
	}
	fb.names[name] = b
}

// stable reports whether every name the value e mentions keeps its value
// from the assignment, made in loop, to the uses that follow it in the same
// iteration: a parameter that is never rebound, a name bound once, or the
// variable of a loop around the assignment. A name bound once in a loop
// (addr = src + i * VL) then has that value in its own iteration, as the
// compiler computes it; a name that is rebound has no value.
func (fb *funcBuilder) stable(e *ir.Expr, loop ir.LoopID) bool {
	ok := true
	e.Subst(func(k ir.ExprKind, name string) *ir.Expr {
		if k != ir.ExprSym || !ok {
			return nil
		}
		switch fb.count[name] {
		case 0, 1:
			return nil
		}
		for l := loop; l != ir.NoLoop; l = fb.fn.Loops[l].Parent {
			if fb.fn.Loops[l].Var == name {
				return nil
			}
		}
		ok = false
		return nil
	})
	return ok
}

// bindAlias binds name to the register r of another name.
func (fb *funcBuilder) bindAlias(name string, r ir.RegID, loop ir.LoopID) {
	if name == "" {
		return
	}
	if _, ok := fb.names[name]; !ok {
		fb.declared(name, loop)
	}
	fb.names[name] = &binding{reg: r, alias: true}
}

// bindReg returns the register name holds after being bound to a result of
// class c and element type elem: the register it holds already when it is
// one of the same class and a compatible type (assigning a C++ variable
// again), else a new one declared at node n.
func (fb *funcBuilder) bindReg(name string, c ir.RegClass, elem string, n int32, loop ir.LoopID) ir.RegID {
	b, bound := fb.names[name]
	if bound && b.reg != ir.NoReg && !b.alias {
		r := fb.fn.Regs[b.reg]
		if r.Class == c && (r.Elem == "" || elem == "" || r.Elem == elem) {
			if r.Elem == "" {
				r.Elem = elem
			}
			return b.reg
		}
	}
	if !bound {
		fb.declared(name, loop)
	}
	id := fb.newReg(name, c, elem, n)
	fb.names[name] = &binding{reg: id}
	return id
}

// declReg binds name to a new register of class c declared at node n, as
// a declaration does: a name bound before is bound again (Loop.Assigns).
func (fb *funcBuilder) declReg(name string, c ir.RegClass, n int32, loop ir.LoopID) ir.RegID {
	if _, bound := fb.names[name]; bound {
		fb.assigned(name, loop)
	} else {
		fb.declared(name, loop)
	}
	id := fb.newReg(name, c, "", n)
	fb.names[name] = &binding{reg: id}
	return id
}

// zeroOne reports whether a value can only be 0 or 1: a comparison, not,
// and/or of such, True/False.
func (fb *funcBuilder) zeroOne(i int32) bool {
	fl := fb.fl
	switch fl.n[i].kind {
	case "comparison_operator", "not_operator", "true", "false":
		return true
	case "boolean_operator":
		l, r := fl.child(i, "left"), fl.child(i, "right")
		return l >= 0 && r >= 0 && fb.zeroOne(l) && fb.zeroOne(r)
	case "parenthesized_expression":
		if ch := fl.named(i); len(ch) == 1 {
			return fb.zeroOne(ch[0])
		}
	case "identifier":
		b, ok := fb.names[fl.text(i)]
		return ok && b.bool01
	case "call":
		fn := fl.child(i, "function")
		return fn >= 0 && fl.text(fn) == "bool"
	}
	return false
}

// block lowers the statements of a block (or one statement) into a Block.
func (fb *funcBuilder) block(i int32, loop ir.LoopID, cond bool) *ir.Block {
	b := &ir.Block{}
	if i < 0 {
		return b
	}
	fb.stmts(i, loop, cond, &b.Nodes)
	return b
}

// stmts lowers the statements of the block i, or the statement i, into out.
func (fb *funcBuilder) stmts(i int32, loop ir.LoopID, cond bool, out *[]ir.Node) {
	if fb.fl.n[i].kind == "block" {
		for _, c := range fb.fl.named(i) {
			fb.stmt(c, loop, cond, out)
		}
		return
	}
	fb.stmt(i, loop, cond, out)
}

func (fb *funcBuilder) stmt(i int32, loop ir.LoopID, cond bool, out *[]ir.Node) {
	fb.lw.budget.tick()
	fl := fb.fl
	fb.stmtAt = fl.n[i].start
	switch fl.n[i].kind {
	case "expression_statement":
		for _, c := range fl.named(i) {
			switch fl.n[c].kind {
			case "assignment":
				fb.assign(c, loop, cond, out)
			case "augmented_assignment":
				fb.augAssign(c, loop, cond, out)
			case "string", "concatenated_string":
				// a docstring
			default:
				fb.expr(c, loop, cond, out)
			}
		}
	case "if_statement":
		fb.ifStmt(i, loop, cond, out)
	case "for_statement":
		fb.forStmt(i, loop, cond, out)
	case "while_statement":
		fb.whileStmt(i, loop, cond, out)
	case "with_statement":
		for c := fl.n[i].first; c >= 0; c = fl.n[c].next {
			if fl.n[c].kind == "with_clause" {
				fb.expr(c, loop, cond, out)
			}
		}
		fb.stmts(fl.child(i, "body"), loop, cond, out)
	case "try_statement":
		fb.stmts(fl.child(i, "body"), loop, cond, out)
		for _, c := range fl.named(i) {
			switch fl.n[c].kind {
			case "except_clause", "except_group_clause", "else_clause":
				for _, s := range fl.named(c) {
					if fl.n[s].kind == "block" {
						fb.stmts(s, loop, true, out)
					}
				}
			case "finally_clause":
				for _, s := range fl.named(c) {
					fb.stmts(s, loop, cond, out)
				}
			}
		}
	case "match_statement":
		if s := fl.child(i, "subject"); s >= 0 {
			fb.expr(s, loop, cond, out)
		}
		for j := i + 1; j < int32(len(fl.n)) && fl.n[j].start < fl.n[i].end; j++ {
			if fl.n[j].kind == "case_clause" {
				if c := fl.child(j, "consequence"); c >= 0 {
					fb.stmts(c, loop, true, out)
				}
			}
		}
	case "return_statement", "assert_statement", "raise_statement", "delete_statement", "print_statement", "exec_statement":
		for _, c := range fl.named(i) {
			fb.expr(c, loop, cond, out)
		}
		if k := fl.n[i].kind; k == "return_statement" || k == "raise_statement" {
			fb.jump(i, ir.JumpReturn, ir.NoLoop, cond, out)
		}
	case "break_statement", "continue_statement":
		if loop != ir.NoLoop {
			kind := ir.JumpBreak
			if fl.n[i].kind == "continue_statement" {
				kind = ir.JumpContinue
			}
			fb.jump(i, kind, loop, cond, out)
		}
	case "function_definition", "decorated_definition", "class_definition", "pass_statement",
		"comment", "global_statement", "nonlocal_statement", "import_statement",
		"import_from_statement", "future_import_statement", "type_alias_statement":
	case "ERROR", "block":
		for _, c := range fl.named(i) {
			fb.stmt(c, loop, cond, out)
		}
	case "assignment":
		fb.assign(i, loop, cond, out)
	case "augmented_assignment":
		fb.augAssign(i, loop, cond, out)
	default:
		fb.expr(i, loop, cond, out)
	}
}

// target is one name an assignment binds, with its node; name is "" for a
// target that binds no name (an attribute, a subscript).
type target struct {
	name string
	node int32
}

func (fb *funcBuilder) targets(t int32) []target {
	fl := fb.fl
	if t < 0 {
		return nil
	}
	switch fl.n[t].kind {
	case "identifier":
		return []target{{fl.text(t), t}}
	case "pattern_list", "tuple_pattern", "list_pattern", "tuple", "list", "expression_list":
		var out []target
		for _, c := range fl.named(t) {
			out = append(out, fb.targets(c)...)
		}
		return out
	case "parenthesized_expression":
		if ch := fl.named(t); len(ch) == 1 {
			return fb.targets(ch[0])
		}
	}
	return []target{{"", t}}
}

// assign lowers name = value (also a = b = value and a, b = value).
func (fb *funcBuilder) assign(a int32, loop ir.LoopID, cond bool, out *[]ir.Node) {
	fl := fb.fl
	var lefts []int32
	right := a
	for right >= 0 && fl.n[right].kind == "assignment" {
		if l := fl.child(right, "left"); l >= 0 {
			lefts = append(lefts, l)
		}
		right = fl.child(right, "right")
	}
	var ts []target
	for _, l := range lefts {
		// Calls in subscripts and attributes of a target run too.
		if k := fl.n[l].kind; k == "subscript" || k == "attribute" {
			fb.expr(l, loop, cond, out)
		}
		ts = append(ts, fb.targets(l)...)
	}
	if right < 0 {
		for _, t := range ts {
			fb.bindScalar(t.name, -1, loop)
		}
		return
	}
	v := unparen(fl, right)
	if fl.n[v].kind == "call" {
		fb.call(v, ts, loop, cond, out)
		return
	}
	// a, b = f(x), g(y) binds each call's result to its target, in order
	// (a call reading a name bound by an earlier one in the same statement
	// reads the name's register, which is the same one unless the class
	// changes).
	if len(ts) > 1 && (fl.n[v].kind == "expression_list" || fl.n[v].kind == "tuple") {
		if vals := fl.named(v); len(vals) == len(ts) && slices.ContainsFunc(vals, func(x int32) bool { return fl.n[unparen(fl, x)].kind == "call" }) {
			for k, t := range ts {
				if x := unparen(fl, vals[k]); fl.n[x].kind == "call" {
					fb.call(x, []target{t}, loop, cond, out)
				} else {
					fb.expr(vals[k], loop, cond, out)
					fb.bindValue(t.name, x, loop)
				}
			}
			return
		}
	}
	fb.expr(right, loop, cond, out)
	// a, b = x, y binds pairwise.
	if len(ts) > 1 && (fl.n[v].kind == "expression_list" || fl.n[v].kind == "tuple") {
		vals := fl.named(v)
		for k, t := range ts {
			if k < len(vals) && len(vals) == len(ts) {
				fb.bindValue(t.name, vals[k], loop)
			} else {
				fb.bindScalar(t.name, -1, loop)
			}
		}
		return
	}
	for _, t := range ts {
		if len(ts) == 1 {
			fb.bindValue(t.name, v, loop)
		} else {
			fb.bindScalar(t.name, -1, loop)
		}
	}
}

// bindValue binds name to the value of node v: the register v names (an
// alias), or a scalar.
func (fb *funcBuilder) bindValue(name string, v int32, loop ir.LoopID) {
	if r := fb.resolveReg(v); r != ir.NoReg {
		fb.bindAlias(name, r, loop)
		return
	}
	fb.bindScalar(name, v, loop)
}

func unparen(fl *flat, i int32) int32 {
	for fl.n[i].kind == "parenthesized_expression" {
		ch := fl.named(i)
		if len(ch) != 1 {
			break
		}
		i = ch[0]
	}
	return i
}

func (fb *funcBuilder) augAssign(a int32, loop ir.LoopID, cond bool, out *[]ir.Node) {
	fl := fb.fl
	if r := fl.child(a, "right"); r >= 0 {
		fb.expr(r, loop, cond, out)
	}
	for _, t := range fb.targets(fl.child(a, "left")) {
		if t.name == "" {
			fb.expr(t.node, loop, cond, out)
			continue
		}
		if b, ok := fb.names[t.name]; ok && b.reg != ir.NoReg && !b.alias {
			continue // x += ... on a register: not DSL; the register stays
		}
		fb.bindScalar(t.name, -1, loop)
	}
}

// ifStmt lowers if / elif / else into a chain of ir.If.
func (fb *funcBuilder) ifStmt(i int32, loop ir.LoopID, cond bool, out *[]ir.Node) {
	fl := fb.fl
	c := fl.child(i, "condition")
	if c >= 0 {
		fb.expr(c, loop, cond, out)
	}
	s := &ir.If{Pos: fb.pos(fl.n[i].start), End: fb.pos(fl.n[i].end), Cond: fb.env.expr(c)}
	s.Then = fb.block(fl.child(i, "consequence"), loop, true)
	s.Else = fb.elseChain(fl.fields(i, "alternative"), fl.n[i].end, loop)
	*out = append(*out, s)
}

// elseChain lowers the elif and else clauses alts of an if statement ending
// at end: an elif is an If in the Else block of the one before.
func (fb *funcBuilder) elseChain(alts []int32, end uint32, loop ir.LoopID) *ir.Block {
	if len(alts) == 0 {
		return nil
	}
	fl := fb.fl
	a := alts[0]
	switch fl.n[a].kind {
	case "else_clause":
		return fb.block(fl.child(a, "body"), loop, true)
	case "elif_clause":
		b := &ir.Block{}
		c := fl.child(a, "condition")
		if c >= 0 {
			fb.expr(c, loop, true, &b.Nodes)
		}
		s := &ir.If{Pos: fb.pos(fl.n[a].start), End: fb.pos(end), Cond: fb.env.expr(c)}
		s.Then = fb.block(fl.child(a, "consequence"), loop, true)
		s.Else = fb.elseChain(alts[1:], end, loop)
		b.Nodes = append(b.Nodes, s)
		return b
	}
	return nil
}

// newLoop adds a loop of kind k for the statement i.
func (fb *funcBuilder) newLoop(i int32, k ir.LoopKind, parent ir.LoopID, cond bool) *ir.Loop {
	fl := fb.fl
	l := &ir.Loop{ID: ir.LoopID(len(fb.fn.Loops)), Kind: k, Parent: parent, Depth: 1, Cond: cond,
		Pos: fb.pos(fl.n[i].start), End: fb.pos(fl.n[i].end)}
	if parent != ir.NoLoop {
		l.Depth = fb.fn.Loops[parent].Depth + 1
	}
	fb.fn.Loops = append(fb.fn.Loops, l)
	return l
}

// forStmt lowers a for statement. for v in range(...) and pl.range(...)
// are counted loops: for (v = start; v < stop; v += step).
func (fb *funcBuilder) forStmt(i int32, parent ir.LoopID, cond bool, out *[]ir.Node) {
	fl := fb.fl
	left, right := fl.child(i, "left"), fl.child(i, "right")
	var rng []int32 // start, stop, step nodes of a range call (-1: absent)
	if right >= 0 {
		if r := unparen(fl, right); fl.n[r].kind == "call" && fb.isRange(r) {
			rng = fb.rangeArgs(r)
			if al := fl.child(r, "arguments"); al >= 0 {
				fb.expr(al, parent, cond, out)
			}
		} else {
			fb.expr(right, parent, cond, out)
		}
	}
	l := fb.newLoop(i, ir.LoopFor, parent, cond)
	if rng != nil && left >= 0 && fl.n[left].kind == "identifier" {
		l.Var = fl.text(left)
	}
	if l.Var != "" {
		l.Init, l.Bound, l.Step = ir.Const(0), nil, ir.Const(1)
		if rng[0] >= 0 {
			l.Init = fb.env.expr(rng[0])
		}
		if rng[1] >= 0 {
			l.Bound = fb.env.expr(rng[1])
		}
		if rng[2] >= 0 {
			l.Step = fb.env.expr(rng[2])
		}
		l.CmpOp = "<"
		if s, ok := l.Step.Value(); ok && s < 0 {
			l.CmpOp = ">"
		}
		l.FoldTrip()
		l.AtMostOnce = l.TripKnown && l.Trip <= 1 || fb.boundZeroOne(l) || rng[1] >= 0 && fb.zeroOne(unparen(fl, rng[1])) && unitFromZero(l)
	}
	for _, t := range fb.targets(left) {
		if t.name != "" {
			fb.names[t.name] = &binding{reg: ir.NoReg}
			fb.declared(t.name, l.ID)
		}
	}
	l.Body = fb.block(fl.child(i, "body"), l.ID, cond)
	*out = append(*out, l)
	if e := fl.child(i, "alternative"); e >= 0 {
		fb.stmts(fl.child(e, "body"), parent, true, out)
	}
}

// isRange reports whether the call r is range(...) or pl.range(...).
func (fb *funcBuilder) isRange(r int32) bool {
	fl := fb.fl
	fn := fl.child(r, "function")
	if fn < 0 {
		return false
	}
	switch fl.n[fn].kind {
	case "identifier":
		return fl.text(fn) == "range" && !fb.local["range"]
	case "attribute":
		obj, attr := fl.child(fn, "object"), fl.child(fn, "attribute")
		return obj >= 0 && attr >= 0 && fb.lw.plNames[squash(fl.text(obj))] && fl.text(attr) == "range"
	}
	return false
}

// rangeArgs returns the start, stop and step nodes of range(...) (pl.range
// also takes them as keywords), -1 for those not given; nil when the call
// has another shape.
func (fb *funcBuilder) rangeArgs(r int32) []int32 {
	fl := fb.fl
	al := fl.child(r, "arguments")
	if al < 0 {
		return nil
	}
	var pos []int32
	kw := map[string]int32{}
	for _, a := range fl.named(al) {
		switch fl.n[a].kind {
		case "keyword_argument":
			if k, v := fl.child(a, "name"), fl.child(a, "value"); k >= 0 && v >= 0 {
				kw[fl.text(k)] = v
			}
		case "list_splat", "dictionary_splat":
			return nil
		default:
			pos = append(pos, a)
		}
	}
	out := []int32{-1, -1, -1}
	switch len(pos) {
	case 0:
	case 1:
		out[1] = pos[0]
	case 2, 3:
		copy(out, pos)
	default:
		return nil
	}
	for k, name := range []string{"start", "stop", "step"} {
		if v, ok := kw[name]; ok {
			out[k] = v
		}
	}
	if len(pos) == 0 && out[1] < 0 && out[0] >= 0 {
		out[0], out[1] = -1, out[0] // pl.range(start=n) is range(n)
	}
	if out[1] < 0 {
		return nil
	}
	return out
}

// unitFromZero reports whether the loop counts from 0 in steps of 1.
func unitFromZero(l *ir.Loop) bool {
	init, ok := l.Init.Value()
	step, ok2 := l.Step.Value()
	return ok && ok2 && init == 0 && step == 1
}

// boundZeroOne reports whether range(flag) runs at most once because flag
// can only be 0 or 1 (range(tail > 0) is caught where the loop is made).
func (fb *funcBuilder) boundZeroOne(l *ir.Loop) bool {
	if !unitFromZero(l) || l.Bound == nil || l.Bound.Kind != ir.ExprSym {
		return false
	}
	b, found := fb.names[l.Bound.Name]
	return found && b.bool01
}

func (fb *funcBuilder) whileStmt(i int32, parent ir.LoopID, cond bool, out *[]ir.Node) {
	fl := fb.fl
	if c := fl.child(i, "condition"); c >= 0 {
		fb.expr(c, parent, cond, out)
	}
	l := fb.newLoop(i, ir.LoopWhile, parent, cond)
	l.Body = fb.block(fl.child(i, "body"), l.ID, cond)
	*out = append(*out, l)
	if e := fl.child(i, "alternative"); e >= 0 {
		fb.stmts(fl.child(e, "body"), parent, true, out)
	}
}

// finish records the parse errors of the definition at node outer, infers
// the element types the code leaves unstated (inferElems) and the roles of
// the unaligned registers.
func (fb *funcBuilder) finish(outer int32) {
	fl := fb.fl
	fb.fn.Errors = fb.lw.errors(fl.n[outer].start, fl.n[outer].end)
	sort.Slice(fb.fn.Errors, func(i, j int) bool { return fb.fn.Errors[i] < fb.fn.Errors[j] })
	fb.inferElems()
	ir.InferUnalignRoles(fb.fn)
}
