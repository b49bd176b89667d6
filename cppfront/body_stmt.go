package cppfront

import (
	"go/token"
	"slices"
	"strings"

	"github.com/ascvet/ascvet/cppfront/ir"
)

// Statements and declarations of a region: registers, parameters, blocks,
// loops and ifs, lowered to IR nodes (the funcBuilder of body.go).

func (fb *funcBuilder) pos(off uint32) token.Pos { return fb.lw.pos(off) }

// newReg adds a register to the function.
func (fb *funcBuilder) newReg(name string, rt regType, arrayLen int, param, ref bool, n int32) ir.RegID {
	id := ir.RegID(len(fb.fn.Regs))
	r := &ir.Reg{ID: id, Name: name, Class: rt.class, Elem: rt.elem, TwoRegs: rt.two, ArrayLen: arrayLen, Param: param, Ref: ref}
	if n >= 0 {
		r.Pos, r.End = fb.pos(fb.fl.n[n].start), fb.pos(fb.fl.n[n].end)
	}
	fb.fn.Regs = append(fb.fn.Regs, r)
	return id
}

func (fb *funcBuilder) arReg() ir.RegID {
	if fb.ar == ir.NoReg {
		fb.ar = fb.newReg("AR", regType{class: ir.ClassSpecial}, 1, false, false, -1)
		fb.fn.Regs[fb.ar].Implicit = true
	}
	return fb.ar
}

// params lowers the parameter list of a function declarator.
func (fb *funcBuilder) params(d int32) {
	fl := fb.fl
	// Find the function_declarator.
	for i := 0; i < 16 && d >= 0 && fl.n[d].kind() != "function_declarator"; i++ {
		nd := fl.child(d, "declarator")
		if nd < 0 {
			return
		}
		d = nd
	}
	if d < 0 {
		return
	}
	pl := fl.child(d, "parameters")
	if pl < 0 {
		return
	}
	for _, p := range fl.named(pl) {
		switch fl.n[p].kind() {
		case "parameter_declaration", "optional_parameter_declaration":
		default:
			continue
		}
		ty := fl.child(p, "type")
		typ := ""
		if ty >= 0 {
			typ = normSpace(fb.typePrefix(p, ty))
		}
		decl := fl.child(p, "declarator")
		name, ref, ptr, arr, _ := fb.declShape(decl)
		prm := ir.Param{Name: name, Type: typ, Ptr: ptr, Ref: ref, Default: fl.n[p].kind() == "optional_parameter_declaration", Reg: ir.NoReg, Pos: fb.pos(fl.n[p].start)}
		rt := parseRegType(typ, fb.tyAlias)
		if c, ok := fb.lw.regParams[fb.fn.Pos][name]; ok && rt.class == ir.ClassNone && !ptr {
			rt = regType{class: c} // RegT& x, a register by its callers (deduceRegParams)
		}
		if fb.quiet {
			// The function around a __VEC_SCOPE__ block: its parameters
			// are names the block sees, not the block's own.
			if name != "" && (rt.class == ir.ClassNone || ptr) {
				fb.bind(name, binding{reg: ir.NoReg, ptr: ptr, bool01: fb.outerZO[name]})
				fb.nameDef(name, true, typ, ptr, -1, p)
			}
			if rt.class == ir.ClassNone || ptr {
				fb.outer = append(fb.outer, prm)
			} else {
				fb.outer = append(fb.outer, ir.Param{Name: name, Reg: 0}) // a register: no value to pass
			}
			continue
		}
		if rt.class != ir.ClassNone && !ptr {
			prm.Reg = fb.newReg(name, rt, arr, true, ref, decl)
			if name != "" {
				fb.bind(name, binding{reg: prm.Reg})
			}
		} else if name != "" {
			// bool01: every call in the file passes 0 or 1 (zeroOneParams)
			fb.bind(name, binding{reg: ir.NoReg, ptr: ptr, bool01: fb.lw.zeroOne[fb.fn.Pos][name]})
		}
		fb.fn.Params = append(fb.fn.Params, prm)
	}
}

