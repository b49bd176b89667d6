package ureg

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/ascvet/ascvet/cppfront/ir"
)

// formula is a propositional formula over condition atoms: how flow.go
// decides that a path condition contradicts a branch. Atoms are the
// conditions' leaves as printed ("outputBrc", "sizeof(T2) == 4"), so two
// spellings of one test only meet when they print alike; anything else is an
// atom of its own, which can only keep a fact, never drop one.
//
// A comparison of an expression with a constant (`sizeof(T) == 1`,
// `sizeof(T) > 1`, `n < 4`) is not an opaque atom: the expression is a
// variable over a finite domain of representative values (the element
// sizes 1, 2, 4, 8 for sizeof; each constant it is compared with and its two
// neighbours otherwise), so `sizeof(T) == 1` and `sizeof(T) > 1` exclude
// each other.
type formula struct {
	op   byte     // 'a' atom, 'c' comparison, '&' and, '|' or, '!' not, 't' true, 'f' false
	atom string   // op 'a': the atom's text; op 'c': the compared expression
	cmp  string   // op 'c': "<", "<=", ">", ">=", "==", "!="
	val  int64    // op 'c': the constant
	x, y *formula // operands
}

var (
	fTrue  = &formula{op: 't'}
	fFalse = &formula{op: 'f'}
)

func atom(s string) *formula { return &formula{op: 'a', atom: normalize(s)} }

func not(x *formula) *formula {
	switch x.op {
	case 't':
		return fFalse
	case 'f':
		return fTrue
	case '!':
		return x.x
	}
	return &formula{op: '!', x: x}
}

func and(x, y *formula) *formula { return &formula{op: '&', x: x, y: y} }

// condFormula reads a condition expression.
func condFormula(e *ir.Expr) *formula {
	switch e.Kind {
	case ir.ExprConst:
		if e.Val != 0 {
			return fTrue
		}
		return fFalse
	case ir.ExprBin:
		switch e.Op {
		case "&&", "||":
			op := byte('&')
			if e.Op == "||" {
				op = '|'
			}
			return &formula{op: op, x: condFormula(e.X), y: condFormula(e.Y)}
		}
		if f := comparison(e); f != nil {
			return f
		}
	case ir.ExprUnknown:
		return textFormula(e.Text)
	}
	return atom(e.String())
}

// comparison reads `x op y` as a comparison of the linear form x - y with
// a constant, nil when op is not a comparison. The form is canonical (terms
// sorted, the first coefficient positive), so `a <= b` and `a > b`, or
// `sizeof(T) == 1` and `1 < sizeof(T)`, talk about one variable.
func comparison(e *ir.Expr) *formula {
	flip := map[string]string{"<": ">", "<=": ">=", ">": "<", ">=": "<=", "==": "==", "!=": "!="}
	op, ok := flip[e.Op]
	if !ok {
		return nil
	}
	x, _ := linearOf(e.X)
	y, _ := linearOf(e.Y)
	d := x.sub(y)
	if len(d.terms) == 0 {
		return nil // both sides constant: the front end folds those
	}
	if d.leading() < 0 {
		d = d.neg()
	} else {
		op = e.Op
	}
	return &formula{op: 'c', atom: d.String(), cmp: op, val: -d.c}
}

// linear is sum(terms[name] * name) + c; a name is a symbol, or the text of
// a subexpression that is not linear.
type linear struct {
	terms map[string]int64
	c     int64
}

func linearOf(e *ir.Expr) (linear, bool) {
	l := linear{terms: map[string]int64{}}
	if e == nil {
		return l, false
	}
	switch e.Kind {
	case ir.ExprConst:
		l.c = e.Val
	case ir.ExprSym:
		l.terms[e.Name] = 1
	case ir.ExprNeg:
		x, ok := linearOf(e.X)
		return x.neg(), ok
	case ir.ExprBin:
		x, okx := linearOf(e.X)
		y, oky := linearOf(e.Y)
		if okx && oky {
			switch e.Op {
			case "+":
				return x.add(y), true
			case "-":
				return x.sub(y), true
			case "*":
				if len(x.terms) == 0 {
					return y.scale(x.c), true
				}
				if len(y.terms) == 0 {
					return x.scale(y.c), true
				}
			}
		}
		l.terms[normalize(e.String())] = 1
	case ir.ExprUnknown:
		l.terms[normalize(e.Text)] = 1
	default:
		l.terms[normalize(e.String())] = 1
	}
	return l, true
}

func (l linear) scale(k int64) linear {
	r := linear{terms: map[string]int64{}, c: l.c * k}
	for n, v := range l.terms {
		if v*k != 0 {
			r.terms[n] = v * k
		}
	}
	return r
}

func (l linear) neg() linear { return l.scale(-1) }

func (l linear) add(m linear) linear {
	r := l.scale(1)
	r.c += m.c
	for n, v := range m.terms {
		r.terms[n] += v
		if r.terms[n] == 0 {
			delete(r.terms, n)
		}
	}
	return r
}

func (l linear) sub(m linear) linear { return l.add(m.neg()) }

