package cppfront

import (
	"slices"
	"sort"
	"strings"

	"github.com/ascvet/ascvet/cppfront/ir"
)

// Expressions and calls of a region: which API call a call expression is,
// its register arguments resolved, the instruction filled in.

// expr lowers the calls in an expression, innermost first. assign is the
// register a call's return value is assigned to (declaration initialiser).
func (fb *funcBuilder) expr(i int32, loop ir.LoopID, cond bool, out *[]ir.Node, assign ir.RegID) {
	fb.lw.budget.tick()
	fl := fb.fl
	switch fl.n[i].kind() {
	case "call_expression":
		fb.call(i, loop, cond, out, assign)
		return
	case "assignment_expression":
		left, right := fl.child(i, "left"), fl.child(i, "right")
		target := ir.NoReg
		if left >= 0 {
			if r, _ := fb.resolveReg(left); r != ir.NoReg {
				target = r
			} else if fl.n[left].kind() == "identifier" {
				name := fl.text(left)
				fb.assignDef(name, fl.operator(i), right, i)
				if r := fl.child(i, "right"); r >= 0 {
					switch fl.operator(i) {
					case "+=":
						fb.noteStep(name, i, fb.env.expr(fl, r), loop, cond)
					case "-=":
						fb.noteStep(name, i, ir.Neg(fb.env.expr(fl, r)), loop, cond)
					case "=":
						// off = off + k
						if base, coef, ok := fb.env.expr(fl, r).Linear(name); ok && coef == 1 {
							fb.noteStep(name, i, base, loop, cond)
						}
					}
				}
				fb.kill(name, loop)
				fb.stepped(name, i)
			}
			fb.expr(left, loop, cond, out, ir.NoReg)
		}
		if right >= 0 {
			fb.expr(right, loop, cond, out, target)
		}
		return
	case "update_expression":
		if arg := fl.child(i, "argument"); arg >= 0 && fl.n[arg].kind() == "identifier" {
			by := ir.Const(1)
			if fl.operator(i) == "--" {
				by = ir.Const(-1)
			}
			if fb.header == "" {
				fb.noteStep(fl.text(arg), i, by, loop, cond)
			}
			fb.assignDef(fl.text(arg), fl.operator(i), -1, i)
			fb.kill(fl.text(arg), loop)
			fb.stepped(fl.text(arg), i)
		}
	case "pointer_expression":
		// &x lets anything change x.
		if arg := fl.child(i, "argument"); arg >= 0 && fl.n[arg].kind() == "identifier" && fl.operator(i) == "&" {
			if b, ok := fb.lookup(fl.text(arg)); ok && b.reg == ir.NoReg {
				fb.killValue(fl.text(arg), loop)
			}
		}
	case "lambda_expression":
		if body := fl.child(i, "body"); body >= 0 {
			fb.push()
			fb.lambdas++
			fb.stmt(body, loop, cond, out)
			fb.lambdas--
			fb.pop()
		}
		return
	case "compound_statement":
		fb.stmt(i, loop, cond, out)
		return
	case "string_literal", "raw_string_literal", "number_literal", "identifier", "comment":
		return
	}
	for c := fl.n[i].first; c >= 0; c = fl.n[c].next {
		if fl.n[c].named() {
			fb.expr(c, loop, cond, out, ir.NoReg)
		}
	}
}

// calleeInfo is a call's function, split.
type calleeInfo struct {
	full   string // callee without template arguments ("AscendC::Reg::LoadAlign")
	scope  string // qualification ("AscendC::Reg"), "." for a member call, "" when bare
	name   string // last component
	targs  []string
	cast   bool // a C++ cast keyword (static_cast<T>(x)): not a call
	simple bool // the callee is a plain or qualified name
}

var castKeywords = map[string]bool{"static_cast": true, "reinterpret_cast": true, "const_cast": true, "dynamic_cast": true, "bit_cast": true}

