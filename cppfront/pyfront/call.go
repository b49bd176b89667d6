package pyfront

import (
	"strconv"
	"strings"

	"github.com/ascvet/ascvet/cppfront/ir"
)

// Calls that are not vf.* calls.
var (
	// casts are Python conversions and iteration helpers: no instruction.
	casts = map[string]bool{"int": true, "float": true, "bool": true, "str": true, "enumerate": true, "zip": true,
		"reversed": true, "list": true, "tuple": true, "dict": true, "set": true, "iter": true, "type": true, "isinstance": true}
	// scalarBuiltins are Python builtins that compute a scalar: OpScalar.
	scalarBuiltins = map[string]bool{"min": true, "max": true, "abs": true, "round": true, "len": true, "divmod": true,
		"pow": true, "sum": true, "range": true, "hash": true, "ord": true, "chr": true}
	// plScalar are pypto_pro.language functions VF code may call for scalar
	// arithmetic, block indices and tile values: OpScalar.
	plScalar = map[string]bool{"min": true, "max": true, "const": true, "range": true, "get_block_idx": true,
		"get_subblock_idx": true, "get_block_num": true, "get_subblock_num": true, "getval": true, "setval": true,
		"addptr": true, "make_ptr": true, "ceil_div": true, "ceildiv": true, "align_up": true}
	// plDebug are its debugging calls: OpPrint.
	plDebug = map[string]bool{"printf": true, "dump_data": true, "pto_assert": true, "trap": true}
)

// callee is a call's function, classified.
type callee struct {
	text string // as written, white space removed ("vf.load_align", "pl.vf.add")
	name string // the function's own name ("load_align")
	ns   byte   // 'v' a vf.* function, 'p' a pl.* function, 'b' a bare name, 'o' anything else
}

func (fb *funcBuilder) callee(call int32) callee {
	fl := fb.fl
	fn := fl.child(call, "function")
	if fn < 0 {
		return callee{ns: 'o'}
	}
	c := callee{text: squash(fl.text(fn)), ns: 'o'}
	switch fl.n[fn].kind {
	case "identifier":
		c.name, c.ns = c.text, 'b'
	case "attribute":
		obj, attr := fl.child(fn, "object"), fl.child(fn, "attribute")
		if attr < 0 || obj < 0 {
			break
		}
		c.name = fl.text(attr)
		o := squash(fl.text(obj))
		switch {
		case fb.lw.vfNames[o]:
			c.ns = 'v'
		case fb.lw.plNames[o]:
			c.ns = 'p'
		default:
			if k := strings.LastIndexByte(o, '.'); k >= 0 && fb.lw.plNames[o[:k]] && (o[k+1:] == "vf" || o[k+1:] == "Vf") {
				c.ns = 'v' // pl.vf.add
			}
		}
	default:
		c.name = c.text
	}
	return c
}

// isView reports whether call is vf.bit_cast(x, ...): a reinterpretation of
// x, not an instruction.
func (fb *funcBuilder) isView(call int32) bool {
	c := fb.callee(call)
	return c.ns == 'v' && c.name == "bit_cast"
}

// expr lowers the calls in an expression, innermost first.
func (fb *funcBuilder) expr(i int32, loop ir.LoopID, cond bool, out *[]ir.Node) {
	fb.lw.budget.tick()
	fl := fb.fl
	switch fl.n[i].kind {
	case "call":
		fb.call(i, nil, loop, cond, out)
		return
	case "lambda", "string", "concatenated_string", "identifier", "integer", "float", "comment", "true", "false", "none":
		return
	case "named_expression":
		if v := fl.child(i, "value"); v >= 0 {
			fb.expr(v, loop, cond, out)
		}
		if nm := fl.child(i, "name"); nm >= 0 {
			fb.bindScalar(fl.text(nm), -1, loop)
		}
		return
	case "assignment":
		fb.assign(i, loop, cond, out)
		return
	case "augmented_assignment":
		fb.augAssign(i, loop, cond, out)
		return
	}
	for c := fl.n[i].first; c >= 0; c = fl.n[c].next {
		if fl.n[c].named {
			fb.expr(c, loop, cond, out)
		}
	}
}

// argNode is one argument of a call.
type argNode struct {
	node  int32 // the value (for a keyword argument, its value)
	key   string
	splat bool
}

