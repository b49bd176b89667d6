package pyfront

import (
	"go/token"
	"slices"
	"sort"
	"strings"

	"github.com/ascvet/ascvet/cppfront/ir"
)

// lowerer lowers one file.
type lowerer struct {
	f      *ir.File
	fl     *flat
	budget *budget

	plNames map[string]bool // names bound to pypto_pro.language ("pl")
	vfNames map[string]bool // names bound to its Vf namespace ("vf")
	decos   map[string]bool // bare names bound to the vector_function decorator
	funcs   []funcDef       // every function definition, in source order
	byName  map[string][]int
	consts  map[string]*ir.Expr // module-level constants (ints fold into File.Consts)
}

// funcDef is one function definition of the file.
type funcDef struct {
	def   int32    // the function_definition node
	outer int32    // the decorated_definition around it, or def
	name  string   // its name (Class.name for a method)
	kind  defKind  // what its decorators make it
	simt  bool     // @pl.vector_function(mode="simt")
	fn    *ir.Func // the lowered region or helper, set before its body is lowered
}

// defKind is what a function definition is to the DSL.
type defKind uint8

const (
	defPlain  defKind = iota // undecorated, or decorated otherwise: a helper when VF code calls it
	defVF                    // @pl.vector_function
	defInline                // @pl.inline / @pl.fn / @pl.function: a helper
	defHost                  // @pl.jit, @pl.kernel, @pl.program: host code, never a helper
)

func newLowerer(f *ir.File, fl *flat, b *budget) *lowerer {
	return &lowerer{f: f, fl: fl, budget: b,
		plNames: map[string]bool{"pl": true}, vfNames: map[string]bool{"vf": true}, decos: map[string]bool{},
		byName: map[string][]int{}, consts: map[string]*ir.Expr{}}
}

func (lw *lowerer) pos(off uint32) token.Pos { return lw.f.Tok.Pos(int(off)) }

func (lw *lowerer) run() {
	fl := lw.fl
	lw.imports()
	lw.moduleConsts()
	// Every function definition, at any depth (kernels are often nested in
	// test functions or classes).
	for i := range fl.n {
		lw.budget.tick()
		if fl.n[i].kind == "function_definition" {
			lw.addDef(int32(i))
		}
	}
	defined := map[string]bool{}
	for k, fd := range lw.funcs {
		lw.byName[fd.name] = append(lw.byName[fd.name], k)
		if j := strings.LastIndexByte(fd.name, '.'); j >= 0 {
			lw.byName[fd.name[j+1:]] = append(lw.byName[fd.name[j+1:]], k)
		}
		defined[lastName(fd.name)] = true
	}
	for name := range defined {
		lw.f.Defined = append(lw.f.Defined, name)
	}
	sort.Strings(lw.f.Defined)
	for k := range lw.funcs {
		if lw.funcs[k].kind == defVF {
			lw.region(k)
		}
	}
	// Helpers: the non-VF functions that lowered code calls, transitively
	// (region() lowers a helper the first time a call names it).
	sort.SliceStable(lw.f.Funcs, func(i, j int) bool { return lw.f.Funcs[i].Pos < lw.f.Funcs[j].Pos })
	sort.SliceStable(lw.f.Helpers, func(i, j int) bool { return lw.f.Helpers[i].Pos < lw.f.Helpers[j].Pos })
}

func lastName(s string) string {
	if j := strings.LastIndexByte(s, '.'); j >= 0 {
		return s[j+1:]
	}
	return s
}

// imports records the names the file binds to pypto_pro.language, its Vf
// namespace and its vector_function decorator.
func (lw *lowerer) imports() {
	fl := lw.fl
	for i := range fl.n {
		switch fl.n[i].kind {
		case "import_statement":
			// import pypto_pro.language as pl
			for _, c := range fl.fields(int32(i), "name") {
				if fl.n[c].kind == "aliased_import" {
					mod, alias := fl.child(c, "name"), fl.child(c, "alias")
					if mod >= 0 && alias >= 0 && isLangModule(squash(fl.text(mod))) {
						lw.plNames[fl.text(alias)] = true
						lw.f.Aliases[fl.text(alias)] = langModule
					}
				}
			}
		case "import_from_statement":
			mod := fl.child(int32(i), "module_name")
			if mod < 0 {
				continue
			}
			m := squash(fl.text(mod))
			for _, c := range fl.fields(int32(i), "name") {
				name, alias := fl.text(c), ""
				if fl.n[c].kind == "aliased_import" {
					nm, al := fl.child(c, "name"), fl.child(c, "alias")
					if nm < 0 || al < 0 {
						continue
					}
					name, alias = fl.text(nm), fl.text(al)
				}
				if alias == "" {
					alias = name
				}
				switch {
				case m == "pypto_pro" && name == "language":
					lw.plNames[alias] = true
					lw.f.Aliases[alias] = langModule
				case isLangModule(m) && (name == "Vf" || name == "vf"):
					lw.vfNames[alias] = true
					lw.f.Aliases[alias] = langModule + ".Vf"
				case isLangModule(m) && name == "vector_function", m == "pypto_pro.language.parser.decorator" && name == "vector_function":
					lw.decos[alias] = true
					lw.f.Aliases[alias] = langModule + ".vector_function"
				}
			}
		}
	}
}

