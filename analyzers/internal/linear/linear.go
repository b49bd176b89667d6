// Package linear puts address expressions into a canonical linear form, so
// that two spellings of one address compare equal and the coefficient of a
// loop variable can be read off:
//
//	src + i * VL - 1   ->   1*src + 64*i - 1      (VL folded to 64)
//	(a * 4) / 4        ->   1*a                   (exact division)
//	src + i * n        ->   1*src + 1*(i * n)     (non-linear: an atom)
//
// A term is a symbol, "sizeof(T)" for an element size that is a template
// parameter, or the printed text of a non-linear sub-expression (an atom,
// whose key starts with "("), so that the same sub-expression still
// compares equal to itself. Shared by the stream analysis (ASC1001,
// ASC1002) and the alignment analysis (ASC2001).
package linear

import (
	"sort"
	"strconv"
	"strings"

	"github.com/ascvet/ascvet/cppfront/ir"
)

// Form is sum of Terms[k]*k plus C.
type Form struct {
	Terms map[string]int64 // coefficient of each term; no zero coefficients
	C     int64            // the constant
}

// Const is the form of the constant c.
func Const(c int64) Form { return Form{Terms: map[string]int64{}, C: c} }

// Add returns a + sign*b.
func (a Form) Add(b Form, sign int64) Form {
	r := Form{Terms: map[string]int64{}, C: a.C + sign*b.C}
	for k, v := range a.Terms {
		r.Terms[k] += v
	}
	for k, v := range b.Terms {
		r.Terms[k] += sign * v
	}
	for k, v := range r.Terms {
		if v == 0 {
			delete(r.Terms, k)
		}
	}
	return r
}

// Scale returns k*a.
func (a Form) Scale(k int64) Form {
	r := Form{Terms: map[string]int64{}, C: a.C * k}
	if k == 0 {
		return r
	}
	for t, v := range a.Terms {
		r.Terms[t] = v * k
	}
	return r
}

// IsConst reports whether a has no term.
func (a Form) IsConst() bool { return len(a.Terms) == 0 }

// Equal reports whether a and b are the same form.
func (a Form) Equal(b Form) bool {
	d := a.Add(b, -1)
	return d.IsConst() && d.C == 0
}

// Coef returns the coefficient of the symbol v in a, and false when v also
// appears inside an atom (the expression is not linear in v).
func (a Form) Coef(v string) (int64, bool) {
	for k := range a.Terms {
		if k != v && MentionsWord(k, v) {
			return 0, false
		}
	}
	return a.Terms[v], true
}

// Without returns a with the term v removed.
func (a Form) Without(v string) Form {
	r := Form{Terms: map[string]int64{}, C: a.C}
	for k, x := range a.Terms {
		if k != v {
			r.Terms[k] = x
		}
	}
	return r
}

// Keys returns the terms of a, sorted.
func (a Form) Keys() []string {
	keys := make([]string, 0, len(a.Terms))
	for k := range a.Terms {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func (a Form) String() string {
	var b strings.Builder
	for _, k := range a.Keys() {
		b.WriteString(strconv.FormatInt(a.Terms[k], 10) + "*" + k + " ")
	}
	b.WriteString(strconv.FormatInt(a.C, 10))
	return b.String()
}

func (a Form) divisible(k int64) bool {
	if a.C%k != 0 {
		return false
	}
	for _, v := range a.Terms {
		if v%k != 0 {
			return false
		}
	}
	return true
}

// Of converts e to its linear form. ok is false when e holds something that
// cannot be reasoned about (an unknown expression).
func Of(e *ir.Expr) (Form, bool) {
	if e == nil {
		return Form{}, false
	}
	switch e.Kind {
	case ir.ExprConst:
		return Const(e.Val), true
	case ir.ExprSym:
		return Form{Terms: map[string]int64{e.Name: 1}}, true
	case ir.ExprSizeof:
		return Form{Terms: map[string]int64{"sizeof(" + e.Name + ")": 1}}, true
	case ir.ExprNeg:
		x, ok := Of(e.X)
		return x.Scale(-1), ok
	case ir.ExprBin:
		x, okx := Of(e.X)
		y, oky := Of(e.Y)
		if !okx || !oky {
			return Form{}, false
		}
		switch e.Op {
		case "+":
			return x.Add(y, 1), true
		case "-":
			return x.Add(y, -1), true
		case "*":
			if x.IsConst() {
				return y.Scale(x.C), true
			}
			if y.IsConst() {
				return x.Scale(y.C), true
			}
		case "/":
			if y.IsConst() && y.C != 0 && x.IsConst() {
				return Const(x.C / y.C), true
			}
			// (a*k)/k with every coefficient divisible: exact.
			if y.IsConst() && y.C != 0 && x.divisible(y.C) {
				r := Form{Terms: map[string]int64{}, C: x.C / y.C}
				for k, v := range x.Terms {
					r.Terms[k] = v / y.C
				}
				return r, true
			}
		}
		return Form{Terms: map[string]int64{"(" + e.String() + ")": 1}}, true
	}
	return Form{}, false
}

// IsAtom reports whether a term key is a non-linear sub-expression.
func IsAtom(k string) bool { return strings.HasPrefix(k, "(") }

// MentionsWord reports whether the identifier w occurs as a whole word in s.
func MentionsWord(s, w string) bool {
	if w == "" {
		return false
	}
	for i := 0; ; {
		k := strings.Index(s[i:], w)
		if k < 0 {
			return false
		}
		k += i
		before := k == 0 || !IdentChar(s[k-1])
		after := k+len(w) >= len(s) || !IdentChar(s[k+len(w)])
		if before && after {
			return true
		}
		i = k + 1
	}
}

// IdentChar reports whether c can be part of a C++ or Python identifier.
func IdentChar(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}