func (fb *funcBuilder) callArgs(call int32) []argNode {
	fl := fb.fl
	al := fl.child(call, "arguments")
	if al < 0 {
		return nil
	}
	var out []argNode
	for _, a := range fl.named(al) {
		switch fl.n[a].kind {
		case "keyword_argument":
			k, v := fl.child(a, "name"), fl.child(a, "value")
			if k >= 0 && v >= 0 {
				out = append(out, argNode{node: v, key: fl.text(k)})
			}
		case "list_splat", "dictionary_splat":
			out = append(out, argNode{node: a, splat: true})
		default:
			out = append(out, argNode{node: a})
		}
	}
	return out
}

// call lowers one call (after the calls in its arguments) whose results
// are bound to ts, and returns the register of its first result (NoReg
// when it makes none).
func (fb *funcBuilder) call(i int32, ts []target, loop ir.LoopID, cond bool, out *[]ir.Node) ir.RegID {
	fl := fb.fl
	c := fb.callee(i)
	args := fb.callArgs(i)
	if c.ns == 'v' && c.name == "bit_cast" {
		// A view: lower what is inside, bind the target to the register.
		for _, a := range args {
			fb.expr(a.node, loop, cond, out)
		}
		r := fb.resolveReg(i)
		if r != ir.NoReg {
			fb.viewed[r] = true
		}
		fb.bindResults(ts, r, loop)
		return r
	}
	for _, a := range args {
		if v := unparen(fl, a.node); fl.n[v].kind == "call" && !fb.isView(v) {
			fb.callRegs[v] = fb.call(v, nil, loop, cond, out)
			continue
		}
		fb.expr(a.node, loop, cond, out)
	}
	if fn := fl.child(i, "function"); fn >= 0 && !nameChain(fl, fn) {
		fb.expr(fn, loop, cond, out) // f(x)(y), obj[k](x), f(x).g(y): the calls inside run first
	}
	switch c.ns {
	case 'v':
		return fb.vfCall(i, c, args, ts, loop, cond, out)
	case 'p':
		switch {
		case plScalar[c.name]:
			return fb.plain(i, c, ir.OpScalar, ir.FormReg, args, ts, loop, cond, out)
		case plDebug[c.name]:
			return fb.plain(i, c, ir.OpPrint, ir.FormReg, args, ts, loop, cond, out)
		case c.name == "get_spr":
			return fb.plain(i, c, ir.OpGetSpr, ir.FormReg, args, ts, loop, cond, out)
		}
	case 'b':
		if _, ok := fb.lw.helper(c.name); ok {
			return fb.plain(i, c, ir.OpCall, ir.FormCall, args, ts, loop, cond, out)
		}
		switch {
		case casts[c.name]:
			fb.bindResults(ts, fb.castReg(i, args), loop)
			return ir.NoReg
		case scalarBuiltins[c.name]:
			return fb.plain(i, c, ir.OpScalar, ir.FormReg, args, ts, loop, cond, out)
		case c.name == "print":
			return fb.plain(i, c, ir.OpPrint, ir.FormReg, args, ts, loop, cond, out)
		}
	case 'o':
		if strings.HasPrefix(c.text, "math.") {
			return fb.plain(i, c, ir.OpScalar, ir.FormReg, args, ts, loop, cond, out)
		}
	}
	return fb.plain(i, c, ir.OpUnknown, ir.FormUnknown, args, ts, loop, cond, out)
}

// castReg returns the register a conversion call passes through, if any.
func (fb *funcBuilder) castReg(_ int32, args []argNode) ir.RegID {
	if len(args) == 1 {
		return fb.resolveReg(args[0].node)
	}
	return ir.NoReg
}

// bindResults binds targets to the value of a call that made no register of
// its own: a register it passes through (r), else an unknown scalar.
func (fb *funcBuilder) bindResults(ts []target, r ir.RegID, loop ir.LoopID) {
	for _, t := range ts {
		if r != ir.NoReg && len(ts) == 1 {
			fb.bindAlias(t.name, r, loop)
			continue
		}
		if t.name != "" {
			fb.bindScalar(t.name, -1, loop)
		}
	}
}