// langModule is the module of the DSL.
const langModule = "pypto_pro.language"

func isLangModule(m string) bool { return m == langModule }

// squash removes white space (a dotted name may be written "a . b").
func squash(s string) string { return strings.Join(strings.Fields(s), "") }

// moduleConsts folds the integer constants bound once at module level
// (TKV = 128, TS_HALF = TKV // 2) into File.Consts.
func (lw *lowerer) moduleConsts() {
	fl := lw.fl
	count := map[string]int{}
	type bindAt struct {
		name string
		val  int32
	}
	var binds []bindAt
	for c := fl.n[0].first; c >= 0; c = fl.n[c].next {
		if fl.n[c].kind != "expression_statement" {
			continue
		}
		for _, a := range fl.named(c) {
			switch fl.n[a].kind {
			case "assignment":
				left, right := fl.child(a, "left"), fl.child(a, "right")
				for _, n := range targetNames(fl, left) {
					count[n]++
				}
				if left >= 0 && right >= 0 && fl.n[left].kind == "identifier" {
					binds = append(binds, bindAt{fl.text(left), right})
				}
			case "augmented_assignment":
				for _, n := range targetNames(fl, fl.child(a, "left")) {
					count[n] += 2
				}
			}
		}
	}
	// Names bound anywhere else at module level (for targets, imports,
	// definitions) are not constants either.
	for c := fl.n[0].first; c >= 0; c = fl.n[c].next {
		switch fl.n[c].kind {
		case "for_statement", "with_statement", "if_statement", "while_statement", "try_statement":
			for i := c; i < int32(len(fl.n)) && fl.n[i].start < fl.n[c].end; i++ {
				if fl.n[i].kind == "assignment" || fl.n[i].kind == "augmented_assignment" || fl.n[i].kind == "for_statement" {
					f := "left"
					for _, n := range targetNames(fl, fl.child(i, f)) {
						count[n] += 2
					}
				}
			}
		}
	}
	e := &exprEnv{lw: lw}
	for _, b := range binds {
		if count[b.name] != 1 {
			continue
		}
		x := e.expr(b.val)
		if v, ok := x.Value(); ok {
			lw.f.Consts[b.name] = v
			lw.consts[b.name] = x
		}
	}
}

// targetNames returns the names an assignment target binds: a name, or the
// names of a (nested) tuple or list pattern. Attributes and subscripts bind
// no name.
func targetNames(fl *flat, t int32) []string {
	if t < 0 {
		return nil
	}
	switch fl.n[t].kind {
	case "identifier":
		return []string{fl.text(t)}
	case "pattern_list", "tuple_pattern", "list_pattern", "tuple", "list", "expression_list", "parenthesized_expression":
		var out []string
		for _, c := range fl.named(t) {
			out = append(out, targetNames(fl, c)...)
		}
		return out
	case "list_splat_pattern", "list_splat":
		ch := fl.named(t)
		if len(ch) == 1 {
			return targetNames(fl, ch[0])
		}
	}
	return nil
}

// addDef records a function definition and what its decorators make it.
func (lw *lowerer) addDef(def int32) {
	fl := lw.fl
	nm := fl.child(def, "name")
	if nm < 0 || fl.child(def, "body") < 0 {
		return
	}
	fd := funcDef{def: def, outer: def, name: fl.text(nm)}
	// A method is Class.name.
	for p := fl.n[def].parent; p >= 0; p = fl.n[p].parent {
		k := fl.n[p].kind
		if k == "class_definition" {
			if cn := fl.child(p, "name"); cn >= 0 {
				fd.name = fl.text(cn) + "." + fd.name
			}
			break
		}
		if k == "function_definition" {
			break
		}
	}
	if p := fl.n[def].parent; p >= 0 && fl.n[p].kind == "decorated_definition" {
		fd.outer = p
		for c := fl.n[p].first; c >= 0; c = fl.n[c].next {
			if fl.n[c].kind != "decorator" {
				continue
			}
			ch := fl.named(c)
			if len(ch) == 0 {
				continue
			}
			kind, simt := lw.decorator(ch[0])
			if kind > fd.kind || kind == defVF {
				fd.kind = kind
			}
			if kind == defVF {
				fd.simt = simt
			}
		}
	}
	lw.funcs = append(lw.funcs, fd)
}

