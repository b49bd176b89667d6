package cppfront

import (
	"strings"

	"github.com/ascvet/ascvet/cppfront/ir"
)

// Folding the index's definition texts (index_scan.go) into values:
// the evaluator and its small expression parser.

// evaluator folds definition texts into fixed values.
type evaluator struct {
	hs    []*header
	depth int
	calls int // helper calls evaluated (helpers.go), bounded by maxHelperCalls
}

// lookupDef returns the definition text of name in the headers.
func (ev *evaluator) lookupDef(name string) (string, bool) {
	for _, h := range ev.hs {
		if v, ok := h.defs[name]; ok {
			return v, v != ""
		}
	}
	return "", false
}

// name evaluates a name; types maps template parameters to arguments.
func (ev *evaluator) name(name string, types map[string]string) *ir.Expr {
	if k := strings.LastIndex(name, "::"); k >= 0 {
		name = name[k+2:]
	}
	if name == "VECTOR_REG_WIDTH" || name == "VRegSize" {
		return ir.Const(ir.VectorBytes)
	}
	text, ok := ev.lookupDef(name)
	if !ok || ev.depth > 16 {
		return nil
	}
	ev.depth++
	defer func() { ev.depth-- }()
	return fixed(ev.parse(text, types, nil))
}

// parse evaluates the whole of text, with the template arguments types
// and the helper parameters' values vars; nil when it does not parse.
func (ev *evaluator) parse(text string, types map[string]string, vars map[string]*ir.Expr) *ir.Expr {
	p := &exprParser{s: text, ev: ev, types: types, vars: vars}
	v := p.expr()
	if p.failed || strings.TrimSpace(p.s[p.i:]) != "" {
		return nil
	}
	return v
}

// bindTypes maps the template parameters tparams to the arguments targs
// (as many as given), an argument that is a template parameter of the
// caller read through outer.
func bindTypes(tparams, targs []string, outer map[string]string) map[string]string {
	types := map[string]string{}
	for j, t := range tparams {
		if j >= len(targs) {
			break
		}
		a := strings.TrimSpace(targs[j])
		if o, ok := outer[a]; ok {
			a = o
		}
		types[t] = a
	}
	return types
}

// call evaluates a constexpr function with one return, given its template arguments.
func (ev *evaluator) call(name string, targs []string, outer map[string]string) *ir.Expr {
	if k := strings.LastIndex(name, "::"); k >= 0 {
		name = name[k+2:]
	}
	if v, ok := ir.SizeCalls[name]; ok {
		return ir.Const(v)
	}
	if ev.depth > 16 {
		return nil
	}
	for _, h := range ev.hs {
		f, ok := h.funcs[name]
		if !ok {
			continue
		}
		if len(targs) != len(f.tparams) {
			return nil
		}
		ev.depth++
		defer func() { ev.depth-- }()
		return fixed(ev.parse(f.ret, bindTypes(f.tparams, targs, outer), nil))
	}
	return nil
}

// alias resolves a type name through the headers' using aliases.
func (ev *evaluator) alias(t string) string {
	for n := 0; n < 8; n++ {
		found := false
		for _, h := range ev.hs {
			if d, ok := h.aliases[t]; ok {
				t, found = d, true
				break
			}
		}
		if !found {
			break
		}
	}
	return t
}

// numberAt reads the integer literal that starts at s[i] (digits,
// separators, a base prefix and suffixes): its value, the offset after it,
// and whether it is one.
func numberAt(s string, i int) (int64, int, bool) {
	j := i
	for j < len(s) && (isIdentChar(s[j]) || s[j] == '\'') {
		j++
	}
	v, ok := parseInt(s[i:j])
	return v, j, ok
}

// exprParser parses a C++ integer constant expression of a definition.
type exprParser struct {
	s      string
	i      int
	ev     *evaluator
	types  map[string]string   // template parameter -> argument
	vars   map[string]*ir.Expr // a helper's parameters -> the values of the call's arguments (helpers.go)
	failed bool
}