// typePrefix returns the text of a declaration's type including its
// qualifiers (everything from the declaration's start to the end of the type).
func (fb *funcBuilder) typePrefix(decl, ty int32) string {
	return string(fb.fl.src[fb.fl.n[decl].start:fb.fl.n[ty].end])
}

// declShape unwraps a declarator: name, reference?, pointer?, array length
// (1 when not an array, -1 when unknown), and the init value node (-1).
func (fb *funcBuilder) declShape(d int32) (name string, ref, ptr bool, arr int, val int32) {
	return fb.declShapeSized(d, true)
}

// declaredName is the name declShape finds, without evaluating array
// sizes: what neededDecls asks of every declaration before a call site.
func (fb *funcBuilder) declaredName(d int32) string {
	name, _, _, _, _ := fb.declShapeSized(d, false)
	return name
}

// declShapeSized is declShape, evaluating array sizes when sized (arr is
// 1 otherwise).
func (fb *funcBuilder) declShapeSized(d int32, sized bool) (name string, ref, ptr bool, arr int, val int32) {
	fl := fb.fl
	arr, val = 1, -1
	for i := 0; i < 32 && d >= 0; i++ {
		switch fl.n[d].kind() {
		case "identifier", "field_identifier":
			return fl.text(d), ref, ptr, arr, val
		case "init_declarator":
			val = fl.child(d, "value")
			d = fl.child(d, "declarator")
		case "reference_declarator":
			ref = true
			ch := fl.named(d)
			if len(ch) == 0 {
				return "", ref, ptr, arr, val
			}
			d = ch[len(ch)-1]
		case "pointer_declarator":
			ptr = true
			d = fl.child(d, "declarator")
		case "array_declarator":
			if sized {
				arr = fb.arrayLen(d, arr)
			}
			d = fl.child(d, "declarator")
		case "parenthesized_declarator", "attributed_declarator":
			ch := fl.named(d)
			if len(ch) == 0 {
				return "", ref, ptr, arr, val
			}
			d = ch[0]
		default:
			return "", ref, ptr, arr, val
		}
	}
	return "", ref, ptr, arr, val
}

// arrayLen returns arr times the length of the array declarator d, -1
// when either is unknown.
func (fb *funcBuilder) arrayLen(d int32, arr int) int {
	fl := fb.fl
	sz := fl.child(d, "size")
	if sz < 0 {
		return -1
	}
	if v, ok := fb.env.expr(fl, sz).Value(); ok && arr >= 0 {
		return arr * int(v)
	}
	return -1
}

// block lowers a statement (usually a compound statement) into a Block.
func (fb *funcBuilder) block(i int32, loop ir.LoopID, cond bool) *ir.Block {
	b := &ir.Block{}
	if i < 0 {
		return b
	}
	fb.push()
	if fb.fl.n[i].kind() == "compound_statement" {
		for c := fb.fl.n[i].first; c >= 0; c = fb.fl.n[c].next {
			if fb.fl.n[c].named() {
				fb.stmt(c, loop, cond, &b.Nodes)
			}
		}
	} else {
		fb.stmt(i, loop, cond, &b.Nodes)
	}
	fb.pop()
	return b
}