// decorator classifies one decorator expression.
func (lw *lowerer) decorator(e int32) (defKind, bool) {
	fl := lw.fl
	call := int32(-1)
	if fl.n[e].kind == "call" {
		call = e
		e = fl.child(e, "function")
		if e < 0 {
			return defPlain, false
		}
	}
	name := ""
	switch fl.n[e].kind {
	case "identifier":
		name = fl.text(e)
		if lw.decos[name] {
			name = "vector_function"
		} else if name != "vector_function" {
			name = ""
		}
	case "attribute":
		obj, attr := fl.child(e, "object"), fl.child(e, "attribute")
		if obj < 0 || attr < 0 || !lw.plNames[squash(fl.text(obj))] {
			return defPlain, false
		}
		name = fl.text(attr)
	}
	switch name {
	case "vector_function":
		simt := false
		if call >= 0 {
			if al := fl.child(call, "arguments"); al >= 0 {
				for _, a := range fl.named(al) {
					if fl.n[a].kind != "keyword_argument" {
						continue
					}
					k, v := fl.child(a, "name"), fl.child(a, "value")
					if k >= 0 && v >= 0 && fl.text(k) == "mode" && strings.EqualFold(strings.Trim(fl.text(v), `"'`), "simt") {
						simt = true
					}
				}
			}
		}
		return defVF, simt
	case "inline", "fn", "function":
		return defInline, false
	case "jit", "kernel", "program":
		return defHost, false
	}
	return defPlain, false
}

// region lowers the function k as a VF region, once.
func (lw *lowerer) region(k int) *ir.Func {
	fd := &lw.funcs[k]
	if fd.fn != nil {
		return fd.fn
	}
	fl := lw.fl
	kind := ir.RegionSimdVF
	switch {
	case fd.kind != defVF:
		kind = ir.RegionSimdCallee
	case fd.simt:
		kind = ir.RegionSimtVF
	}
	body := fl.child(fd.def, "body")
	fn := &ir.Func{Name: fd.name, Kind: kind, Pos: lw.pos(fl.n[fd.outer].start), End: lw.pos(fl.n[fd.def].end),
		BodyPos: lw.pos(fl.n[body].start), Locals: map[string]int64{}}
	fd.fn = fn
	if !kind.Analysed() {
		lw.f.Funcs = append(lw.f.Funcs, fn)
		return fn
	}
	if kind == ir.RegionSimdVF {
		lw.f.Funcs = append(lw.f.Funcs, fn)
	} else {
		lw.f.Helpers = append(lw.f.Helpers, fn)
	}
	fb := newFuncBuilder(lw, fn, fd.def)
	fb.params(fl.child(fd.def, "parameters"))
	// Statements tree-sitter could not place in the body (an unclosed
	// bracket) sit in ERROR nodes before it: lower what they hold.
	var head []ir.Node
	for c := fl.n[fd.def].first; c >= 0; c = fl.n[c].next {
		if fl.n[c].kind == "ERROR" {
			fb.stmt(c, ir.NoLoop, false, &head)
		}
	}
	fn.Body = fb.block(body, ir.NoLoop, false)
	fn.Body.Nodes = append(head, fn.Body.Nodes...)
	fb.finish(fd.outer)
	return fn
}

// helper returns the function a call of name in VF code reaches: a function
// of the file that is not host code, lowered as a helper when it is not a
// region. ok is false when the file defines no such function.
func (lw *lowerer) helper(name string) (*ir.Func, bool) {
	ks := lw.byName[name]
	if len(ks) == 0 {
		return nil, false
	}
	k := ks[0]
	switch lw.funcs[k].kind {
	case defHost:
		return nil, true
	case defVF:
		return lw.funcs[k].fn, true
	}
	return lw.region(k), true
}

// errors returns the positions of the ERROR and MISSING nodes inside
// [start, end). A MISSING node is reported at the end of the last real token
// before it, where the author has to type the missing text.
func (lw *lowerer) errors(start, end uint32) []token.Pos {
	fl := lw.fl
	var out []token.Pos
	lo := sort.Search(len(fl.n), func(i int) bool { return fl.n[i].start >= start })
	for i := lo; i < len(fl.n) && fl.n[i].start < end || i < len(fl.n) && fl.n[i].missing && fl.n[i].start == end; i++ {
		n := &fl.n[i]
		if !n.bad || n.start < start || n.end > end {
			continue
		}
		off := n.start
		if n.missing {
			for j := i - 1; j >= 0; j-- {
				m := &fl.n[j]
				if m.first < 0 && m.end > m.start && m.end <= n.start && m.kind != "comment" && !m.bad {
					off = m.end
					break
				}
			}
		}
		out = append(out, lw.pos(off))
	}
	slices.Sort(out)
	return slices.Compact(out)
}
