package cppfront

import (
	"bytes"
	"slices"
	"strconv"
	"strings"

	"github.com/ascvet/ascvet/cppfront/ir"
)

// Constant evaluation: env folds expressions against the bindings of a
// region and of the file; induction variables and their steps.

// env folds expressions against the bindings of a region and the file.
type env struct {
	lw *lowerer
	fb *funcBuilder // nil at file scope
}

// step is one increment of a variable by an amount (off += VL).
type step struct {
	loop   ir.LoopID // the innermost loop around it
	node   int32     // the assignment or update expression
	by     *ir.Expr  // the amount
	from   *ir.Expr  // the variable's value just before it (first pass)
	direct bool      // a statement of the loop's own body, not under an if or in an inner loop
}

// An induction is a variable initialised before a counted loop and
// incremented once per iteration by a loop-invariant amount, by a statement
// of the loop's own body:
//
//	uint32_t off = 0;
//	for (uint16_t i = 0; i < n; ++i) {
//	    Load(r, u, src + off);         // off = 0 + i * 136
//	    off += 136;                    // after it: 0 + (i + 1) * 136
//	}
//
// In the second pass it has, in the loop, the value the iteration gives it.

// noteStep records, in the first pass, an increment of name by the amount
// by at node, when name has a value there.
func (fb *funcBuilder) noteStep(name string, node int32, by *ir.Expr, loop ir.LoopID, cond bool) {
	if fb.prev != nil || loop == ir.NoLoop || by == nil || !by.Known() {
		return
	}
	b, ok := fb.lookup(name)
	if !ok || b.local == 0 || b.reg != ir.NoReg || (!b.isConst && b.sym == nil) {
		return
	}
	from := b.sym
	if b.isConst {
		from = ir.Const(b.val)
	}
	fl := fb.fl
	st := fl.n[node].parent // the expression statement
	direct := !cond && st >= 0 && fl.n[st].kind() == "expression_statement" &&
		fl.n[st].parent >= 0 && fl.n[st].parent == fl.child(fb.loopAt[loop], "body")
	if fb.steps == nil {
		fb.steps = map[string][]step{}
	}
	fb.steps[name] = append(fb.steps[name], step{loop: loop, node: node, by: by, from: from, direct: direct})
}

// inductions binds, in the second pass, the inductions of loop l (see step)
// in the loop's scope, and notes the values their increments leave.
func (fb *funcBuilder) inductions(l *ir.Loop) {
	if fb.prev == nil || l.Var == "" || len(fb.prev.muts[l.Var]) > 0 {
		return
	}
	i0, ok := l.Init.Value()
	if s, ok2 := l.Step.Value(); !ok || !ok2 || s != 1 {
		return
	}
	names := make([]string, 0, len(fb.prev.steps))
	for name := range fb.prev.steps {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		ss := fb.prev.steps[name]
		st := ss[0]
		if len(ss) != 1 || st.loop != l.ID || !st.direct || len(fb.prev.muts[name]) != 1 ||
			!fb.invariant(st.by, l.ID) || !fb.invariant(st.from, l.ID) {
			continue
		}
		k := ir.Bin("-", ir.Sym(l.Var), ir.Const(i0))
		if fb.post == nil {
			fb.post = map[int32]*ir.Expr{}
		}
		fb.post[st.node] = ir.Bin("+", st.from, ir.Bin("*", ir.Bin("+", k, ir.Const(1)), st.by))
		b, _ := fb.lookup(name)
		b.isConst, b.sym, b.local = false, ir.Bin("+", st.from, ir.Bin("*", k, st.by)), 0
		fb.bind(name, b)
	}
}

// invariant reports whether no name e mentions is assigned in loop l or a
// loop inside it (first pass).
func (fb *funcBuilder) invariant(e *ir.Expr, l ir.LoopID) bool {
	ok := e.Known()
	e.Subst(func(k ir.ExprKind, name string) *ir.Expr {
		for _, m := range fb.prev.muts[name] {
			if k == ir.ExprSym && nestedIn(m.loop, l, fb.prev.loops) {
				ok = false
			}
		}
		return nil
	})
	return ok
}

