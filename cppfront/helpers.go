package cppfront

import (
	"strconv"
	"strings"

	"github.com/ascvet/ascvet/cppfront/ir"
)

// Scalar helpers with arguments.
//
// A kernel computes its trip counts through small functions of its own or
// of a common header: CeilDiv(count, VL), ops::CeilAlign(n, 32),
// AscendC::CeilDivision(len, elems). Such a function, whose body is only
// returns, the last one unconditional and the others guarded,
//
//	template <typename T>
//	__aicore__ inline T CeilDiv(T a, T b)
//	{
//	    if (b == 0) {
//	        return a;
//	    }
//	    return (a + b - 1) / b;
//	}
//
// is a pure function of its parameters (a static_assert in the body is
// skipped: it changes no value). A call of one whose arguments are
// constants (a caller's value bound to a parameter included) is folded: the
// guards are read in order, the first that holds gives the return, else
// the last one does. The body is read as text (the function's own file's,
// or a header's through the project index), so it needs no tree: the lazy
// parse may blank it. Nothing else makes a helper: a body with any other
// statement, a parameter that is a pointer, an array or a pack, or a name
// the body reads that is neither a parameter nor a constant the index
// knows leaves the call unfolded, as before.

// pureFn is one scalar helper: its template parameters, its parameters'
// names in order, its guarded returns and its last return.
type pureFn struct {
	tparams []string
	params  []string
	guards  [][2]string // condition, returned expression
	ret     string
}

// maxHelperArgs bounds the arguments of a helper (and so the memo's keys);
// maxHelperCalls the helper calls one evaluation makes, nested ones
// included: f(n) { return f(n) + f(n) + f(n); } would otherwise make 3^16.
const (
	maxHelperArgs  = 8
	maxHelperCalls = 1024
)

// scanHelpers finds the scalar helpers defined in text (comments
// stripped) and calls add for each. A body is tried at every "{" that
// follows a parameter list's ")" (and const or noexcept).
func scanHelpers(text string, add func(name string, f pureFn)) {
	for k := 0; ; {
		j := strings.IndexByte(text[k:], '{')
		if j < 0 {
			return
		}
		j += k
		k = j + 1
		name, f, ok := helperAt(text, j)
		if ok {
			add(name, f)
		}
	}
}

// helperAt reads the helper whose body opens at text[brace], if one does.
func helperAt(text string, brace int) (string, pureFn, bool) {
	var f pureFn
	// The body first: it rules out almost every brace at once.
	r := &textReader{s: text, i: brace + 1}
	for {
		r.space()
		if r.word("return") {
			e, ok := r.until(';')
			if !ok {
				return "", f, false
			}
			f.ret = e
			r.space()
			if !r.eat('}') {
				return "", f, false
			}
			break
		}
		if r.word("static_assert") {
			// A check at compile time: it changes no value.
			r.space()
			if _, ok := r.parens(); !ok {
				return "", f, false
			}
			r.space()
			if !r.eat(';') {
				return "", f, false
			}
			continue
		}
		if !r.word("if") {
			return "", f, false
		}
		r.space()
		if r.word("constexpr") {
			r.space()
		}
		cond, ok := r.parens()
		if !ok {
			return "", f, false
		}
		r.space()
		braced := r.eat('{')
		r.space()
		if !r.word("return") {
			return "", f, false
		}
		e, ok := r.until(';')
		if !ok {
			return "", f, false
		}
		if braced {
			r.space()
			if !r.eat('}') {
				return "", f, false
			}
		}
		if len(f.guards) >= 8 {
			return "", f, false
		}
		f.guards = append(f.guards, [2]string{cond, e})
	}
	// Then the header, backwards: [const|noexcept] ) params ( name.
	k := skipBack(text, brace) - 1
	for _, q := range []string{"const", "noexcept"} {
		if k+1 >= len(q) && text[k+1-len(q):k+1] == q && (k+1-len(q) == 0 || !isIdentChar(text[k-len(q)])) {
			k = skipBack(text, k+1-len(q)) - 1
		}
	}
	if k < 0 || text[k] != ')' {
		return "", f, false
	}
	open := matchParenBack(text, k)
	if open < 0 {
		return "", f, false
	}
	e := skipBack(text, open) - 1
	s := e
	for s >= 0 && isIdentChar(text[s]) {
		s--
	}
	name := text[s+1 : e+1]
	if !isIdentifier(name) || notCalls[name] {
		return "", f, false
	}
	// The return type: a word (or > * &) before the name, not an operator
	// or a call (a statement "x = Foo(a) {" is no definition).
	if t := skipBack(text, s+1) - 1; t < 0 || !(isIdentChar(text[t]) || text[t] == '>' || text[t] == '&') {
		return "", f, false
	}
	params := strings.TrimSpace(text[open+1 : k])
	if params != "" && params != "void" {
		for _, p := range splitTop(params) {
			if eq := strings.IndexByte(p, '='); eq >= 0 {
				p = p[:eq]
			}
			if strings.ContainsAny(p, "*[(") || strings.Contains(p, "...") {
				return "", f, false
			}
			w := strings.Fields(strings.ReplaceAll(p, "&", " "))
			if len(w) < 2 || !isIdentifier(w[len(w)-1]) {
				return "", f, false
			}
			f.params = append(f.params, strings.Clone(w[len(w)-1]))
		}
	}
	if len(f.params) == 0 || len(f.params) > maxHelperArgs {
		return "", f, false // a call without arguments is constFn's
	}
	f.tparams = helperTemplateParams(text, s+1)
	f.ret = strings.Clone(f.ret)
	for i := range f.guards {
		f.guards[i] = [2]string{strings.Clone(f.guards[i][0]), strings.Clone(f.guards[i][1])}
	}
	return strings.Clone(name), f, true
}