func (fb *funcBuilder) callee(call int32) calleeInfo {
	fl := fb.fl
	fn := fl.child(call, "function")
	if fn < 0 {
		return calleeInfo{}
	}
	start := fl.n[fn].start
	n := fn
	ci := calleeInfo{simple: true}
	for k := 0; k < 16; k++ {
		switch fl.n[n].kind() {
		case "qualified_identifier":
			nm := fl.child(n, "name")
			if nm < 0 {
				ci.simple = false
				ci.name = fl.text(n)
				ci.full = ci.name
				return ci
			}
			n = nm
			continue
		case "template_function", "template_method":
			nm := fl.child(n, "name")
			if a := fl.child(n, "arguments"); a >= 0 {
				t := fl.text(a)
				if len(t) >= 2 {
					ci.targs = splitTop(t[1 : len(t)-1])
				}
			}
			if nm >= 0 {
				ci.name = fl.text(nm)
			}
		case "field_expression":
			ci.scope = "."
			f := fl.child(n, "field")
			if f >= 0 && (fl.n[f].kind() == "template_method") {
				n = f
				continue
			}
			if f >= 0 {
				ci.name = fl.text(f)
			}
			ci.full = normSpace(fl.text(fn))
			return ci
		case "identifier", "field_identifier", "namespace_identifier", "type_identifier", "destructor_name", "operator_name":
			ci.name = fl.text(n)
		case "parenthesized_expression":
			// (RangeType)(x) parses as a call of a parenthesised name: a C-style cast.
			if ch := fl.named(n); len(ch) == 1 && (fl.n[ch[0]].kind() == "identifier" || fl.n[ch[0]].kind() == "qualified_identifier") {
				ci.cast = true
				ci.name = fl.text(ch[0])
				ci.full = ci.name
				return ci
			}
			ci.simple = false
			ci.name = normSpace(fl.text(n))
			ci.full = ci.name
			return ci
		default:
			ci.simple = false
			ci.name = normSpace(fl.text(n))
			ci.full = ci.name
			return ci
		}
		break
	}
	if ci.scope != "." {
		sc := strings.TrimSpace(string(fl.src[start:fl.n[n].start]))
		sc = strings.TrimSuffix(strings.ReplaceAll(sc, " ", ""), "::")
		ci.scope = strings.ReplaceAll(sc, "template", "")
		ci.scope = strings.TrimSuffix(ci.scope, "::")
	}
	switch ci.scope {
	case "":
		ci.full = ci.name
	case ".":
		ci.full = normSpace(fl.text(fn))
	default:
		ci.full = ci.scope + "::" + ci.name
	}
	ci.cast = castKeywords[ci.name] && (ci.scope == "" || ci.scope == "std")
	return ci
}

// simd reports whether the region is __simd_vf__/__simd_callee__ code.
func (fb *funcBuilder) simd() bool {
	switch fb.fn.Kind {
	case ir.RegionSimdVF, ir.RegionSimdCallee, ir.RegionSimdCaller:
		return true
	}
	return false
}

// isTypeCallee reports whether a "call" is a function-style cast or a
// temporary of a type: float(x), T(x), std::integral_constant<...>{}.
func (fb *funcBuilder) isTypeCallee(ci calleeInfo) bool {
	if ci.scope == "." {
		return false
	}
	name := ci.name
	if ci.scope == "std" || ci.scope == "AscendC::Std" || ci.scope == "Std" {
		switch name {
		case "integral_constant", "is_same", "conditional", "tuple", "pair", "enable_if", "make_tuple", "declval":
			return true
		}
	}
	if ci.scope != "" {
		return false
	}
	if _, ok := ir.ElemSize(name); ok {
		return true
	}
	if fb.tparams[name] {
		return true
	}
	if _, ok := fb.tyAlias[name]; ok {
		return true
	}
	return false
}

func (fb *funcBuilder) nsOf(scope string) ir.Namespace {
	switch {
	case scope == "":
		return ir.NSNone
	case scope == ".":
		return ir.NSOther
	case fb.lw.isRegNS(scope):
		return ir.NSReg
	case knownNonReg[scope], strings.HasPrefix(scope, "std::"), strings.Contains(scope, "<"), scope == "this":
		return ir.NSOther
	case fb.lw.knownNS[scope]:
		// A namespace or class declared in this file that is not the register API.
		return ir.NSOther
	}
	// A qualifier this file does not declare (typically a namespace alias
	// from an included header, such as MA = AscendC::MicroAPI): treat the
	// name as bare, so it resolves only with the evidence a bare name needs.
	return ir.NSNone
}

// knownNonReg are qualifiers that never name the register API.
var knownNonReg = map[string]bool{"std": true, "AscendC": true, "Std": true, "AscendC::Std": true, "::std": true}