func (fb *funcBuilder) stmt(i int32, loop ir.LoopID, cond bool, out *[]ir.Node) {
	fb.lw.budget.tick()
	fl := fb.fl
	switch fl.n[i].kind() {
	case "compound_statement":
		fb.push()
		for c := fl.n[i].first; c >= 0; c = fl.n[c].next {
			if fl.n[c].named() {
				fb.stmt(c, loop, cond, out)
			}
		}
		fb.pop()
	case "declaration":
		fb.decl(i, loop, cond, out)
	case "alias_declaration", "type_definition":
		t := normSpace(fl.text(i))
		fb.aliasText(t)
	case "expression_statement":
		for _, c := range fl.named(i) {
			fb.expr(c, loop, cond, out, ir.NoReg)
		}
	case "for_statement", "for_range_loop", "while_statement", "do_statement":
		if fb.inLoopHeader > 0 {
			// A loop in a GNU statement expression in another loop's
			// header (for (({ for (;;); }); ...)): no kernel writes one,
			// and lowered it would precede, in the IR, the loop whose
			// header holds it. Not lowered.
			return
		}
		fb.loop(i, loop, cond, out)
	case "if_statement":
		fb.ifStmt(i, loop, cond, out)
	case "using_declaration":
		t := normSpace(fl.text(i))
		if rest, ok := strings.CutPrefix(strings.TrimSuffix(t, ";"), "using namespace "); ok && fb.lw.isRegNS(rest) {
			fb.regUsing = true
		}
	case "break_statement":
		if fb.switches == 0 && loop != ir.NoLoop {
			fb.jump(i, ir.JumpBreak, loop, cond, out)
		}
	case "continue_statement":
		if loop != ir.NoLoop {
			fb.jump(i, ir.JumpContinue, loop, cond, out)
		}
	case "goto_statement":
		fb.jump(i, ir.JumpGoto, ir.NoLoop, cond, out)
	case "return_statement":
		fb.expr(i, loop, cond, out, ir.NoReg)
		if fb.lambdas == 0 {
			fb.returns(i)
			fb.jump(i, ir.JumpReturn, ir.NoLoop, cond, out)
		}
	case "comment", "preproc_call", "preproc_def",
		"preproc_function_def", "preproc_include", "namespace_alias_definition", "static_assert_declaration":
	case "preproc_if", "preproc_ifdef", "preproc_else", "preproc_elif", "preproc_elifdef":
		for _, c := range fl.named(i) {
			if fl.n[c].field() == "condition" || fl.n[c].field() == "name" {
				continue
			}
			fb.stmt(c, loop, true, out)
		}
	case "switch_statement":
		if c := fl.child(i, "condition"); c >= 0 {
			fb.expr(c, loop, cond, out, ir.NoReg)
		}
		if c := fl.child(i, "body"); c >= 0 {
			fb.switches++
			fb.stmt(c, loop, true, out)
			fb.switches--
		}
	case "case_statement", "labeled_statement", "ERROR":
		for _, c := range fl.named(i) {
			if fl.n[c].field() == "value" || fl.n[c].field() == "label" {
				continue
			}
			fb.stmt(c, loop, cond, out)
		}
	default:
		fb.expr(i, loop, cond, out, ir.NoReg)
	}
}

// nameDef records the declaration of a scalar name (val: its initialiser
// node, or -1) at the declarator d.
func (fb *funcBuilder) nameDef(name string, decl bool, typ string, ptr bool, val, d int32) {
	if fb.noNames {
		return
	}
	nd := ir.NameDef{Name: name, Decl: decl, Type: typ, Ptr: ptr, Pos: fb.pos(fb.fl.n[d].start)}
	if val >= 0 {
		nd.Op = "="
		nd.Init = fb.env.expr(fb.fl, val)
		nd.From = fb.variables(val)
	}
	fb.fn.Names = append(fb.fn.Names, nd)
}

// assignDef records an assignment (op "=", "+=", ...) or an increment (op
// "++", "--", right -1) of a scalar name at node i.
func (fb *funcBuilder) assignDef(name, op string, right, i int32) {
	if b, ok := fb.lookup(name); ok && b.reg != ir.NoReg {
		return
	}
	nd := ir.NameDef{Name: name, Op: op, Pos: fb.pos(fb.fl.n[i].start)}
	if right >= 0 {
		if op == "=" {
			nd.Init = fb.env.expr(fb.fl, right)
		}
		nd.From = fb.variables(right)
	}
	fb.fn.Names = append(fb.fn.Names, nd)
}