// helperTemplateParams returns the parameter names of the template
// declaration whose function header ends before at, when the header
// starts with one (up to the last ; { or } before it).
func helperTemplateParams(text string, at int) []string {
	start := strings.LastIndexAny(text[:at], ";{}") + 1
	h := text[start:at]
	for strings.HasPrefix(strings.TrimLeft(h, " \t\r\n"), "#") { // a directive line before the declaration
		h = strings.TrimLeft(h, " \t\r\n")
		nl := strings.IndexByte(h, '\n')
		if nl < 0 {
			return nil
		}
		h = h[nl+1:]
	}
	h = strings.TrimSpace(h)
	if !strings.HasPrefix(h, "template") {
		return nil
	}
	lt := strings.IndexByte(h, '<')
	if lt < 0 {
		return nil
	}
	gt := matchAngle([]byte(h), lt)
	if gt < 0 {
		return nil
	}
	return templateParamsBefore(h, gt+1)
}

// matchParenBack returns the index of the "(" that the ")" at s[k] closes,
// or -1.
func matchParenBack(s string, k int) int {
	depth := 0
	for i := k; i >= 0 && k-i < 4096; i-- {
		switch s[i] {
		case ')':
			depth++
		case '(':
			if depth--; depth == 0 {
				return i
			}
		case ';', '{', '}':
			return -1
		}
	}
	return -1
}

// textReader reads a helper's body.
type textReader struct {
	s string
	i int
}

func (r *textReader) space() {
	for r.i < len(r.s) && isSpaceByte(r.s[r.i]) {
		r.i++
	}
}

func (r *textReader) eat(c byte) bool {
	if r.i < len(r.s) && r.s[r.i] == c {
		r.i++
		return true
	}
	return false
}

// word eats the keyword w when the text continues with it.
func (r *textReader) word(w string) bool {
	if strings.HasPrefix(r.s[r.i:], w) && (r.i+len(w) == len(r.s) || !isIdentChar(r.s[r.i+len(w)])) {
		r.i += len(w)
		return true
	}
	return false
}