// call lowers one call expression (after the calls in its arguments).
func (fb *funcBuilder) call(i int32, loop ir.LoopID, cond bool, out *[]ir.Node, assign ir.RegID) {
	if fb.quiet {
		fb.killAssigned(i)
		return
	}
	fl := fb.fl
	argList := fl.child(i, "arguments")
	var argNodes []int32
	if argList >= 0 {
		for _, a := range fl.named(argList) {
			if fl.n[a].kind() != "comment" {
				argNodes = append(argNodes, a)
			}
		}
	}
	for _, a := range argNodes {
		fb.expr(a, loop, cond, out, ir.NoReg)
	}
	fb.lw.budget.check()
	ci := fb.callee(i)
	if fn := fl.child(i, "function"); fn >= 0 && !ci.simple {
		fb.expr(fn, loop, cond, out, ir.NoReg)
	} else if fn >= 0 && ci.scope == "." {
		// obj.f(): calls inside obj are lowered too.
		if arg := fl.child(fn, "argument"); arg >= 0 {
			fb.expr(arg, loop, cond, out, ir.NoReg)
		}
	}
	if ci.cast || ci.name == "" || fb.isTypeCallee(ci) {
		return
	}
	in := &ir.Instr{ID: ir.InstrID(len(fb.fn.Instrs)), Callee: ci.full, Name: ci.name, TArgs: ci.targs, Loop: loop, Cond: cond,
		Pos: fb.pos(fl.n[i].start), End: fb.pos(fl.n[i].end)}
	args := make([]ir.ArgInfo, len(argNodes))
	in.Args = make([]ir.Operand, len(argNodes))
	anyReg := false
	for k, a := range argNodes {
		r, part := fb.resolveReg(a)
		op := ir.Operand{Reg: r, Part: part, Text: normSpace(fb.lw.text(fl.n[a].start, fl.n[a].end)), Pos: fb.pos(fl.n[a].start), End: fb.pos(fl.n[a].end)}
		if r != ir.NoReg {
			args[k].Class = fb.fn.Regs[r].Class
			anyReg = true
		} else {
			op.Expr = fb.env.expr(fl, a)
			args[k].Ptr = fb.isPtr(a)
		}
		in.Args[k] = op
	}
	ns := fb.nsOf(ci.scope)
	userDefined := fb.lw.defined[ci.full] || (ns == ir.NSNone || ci.scope == ".") && fb.lw.defined[ci.name]
	op, form, ok := ir.OpUnknown, ir.FormUnknown, false
	if !(userDefined && ns != ir.NSReg) {
		// A bare name may be the register API when a using-directive is in
		// force, when an argument or the assigned value is a register, when
		// the name exists only in the register API, or inside __simd_vf__ /
		// __simd_callee__ code, which cannot call anything else of AscendC.
		bareOK := fb.lw.regUsing || fb.regUsing || anyReg || assign != ir.NoReg || ir.Distinctive(ci.name) || fb.simd()
		op, form, ok = ir.Resolve(ci.name, ns, bareOK, args)
	}
	switch {
	case ok:
		in.Op, in.Form = op, form
	case userDefined:
		in.Op, in.Form = ir.OpCall, ir.FormCall
		fb.zeroOneArgs(in, argNodes)
	default:
		in.Op, in.Form = ir.OpUnknown, ir.FormUnknown
	}
	fb.fillInstr(in, args, assign)
	fb.fn.Instrs = append(fb.fn.Instrs, in)
	*out = append(*out, in)
}

// zeroOneArgs writes a helper's argument that is 0 or 1 (a comparison, a
// bool, c ? 1 : 0, or a local initialised with one) whose value does not
// fold as (x != 0): the same value, in a form that says it is 0 or 1, so
// that a loop the helper bounds by it is seen to run at most once when the
// helper is inlined (ir.Inline).
func (fb *funcBuilder) zeroOneArgs(in *ir.Instr, argNodes []int32) {
	for k, a := range argNodes {
		op := &in.Args[k]
		if op.Reg != ir.NoReg || op.Expr == nil || op.Expr.ZeroOne() {
			continue
		}
		if _, ok := op.Expr.Value(); ok {
			continue
		}
		zo := fb.zeroOne(a)
		if !zo && op.Expr.Kind == ir.ExprSym {
			b, found := fb.lookup(op.Expr.Name)
			zo = found && b.bool01
		}
		if zo {
			op.Expr = &ir.Expr{Kind: ir.ExprBin, Op: "!=", X: op.Expr, Y: ir.Const(0)}
		}
	}
}