func (p *exprParser) space() {
	for p.i < len(p.s) && (p.s[p.i] == ' ' || p.s[p.i] == '\t' || p.s[p.i] == '\n' || p.s[p.i] == '\r') {
		p.i++
	}
}

func (p *exprParser) peek(tok string) bool {
	p.space()
	return strings.HasPrefix(p.s[p.i:], tok)
}

func (p *exprParser) eat(tok string) bool {
	if p.peek(tok) {
		p.i += len(tok)
		return true
	}
	return false
}

var binaryLevels = [][]string{{"|"}, {"^"}, {"&"}, {"==", "!="}, {"<=", ">=", "<", ">"}, {"<<", ">>"}, {"+", "-"}, {"*", "/", "%"}}

// expr parses a conditional expression: c ? a : b, || and && over the
// binary levels. A comparison, a logical operator and the condition of a
// ?: need constants; both branches of a ?: are parsed, and the one the
// condition takes is the value (the other may divide by zero: it is not
// folded, and not taken).
func (p *exprParser) expr() *ir.Expr {
	c := p.logic(false)
	if p.failed || !p.peek("?") {
		return c
	}
	p.i++
	a := p.expr()
	if p.failed || !p.eat(":") {
		p.failed = true
		return nil
	}
	b := p.expr()
	if p.failed {
		return nil
	}
	v, ok := c.Value()
	if !ok {
		p.failed = true
		return nil
	}
	if v != 0 {
		return a
	}
	return b
}

// logic parses || (and false) or && (and true) over the binary levels.
func (p *exprParser) logic(and bool) *ir.Expr {
	next := func() *ir.Expr {
		if and {
			return p.binary(0)
		}
		return p.logic(true)
	}
	op := "||"
	if and {
		op = "&&"
	}
	x := next()
	for !p.failed && p.peek(op) {
		p.i += 2
		y := next()
		if p.failed {
			return nil
		}
		xv, ok := x.Value()
		if !ok {
			p.failed = true
			return nil
		}
		if and && xv == 0 || !and && xv != 0 {
			x = ir.Bin("!=", x, ir.Const(0)) // decided by the left: the right is not evaluated
			continue
		}
		if x = ir.Bin("!=", y, ir.Const(0)); !x.Known() {
			p.failed = true
			return nil
		}
	}
	return x
}

func (p *exprParser) binary(level int) *ir.Expr {
	if level == len(binaryLevels) {
		return p.unary()
	}
	x := p.binary(level + 1)
	for !p.failed {
		op := ""
		for _, o := range binaryLevels[level] {
			if len(o) == 2 && o != "<<" && o != ">>" {
				if p.peek(o) {
					op = o // == != <= >=
					break
				}
				continue
			}
			if p.peek(o) && !p.peek(o+o) && !p.peek(o+"=") || (o == "<<" || o == ">>") && p.peek(o) {
				op = o
				break
			}
		}
		if op == "" {
			return x
		}
		p.i += len(op)
		y := p.binary(level + 1)
		switch op {
		case "+", "-", "*", "/", "%":
			x = ir.Bin(op, x, y)
		default:
			xv, ok1 := x.Value()
			yv, ok2 := y.Value()
			if !ok1 || !ok2 || (op == "<<" || op == ">>") && (yv < 0 || yv > 62) {
				p.failed = true
				return nil
			}
			switch op {
			case "==", "!=", "<", "<=", ">", ">=":
				x = ir.Bin(op, x, y) // both constant: folded
			case "<<":
				x = ir.Const(xv << yv)
			case ">>":
				x = ir.Const(xv >> yv)
			case "&":
				x = ir.Const(xv & yv)
			case "|":
				x = ir.Const(xv | yv)
			case "^":
				x = ir.Const(xv ^ yv)
			}
		}
	}
	return x
}

