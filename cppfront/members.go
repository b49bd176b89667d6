package cppfront

import (
	"bytes"
	"strings"

	"github.com/ascvet/ascvet/cppfront/ir"
)

// Members set once.
//
// A kernel class often computes its vector length once and keeps it in a
// data member:
//
//	__aicore__ inline void Init(...) { vLength_ = GetVRegSize() / sizeof(T); }
//	__simd_vf__ void Compute(...) { ... src + i * vLength_ ... }
//
// A data member that the file's methods of its class assign exactly once,
// in a constructor (or its initialiser list) or a method whose name starts
// with Init, with a value fixed for the run (constants and element sizes),
// and that nothing else changes (no other assignment, ++/--, or &member),
// is that value in every method of the class.

// memberValues finds the data members of class set once (see above), on
// the first question about the class.
func (lw *lowerer) memberValues(class string) map[string]*ir.Expr {
	lw.membersMu.Lock()
	defer lw.membersMu.Unlock()
	if m, ok := lw.members[class]; ok {
		return m
	}
	lw.members[class] = nil
	if len(lw.fields[class]) == 0 {
		return nil
	}
	type write struct {
		val   *ir.Expr // the value, nil when not fixed for the run
		count int      // writes seen
		ok    bool     // every write so far is the one allowed assignment
	}
	writes := map[string]map[string]*write{} // class -> member -> writes
	note := func(class, name string, val *ir.Expr, allowed bool) {
		m := writes[class]
		if m == nil {
			m = map[string]*write{}
			writes[class] = m
		}
		w := m[name]
		if w == nil {
			w = &write{ok: true}
			m[name] = w
		}
		w.count++
		w.val = val
		w.ok = w.ok && allowed && val != nil && w.count == 1
	}
	fields := lw.fields[class]
	for _, fd := range lw.funcs {
		if classOf(fd) != class {
			continue
		}
		method := lastComponent(fd.name)
		setter := method == class || strings.HasPrefix(method, "Init")
		if !setter {
			// Other methods are only searched for writes, as text: a
			// member followed by an assignment operator, ++ or --, or
			// preceded by ++, -- or &, makes it not set once.
			for name := range writtenNames(lw.src[fd.body:fd.end]) {
				if fields[name] {
					note(class, name, nil, false)
				}
			}
			continue
		}
		fl := flatten(fd.node, lw.src, false, lw.budget)
		env := &env{lw: lw}
		for i := range fl.n {
			n := &fl.n[i]
			switch n.kind() {
			case "field_initializer":
				// Ctor() : vLength_(GetVRegSize() / sizeof(T)) {}
				name, args := fl.child(int32(i), "name"), int32(-1)
				for c := n.first; c >= 0; c = fl.n[c].next {
					if fl.n[c].kind() == "argument_list" || fl.n[c].kind() == "initializer_list" {
						args = c
					}
				}
				if name >= 0 && fields[fl.text(name)] && args >= 0 {
					var v *ir.Expr
					if a := fl.named(args); len(a) == 1 {
						v = fixed(env.expr(fl, a[0]))
					}
					note(class, fl.text(name), v, setter)
				}
			case "assignment_expression":
				if m := memberName(fl, fl.child(int32(i), "left"), fields); m != "" {
					var v *ir.Expr
					if fl.operator(int32(i)) == "=" {
						v = fixed(env.expr(fl, fl.child(int32(i), "right")))
					}
					note(class, m, v, setter)
				}
			case "update_expression":
				if m := memberName(fl, fl.child(int32(i), "argument"), fields); m != "" {
					note(class, m, nil, false)
				}
			case "pointer_expression":
				if m := memberName(fl, fl.child(int32(i), "argument"), fields); m != "" && fl.operator(int32(i)) == "&" {
					note(class, m, nil, false)
				}
			}
		}
	}
	m := map[string]*ir.Expr{}
	for name, w := range writes[class] {
		if w.ok {
			m[name] = w.val
		}
	}
	lw.members[class] = m
	return m
}