// until returns the text up to the byte c (eaten), trimmed, when no brace,
// quote or other statement comes first and its parentheses balance.
func (r *textReader) until(c byte) (string, bool) {
	depth := 0
	for j := r.i; j < len(r.s) && j-r.i < 1024; j++ {
		switch b := r.s[j]; {
		case b == '(':
			depth++
		case b == ')':
			if depth--; depth < 0 {
				return "", false
			}
		case b == '{' || b == '}' || b == '"' || b == '\'' || b == '#':
			return "", false
		case b == c && depth == 0:
			e := strings.TrimSpace(r.s[r.i:j])
			r.i = j + 1
			return e, e != ""
		}
	}
	return "", false
}

// parens returns the text inside the parentheses that open at the reader.
func (r *textReader) parens() (string, bool) {
	if !r.eat('(') {
		return "", false
	}
	depth := 1
	for j := r.i; j < len(r.s) && j-r.i < 1024; j++ {
		switch r.s[j] {
		case '(':
			depth++
		case ')':
			if depth--; depth == 0 {
				e := strings.TrimSpace(r.s[r.i:j])
				r.i = j + 1
				return e, e != ""
			}
		case '"', '\'':
			// A literal (static_assert's message): skipped whole.
			j = skipQuoted(r.s, j, r.s[j]) - 1
		case '{', '}', ';':
			return "", false
		}
	}
	return "", false
}

// addHelper records f under name in hs: a second definition with the same
// number of parameters and another text leaves that arity ambiguous (nil).
func addHelper(hs map[string][]*pureFn, name string, f pureFn) {
	for i, g := range hs[name] {
		if len(g.params) != len(f.params) {
			continue
		}
		if g.ret != "" && !samePure(*g, f) {
			hs[name][i] = &pureFn{params: f.params} // ambiguous: no body
		}
		return
	}
	hs[name] = append(hs[name], &f)
}

func samePure(a, b pureFn) bool {
	if a.ret != b.ret || len(a.guards) != len(b.guards) || strings.Join(a.params, ",") != strings.Join(b.params, ",") {
		return false
	}
	for i := range a.guards {
		if a.guards[i] != b.guards[i] {
			return false
		}
	}
	return true
}

// callArgs evaluates a call of the helper name with the constant
// arguments args (template arguments targs, read through outer): the
// nearest header that defines one of that arity decides; nil when it does
// not fold.
func (ev *evaluator) callArgs(name string, targs []string, args []int64, outer map[string]string) *ir.Expr {
	if k := strings.LastIndex(name, "::"); k >= 0 {
		name = name[k+2:]
	}
	if ev.depth > 16 || len(args) > maxHelperArgs || ev.calls >= maxHelperCalls {
		return nil
	}
	ev.calls++
	for _, h := range ev.hs {
		for _, f := range h.helpers[name] {
			if len(f.params) != len(args) {
				continue
			}
			if f.ret == "" {
				return nil // ambiguous
			}
			types := bindTypes(f.tparams, targs, outer)
			vars := make(map[string]*ir.Expr, len(args))
			for j, p := range f.params {
				vars[p] = ir.Const(args[j])
			}
			ev.depth++
			defer func() { ev.depth-- }()
			eval := func(text string) (int64, bool) {
				return ev.parse(text, types, vars).Value()
			}
			for _, g := range f.guards {
				c, ok := eval(g[0])
				if !ok {
					return nil
				}
				if c != 0 {
					if v, ok := eval(g[1]); ok {
						return ir.Const(v)
					}
					return nil
				}
			}
			if v, ok := eval(f.ret); ok {
				return ir.Const(v)
			}
			return nil
		}
	}
	return nil
}

// CallArgs returns the value of a call of a scalar helper (helpers.go)
// with the constant arguments args and the template arguments targs, or
// false.
func (sc *Scope) CallArgs(name string, targs []string, args []int64) (*ir.Expr, bool) {
	var b strings.Builder
	b.WriteString(name)
	b.WriteString("<")
	b.WriteString(strings.Join(targs, ","))
	b.WriteString(">(")
	for i, a := range args {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.FormatInt(a, 10))
	}
	b.WriteString(")")
	return sc.memo(b.String(), func(ev *evaluator) *ir.Expr { return ev.callArgs(name, targs, args, nil) })
}