// resolveReg returns the register an argument names: a name bound to a
// register, a vf.bit_cast of one, the result of a nested vf call.
func (fb *funcBuilder) resolveReg(i int32) ir.RegID {
	fl := fb.fl
	for k := 0; k < 16 && i >= 0; k++ {
		switch fl.n[i].kind {
		case "identifier":
			if b, ok := fb.names[fl.text(i)]; ok {
				return b.reg
			}
			return ir.NoReg
		case "parenthesized_expression":
			ch := fl.named(i)
			if len(ch) != 1 {
				return ir.NoReg
			}
			i = ch[0]
		case "call":
			if r, ok := fb.callRegs[i]; ok {
				return r
			}
			if !fb.isView(i) {
				return ir.NoReg
			}
			args := fb.callArgs(i)
			if len(args) == 0 || args[0].key != "" && args[0].key != "src" {
				return ir.NoReg
			}
			i = args[0].node
		default:
			return ir.NoReg
		}
	}
	return ir.NoReg
}

// newInstr starts the instruction of call i.
func (fb *funcBuilder) newInstr(i int32, c callee, op ir.Op, form ir.Form, loop ir.LoopID, cond bool) *ir.Instr {
	fl := fb.fl
	return &ir.Instr{ID: ir.InstrID(len(fb.fn.Instrs)), Op: op, Form: form, Callee: c.text, Name: c.name, Loop: loop, Cond: cond,
		Pos: fb.pos(fl.n[i].start), End: fb.pos(fl.n[i].end)}
}

// operand describes the argument node a.
func (fb *funcBuilder) operand(a int32) ir.Operand {
	fl := fb.fl
	op := ir.Operand{Reg: fb.resolveReg(a), Part: -1, Text: normSpace(string(fb.lw.f.Src[fl.n[a].start:fl.n[a].end])),
		Pos: fb.pos(fl.n[a].start), End: fb.pos(fl.n[a].end)}
	if op.Reg == ir.NoReg {
		op.Expr = fb.env.expr(a)
	}
	return op
}

func (fb *funcBuilder) emit(in *ir.Instr, out *[]ir.Node) {
	fb.fn.Instrs = append(fb.fn.Instrs, in)
	*out = append(*out, in)
}

func addReg(rs []ir.RegID, r ir.RegID) []ir.RegID {
	if r == ir.NoReg {
		return rs
	}
	for _, x := range rs {
		if x == r {
			return rs
		}
	}
	return append(rs, r)
}

// plain lowers a call that is not a vf.* call: a helper (OpCall), scalar
// code, a debug print, or an unknown call. Its arguments keep their order;
// a helper reads and writes the registers it is passed (it may assign
// them), anything else reads them.
func (fb *funcBuilder) plain(i int32, c callee, op ir.Op, form ir.Form, args []argNode, ts []target, loop ir.LoopID,
	cond bool, out *[]ir.Node) ir.RegID {
	in := fb.newInstr(i, c, op, form, loop, cond)
	for _, a := range args {
		o := fb.operand(a.node)
		switch {
		case o.Reg != ir.NoReg && op == ir.OpCall:
			o.Role = ir.ArgRW
			in.Defs = addReg(in.Defs, o.Reg)
			in.Uses = addReg(in.Uses, o.Reg)
		case o.Reg != ir.NoReg:
			o.Role = ir.ArgR
			in.Uses = addReg(in.Uses, o.Reg)
		case op != ir.OpUnknown:
			o.Role = ir.ArgScalar
		}
		in.Args = append(in.Args, o)
	}
	switch op {
	case ir.OpGetSpr:
		in.Uses = addReg(in.Uses, fb.arReg())
	}
	var names []string
	for _, t := range ts {
		names = append(names, t.name)
		if b, ok := fb.names[t.name]; ok && t.name != "" && b.reg != ir.NoReg && !b.alias && op == ir.OpCall {
			in.Defs = addReg(in.Defs, b.reg) // a helper's result assigned to a register
			continue
		}
		fb.bindScalar(t.name, -1, loop)
	}
	in.Assign = strings.Join(names, ", ")
	fb.emit(in, out)
	return ir.NoReg
}