// stepped rebinds, in the second pass, an induction after its increment.
func (fb *funcBuilder) stepped(name string, node int32) {
	v, ok := fb.post[node]
	if !ok {
		return
	}
	for i := len(fb.scopes) - 1; i >= 0; i-- {
		if b, ok := fb.scopes[i][name]; ok {
			b.isConst, b.sym = false, v
			fb.scopes[i][name] = b
			return
		}
	}
}

// builtins are the documented vector-length constants (vf-api.md §5.1).
var builtins = map[string]int64{"VRegSize": ir.VectorBytes, "VECTOR_REG_WIDTH": ir.VectorBytes}

func (e *env) lookup(name string) (int64, bool, bool) {
	if e.fb != nil {
		if b, ok := e.fb.lookup(name); ok {
			e.fb.usedValue(b)
			return b.val, b.isConst, true
		}
	}
	if v, ok := e.lw.f.Consts[name]; ok {
		return v, true, true
	}
	last := name
	if k := strings.LastIndex(name, "::"); k >= 0 {
		last = name[k+2:]
	}
	if v, ok := builtins[last]; ok {
		return v, true, true
	}
	return 0, false, false
}

func (e *env) typeSize(t string) (int64, bool) {
	t = normSpace(t)
	aliases := e.lw.tyAlias
	if e.fb != nil {
		aliases = e.fb.tyAlias
	}
	for i := 0; i < 8; i++ {
		if sz, ok := ir.ElemSize(t); ok {
			return sz, true
		}
		d, ok := aliases[t]
		if !ok {
			return 0, false
		}
		t = d
	}
	return 0, false
}

// expr converts an expression node to a symbolic expression, folding what it can.
func (e *env) expr(fl *flat, i int32) *ir.Expr {
	return e.exprDepth(fl, i, 0)
}

