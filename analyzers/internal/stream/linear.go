// Package stream decides whether the unaligned loads or stores on one
// unaligned register inside a loop form one contiguous stream: iteration
// i+1 starts exactly where iteration i ended. It is shared by ASC1001
// (LoadUnAlignPre in a loop) and ASC1002 (StoreUnAlignPost in a loop), and
// it builds their fixes.
//
// The decision is made on address expressions, never on names:
//
//	for (i = 0; i < n; ++i) {                      // contiguous: the Pre re-primes
//	    LoadUnAlignPre(u, src + i * VL);           // at src + i*VL, exactly where
//	    LoadUnAlign(r, u, src + i * VL);           // the previous iteration's load
//	}                                              // (VL = 256 / sizeof(T)) ended
//
//	for (i = 0; i < n; ++i) {                      // not contiguous: rows are
//	    LoadUnAlignPre(u, src + i * rowStride);    // padded, the Pre is needed
//	    LoadUnAlign(r, u, src + i * rowStride);
//	}
//
// Element sizes that are template parameters are tried one by one (1, 2, 4
// and 8 bytes): a stream is contiguous only if it is for every size, and
// not contiguous only if it is for none; otherwise the verdict is unknown.
package stream

import (
	"sort"
	"strconv"
	"strings"

	"github.com/ascvet/ascvet/cppfront/ir"
)

// lin is a canonical linear form: sum of terms[k]*k plus c. A term is a
// symbol name, "sizeof(T)", or the printed text of a non-linear
// sub-expression (an atom).
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

func (a lin) String() string {
	keys := make([]string, 0, len(a.terms))
	for k := range a.terms {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	for _, k := range keys {
		b.WriteString(strconv.FormatInt(a.terms[k], 10) + "*" + k + " ")
	}
	b.WriteString(strconv.FormatInt(a.c, 10))
	return b.String()
}

// toLin converts e to a linear form. ok is false when e holds something
// that cannot be reasoned about (an unknown expression).
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
		return lin{terms: map[string]int64{"sizeof(" + e.Name + ")": 1}}, true
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
			if y.isConst() && y.c != 0 && x.isConst() {
				return constLin(x.c / y.c), true
			}
			// (a*k)/k with every coefficient divisible: exact.
			if y.isConst() && y.c != 0 && divisible(x, y.c) {
				r := lin{terms: map[string]int64{}, c: x.c / y.c}
				for k, v := range x.terms {
					r.terms[k] = v / y.c
				}
				return r, true
			}
		}
		// Non-linear: an atom, so that the same sub-expression still
		// compares equal to itself.
		return lin{terms: map[string]int64{"(" + e.String() + ")": 1}}, true
	}
	return lin{}, false
}

func divisible(a lin, k int64) bool {
	if a.c%k != 0 {
		return false
	}
	for _, v := range a.terms {
		if v%k != 0 {
			return false
		}
	}
	return true
}

// coef returns the coefficient of the symbol v in a, and false when v also
// appears inside an atom (the expression is not linear in v).
func (a lin) coef(v string) (int64, bool) {
	for k := range a.terms {
		if k != v && mentionsWord(k, v) {
			return 0, false
		}
	}
	return a.terms[v], true
}

// without returns a with the term v removed.
func (a lin) without(v string) lin {
	r := lin{terms: map[string]int64{}, c: a.c}
	for k, x := range a.terms {
		if k != v {
			r.terms[k] = x
		}
	}
	return r
}

func (a lin) equal(b lin) bool {
	d := a.add(b, -1)
	return d.isConst() && d.c == 0
}

// mentionsWord reports whether the identifier w occurs as a whole word in s.
func mentionsWord(s, w string) bool {
	for i := 0; ; {
		k := strings.Index(s[i:], w)
		if k < 0 {
			return false
		}
		k += i
		before := k == 0 || !identChar(s[k-1])
		after := k+len(w) >= len(s) || !identChar(s[k+len(w)])
		if before && after {
			return true
		}
		i = k + 1
	}
}

func identChar(c byte) bool {
	return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
}

// bindSizes replaces every sizeof(X) whose X has no known size by size.
func bindSizes(e *ir.Expr, size int64) *ir.Expr {
	return e.Subst(func(k ir.ExprKind, name string) *ir.Expr {
		if k == ir.ExprSizeof {
			return ir.Const(size)
		}
		return nil
	})
}

// vectorLen returns the number of elements of type elem in one vector
// register (VRegSize / sizeof(elem)), symbolic when elem has no known size.
func vectorLen(elem string) *ir.Expr {
	if sz, ok := ir.ElemSize(elem); ok {
		return ir.Const(ir.VectorBytes / sz)
	}
	if elem == "" {
		return nil
	}
	return ir.Bin("/", ir.Const(ir.VectorBytes), &ir.Expr{Kind: ir.ExprSizeof, Name: elem})
}