// writtenNames returns the identifiers that text may write: an identifier
// (not after . or ->, other than this->) followed by an assignment
// operator (not ==), ++ or --, or preceded by ++, -- or a unary &.
func writtenNames(text []byte) map[string]bool {
	out := map[string]bool{}
	eachCodeIdent(text, func(k, e int) {
		if writeAt(text, k, e) {
			out[string(text[k:e])] = true
		}
	})
	return out
}

// eachCodeIdent is eachIdent outside comments, string and character
// literals and directives (lexText): a comment saying "x = a * b" writes
// no x.
func eachCodeIdent(text []byte, f func(k, e int)) {
	for _, tk := range lexText(text).toks {
		if tk.kind == 'a' {
			f(int(tk.start), int(tk.end))
		}
	}
}

// writeAt reports whether the identifier text[k:e] is written there.
func writeAt(text []byte, k, e int) bool {
	if j := skipSpace(text, e); j < len(text) {
		rest := text[j:]
		switch {
		case bytes.HasPrefix(rest, []byte("==")):
		case rest[0] == '=', bytes.HasPrefix(rest, []byte("++")), bytes.HasPrefix(rest, []byte("--")):
			return true
		case len(rest) > 1 && rest[1] == '=' && bytes.IndexByte([]byte("+-*/%&|^"), rest[0]) >= 0:
			return true
		case len(rest) > 2 && rest[2] == '=' && (bytes.HasPrefix(rest, []byte("<<")) || bytes.HasPrefix(rest, []byte(">>"))):
			return true
		}
	}
	p := k - 1
	for p >= 0 && isSpaceByte(text[p]) {
		p--
	}
	if p >= 1 && (text[p] == '+' && text[p-1] == '+' || text[p] == '-' && text[p-1] == '-') {
		return true
	}
	if p >= 0 && text[p] == '&' && (p == 0 || text[p-1] != '&') {
		q := p - 1
		for q >= 0 && isSpaceByte(text[q]) {
			q--
		}
		if q < 0 || !isIdentChar(text[q]) && text[q] != ')' && text[q] != ']' {
			return true // &name, not a & name (a bitwise and)
		}
	}
	return false
}

// fixed returns v when it is fixed for the run (constants and element sizes).
func fixed(v *ir.Expr) *ir.Expr {
	if v.Known() && v.Pure() {
		return v
	}
	return nil
}

// memberName returns the member a target names (name or this->name), or "".
func memberName(fl *flat, i int32, fields map[string]bool) string {
	if i < 0 {
		return ""
	}
	t := strings.TrimPrefix(strings.ReplaceAll(fl.text(i), " ", ""), "this->")
	if fields[t] {
		return t
	}
	return ""
}

// classOf returns the class a function definition belongs to: the class it
// is defined in, or the qualifier of its name (Kernel<T>::Init -> Kernel).
func classOf(fd funcDef) string {
	if fd.class != "" {
		return fd.class
	}
	cut := qualifierEnd(fd.name)
	if cut < 0 {
		return ""
	}
	return lastComponent(fd.name[:cut])
}

// qualifierEnd returns where the last :: outside template arguments starts
// in a qualified name (Kernel<A::B>::Init -> the :: before Init), -1 for
// none.
func qualifierEnd(name string) int {
	depth, cut := 0, -1
	for i := 0; i+1 < len(name); i++ {
		switch name[i] {
		case '<':
			depth++
		case '>':
			depth--
		case ':':
			if depth == 0 && name[i+1] == ':' {
				cut = i
			}
		}
	}
	return cut
}

// recordFields notes the data members a class's field declaration declares.
func (lw *lowerer) recordFields(fl *flat, class string) {
	for _, d := range fl.fields(0, "declarator") {
		for d >= 0 && (fl.n[d].kind() == "init_declarator" || fl.n[d].kind() == "pointer_declarator" || fl.n[d].kind() == "array_declarator") {
			d = fl.child(d, "declarator")
		}
		if d >= 0 && fl.n[d].kind() == "field_identifier" {
			if lw.fields[class] == nil {
				lw.fields[class] = map[string]bool{}
			}
			lw.fields[class][fl.text(d)] = true
		}
	}
}
