package align

import (
	"sort"
	"strings"

	"github.com/ascvet/ascvet/cppfront/ir"
)

// lin is a linear form: sum of terms[k]*k plus c. A term is a symbol, or
// the printed text of a sub-expression that is not linear (an atom, whose
// key starts with "(").
type lin struct {
	terms map[string]int64
	c     int64
}

func constLin(c int64) lin { return lin{terms: map[string]int64{}, c: c} }

func (a lin) add(b lin, sign int64) lin {
	r := lin{terms: map[string]int64{}, c: a.c + sign*b.c}
	for k, v := range a.terms {
		r.terms[k] += v
	}
	for k, v := range b.terms {
		r.terms[k] += sign * v
	}
	for k, v := range r.terms {
		if v == 0 {
			delete(r.terms, k)
		}
	}
	return r
}

func (a lin) scale(k int64) lin {
	r := lin{terms: map[string]int64{}, c: a.c * k}
	if k == 0 {
		return r
	}
	for t, v := range a.terms {
		r.terms[t] = v * k
	}
	return r
}

func (a lin) isConst() bool { return len(a.terms) == 0 }

// toLin converts e to a linear form; ok is false for an unknown expression.
func toLin(e *ir.Expr) (lin, bool) {
	if e == nil {
		return lin{}, false
	}
	switch e.Kind {
	case ir.ExprConst:
		return constLin(e.Val), true
	case ir.ExprSym:
		return lin{terms: map[string]int64{e.Name: 1}}, true
	case ir.ExprSizeof:
		return lin{terms: map[string]int64{"(sizeof(" + e.Name + "))": 1}}, true
	case ir.ExprNeg:
		x, ok := toLin(e.X)
		return x.scale(-1), ok
	case ir.ExprBin:
		x, okx := toLin(e.X)
		y, oky := toLin(e.Y)
		if !okx || !oky {
			return lin{}, false
		}
		switch e.Op {
		case "+":
			return x.add(y, 1), true
		case "-":
			return x.add(y, -1), true
		case "*":
			if x.isConst() {
				return y.scale(x.c), true
			}
			if y.isConst() {
				return x.scale(y.c), true
			}
		case "/":
			if x.isConst() && y.isConst() && y.c != 0 {
				return constLin(x.c / y.c), true
			}
		}
		return lin{terms: map[string]int64{"(" + e.String() + ")": 1}}, true
	}
	return lin{}, false
}

// isAtom reports whether a term key is a non-linear sub-expression.
func isAtom(k string) bool { return strings.HasPrefix(k, "(") }

// bindSizeof replaces sizeof(name) by size in e.
func bindSizeof(e *ir.Expr, name string, size int64) *ir.Expr {
	if name == "" {
		return e
	}
	return e.Subst(func(k ir.ExprKind, n string) *ir.Expr {
		if k == ir.ExprSizeof && n == name {
			return ir.Const(size)
		}
		return nil
	})
}

// Const folds e with sizeof(elem) bound to size: the value of a stride or
// step whose element type is a template parameter, at one candidate size.
func Const(e *ir.Expr, elem string, size int64) (int64, bool) {
	return bindSizeof(e, elem, size).Value()
}

// hasCast reports whether an operand's text holds a cast, which the
// symbolic expression drops: (__ubuf__ half*)p + 3 is not p + 3 when p is
// not a half pointer.
func hasCast(text string) bool {
	if strings.Contains(text, "_cast") {
		return true
	}
	for i := 0; i < len(text); i++ {
		if text[i] != ')' {
			continue
		}
		j := i + 1
		for j < len(text) && text[j] == ' ' {
			j++
		}
		if j < len(text) && (identChar(text[j]) || text[j] == '(') {
			return true
		}
	}
	return false
}

func identChar(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// Mod returns x mod m in [0, m).
func Mod(x, m int64) int64 {
	r := x % m
	if r < 0 {
		r += m
	}
	return r
}

// sortedKeys returns the keys of m in order.
func sortedKeys(m map[string]int64) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}