func (e *env) exprDepth(fl *flat, i int32, depth int) *ir.Expr {
	if i < 0 {
		return nil
	}
	if depth > 200 {
		return unknownOf(fl, i)
	}
	n := &fl.n[i]
	switch n.kind() {
	case "number_literal":
		if v, ok := parseInt(fl.text(i)); ok {
			return ir.Const(v)
		}
	case "true":
		return ir.Const(1)
	case "false":
		return ir.Const(0)
	case "identifier", "qualified_identifier":
		name := strings.ReplaceAll(fl.text(i), " ", "")
		if e.fb != nil {
			if b, ok := e.fb.lookup(name); ok && b.sym != nil {
				e.fb.usedValue(b)
				return b.sym
			}
			if x := e.member(name); x != nil {
				return x
			}
		}
		if k := strings.IndexByte(name, '<'); k >= 0 && strings.Contains(name, ">::") {
			// Tiling<T>::VL names the member VL of the class template Tiling.
			name = name[:k] + name[strings.LastIndex(name, ">::")+1:]
		}
		if x, ok := e.lw.symConsts[name]; ok {
			if e.fb == nil {
				return x
			}
			if _, shadowed := e.fb.lookup(name); !shadowed {
				return x
			}
		}
		if v, isConst, ok := e.lookup(name); ok {
			if isConst {
				return ir.Const(v)
			}
			return ir.Sym(name)
		}
		if isIdentifier(lastComponent(name)) {
			if sc := e.lw.scope(); sc != nil {
				if x, ok := sc.Value(name); ok {
					return x
				}
			}
		}
		return ir.Sym(name)
	case "field_expression":
		name := strings.ReplaceAll(fl.text(i), " ", "")
		if m, ok := strings.CutPrefix(name, "this->"); ok {
			if x := e.member(m); x != nil {
				return x
			}
		}
		return ir.Sym(name)
	case "parenthesized_expression":
		ch := fl.named(i)
		if len(ch) == 1 {
			return e.exprDepth(fl, ch[0], depth+1)
		}
	case "condition_clause":
		if v := fl.child(i, "value"); v >= 0 {
			return e.exprDepth(fl, v, depth+1)
		}
	case "binary_expression":
		l, r := fl.child(i, "left"), fl.child(i, "right")
		if l >= 0 && r >= 0 {
			return ir.Bin(fl.operator(i), e.exprDepth(fl, l, depth+1), e.exprDepth(fl, r, depth+1))
		}
	case "unary_expression":
		arg := fl.child(i, "argument")
		x := e.exprDepth(fl, arg, depth+1)
		switch fl.operator(i) {
		case "-":
			return ir.Neg(x)
		case "+":
			return x
		case "!":
			if v, ok := x.Value(); ok {
				if v == 0 {
					return ir.Const(1)
				}
				return ir.Const(0)
			}
		case "~":
			if v, ok := x.Value(); ok {
				return ir.Const(^v)
			}
		}
	case "sizeof_expression":
		if t := fl.child(i, "type"); t >= 0 {
			tt := normSpace(fl.text(t))
			if sz, ok := e.typeSize(tt); ok {
				return ir.Const(sz)
			}
			return &ir.Expr{Kind: ir.ExprSizeof, Name: tt}
		}
		if v := fl.child(i, "value"); v >= 0 {
			tt := strings.Trim(normSpace(fl.text(v)), "() ")
			if sz, ok := e.typeSize(tt); ok {
				return ir.Const(sz)
			}
			return &ir.Expr{Kind: ir.ExprSizeof, Name: tt}
		}
	case "cast_expression":
		return e.exprDepth(fl, fl.child(i, "value"), depth+1)
	case "call_expression":
		if v, ok := sizeCall(fl, i); ok {
			return ir.Const(v)
		}
		if x := e.constCallDepth(fl, i, depth); x != nil {
			return x
		}
		if e.fb != nil {
			ci := e.fb.callee(i)
			if ci.cast {
				if al := fl.child(i, "arguments"); al >= 0 {
					if ch := fl.named(al); len(ch) == 1 {
						return e.exprDepth(fl, ch[0], depth+1)
					}
				}
			}
		}
	case "conditional_expression":
		c := e.exprDepth(fl, fl.child(i, "condition"), depth+1)
		if v, ok := c.Value(); ok {
			if v != 0 {
				return e.exprDepth(fl, fl.child(i, "consequence"), depth+1)
			}
			return e.exprDepth(fl, fl.child(i, "alternative"), depth+1)
		}
	}
	return unknownOf(fl, i)
}

// maxUnknownText bounds the text an expression the lowering does not fold
// keeps: each level of a deep expression would otherwise copy the text of
// all the levels under it (a = a = ... = 1, a megabyte of it, took 5 GB).
const maxUnknownText = 1 << 10

// unknownOf is the opaque value of node i: its text, white space
// normalised; a longer text is named by its offset, so that it equals no
// other expression (two long expressions are never taken for one).
func unknownOf(fl *flat, i int32) *ir.Expr {
	n := &fl.n[i]
	if n.end-n.start > maxUnknownText {
		return ir.Unknown("<expression of " + strconv.Itoa(int(n.end-n.start)) + " bytes at offset " + strconv.Itoa(int(n.start)) + ">")
	}
	return ir.Unknown(normSpace(fl.text(i)))
}

// sizeCall folds a call of a platform size query (ir.SizeCalls), at any
// scope: GetVRegSize(), platform::GetVRegSize(), Ops::Base::GetUbBlockSize(),
// and the host-side form that takes the tiling context.
func sizeCall(fl *flat, i int32) (int64, bool) {
	fn := fl.child(i, "function")
	if fn < 0 {
		return 0, false
	}
	name := fl.text(fn)
	if k := strings.IndexByte(name, '<'); k >= 0 {
		name = name[:k]
	}
	if k := strings.LastIndexAny(name, ":.>"); k >= 0 {
		name = name[k+1:]
	}
	v, ok := ir.SizeCalls[strings.TrimSpace(name)]
	if !ok {
		return 0, false
	}
	if al := fl.child(i, "arguments"); al >= 0 && len(fl.named(al)) > 1 {
		return 0, false
	}
	return v, true
}