func (l linear) equal(m linear) bool {
	d := l.sub(m)
	return len(d.terms) == 0 && d.c == 0
}

func (l linear) names() []string {
	var ns []string
	for n := range l.terms {
		ns = append(ns, n)
	}
	sort.Strings(ns)
	return ns
}

// leading returns the coefficient of the first term in name order.
func (l linear) leading() int64 {
	ns := l.names()
	if len(ns) == 0 {
		return 0
	}
	return l.terms[ns[0]]
}

// String prints the terms (not the constant): "a - b", "2*i + n".
func (l linear) String() string {
	var b strings.Builder
	for i, n := range l.names() {
		v := l.terms[n]
		switch {
		case i == 0 && v < 0:
			b.WriteString("-")
		case i > 0 && v < 0:
			b.WriteString(" - ")
		case i > 0:
			b.WriteString(" + ")
		}
		if v < 0 {
			v = -v
		}
		if v != 1 {
			fmt.Fprintf(&b, "%d*", v)
		}
		b.WriteString(n)
	}
	return b.String()
}

// mentions reports whether e reads the variable name (also inside text the
// front end kept unparsed).
func mentions(e *ir.Expr, name string) bool {
	if e == nil {
		return false
	}
	switch e.Kind {
	case ir.ExprSym:
		return e.Name == name
	case ir.ExprBin:
		return mentions(e.X, name) || mentions(e.Y, name)
	case ir.ExprNeg:
		return mentions(e.X, name)
	case ir.ExprUnknown:
		return containsWord(e.Text, name)
	}
	return false
}

func containsWord(text, w string) bool {
	isWord := func(c byte) bool {
		return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
	}
	for i := 0; ; {
		j := strings.Index(text[i:], w)
		if j < 0 {
			return false
		}
		j += i
		end := j + len(w)
		if (j == 0 || !isWord(text[j-1])) && (end == len(text) || !isWord(text[end])) {
			return true
		}
		i = j + 1
	}
}

// textFormula reads a condition the front end kept as text; it only
// understands outer parentheses and a leading '!' applied to an operand
// without binary operators (`!kTail`, `!std::is_same_v<T, half>`, `!(x)`).
func textFormula(s string) *formula {
	s = strings.TrimSpace(s)
	for len(s) >= 2 && s[0] == '(' && s[len(s)-1] == ')' && balanced(s[1:len(s)-1]) {
		s = strings.TrimSpace(s[1 : len(s)-1])
	}
	if strings.HasPrefix(s, "!") && !strings.HasPrefix(s, "!=") {
		if rest := strings.TrimSpace(s[1:]); primary(rest) {
			return not(textFormula(rest))
		}
	}
	return atom(s)
}

// primary reports whether s has no binary operator outside parentheses.
func primary(s string) bool {
	if s == "" || !balanced(s) {
		return false
	}
	depth := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '(':
			depth++
		case ')':
			depth--
		}
		if depth > 0 {
			continue
		}
		for _, op := range []string{"&&", "||", "==", "!=", "<=", ">=", " < ", " > ", " + ", " - ", " * ", " / ", "?"} {
			if strings.HasPrefix(s[i:], op) {
				return false
			}
		}
	}
	return true
}

func balanced(s string) bool {
	depth := 0
	for _, c := range s {
		switch c {
		case '(':
			depth++
		case ')':
			depth--
			if depth < 0 {
				return false
			}
		}
	}
	return depth == 0
}

func normalize(s string) string { return strings.Join(strings.Fields(s), " ") }

// vars collects the boolean atoms and, for each compared expression, its
// candidate values.
func (f *formula) vars(bools map[string]bool, ints map[string]map[int64]bool) {
	switch f.op {
	case 'a':
		bools[f.atom] = true
	case 'c':
		if ints[f.atom] == nil {
			ints[f.atom] = map[int64]bool{}
		}
		if strings.HasPrefix(f.atom, "sizeof(") && !strings.Contains(f.atom, " ") {
			for _, v := range []int64{1, 2, 4, 8} {
				ints[f.atom][v] = true
			}
		} else {
			ints[f.atom][f.val-1] = true
			ints[f.atom][f.val] = true
			ints[f.atom][f.val+1] = true
		}
	case '&', '|':
		f.x.vars(bools, ints)
		f.y.vars(bools, ints)
	case '!':
		f.x.vars(bools, ints)
	}
}

// assignment is one valuation of a formula's variables.
type assignment struct {
	bools map[string]bool
	ints  map[string]int64
}

func (f *formula) eval(v *assignment) bool {
	switch f.op {
	case 't':
		return true
	case 'f':
		return false
	case 'a':
		if x, ok := v.ints[f.atom]; ok {
			return x != 0 // `if (n)` next to `if (n > 3)`
		}
		return v.bools[f.atom]
	case 'c':
		return f.compare(v.ints[f.atom])
	case '&':
		return f.x.eval(v) && f.y.eval(v)
	case '|':
		return f.x.eval(v) || f.y.eval(v)
	case '!':
		return !f.x.eval(v)
	}
	return true
}