// dslArg describes argument a for the op table.
func (fb *funcBuilder) dslArg(a argNode) ir.DSLArg {
	fl := fb.fl
	d := ir.DSLArg{Keyword: a.key, Splat: a.splat}
	if a.splat {
		return d
	}
	v := unparen(fl, a.node)
	if r := fb.resolveReg(a.node); r != ir.NoReg {
		d.Class, d.Elem = fb.fn.Regs[r].Class, fb.fn.Regs[r].Elem
		if fl.n[v].kind == "call" && fb.isView(v) {
			// vf.bit_cast(x, dtype=...) reads x as another type.
			for _, va := range fb.callArgs(v) {
				if va.key == "dtype" {
					if t, ok := ir.DSLDType(fb.dslArg(va).Value); ok {
						d.Elem = t
					}
				}
			}
		}
		return d
	}
	switch fl.n[v].kind {
	case "attribute":
		t := squash(fl.text(v))
		if k := strings.IndexByte(t, '.'); k >= 0 && fb.lw.plNames[t[:k]] {
			t = t[k+1:]
		}
		d.Value = t
	case "true":
		d.Value = "True"
	case "false":
		d.Value = "False"
	case "none":
		d.Value = "None"
	case "string":
		d.Value = strings.Trim(fl.text(v), `"'`)
	case "list", "tuple":
		d.List = true
	case "identifier":
		if x, ok := fb.env.expr(v).Value(); ok {
			d.Value = strconv.FormatInt(x, 10)
		} else {
			d.Value = fl.text(v) // a dtype or enumerator imported bare (DT_FP32), or a name
		}
	default:
		if x, ok := fb.env.expr(v).Value(); ok {
			d.Value = strconv.FormatInt(x, 10)
		}
	}
	return d
}

// vfCall lowers a vf.* call through the op table.
func (fb *funcBuilder) vfCall(i int32, c callee, args []argNode, ts []target, loop ir.LoopID, cond bool, out *[]ir.Node) ir.RegID {
	fl := fb.fl
	dargs := make([]ir.DSLArg, len(args))
	for k, a := range args {
		dargs[k] = fb.dslArg(a)
	}
	dts := make([]ir.DSLArg, len(ts))
	for k, t := range ts {
		if b, ok := fb.names[t.name]; ok && t.name != "" && b.reg != ir.NoReg && !b.alias {
			r := fb.fn.Regs[b.reg]
			dts[k] = ir.DSLArg{Class: r.Class, Elem: r.Elem}
		}
	}
	dc, ok := ir.ResolveDSL(c.name, dargs, dts)
	if !ok {
		return fb.plain(i, c, ir.OpUnknown, ir.FormUnknown, args, ts, loop, cond, out)
	}
	// A parameter used where the op wants a register is a register parameter.
	again := false
	for k, w := range dc.Want {
		if w == ir.ClassNone || dargs[k].Class != ir.ClassNone || args[k].splat {
			continue
		}
		if v := unparen(fl, args[k].node); fl.n[v].kind == "identifier" {
			if r := fb.paramReg(fl.text(v), w); r != ir.NoReg {
				dargs[k].Class = w
				again = true
			}
		}
	}
	if again {
		dc, _ = ir.ResolveDSL(c.name, dargs, dts)
	}
	switch {
	case dc.Decl:
		// u = vf.load_unalign_init() declares a register (pypto emits
		// "UnalignReg u;"): binding the name again makes a new, unprimed
		// one, not the same register assigned again.
		for k, t := range ts {
			if t.name != "" && k < len(dc.Rets) {
				fb.declReg(t.name, dc.Rets[k], t.node, loop)
			} else {
				fb.bindScalar(t.name, -1, loop)
			}
		}
		if len(ts) == 0 && len(dc.Rets) > 0 {
			return fb.temp(dc.Rets[0], "", i)
		}
		return fb.resultReg(ts)
	case dc.Op == ir.OpUnknown:
		return fb.plain(i, c, ir.OpUnknown, ir.FormUnknown, args, ts, loop, cond, out)
	}
	addrRegOffset(&dc, dargs)
	in := fb.newInstr(i, c, dc.Op, ir.FormReg, loop, cond)
	in.Dist, in.Post, in.Merging, in.TArgs = dc.Dist, dc.Post, dc.Merging, dc.TArgs
	if t := explicitDType(args, dargs); t != "" {
		fb.dtypes[in.ID] = t
	}
	// The arguments are read before the results are bound (x = vf.add(x, y, m)).
	argOps := make([]ir.Operand, len(args))
	for k, a := range args {
		argOps[k] = fb.operand(a.node)
	}
	// The returned registers: the targets', or temporaries.
	rets := make([]ir.RegID, len(dc.Rets))
	var names []string
	for k, cl := range dc.Rets {
		elem := ""
		if k < len(dc.RetElems) {
			elem = dc.RetElems[k]
		}
		if k < len(ts) && ts[k].name != "" {
			rets[k] = fb.bindReg(ts[k].name, cl, elem, ts[k].node, loop)
			names = append(names, ts[k].name)
		} else {
			rets[k] = fb.temp(cl, elem, i)
		}
	}
	for k := len(dc.Rets); k < len(ts); k++ {
		fb.bindScalar(ts[k].name, -1, loop)
	}
	in.Assign = strings.Join(names, ", ")
	for _, o := range dc.Operands {
		var op ir.Operand
		if o.Arg < 0 {
			r := rets[o.Ret]
			op = ir.Operand{Reg: r, Part: -1, Text: fb.fn.Regs[r].Name, Pos: in.Pos, End: in.Pos}
		} else {
			op = argOps[o.Arg]
			if o.Offset >= 0 {
				fb.addOffset(&op, args[o.Arg].node, args[o.Offset].node, o.Offset == o.Arg+1)
			}
		}
		op.Role = o.Role
		switch o.Role {
		case ir.ArgW:
			in.Defs = addReg(in.Defs, op.Reg)
		case ir.ArgRW:
			in.Uses = addReg(in.Uses, op.Reg)
			in.Defs = addReg(in.Defs, op.Reg)
		case ir.ArgR, ir.ArgMask, ir.ArgAddr:
			in.Uses = addReg(in.Uses, op.Reg)
		case ir.ArgPtrRW:
			if name := ptrName(fl, args[o.Arg].node); name != "" {
				in.PtrDefs = append(in.PtrDefs, name)
				fb.killValue(name)
			}
		}
		in.Args = append(in.Args, op)
	}
	// A ShapeRet op returns its register by value: a def, not an operand.
	for _, r := range rets {
		if !hasOperand(in, r) {
			in.Defs = addReg(in.Defs, r)
		}
	}
	in.Elem = dc.Elem
	if in.Elem == "" {
		for _, a := range in.Args {
			if a.Reg != ir.NoReg && (a.Role == ir.ArgW || a.Role == ir.ArgR || a.Role == ir.ArgRW) && fb.fn.Regs[a.Reg].Class == ir.ClassVReg {
				in.Elem = fb.fn.Regs[a.Reg].Elem
				break
			}
		}
	}
	normalMode(in)
	switch dc.AR {
	case ir.ARDef:
		in.Defs = addReg(in.Defs, fb.arReg())
	case ir.ARUseOnly:
		in.Uses = addReg(in.Uses, fb.arReg())
	}
	fb.emit(in, out)
	if len(rets) > 0 {
		return rets[0]
	}
	return ir.NoReg
}