// constCallDepth folds, inside an expression depth deep, a call without
// arguments of a constexpr function (GetVLEleNums<T>()), or a call of a
// scalar helper whose arguments fold to constants (CeilDiv(count, VL),
// helpers.go), of the file or of the headers the project index finds.
func (e *env) constCallDepth(fl *flat, i int32, depth int) *ir.Expr {
	al := fl.child(i, "arguments")
	if al < 0 {
		return nil
	}
	fn := fl.child(i, "function")
	if fn < 0 {
		return nil
	}
	text := normSpace(fl.text(fn))
	name := lastComponent(text)
	if !isIdentifier(name) {
		return nil
	}
	var args []int64
	if kids := fl.named(al); len(kids) > 0 {
		if len(kids) > maxHelperArgs || notCalls[name] {
			return nil
		}
		for _, k := range kids {
			v, ok := e.exprDepth(fl, k, depth+1).Value()
			if !ok {
				return nil
			}
			args = append(args, v)
		}
	}
	// The scope last: making it reads the headers.
	sc := e.lw.scope()
	if sc == nil {
		return nil
	}
	if args != nil {
		x, _ := sc.CallArgs(name, splitTargs(text), args)
		return x
	}
	x, _ := sc.Call(name, splitTargs(text))
	return x
}

// member returns the value of a data member of the region's class set
// once (memberValues), unless a local or parameter shadows it.
func (e *env) member(name string) *ir.Expr {
	if e.fb == nil || e.fb.class == "" {
		return nil
	}
	x := e.lw.memberValues(e.fb.class)[name]
	if x == nil {
		return nil
	}
	if _, shadowed := e.fb.lookup(name); shadowed {
		return nil
	}
	return x
}

// parseInt parses a C++ integer literal (decimal, hex, octal, binary, digit
// separators, u/l suffixes). Floating literals are not integers.
func parseInt(s string) (int64, bool) {
	s = strings.ReplaceAll(s, "'", "")
	s = strings.TrimRight(s, "uUlLzZ")
	if s == "" {
		return 0, false
	}
	base := 10
	switch {
	case strings.HasPrefix(s, "0x") || strings.HasPrefix(s, "0X"):
		base, s = 16, s[2:]
	case strings.HasPrefix(s, "0b") || strings.HasPrefix(s, "0B"):
		base, s = 2, s[2:]
	case len(s) > 1 && s[0] == '0':
		base, s = 8, s[1:]
	}
	v, err := strconv.ParseUint(s, base, 64)
	if err != nil || v > 1<<63-1 {
		return 0, false
	}
	return int64(v), true
}

// pragmaUnroll returns N of a "#pragma unroll N" on the line before the
// statement at start (-1 for a bare "#pragma unroll"), 0 when there is none.
func pragmaUnroll(src []byte, start int) int {
	i := start
	for i > 0 && (src[i-1] == ' ' || src[i-1] == '\t') {
		i--
	}
	if i == 0 || src[i-1] != '\n' {
		return 0 // something else before the loop on its line
	}
	end := i - 1
	begin := bytes.LastIndexByte(src[:end], '\n') + 1
	if line := bytes.TrimLeft(src[begin:end], " \t\v\f\r"); len(line) == 0 || line[0] != '#' && line[0] < 0x80 {
		return 0 // not a directive: the common case, without the copy
	}
	f := strings.Fields(string(src[begin:end]))
	switch {
	case len(f) >= 2 && f[0] == "#pragma" && f[1] == "unroll":
		f = f[2:]
	case len(f) >= 3 && f[0] == "#" && f[1] == "pragma" && f[2] == "unroll":
		f = f[3:]
	default:
		return 0
	}
	if len(f) == 0 {
		return -1
	}
	n, err := strconv.Atoi(strings.Trim(f[0], "()"))
	if err != nil || n < 1 {
		return 0
	}
	return n
}