// compare evaluates comparison f with its expression at x.
func (f *formula) compare(x int64) bool {
	switch f.cmp {
	case "<":
		return x < f.val
	case "<=":
		return x <= f.val
	case ">":
		return x > f.val
	case ">=":
		return x >= f.val
	case "==":
		return x == f.val
	case "!=":
		return x != f.val
	}
	return true
}

// maxValuations bounds the search of satisfiable; beyond it a formula is
// assumed satisfiable (the fact is kept).
const maxValuations = 1 << 12

// satisfiable reports whether some valuation of the variables makes f true.
func satisfiable(f *formula) bool {
	if ok, decided := satisfiableLiterals(f); decided {
		return ok
	}
	return enumerate(f)
}

// enumerate decides satisfiable by trying every valuation.
func enumerate(f *formula) bool {
	bools := map[string]bool{}
	ints := map[string]map[int64]bool{}
	f.vars(bools, ints)
	type dom struct {
		name  string
		isInt bool
		vals  []int64
	}
	var doms []dom
	n := 1
	for name, set := range ints {
		if bools[name] {
			set[0] = true // the atom `n` means n != 0
		}
		d := dom{name: name, isInt: true}
		for v := range set {
			d.vals = append(d.vals, v)
		}
		doms = append(doms, d)
		n *= len(d.vals)
	}
	for name := range bools {
		if ints[name] == nil {
			doms = append(doms, dom{name: name, vals: []int64{0, 1}})
			n *= 2
		}
	}
	if n > maxValuations {
		return true
	}
	v := &assignment{bools: map[string]bool{}, ints: map[string]int64{}}
	var try func(i int) bool
	try = func(i int) bool {
		if i == len(doms) {
			return f.eval(v)
		}
		d := doms[i]
		for _, x := range d.vals {
			if d.isInt {
				v.ints[d.name] = x
			} else {
				v.bools[d.name] = x != 0
			}
			if try(i + 1) {
				return true
			}
		}
		return false
	}
	return try(0)
}

// literal is a conjunct of a formula that is a leaf or a negated leaf.
type literal struct {
	neg bool
	f   *formula // op 'a', 'c', 't' or 'f'
}

// name is the variable the literal reads ("" for a constant).
func (l literal) name() string {
	if l.f.op == 'a' || l.f.op == 'c' {
		return l.f.atom
	}
	return ""
}

// holds evaluates the literal with its variable at x (an atom: x != 0, as
// eval reads an atom that is also compared).
func (l literal) holds(x int64) bool {
	if l.f.op == 'a' {
		return (x != 0) != l.neg
	}
	return l.f.compare(x) != l.neg
}

// satisfiableLiterals decides satisfiable for a conjunction of literals,
// the formulas feasible builds from tags, without enumerating valuations:
// each variable occurs in literals of its own, so the conjunction holds
// for some valuation exactly when, for every variable, some value of its
// domain satisfies its literals. Domains and the maxValuations bound are
// satisfiable's. decided is false for any other formula.
func satisfiableLiterals(f *formula) (ok, decided bool) {
	var lits []literal
	var collect func(f *formula) bool
	collect = func(f *formula) bool {
		switch f.op {
		case '&':
			return collect(f.x) && collect(f.y)
		case '!':
			if x := f.x; x.op == 'a' || x.op == 'c' || x.op == 't' || x.op == 'f' {
				lits = append(lits, literal{neg: true, f: x})
				return true
			}
			return false
		case 'a', 'c', 't', 'f':
			lits = append(lits, literal{f: f})
			return true
		}
		return false
	}
	if !collect(f) {
		return false, false
	}
	sort.SliceStable(lits, func(i, j int) bool { return lits[i].name() < lits[j].name() })
	n, sat := 1, true
	for i := 0; i < len(lits); {
		j := i
		for j < len(lits) && lits[j].name() == lits[i].name() {
			j++
		}
		group := lits[i:j]
		i = j
		if group[0].name() == "" { // true and false
			for _, l := range group {
				sat = sat && (l.f.op == 't') != l.neg
			}
			continue
		}
		// The domain, as vars and satisfiable make it.
		var dom []int64
		compared, atom := false, false
		for _, l := range group {
			if l.f.op == 'a' {
				atom = true
				continue
			}
			compared = true
			if strings.HasPrefix(l.f.atom, "sizeof(") && !strings.Contains(l.f.atom, " ") {
				dom = append(dom, 1, 2, 4, 8)
			} else {
				dom = append(dom, l.f.val-1, l.f.val, l.f.val+1)
			}
		}
		if !compared {
			dom = []int64{0, 1}
		} else if atom {
			dom = append(dom, 0)
		}
		slices.Sort(dom)
		dom = slices.Compact(dom)
		if n *= len(dom); n > maxValuations {
			return true, true
		}
		if !slices.ContainsFunc(dom, func(x int64) bool {
			for _, l := range group {
				if !l.holds(x) {
					return false
				}
			}
			return true
		}) {
			sat = false
		}
	}
	return sat, true
}