func hasOperand(in *ir.Instr, r ir.RegID) bool {
	for _, a := range in.Args {
		if a.Reg == r {
			return true
		}
	}
	return false
}

// resultReg returns the register the first target names, or NoReg.
func (fb *funcBuilder) resultReg(ts []target) ir.RegID {
	if len(ts) == 0 || ts[0].name == "" {
		return ir.NoReg
	}
	if b, ok := fb.names[ts[0].name]; ok {
		return b.reg
	}
	return ir.NoReg
}

// temp makes a register for a result no name receives (a nested call, a
// tuple shorter than the results), declared at the call.
func (fb *funcBuilder) temp(c ir.RegClass, elem string, call int32) ir.RegID {
	fb.tmp++
	return fb.newReg("tmp#"+strconv.Itoa(fb.tmp), c, elem, call)
}

// killValue forgets the value of a name an instruction advances.
func (fb *funcBuilder) killValue(name string) {
	if b, ok := fb.names[name]; ok {
		b.isConst, b.sym, b.bool01 = false, nil, false
	}
}

// ptrName returns the variable a post-updated address names: a name or an
// attribute ("tile", "self.buf"), "" for an expression.
func ptrName(fl *flat, a int32) string {
	a = unparen(fl, a)
	switch fl.n[a].kind {
	case "identifier", "attribute":
		return squash(fl.text(a))
	}
	return ""
}