func (p *exprParser) unary() *ir.Expr {
	switch {
	case p.eat("-"):
		return ir.Neg(p.unary())
	case p.eat("+"):
		return p.unary()
	case p.eat("~"):
		v, ok := p.unary().Value()
		if !ok {
			p.failed = true
			return nil
		}
		return ir.Const(^v)
	case p.peek("!") && !p.peek("!="):
		p.i++
		x := p.unary()
		if !x.Known() {
			p.failed = true
			return nil
		}
		return ir.Bin("==", x, ir.Const(0))
	}
	return p.primary()
}

func (p *exprParser) ident() string {
	p.space()
	j := p.i
	for j < len(p.s) && (isIdentChar(p.s[j]) || p.s[j] == ':' && j+1 < len(p.s) && p.s[j+1] == ':') {
		if p.s[j] == ':' {
			j++
		}
		j++
	}
	id := p.s[p.i:j]
	p.i = j
	return id
}

// targs reads <...> after a name, if any.
func (p *exprParser) targs() []string {
	if !p.peek("<") || p.peek("<<") {
		return nil
	}
	k := matchAngle([]byte(p.s), p.i)
	if k < 0 {
		return nil // a comparison, which a constant of ours never is: left to fail
	}
	out := splitTop(p.s[p.i+1 : k])
	p.i = k + 1
	return out
}

// size returns sizeof of a type name, symbolic for a template parameter.
func (p *exprParser) size(t string) *ir.Expr {
	t = normSpace(t)
	if a, ok := p.types[t]; ok {
		t = a
	}
	t = p.ev.alias(t)
	if sz, ok := ir.ElemSize(t); ok {
		return ir.Const(sz)
	}
	if isIdentifier(t) {
		return &ir.Expr{Kind: ir.ExprSizeof, Name: t}
	}
	p.failed = true
	return nil
}

func (p *exprParser) primary() *ir.Expr {
	if p.failed {
		return nil
	}
	p.space()
	if p.i >= len(p.s) {
		p.failed = true
		return nil
	}
	c := p.s[p.i]
	switch {
	case c == '(':
		p.i++
		// A C-style cast: (uint32_t)x.
		save := p.i
		t := strings.TrimSpace(p.ident())
		if t != "" && p.eat(")") {
			if _, ok := ir.ElemSize(p.ev.alias(t)); ok {
				return p.unary()
			}
		}
		p.i = save
		x := p.expr()
		if !p.eat(")") {
			p.failed = true
		}
		return x
	case c >= '0' && c <= '9':
		v, j, ok := numberAt(p.s, p.i)
		p.i = j
		if !ok {
			p.failed = true
			return nil
		}
		return ir.Const(v)
	case isIdentStart(c):
		id := p.ident()
		switch id {
		case "sizeof":
			if !p.eat("(") {
				p.failed = true
				return nil
			}
			k := strings.IndexByte(p.s[p.i:], ')')
			if k < 0 {
				p.failed = true
				return nil
			}
			t := p.s[p.i : p.i+k]
			p.i += k + 1
			return p.size(t)
		case "static_cast", "reinterpret_cast":
			p.targs()
			if !p.eat("(") {
				p.failed = true
				return nil
			}
			x := p.expr()
			if !p.eat(")") {
				p.failed = true
			}
			return x
		}
		if v, ok := p.vars[id]; ok {
			return v
		}
		targs := p.targs()
		if p.eat("(") {
			var x *ir.Expr
			if p.eat(")") {
				x = p.ev.call(id, targs, p.types)
			} else {
				// A helper's call with arguments (helpers.go): each a constant.
				var args []int64
				for {
					v, ok := p.expr().Value()
					if p.failed || !ok {
						p.failed = true
						return nil
					}
					args = append(args, v)
					if p.eat(")") {
						break
					}
					if !p.eat(",") {
						p.failed = true
						return nil
					}
				}
				x = p.ev.callArgs(id, targs, args, p.types)
			}
			if x == nil {
				p.failed = true
			}
			return x
		}
		x := p.ev.name(id, p.types)
		if x == nil {
			p.failed = true
		}
		return x
	}
	p.failed = true
	return nil
}