// fillInstr derives template facts, roles, defs and uses.
func (fb *funcBuilder) fillInstr(in *ir.Instr, args []ir.ArgInfo, assign ir.RegID) {
	for _, t := range in.TArgs {
		switch {
		case strings.Contains(t, "POST_MODE_UPDATE"):
			in.Post = true
		case strings.Contains(t, "DIST_"):
			d := t
			if k := strings.LastIndex(d, "::"); k >= 0 {
				d = d[k+2:]
			}
			in.Dist = d
		case strings.Contains(t, "MERGING"):
			in.Merging = true
		}
	}
	if ir.PostSpelling(in.Name) {
		in.Post = true
	}
	if (in.Op == ir.OpMove || in.Op == ir.OpMaskMove) && len(args) == 3 && !anyContains(in.TArgs, "ZEROING") {
		in.Merging = true // Move defaults to MERGING when masked
	}
	if len(in.TArgs) > 0 && isTypeName(in.TArgs[0]) {
		in.Elem = in.TArgs[0]
	}
	addUse := func(r ir.RegID) {
		if r != ir.NoReg && !containsReg(in.Uses, r) {
			in.Uses = append(in.Uses, r)
		}
	}
	addDef := func(r ir.RegID) {
		if r != ir.NoReg && !containsReg(in.Defs, r) {
			in.Defs = append(in.Defs, r)
		}
	}
	switch in.Op {
	case ir.OpUnknown, ir.OpCall:
		for k := range in.Args {
			// A scalar variable passed to a helper of the file may be taken
			// by reference and changed. Functions from elsewhere (CeilDiv,
			// min, Align) are assumed to take scalars by value: an output
			// parameter of a library function is rare in kernels, and
			// assuming otherwise loses every value passed to one.
			if name := in.Args[k].Text; in.Op == ir.OpCall && in.Args[k].Reg == ir.NoReg && isIdentifier(name) && fb.lw.mayWrite(in.Name, k) {
				if b, ok := fb.lookup(name); ok && !b.ptr && b.reg == ir.NoReg {
					fb.killValue(name, in.Loop)
				}
			}
			if in.Op == ir.OpCall {
				in.Args[k].Role = ir.ArgScalar
			}
			if r := in.Args[k].Reg; r != ir.NoReg {
				if in.Op == ir.OpCall {
					in.Args[k].Role = ir.ArgRW
					addDef(r)
				} else {
					in.Args[k].Role = ir.ArgR
				}
				addUse(r)
			}
		}
		if assign != ir.NoReg {
			addDef(assign)
			in.Assign = fb.fn.Regs[assign].Name
		}
		return
	}
	roles := ir.AssignRoles(in.Op, in.Form, in.Post, in.Merging, args)
	for k := range in.Args {
		in.Args[k].Role = roles[k]
		r := in.Args[k].Reg
		switch roles[k] {
		case ir.ArgW:
			addDef(r)
		case ir.ArgRW:
			addUse(r)
			addDef(r)
		case ir.ArgR, ir.ArgMask, ir.ArgAddr:
			addUse(r)
		case ir.ArgPtrRW, ir.ArgScalarRW:
			if name := baseName(in.Args[k].Text); name != "" {
				in.PtrDefs = append(in.PtrDefs, name)
				fb.killValue(name, in.Loop)
			}
		}
		if in.Elem == "" && (roles[k] == ir.ArgW || roles[k] == ir.ArgR || roles[k] == ir.ArgRW) && r != ir.NoReg {
			in.Elem = fb.fn.Regs[r].Elem
		}
	}
	if assign != ir.NoReg {
		addDef(assign)
		in.Assign = fb.fn.Regs[assign].Name
	}
	// Implicit special-register effects (vf-api.md §3.6).
	switch in.Op {
	case ir.OpSqueeze:
		if anyContains(in.TArgs, "STORE_REG") && !anyContains(in.TArgs, "NO_STORE_REG") || in.Name == "asc_squeeze_with_status" {
			addDef(fb.arReg())
		}
	case ir.OpStoreUnAlign:
		if in.Form != ir.FormCAPI && len(in.Args) == 3 && roles[0] == ir.ArgPtr {
			addUse(fb.arReg())
		}
	case ir.OpClearSpr:
		addDef(fb.arReg())
	case ir.OpGetSpr:
		addUse(fb.arReg())
	}
}

