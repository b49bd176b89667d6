package pyfront

import (
	"strconv"
	"strings"

	"github.com/ascvet/ascvet/cppfront/ir"
)

// exprEnv converts Python expressions to symbolic expressions (ir.Expr),
// folding integer constants: module constants, locals bound once to a
// constant, literals. Floor division and modulo fold with Python's
// semantics; symbolically they print as C's / and %, which they equal for
// the non-negative offsets and counts kernels compute.
type exprEnv struct {
	lw *lowerer
	fb *funcBuilder // nil at module scope
}

func (e *exprEnv) expr(i int32) *ir.Expr { return e.exprDepth(i, 0) }

func (e *exprEnv) unknown(i int32) *ir.Expr { return ir.Unknown(normSpace(e.lw.fl.text(i))) }

func (e *exprEnv) exprDepth(i int32, depth int) *ir.Expr {
	if i < 0 {
		return nil
	}
	fl := e.lw.fl
	if depth > 200 {
		return e.unknown(i)
	}
	sub := func(j int32) *ir.Expr { return e.exprDepth(j, depth+1) }
	switch fl.n[i].kind {
	case "integer":
		if v, ok := parseInt(fl.text(i)); ok {
			return ir.Const(v)
		}
	case "true":
		return ir.Const(1)
	case "false":
		return ir.Const(0)
	case "identifier":
		return e.name(fl.text(i))
	case "attribute":
		return ir.Sym(squash(fl.text(i)))
	case "parenthesized_expression":
		if ch := fl.named(i); len(ch) == 1 {
			return sub(ch[0])
		}
	case "binary_operator":
		l, r := fl.child(i, "left"), fl.child(i, "right")
		if l < 0 || r < 0 {
			break
		}
		x, y := sub(l), sub(r)
		switch op := fl.operator(i); op {
		case "+", "-", "*", "<<", ">>", "&", "|", "^":
			return ir.Bin(op, x, y)
		case "//", "%":
			a, aok := x.Value()
			b, bok := y.Value()
			if aok && bok {
				if v, ok := pyDivMod(op, a, b); ok {
					return ir.Const(v)
				}
				break
			}
			return ir.Bin(map[string]string{"//": "/", "%": "%"}[op], x, y)
		case "/":
			a, aok := x.Value()
			b, bok := y.Value()
			if aok && bok && b != 0 && a%b == 0 {
				return ir.Const(a / b)
			}
		case "**":
			a, aok := x.Value()
			b, bok := y.Value()
			if aok && bok && b >= 0 && b < 64 {
				v := int64(1)
				for k := int64(0); k < b; k++ {
					p := v * a
					if a != 0 && (p/a != v || a == -1 && v == -1<<63) {
						return e.unknown(i) // overflow
					}
					v = p
				}
				return ir.Const(v)
			}
		}
	case "unary_operator":
		x := sub(fl.child(i, "argument"))
		switch fl.operator(i) {
		case "-":
			return ir.Neg(x)
		case "+":
			return x
		case "~":
			if v, ok := x.Value(); ok {
				return ir.Const(^v)
			}
		}
	case "not_operator":
		if v, ok := sub(fl.child(i, "argument")).Value(); ok {
			return ir.Const(map[bool]int64{true: 1, false: 0}[v == 0])
		}
	case "boolean_operator":
		l, r := fl.child(i, "left"), fl.child(i, "right")
		op := map[string]string{"and": "&&", "or": "||"}[fl.operator(i)]
		if l >= 0 && r >= 0 && op != "" {
			return ir.Bin(op, sub(l), sub(r))
		}
	case "comparison_operator":
		ch := fl.named(i)
		op := fl.operator(i)
		switch op {
		case "<", "<=", ">", ">=", "==", "!=":
			if len(ch) == 2 {
				return ir.Bin(op, sub(ch[0]), sub(ch[1]))
			}
		}
	case "conditional_expression":
		// a if c else b
		if ch := fl.named(i); len(ch) == 3 {
			if v, ok := sub(ch[1]).Value(); ok {
				if v != 0 {
					return sub(ch[0])
				}
				return sub(ch[2])
			}
		}
	case "call":
		return e.call(i, depth)
	}
	return e.unknown(i)
}

// name returns the value of a name: a folded local or module constant, a
// symbolic constant, or the name itself.
func (e *exprEnv) name(n string) *ir.Expr {
	if e.fb != nil {
		if b, ok := e.fb.names[n]; ok {
			switch {
			case b.isConst:
				return ir.Const(b.val)
			case b.sym != nil:
				return b.sym
			}
			return ir.Sym(n)
		}
		if e.fb.local[n] {
			return ir.Sym(n) // bound later in the function: not the module's
		}
	}
	if v, ok := e.lw.f.Consts[n]; ok {
		return ir.Const(v)
	}
	return ir.Sym(n)
}

// call folds the scalar calls that have a value: int(x), min/max of
// constants (also pl.min, pl.max).
func (e *exprEnv) call(i int32, depth int) *ir.Expr {
	fl := e.lw.fl
	fn, al := fl.child(i, "function"), fl.child(i, "arguments")
	if fn < 0 || al < 0 {
		return e.unknown(i)
	}
	name := squash(fl.text(fn))
	if k := strings.IndexByte(name, '.'); k >= 0 && e.lw.plNames[name[:k]] {
		name = "pl" + name[k:]
	}
	args := fl.named(al)
	switch name {
	case "int":
		if len(args) == 1 {
			return e.exprDepth(args[0], depth+1)
		}
	case "min", "max", "pl.min", "pl.max":
		if len(args) < 2 {
			break
		}
		var best int64
		for k, a := range args {
			v, ok := e.exprDepth(a, depth+1).Value()
			if !ok {
				return e.unknown(i)
			}
			if k == 0 || strings.HasSuffix(name, "min") && v < best || strings.HasSuffix(name, "max") && v > best {
				best = v
			}
		}
		return ir.Const(best)
	}
	return e.unknown(i)
}

// pyDivMod folds a // b and a % b with Python's floor semantics.
func pyDivMod(op string, a, b int64) (int64, bool) {
	if b == 0 || a == -1<<63 && b == -1 {
		return 0, false
	}
	q, r := a/b, a%b
	if r != 0 && (r < 0) != (b < 0) {
		q--
		r += b
	}
	if op == "//" {
		return q, true
	}
	return r, true
}

// parseInt parses a Python integer literal (decimal, 0x, 0o, 0b, with
// underscores). Floats, complex literals and overflows are not integers.
func parseInt(s string) (int64, bool) {
	s = strings.ReplaceAll(s, "_", "")
	base := 10
	if len(s) > 1 && s[0] == '0' {
		switch s[1] {
		case 'x', 'X':
			base, s = 16, s[2:]
		case 'o', 'O':
			base, s = 8, s[2:]
		case 'b', 'B':
			base, s = 2, s[2:]
		}
	}
	v, err := strconv.ParseUint(s, base, 64)
	if err != nil || v > 1<<63-1 {
		return 0, false
	}
	return int64(v), true
}

// normSpace collapses runs of white space into one space and trims.
func normSpace(s string) string { return strings.Join(strings.Fields(s), " ") }