// addOffset makes op, the address tile, the address tile + off: the DSL's
// element offset argument, as C++ writes src + off. A [row, col] offset is
// row * tile.shape[1] + col. The operand spans both arguments when they
// are adjacent.
func (fb *funcBuilder) addOffset(op *ir.Operand, tile, off int32, adjacent bool) {
	fl := fb.fl
	v := unparen(fl, off)
	var x *ir.Expr
	if k := fl.n[v].kind; k == "list" || k == "tuple" {
		ch := fl.named(v)
		if len(ch) != 2 {
			x = fb.env.unknown(v)
		} else {
			base := ptrName(fl, tile)
			if base == "" {
				base = "tile"
			}
			x = ir.Bin("+", ir.Bin("*", fb.env.expr(ch[0]), ir.Sym(base+".shape[1]")), fb.env.expr(ch[1]))
		}
	} else {
		x = fb.env.expr(v)
	}
	if op.Expr == nil {
		op.Expr = ir.Sym(op.Text)
	}
	op.Expr = ir.Bin("+", op.Expr, x)
	if c, ok := x.Value(); !ok || c != 0 {
		t := normSpace(fl.text(off))
		if needParens(fl, v) {
			t = "(" + t + ")"
		}
		op.Text += " + " + t
	}
	if adjacent {
		op.End = fb.pos(fl.n[off].end)
	}
}

// needParens reports whether an offset expression binds more loosely than +.
func needParens(fl *flat, v int32) bool {
	switch fl.n[v].kind {
	case "identifier", "integer", "attribute", "call", "subscript", "parenthesized_expression", "list", "tuple", "unary_operator":
		return false
	case "binary_operator":
		switch fl.operator(v) {
		case "+", "*", "//", "/", "%", "**", "@":
			return false
		}
	}
	return true
}

// nameChain reports whether i is a name or a dotted chain of names.
func nameChain(fl *flat, i int32) bool {
	for {
		switch fl.n[i].kind {
		case "identifier":
			return true
		case "attribute":
			if i = fl.child(i, "object"); i < 0 {
				return false
			}
		default:
			return false
		}
	}
}

// addrRegOffset corrects the resolution of an unaligned load or store whose
// stride argument is an AddrReg (vf.load_unalign(u, tile, areg)): the seed's
// third interface, "AddrReg存储偏移量接口", where the offset comes from
// vf.create_addr_reg. The op table reads any stride as a post-update
// stride; an AddrReg is the offset of the access instead, as in the C++
// overloads LoadUnAlign(dst, u, src, areg, inc): the operand is an AddrReg
// read (ArgAddr), and the tile is not post-updated unless post_update=True
// says so.
func addrRegOffset(dc *ir.DSLCall, dargs []ir.DSLArg) {
	switch dc.Op {
	case ir.OpLoadUnAlignPre, ir.OpLoadUnAlign, ir.OpStoreUnAlign, ir.OpStoreUnAlignPost:
	default:
		return
	}
	found := false
	for k := range dc.Operands {
		o := &dc.Operands[k]
		if o.Arg >= 0 && o.Role == ir.ArgScalar && dargs[o.Arg].Class == ir.ClassAddr {
			o.Role, found = ir.ArgAddr, true
		}
	}
	if !found || !dc.Post {
		return
	}
	for _, a := range dargs {
		if a.Keyword == "post_update" && a.Value == "True" {
			return
		}
	}
	dc.Post = false
	for k := range dc.Operands {
		if dc.Operands[k].Role == ir.ArgPtrRW {
			dc.Operands[k].Role = ir.ArgPtr
		}
	}
}

// normalMode records the PostLiteral of vf.store_unalign(dst, src, u,
// stride) called without post_update=True: pypto emits
// vstus(u, stride, src, dst, NORM), the stride form of StoreUnAlign with
// PostLiteral::POST_MODE_NORMAL (backend_cce_vf_ops.cpp, EmitVFStoreUnAlign),
// so the Reg form carries it as a C++ call would.
func normalMode(in *ir.Instr) {
	if in.Op != ir.OpStoreUnAlign || in.Post || in.TArgs != nil {
		return
	}
	for _, a := range in.Args {
		if a.Role == ir.ArgScalar {
			t := in.Elem
			if t == "" {
				t = "T"
			}
			in.TArgs = []string{t, "PostLiteral::POST_MODE_NORMAL"}
			return
		}
	}
}
