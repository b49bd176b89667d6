package ureg

import (
	"strings"

	"github.com/ascvet/ascvet/cppfront/ir"
)

// formula is a propositional formula over condition atoms: how flow.go
// decides that a path condition contradicts a branch. Atoms are the
// conditions' leaves as printed ("outputBrc", "sizeof(T2) == 4"), so two
// spellings of one test only meet when they print alike; anything else is an
// atom of its own, which can only keep a fact, never drop one.
type formula struct {
	op   byte     // 'a' atom, '&' and, '|' or, '!' not, 't' true, 'f' false
	atom string   // op 'a': the atom's text
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
		case "==", "!=":
			// x == 0 is !x, x != 0 is x.
			x := e.X
			if v, ok := e.X.Value(); ok && v == 0 {
				x = e.Y
			} else if v, ok := e.Y.Value(); !ok || v != 0 {
				x = nil
			}
			if x != nil {
				if e.Op == "==" {
					return not(condFormula(x))
				}
				return condFormula(x)
			}
		}
	case ir.ExprUnknown:
		return textFormula(e.Text)
	}
	return atom(e.String())
}

// textFormula reads a condition the front end kept as text; it only
// understands a leading '!' and outer parentheses.
func textFormula(s string) *formula {
	s = strings.TrimSpace(s)
	for len(s) >= 2 && s[0] == '(' && s[len(s)-1] == ')' && balanced(s[1:len(s)-1]) {
		s = strings.TrimSpace(s[1 : len(s)-1])
	}
	if strings.HasPrefix(s, "!") && !strings.HasPrefix(s, "!=") {
		rest := strings.TrimSpace(s[1:])
		if isIdent(rest) || (strings.HasPrefix(rest, "(") && strings.HasSuffix(rest, ")") && balanced(rest[1:len(rest)-1])) {
			return not(textFormula(rest))
		}
	}
	return atom(s)
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

func isIdent(s string) bool {
	if s == "" {
		return false
	}
	for i, c := range s {
		ok := c == '_' || c == ':' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (i > 0 && c >= '0' && c <= '9')
		if !ok {
			return false
		}
	}
	return true
}

func normalize(s string) string { return strings.Join(strings.Fields(s), " ") }

func (f *formula) atoms(seen map[string]bool, out []string) []string {
	switch f.op {
	case 'a':
		if !seen[f.atom] {
			seen[f.atom] = true
			out = append(out, f.atom)
		}
	case '&', '|':
		out = f.x.atoms(seen, out)
		out = f.y.atoms(seen, out)
	case '!':
		out = f.x.atoms(seen, out)
	}
	return out
}

func (f *formula) eval(v map[string]bool) bool {
	switch f.op {
	case 't':
		return true
	case 'f':
		return false
	case 'a':
		return v[f.atom]
	case '&':
		return f.x.eval(v) && f.y.eval(v)
	case '|':
		return f.x.eval(v) || f.y.eval(v)
	case '!':
		return !f.x.eval(v)
	}
	return true
}

// maxAtoms bounds the truth-table search of satisfiable; beyond it a
// formula is assumed satisfiable (the fact is kept).
const maxAtoms = 12

// satisfiable reports whether some assignment of the atoms makes f true.
func satisfiable(f *formula) bool {
	atoms := f.atoms(map[string]bool{}, nil)
	if len(atoms) > maxAtoms {
		return true
	}
	v := make(map[string]bool, len(atoms))
	for bits := 0; bits < 1<<len(atoms); bits++ {
		for i, a := range atoms {
			v[a] = bits&(1<<i) != 0
		}
		if f.eval(v) {
			return true
		}
	}
	return false
}