func anyContains(ss []string, sub string) bool {
	for _, s := range ss {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}

func containsReg(rs []ir.RegID, r ir.RegID) bool {
	for _, x := range rs {
		if x == r {
			return true
		}
	}
	return false
}

// baseName returns the variable a post-updated argument names ("src" for
// "src", "&src", "(T*&)src"), or "".
func baseName(t string) string {
	t = strings.TrimSpace(t)
	if k := strings.LastIndexByte(t, ')'); k >= 0 && strings.HasPrefix(t, "(") {
		t = strings.TrimSpace(t[k+1:])
	}
	t = strings.TrimLeft(t, "&* ")
	for i := 0; i < len(t); i++ {
		if !isIdentChar(t[i]) && t[i] != '.' && !(t[i] == '-' && i+1 < len(t) && t[i+1] == '>') && !(t[i] == '>' && i > 0 && t[i-1] == '-') {
			return ""
		}
	}
	return t
}

// resolveReg finds the register an argument reaches, looking through casts,
// parentheses, &/*, x.reg[k] and array subscripts. part is the folded index,
// or -1: for an array element a[k] (a[k].reg[j] included) the array index
// k, for x.reg[k] of a single tensor k. A subscript that does not fold, or
// a second subscript of a multi-dimensional array (whose ArrayLen is the
// product of its dimensions), makes part -1: the operand may be any element.
func (fb *funcBuilder) resolveReg(i int32) (ir.RegID, int) {
	fl := fb.fl
	part := -1
	subs := 0 // subscripts applied directly to the innermost operand so far
	for k := 0; k < 16 && i >= 0; k++ {
		switch fl.n[i].kind() {
		case "identifier":
			if b, ok := fb.lookup(fl.text(i)); ok && b.reg != ir.NoReg {
				if subs > 1 {
					part = -1
				}
				return b.reg, part
			}
			return ir.NoReg, -1
		case "cast_expression":
			i = fl.child(i, "value")
		case "parenthesized_expression":
			ch := fl.named(i)
			if len(ch) != 1 {
				return ir.NoReg, -1
			}
			i = ch[0]
		case "pointer_expression":
			i = fl.child(i, "argument")
		case "call_expression":
			ci := fb.callee(i)
			if !ci.cast {
				return ir.NoReg, -1
			}
			al := fl.child(i, "arguments")
			if al < 0 {
				return ir.NoReg, -1
			}
			ch := fl.named(al)
			if len(ch) != 1 {
				return ir.NoReg, -1
			}
			i = ch[0]
		case "subscript_expression":
			part = -1
			if idx := fl.child(i, "indices"); idx >= 0 {
				ch := fl.named(idx)
				if len(ch) == 1 {
					if v, ok := fb.env.expr(fl, ch[0]).Value(); ok {
						part = int(v)
					}
				}
			} else if idx := fl.child(i, "index"); idx >= 0 {
				if v, ok := fb.env.expr(fl, idx).Value(); ok {
					part = int(v)
				}
			}
			subs++
			i = fl.child(i, "argument")
		case "field_expression":
			f := fl.child(i, "field")
			if f < 0 || fl.text(f) != "reg" {
				return ir.NoReg, -1
			}
			subs = 0
			i = fl.child(i, "argument")
		default:
			return ir.NoReg, -1
		}
	}
	return ir.NoReg, -1
}

// isPtr reports whether an argument is known to be a pointer: a pointer
// variable, pointer arithmetic on one, or &x.
func (fb *funcBuilder) isPtr(i int32) bool {
	fl := fb.fl
	for k := 0; k < 16 && i >= 0; k++ {
		switch fl.n[i].kind() {
		case "identifier":
			b, ok := fb.lookup(fl.text(i))
			return ok && b.ptr
		case "binary_expression":
			op := fl.operator(i)
			if op != "+" && op != "-" {
				return false
			}
			i = fl.child(i, "left")
		case "parenthesized_expression":
			ch := fl.named(i)
			if len(ch) != 1 {
				return false
			}
			i = ch[0]
		case "cast_expression":
			ty := fl.child(i, "type")
			if ty >= 0 && strings.Contains(fl.text(ty), "*") {
				return true
			}
			i = fl.child(i, "value")
		case "pointer_expression":
			return fl.operator(i) == "&"
		default:
			return false
		}
	}
	return false
}

// collectErrors records the ERROR and MISSING nodes of the flat tree. A
// MISSING node is zero-width and tree-sitter places it after any comment
// that follows the gap; it is reported at the end of the last real token
// before it instead, where the author has to type the missing text.
func (fb *funcBuilder) collectErrors() {
	fl := fb.fl
	var ends []uint32 // ends of the real leaf tokens, sorted; built on the first MISSING node
	for k := range fl.n {
		n := &fl.n[k]
		if !n.bad() || fb.errTo > 0 && (n.start < fb.errFrom || n.start > fb.errTo) {
			continue
		}
		off := n.start
		if n.start == n.end && n.kind() != "ERROR" {
			if ends == nil {
				ends = fb.leafEnds()
			}
			// The last real token ending at or before the gap.
			if j := sort.Search(len(ends), func(j int) bool { return ends[j] > n.start }); j > 0 && ends[j-1] > 0 {
				off = ends[j-1]
			}
		}
		fb.fn.Errors = append(fb.fn.Errors, fb.pos(off))
	}
}

// leafEnds returns the end offsets of the leaves of the flat tree that are
// real tokens (not empty, not comments, not errors), sorted: where a
// MISSING node is reported (collectErrors). One sort instead of a scan of
// the whole tree per MISSING node, which made a function with thousands of
// missing ';' quadratic.
func (fb *funcBuilder) leafEnds() []uint32 {
	ends := make([]uint32, 0, len(fb.fl.n)/2+1)
	for j := range fb.fl.n {
		m := &fb.fl.n[j]
		if m.first < 0 && m.start < m.end && m.kind() != "comment" && !m.bad() {
			ends = append(ends, m.end)
		}
	}
	slices.Sort(ends)
	return ends
}

// finish infers unaligned-register roles and normalises the error list.
func (fb *funcBuilder) finish() {
	if len(fb.fn.Errors) == 0 {
		fb.collectErrors()
	}
	if ps, ok := fb.lw.clParams[fb.class]; ok && fb.class != "" {
		fb.fn.Class, fb.fn.ClassTParams = fb.class, ps
	}
	fb.fn.TypeAliases = usedAliases(fb.fn, fb.tyAlias)
	sort.Slice(fb.fn.Errors, func(i, j int) bool { return fb.fn.Errors[i] < fb.fn.Errors[j] })
	ir.InferUnalignRoles(fb.fn)
}

// setClass makes class the class the region's function belongs to: the
// type aliases its body declares shadow the file's of the same name (two
// class templates of one file may each declare its own RangeType).
func (fb *funcBuilder) setClass(class string) {
	fb.class = class
	for k, v := range fb.lw.clAlias[class] {
		fb.tyAlias[k] = v
	}
}

// maxTypeAliases bounds the aliases one region keeps (usedAliases).
const maxTypeAliases = 64

// usedAliases returns the type aliases of aliases that the element types
// of fn's registers and instructions name, with those their definitions
// name in turn: what an instantiation resolves (ir.Bindings.Type). Nil
// when none is used.
func usedAliases(fn *ir.Func, aliases map[string]string) map[string]string {
	if len(aliases) == 0 {
		return nil
	}
	var out map[string]string
	var add func(name string)
	add = func(name string) {
		def, ok := aliases[name]
		if !ok || len(out) >= maxTypeAliases {
			return
		}
		if _, seen := out[name]; seen {
			return
		}
		if out == nil {
			out = map[string]string{}
		}
		out[name] = def
		for _, w := range identWords(def) {
			add(w)
		}
	}
	for _, r := range fn.Regs {
		add(r.Elem)
	}
	for _, in := range fn.Instrs {
		add(in.Elem)
		for _, t := range in.TArgs {
			add(strings.TrimSpace(t))
		}
	}
	return out
}

// identWords returns the identifiers (qualified names whole) of a type's
// text.
func identWords(t string) []string {
	var out []string
	for i := 0; i < len(t); {
		if !isIdentStart(t[i]) {
			i++
			continue
		}
		j := i
		for j < len(t) && (isIdentChar(t[j]) || t[j] == ':' && j+1 < len(t) && t[j+1] == ':' && j+2 < len(t) && isIdentStart(t[j+2])) {
			if t[j] == ':' {
				j += 2
				continue
			}
			j++
		}
		out = append(out, t[i:j])
		i = j
	}
	return out
}