// variables returns the variables an expression names, sorted: its
// identifiers outside types, template arguments and member names.
func (fb *funcBuilder) variables(i int32) []string {
	fl := fb.fl
	var out []string
	var walk func(j int32, depth int)
	walk = func(j int32, depth int) {
		if depth > 64 {
			return
		}
		switch fl.n[j].kind() {
		case "type_descriptor", "template_argument_list", "sizeof_expression", "field_identifier":
			return
		case "identifier":
			if t := fl.text(j); !slices.Contains(out, t) {
				out = append(out, t)
			}
			return
		case "call_expression":
			// The callee is not a variable (reinterpret_cast, GetPhyAddr)
			// but the object a member is called on is (x.GetPhyAddr()).
			if f := fl.child(j, "function"); f >= 0 && fl.n[f].kind() == "field_expression" {
				if a := fl.child(f, "argument"); a >= 0 {
					walk(a, depth+1)
				}
			}
			if a := fl.child(j, "arguments"); a >= 0 {
				walk(a, depth+1)
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

// jump records a break, continue, return or goto statement.
func (fb *funcBuilder) jump(i int32, kind ir.JumpKind, loop ir.LoopID, cond bool, out *[]ir.Node) {
	if fb.quiet {
		return
	}
	*out = append(*out, &ir.Jump{Kind: kind, Loop: loop, Cond: cond, Pos: fb.pos(fb.fl.n[i].start), End: fb.pos(fb.fl.n[i].end)})
}

func (fb *funcBuilder) aliasText(t string) {
	t = strings.TrimSuffix(t, ";")
	if rest, ok := strings.CutPrefix(t, "using "); ok {
		if k := strings.IndexByte(rest, '='); k >= 0 {
			fb.tyAlias[strings.TrimSpace(rest[:k])] = strings.TrimSpace(rest[k+1:])
		}
	} else if rest, ok := strings.CutPrefix(t, "typedef "); ok {
		if k := strings.LastIndexByte(rest, ' '); k >= 0 {
			fb.tyAlias[strings.TrimSpace(rest[k+1:])] = strings.TrimSpace(rest[:k])
		}
	}
}

// decl lowers a declaration statement: registers, constants, pointers, and
// the calls in initialisers.
func (fb *funcBuilder) decl(i int32, loop ir.LoopID, cond bool, out *[]ir.Node) {
	fl := fb.fl
	ty := fl.child(i, "type")
	typ := ""
	if ty >= 0 {
		typ = normSpace(fb.typePrefix(i, ty))
	}
	rt := parseRegType(typ, fb.tyAlias)
	isConst := strings.Contains(typ, "const")
	auto := ty >= 0 && fl.text(ty) == "auto"
	for _, d := range fl.fields(i, "declarator") {
		name, ref, ptr, arr, val := fb.declShape(d)
		if name == "" {
			if val >= 0 {
				fb.expr(val, loop, cond, out, ir.NoReg)
			}
			continue
		}
		fb.declared(name, loop)
		switch {
		case rt.class != ir.ClassNone && !ptr && fb.quiet:
			// A register outside the region is not the region's.
		case rt.class != ir.ClassNone && !ptr:
			if ref && val >= 0 {
				// A reference to an existing register is that register.
				if r, _ := fb.resolveReg(val); r != ir.NoReg {
					fb.bind(name, binding{reg: r})
					continue
				}
			}
			id := fb.newReg(name, rt, arr, false, ref, d)
			fb.bind(name, binding{reg: id})
			if val >= 0 {
				fb.expr(val, loop, cond, out, id)
			}
		case auto && val >= 0 && fb.retClass(val) != ir.ClassNone:
			id := fb.newReg(name, regType{class: fb.retClass(val)}, 1, false, ref, d)
			fb.bind(name, binding{reg: id})
			fb.expr(val, loop, cond, out, id)
		default:
			b := binding{reg: ir.NoReg, ptr: ptr, bool01: strings.HasPrefix(strings.TrimPrefix(typ, "const "), "bool"), decl: d + 1}
			fb.nameDef(name, true, typ, ptr, val, d)
			if val >= 0 {
				fb.expr(val, loop, cond, out, ir.NoReg)
				b.bool01 = b.bool01 || fb.zeroOne(val)
				e := fb.env.expr(fl, val)
				switch {
				case isConst && !ptr:
					if v, ok := e.Value(); ok {
						b.isConst, b.val = true, v
						fb.fn.Locals[name] = v
					} else if e.Pure() {
						b.sym = e
					}
				case ref || arr != 1 || !e.Known():
					// A reference, an array, or a value with a call or
					// anything else that can differ between evaluations.
				case fb.prev == nil || valueOK(name, b.decl, loop, e, fb.prev.muts, fb.prev.loops):
					fb.locals = append(fb.locals, localValue{name: name, loop: loop, val: e, decl: b.decl})
					b.local = len(fb.locals)
					if v, ok := e.Value(); ok && !ptr {
						b.isConst, b.val = true, v
					} else {
						b.sym = e
					}
				}
			}
			fb.bind(name, b)
		}
	}
}

// zeroOne reports whether an initialiser can only be 0 or 1: a comparison,
// a logical operator, a negation, true/false, or a conditional whose arms
// are 0/1 literals.
func (fb *funcBuilder) zeroOne(i int32) bool {
	fl := fb.fl
	for k := 0; k < 8 && i >= 0; k++ {
		switch fl.n[i].kind() {
		case "parenthesized_expression", "cast_expression":
			if fl.n[i].kind() == "cast_expression" {
				i = fl.child(i, "value")
				continue
			}
			ch := fl.named(i)
			if len(ch) != 1 {
				return false
			}
			i = ch[0]
		case "binary_expression":
			switch fl.operator(i) {
			case "<", ">", "<=", ">=", "==", "!=", "&&", "||":
				return true
			}
			return false
		case "unary_expression":
			return fl.operator(i) == "!"
		case "true", "false":
			return true
		case "call_expression":
			al := fl.child(i, "arguments")
			if !fb.callee(i).cast || al < 0 || len(fl.named(al)) != 1 {
				return false
			}
			i = fl.named(al)[0]
		case "conditional_expression":
			c, a := fl.child(i, "consequence"), fl.child(i, "alternative")
			if c < 0 || a < 0 {
				return false
			}
			cv, ok1 := fb.env.expr(fl, c).Value()
			av, ok2 := fb.env.expr(fl, a).Value()
			return ok1 && ok2 && (cv == 0 || cv == 1) && (av == 0 || av == 1)
		default:
			return false
		}
	}
	return false
}

// retClass returns the register class an initialiser call returns (for auto).
func (fb *funcBuilder) retClass(val int32) ir.RegClass {
	fl := fb.fl
	if fl.n[val].kind() != "call_expression" {
		return ir.ClassNone
	}
	c := fb.callee(val)
	op, _, ok := ir.Resolve(c.name, fb.nsOf(c.scope), true, nil)
	if !ok {
		return ir.ClassNone
	}
	return op.Info().Ret
}

// loop lowers a for, range-for, while or do loop.
func (fb *funcBuilder) loop(i int32, parent ir.LoopID, cond bool, out *[]ir.Node) {
	fl := fb.fl
	id := ir.LoopID(len(fb.fn.Loops))
	l := &ir.Loop{ID: id, Parent: parent, Depth: 1, Cond: cond, Pos: fb.pos(fl.n[i].start), End: fb.pos(fl.n[i].end), Unroll: pragmaUnroll(fb.lw.src, int(fl.n[i].start))}
	if parent != ir.NoLoop {
		l.Depth = fb.fn.Loops[parent].Depth + 1
	}
	fb.fn.Loops = append(fb.fn.Loops, l)
	fb.loopAt = append(fb.loopAt, i)
	fb.push()
	switches := fb.switches // a break in the body leaves this loop
	fb.switches = 0
	defer func() { fb.switches = switches }()
	switch fl.n[i].kind() {
	case "for_statement":
		l.Kind = ir.LoopFor
		fb.inLoopHeader++
		if init := fl.child(i, "initializer"); init >= 0 {
			fb.forInit(l, init, parent, cond, out)
		}
		boundNode := int32(-1)
		if c := fl.child(i, "condition"); c >= 0 {
			boundNode = fb.forCond(l, c)
			fb.expr(c, parent, cond, out, ir.NoReg)
		}
		fb.inLoopHeader--
		if u := fl.child(i, "update"); u >= 0 {
			fb.forStep(l, u)
		}
		if l.Var != "" {
			fb.bind(l.Var, binding{reg: ir.NoReg})
		}
		l.FoldTrip()
		l.AtMostOnce = l.TripKnown && l.Trip <= 1 || fb.boundZeroOne(l) || (boundNode >= 0 && fb.zeroOne(boundNode) && l.CmpOp == "<")
	case "for_range_loop":
		l.Kind = ir.LoopFor
		if r := fl.child(i, "right"); r >= 0 {
			fb.inLoopHeader++
			fb.expr(r, parent, cond, out, ir.NoReg)
			fb.inLoopHeader--
		}
	case "while_statement":
		l.Kind = ir.LoopWhile
		if c := fl.child(i, "condition"); c >= 0 {
			fb.inLoopHeader++
			fb.expr(c, parent, cond, out, ir.NoReg)
			fb.inLoopHeader--
		}
	case "do_statement":
		l.Kind = ir.LoopDo
		if c := fl.child(i, "condition"); c >= 0 {
			if v, ok := fb.env.expr(fl, c).Value(); ok && v == 0 {
				l.Trip, l.TripKnown, l.AtMostOnce = 1, true, true // do { ... } while (0), a macro's statement: the body once
			}
		}
	}
	fb.inductions(l)
	l.Body = fb.block(fl.child(i, "body"), id, cond)
	if fl.n[i].kind() == "do_statement" {
		if c := fl.child(i, "condition"); c >= 0 {
			fb.expr(c, id, cond, &l.Body.Nodes, ir.NoReg)
		}
	}
	if fl.n[i].kind() == "for_statement" {
		if u := fl.child(i, "update"); u >= 0 {
			fb.header = l.Var
			fb.expr(u, id, cond, &l.Body.Nodes, ir.NoReg)
			fb.header = ""
		}
	}
	fb.pop()
	*out = append(*out, l)
}

func (fb *funcBuilder) forInit(l *ir.Loop, init int32, loop ir.LoopID, cond bool, out *[]ir.Node) {
	fl := fb.fl
	switch fl.n[init].kind() {
	case "declaration":
		if ty := fl.child(init, "type"); ty >= 0 {
			l.VarType = normSpace(fl.text(ty))
		}
		ds := fl.fields(init, "declarator")
		for k, d := range ds {
			name, _, ptr, _, val := fb.declShape(d)
			if name != "" {
				fb.nameDef(name, true, l.VarType, ptr, val, d)
			}
			if val >= 0 {
				fb.expr(val, loop, cond, out, ir.NoReg)
			}
			if k == 0 {
				l.Var = name
				if val >= 0 {
					l.Init = fb.env.expr(fl, val)
				}
			}
			fb.bind(name, binding{reg: ir.NoReg})
			fb.declared(name, l.ID)
		}
	case "assignment_expression":
		if left := fl.child(init, "left"); left >= 0 && fl.n[left].kind() == "identifier" && fl.operator(init) == "=" {
			l.Var = fl.text(left)
			if r := fl.child(init, "right"); r >= 0 {
				l.Init = fb.env.expr(fl, r)
			}
		}
		fb.expr(init, loop, cond, out, ir.NoReg)
	default:
		fb.expr(init, loop, cond, out, ir.NoReg)
	}
}

// forCond reads the bound of a loop condition; it returns the bound's node, or -1.
func (fb *funcBuilder) forCond(l *ir.Loop, c int32) int32 {
	fl := fb.fl
	if fl.n[c].kind() != "binary_expression" || l.Var == "" {
		return -1
	}
	left, right := fl.child(c, "left"), fl.child(c, "right")
	op := fl.operator(c)
	if left < 0 || right < 0 {
		return -1
	}
	flip := map[string]string{"<": ">", ">": "<", "<=": ">=", ">=": "<=", "!=": "!="}
	switch {
	case fl.text(left) == l.Var:
		if _, ok := flip[op]; ok {
			l.CmpOp, l.Bound = op, fb.env.expr(fl, right)
			return right
		}
	case fl.text(right) == l.Var:
		if f, ok := flip[op]; ok {
			l.CmpOp, l.Bound = f, fb.env.expr(fl, left)
			return left
		}
	}
	return -1
}

// boundZeroOne reports whether a loop "for (i = 0; i < b; ++i)" runs at most
// once because b can only be 0 or 1 (for (i = 0; i < hasTail; ++i) used as an if).
func (fb *funcBuilder) boundZeroOne(l *ir.Loop) bool {
	init, ok := l.Init.Value()
	step, ok2 := l.Step.Value()
	if !ok || !ok2 || init != 0 || step != 1 || l.CmpOp != "<" || l.Bound == nil {
		return false
	}
	if l.Bound.Kind == ir.ExprBin {
		// A local's value that is a comparison (hasTail = (tail != 0)).
		switch l.Bound.Op {
		case "<", ">", "<=", ">=", "==", "!=", "&&", "||":
			return true
		}
	}
	if l.Bound.Kind != ir.ExprSym {
		return false
	}
	b, found := fb.lookup(l.Bound.Name)
	return found && b.bool01
}

func (fb *funcBuilder) forStep(l *ir.Loop, u int32) {
	fl := fb.fl
	if l.Var == "" {
		return
	}
	switch fl.n[u].kind() {
	case "update_expression":
		arg := fl.child(u, "argument")
		if arg < 0 || fl.text(arg) != l.Var {
			return
		}
		switch fl.operator(u) {
		case "++":
			l.Step = ir.Const(1)
		case "--":
			l.Step = ir.Const(-1)
		}
	case "assignment_expression":
		left, right := fl.child(u, "left"), fl.child(u, "right")
		if left < 0 || right < 0 || fl.text(left) != l.Var {
			return
		}
		switch fl.operator(u) {
		case "+=":
			l.Step = fb.env.expr(fl, right)
		case "-=":
			l.Step = ir.Neg(fb.env.expr(fl, right))
		case "=":
			// i = i + k
			e := fb.env.expr(fl, right)
			if base, coef, ok := e.Linear(l.Var); ok && coef == 1 {
				l.Step = base
			}
		}
	}
}

func (fb *funcBuilder) ifStmt(i int32, loop ir.LoopID, cond bool, out *[]ir.Node) {
	fl := fb.fl
	s := &ir.If{Constexpr: fl.hasToken(i, "constexpr"), Pos: fb.pos(fl.n[i].start), End: fb.pos(fl.n[i].end)}
	if c := fl.child(i, "condition"); c >= 0 {
		v := c
		if fl.n[c].kind() == "condition_clause" {
			if x := fl.child(c, "value"); x >= 0 {
				v = x
			}
		}
		fb.expr(c, loop, cond, out, ir.NoReg)
		s.Cond = fb.env.expr(fl, v)
		s.CondText = normSpace(fl.text(v))
	}
	s.Then = fb.block(fl.child(i, "consequence"), loop, true)
	if a := fl.child(i, "alternative"); a >= 0 {
		if fl.n[a].kind() == "else_clause" {
			ch := fl.named(a)
			if len(ch) > 0 {
				a = ch[0]
			}
		}
		s.Else = fb.block(a, loop, true)
	}
	*out = append(*out, s)
}
