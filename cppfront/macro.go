package cppfront

import (
	"bytes"
	"sort"
	"strings"
)

// Same-file macro expansion. Macros defined by #define in the file being
// lowered are expanded before parsing, so that a region lowers as the
// compiler sees it:
//
//	#define STEP(d, s, m) Reg::Cast<float>(d, s, m); Reg::Add(d, d, d, m)
//	STEP(a, b, p);                    // before
//	 Reg::Cast<float>(a, b, p); Reg::Add(a, a, a, p) ;   // parsed
//
// Expansion changes lengths, which the pre-pass never does, so it works on a
// second buffer with an offset map. Outside invocations the expanded buffer
// is the blanked source shifted by the expansions before; an invocation
// NAME(args) becomes " tokens " (padded with a space each side). Every byte
// offset tree-sitter gives back is mapped to the original file: outside
// invocations exactly, inside one to the invocation's start when the offset
// starts a token and to its end when it ends one (a node starts at a token's
// first byte and ends after its last, so the byte around the offset tells
// which). Every IR node made from an expansion therefore spans its
// invocation, Pos its start and End its end.
//
// What is expanded, and what is not:
//
//   - object-like and function-like macros, with # (stringify), ## (paste),
//     __VA_ARGS__ (and GNU ", ## __VA_ARGS__" and named variadics), and
//     nested macros (a body or an argument using another macro), with the
//     usual recursion guard: a macro is not expanded inside its own
//     expansion;
//   - only uses inside what may be a VF region: from a region marker
//     (__simd_vf__, __simd_callee__, __simd_caller__, __simt_vf__,
//     __simt_callee__, __VEC_SCOPE__) or __aicore__ to the end of the body
//     that follows it, the parameter list included. A macro that makes a
//     whole function, a use in an unmarked function and a use elsewhere in
//     the file (test code, host code) are left as written;
//   - only uses after the #define and before an #undef of the name, outside
//     preprocessor directives;
//   - conditional compilation is not evaluated: a name defined more than
//     once with different bodies (#if A / #define M 1 / #else / #define M 2)
//     is never expanded, nor a name with an #undef before its #define;
//   - a macro whose body holds a region marker (__VEC_SCOPE__ { ... },
//     __simd_vf__ ...) is not expanded: the marker is blanked where the
//     macro is defined, so its expansion would lose the region's kind;
//   - a function-like macro whose arguments the file does not close, or
//     whose expansion ends in a function-like macro name that would take
//     its arguments from the text after the invocation, stays unexpanded;
//   - the expansion is capped (maxExpansion, four times the file): over
//     the cap, or nested more than maxMacroDepth deep, or with the expanded
//     file deeper than the bracket limit, the file is lowered unexpanded.
//     The cap is relative only, so that a big generated file that uses
//     macros as a small one does lowers as the small one does.
//
// Fixes edit the original text by position: ir.File.Expansions records
// every invocation so that no fix is offered for what an expansion made.

// maxMacroDepth bounds nested macro expansion.
const maxMacroDepth = 64

// maxExpansion is the largest expanded file, given the original length.
func maxExpansion(n int) int { return 4*n + 1<<16 }

// macroDef is one #define.
type macroDef struct {
	name     string
	fn       bool     // function-like: NAME( directly after the name
	params   []string // parameter names; the variadic one last
	variadic bool     // the last parameter takes the remaining arguments
	body     []xtok
	from     int  // start of the directive ('#')
	at       int  // end of the directive: uses start after it
	undef    int  // offset of an #undef after the #define, or -1
	bad      bool // defined twice differently, or unusable
	hidden   bool // only #undef'd, never defined: a header's macro, undefined from undef on
	hdr      bool // defined by an included header (headermacro.go)
}

// xtok is a preprocessing token during expansion.
type xtok struct {
	text  string
	space bool // white space (or a comment) before it
	blue  bool // a macro name not to expand (inside its own expansion)
}

// xspan is one expanded invocation.
type xspan struct {
	es, ee int    // span in the expanded buffer (the padded replacement)
	os, oe int    // invocation in the original
	ts, te int    // first token start and last token end in the expanded buffer
	shift  int    // expanded minus original length, after this span
	name   string // the macro
}

// macroMap maps the expanded buffer back to the original file.
type macroMap struct {
	clean  []byte  // expanded blanked source, what tree-sitter parses
	exp    []byte  // expanded original source (original bytes outside invocations)
	orig   []byte  // the original source
	spans  []xspan // in order
	blanks []blank // the pre-pass blanks, at expanded offsets
	toks   *tokens // the tokens of clean (lexText), once expandFileBy lexed it
}

// toOrig maps an expanded offset to the original file.
func (m *macroMap) toOrig(off int) int {
	i := sort.Search(len(m.spans), func(i int) bool { return m.spans[i].es > off }) - 1
	if i < 0 {
		return off
	}
	sp := &m.spans[i]
	switch {
	case off >= sp.ee:
		return off - sp.shift
	case off == sp.es:
		return sp.os
	case tokenEnd(m.clean, off):
		return sp.oe
	}
	return sp.os
}

// toExp maps an original offset to the expanded buffer; an offset inside an
// invocation maps to the start of its expansion.
func (m *macroMap) toExp(off int) int {
	i := sort.Search(len(m.spans), func(i int) bool { return m.spans[i].os > off }) - 1
	if i < 0 {
		return off
	}
	sp := &m.spans[i]
	if off >= sp.oe {
		return off + sp.shift
	}
	return sp.es
}

// text returns the source text of the expanded range [a, b): the original
// text where the range maps back to one (it starts and ends outside
// expansions, or covers one whole), the expanded text inside an expansion.
func (m *macroMap) text(a, b int) string {
	if i := sort.Search(len(m.spans), func(i int) bool { return m.spans[i].es > a }) - 1; i >= 0 {
		if sp := &m.spans[i]; b <= sp.ee && (a > sp.ts || b < sp.te) {
			return string(m.exp[a:b]) // inside one expansion, not the whole of it
		}
	}
	oa, ob := m.toOrig(a), m.toOrig(b)
	if oa > ob {
		return string(m.exp[a:b])
	}
	return string(m.orig[oa:ob])
}

// tokenEnd reports whether off, strictly inside an expansion, ends a token
// rather than starting one.
func tokenEnd(b []byte, off int) bool {
	prev, cur := b[off-1], b[off]
	if isSpaceByte(cur) {
		return true
	}
	if isSpaceByte(prev) {
		return false
	}
	switch prev {
	case ')', ']', '>', '"', '\'', '}', ';':
	default:
		if !isIdentChar(prev) {
			return false
		}
	}
	return !isIdentChar(cur)
}

// expandMacros expands the macros of clean (the pre-pass output of src):
// its own, and those of the headers it includes (hdr, nil for none;
// headermacro.go). It returns nil when there is nothing to expand, or when
// the expansion would exceed its limits.
func expandMacros(src, clean []byte, blanks []blank, hdr *headerMacros) *macroMap {
	m, _ := expandMacrosBy(src, clean, nil, blanks, hdr, clock{}, 0)
	return m
}

// expandMacrosBy is expandMacros with the file's clock (its deadline and
// stop flag), checked as it expands (a few hundred bytes of nested macros
// can ask for an exponential expansion): late reports that the clock is
// over, and the result is nil. work
// bounds the tokens the expansion looks at, argument re-expansions
// included (0: 8 times maxExpansion of the file's size); past it the file
// is parsed unexpanded, as past the other budgets.
func expandMacrosBy(src, clean []byte, ctoks *tokens, blanks []blank, hdr *headerMacros, clk clock, work int) (_ *macroMap, late bool) {
	if work <= 0 {
		work = 8 * maxExpansion(len(src))
	}
	own := bytes.Contains(clean, []byte("define"))
	if !own && hdr == nil {
		return nil, false
	}
	if ctoks == nil {
		ctoks = lexText(clean)
	}
	regions := vfSpans(ctoks, blanks)
	if len(regions) == 0 {
		return nil, false
	}
	var names map[string]bool
	if own {
		names = defineNames(ctoks)
	}
	if hdr != nil && !macroLike(ctoks, blanks, names) {
		hdr = nil // no name the headers could define as a macro: they are not read
	}
	if hd := hdr.get(); len(names) == 0 && len(hd) == 0 || !usesMacro(ctoks, regions, names, hd) {
		return nil, false
	}
	toks, dirs := lexFile(ctoks, regions)
	defs := readDefines(clean, toks, dirs)
	markedDefs(defs, blanks)
	for name, d := range defs {
		if h := hdr.get()[name]; h != nil && d.hidden {
			c := *h // the header's macro, up to the file's #undef
			c.undef = d.undef
			defs[name] = &c
		}
	}
	if len(defs) == 0 && len(hdr.get()) == 0 {
		return nil, false
	}
	r := 0 // the region at or after the current token
	x := &expander{defs: defs, hdr: hdr, budget: maxExpansion(len(src)) - len(src), toks: maxExpansion(len(src)), clock: clk, work: work}
	m := &macroMap{orig: src}
	cl, ex := make([]byte, 0, len(clean)+len(clean)/8), make([]byte, 0, len(src)+len(src)/8) // the expanded texts, most of them copied
	last, shift := 0, 0
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		if t.dir || t.kind != 'i' {
			continue
		}
		for r < len(regions) && regions[r][1] <= t.start {
			r++
		}
		if r >= len(regions) {
			break
		}
		if t.start < regions[r][0] {
			continue
		}
		d := x.def(string(clean[t.start:t.end]))
		if d == nil || d.bad || t.start < d.at || (d.undef >= 0 && t.start > d.undef) {
			continue
		}
		in := []xtok{{text: d.name}}
		end := t.end
		j := i
		if d.fn {
			if i+1 >= len(toks) || toks[i+1].dir || toks[i+1].start >= regions[r][1] || string(clean[toks[i+1].start:toks[i+1].end]) != "(" {
				continue
			}
			depth := 0
			for j = i + 1; j < len(toks) && !toks[j].dir && toks[j].start < regions[r][1]; j++ {
				s := string(clean[toks[j].start:toks[j].end])
				in = append(in, xtok{text: s, space: toks[j].space})
				if s == "(" {
					depth++
				} else if s == ")" {
					depth--
					if depth == 0 {
						break
					}
				}
			}
			if j >= len(toks) || toks[j].dir || toks[j].start >= regions[r][1] {
				continue // not closed before a directive or the end of the region
			}
			end = toks[j].end
		}
		out, ok := x.expand(in, nil, 0)
		if x.over {
			return nil, x.late
		}
		if !ok || len(out) > 0 && x.unclosed(out[len(out)-1]) {
			continue
		}
		text := render(out)
		x.budget -= len(text) + 2 - (end - t.start)
		if x.budget < 0 {
			return nil, false
		}
		cl = append(cl, clean[last:t.start]...)
		ex = append(ex, src[last:t.start]...)
		es := len(cl)
		cl = append(append(append(cl, ' '), text...), ' ')
		ex = append(append(append(ex, ' '), text...), ' ')
		shift += len(text) + 2 - (end - t.start)
		m.spans = append(m.spans, xspan{es: es, ee: len(cl), os: t.start, oe: end, ts: es + 1, te: es + 1 + len(text), shift: shift, name: d.name})
		last = end
		i = j
	}
	if len(m.spans) == 0 {
		return nil, false
	}
	m.clean = append(cl, clean[last:]...)
	m.exp = append(ex, src[last:]...)
	m.blanks = make([]blank, len(blanks))
	for i, b := range blanks {
		m.blanks[i] = blank{start: m.toExp(b.start), end: m.toExp(b.end), text: b.text}
		if m.blanks[i].end < m.blanks[i].start {
			m.blanks[i].end = m.blanks[i].start
		}
	}
	return m, false
}

// unclosed reports whether t is a function-like macro name left at the end
// of an expansion: the compiler would take its arguments from what follows.
func (x *expander) unclosed(t xtok) bool {
	d := x.def(t.text)
	return d != nil && !d.bad && d.fn && !t.blue
}

// render joins tokens, keeping a space where there was one, and adding one
// where two tokens would otherwise run together.
func render(toks []xtok) string {
	var sb strings.Builder
	for i, t := range toks {
		if i > 0 && t.text != "" {
			p := toks[i-1].text
			if t.space || p != "" && glue(p[len(p)-1], t.text[0]) {
				sb.WriteByte(' ')
			}
		}
		sb.WriteString(t.text)
	}
	return sb.String()
}

// glue reports whether two bytes would make one token when adjacent.
func glue(a, b byte) bool {
	return isIdentChar(a) && isIdentChar(b) || (a == '+' || a == '-') && a == b || a == '/' && (b == '/' || b == '*')
}

// expander expands token lists.
type expander struct {
	defs   map[string]*macroDef // the file's own
	hdr    *headerMacros        // the included headers', nil for none
	budget int                  // bytes the expansions may still add
	toks   int                  // tokens the expansions may still make, nested ones included
	over   bool                 // a budget, the depth limit or the clock was exceeded: every expansion stops
	late   bool                 // the clock is over (the deadline passed, or the parse was stopped)

	clock clock // the file's deadline and stop flag
	steps int   // tokens looked at, for checking the clock now and then
	work  int   // tokens the expansions may still look at, argument re-expansions included
}

// step counts one token looked at, and stops the expansion when the work
// budget is spent or the clock is over (checked every 1,024 steps).
func (x *expander) step() bool {
	x.steps++
	if x.steps > x.work {
		x.over = true
	}
	if x.steps&1023 == 0 && x.clock.over() {
		x.over, x.late = true, true
	}
	return !x.over
}

// expand macro-expands toks; active holds the macros being expanded. It
// returns false when a function-like invocation in toks is not closed.
func (x *expander) expand(toks []xtok, active []string, depth int) ([]xtok, bool) {
	if depth > maxMacroDepth {
		x.over = true
	}
	if x.over {
		return nil, false
	}
	var out []xtok
	for i := 0; i < len(toks); i++ {
		if !x.step() {
			return nil, false
		}
		t := toks[i]
		d := x.def(t.text)
		if d == nil || d.bad || t.blue {
			out = append(out, t)
			continue
		}
		if in(active, d.name) {
			t.blue = true
			out = append(out, t)
			continue
		}
		var args [][]xtok
		if d.fn {
			if i+1 >= len(toks) || toks[i+1].text != "(" {
				out = append(out, t)
				continue
			}
			var ok bool
			args, i, ok = splitArgs(toks, i+1)
			if !ok {
				return nil, false
			}
			if n := len(d.params); len(args) == 1 && len(args[0]) == 0 && n == 0 {
				args = nil
			}
			if len(args) < len(d.params) && !(d.variadic && len(args) == len(d.params)-1) || len(args) > len(d.params) && !d.variadic {
				return nil, false // wrong argument count: the compiler would reject it
			}
		}
		body := x.subst(d, args, active, depth)
		if x.over {
			return nil, false
		}
		r, ok := x.expand(body, append(active[:len(active):len(active)], d.name), depth+1)
		if !ok {
			return nil, false
		}
		if len(r) > 0 {
			r[0].space = t.space
		}
		out = append(out, r...)
		if x.toks -= len(r); x.toks < 0 {
			x.over = true
			return nil, false
		}
	}
	return out, true
}

// def returns the macro named name: the file's own, else an included
// header's, or nil.
func (x *expander) def(name string) *macroDef {
	d := x.defs[name]
	if d == nil && x.hdr != nil {
		d = x.hdr.defs[name]
	}
	return d
}

func in(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// splitArgs reads the arguments of the parenthesis at toks[open]; it
// returns them and the index of the closing parenthesis.
func splitArgs(toks []xtok, open int) ([][]xtok, int, bool) {
	var args [][]xtok
	var cur []xtok
	depth := 0
	for k := open; k < len(toks); k++ {
		s := toks[k].text
		switch {
		case s == "(":
			depth++
			if depth == 1 {
				continue
			}
		case s == ")":
			depth--
			if depth == 0 {
				return append(args, cur), k, true
			}
		case s == "," && depth == 1:
			args = append(args, cur)
			cur = []xtok{}
			continue
		}
		cur = append(cur, toks[k])
	}
	return nil, 0, false
}

// subst replaces the parameters of d's body by the arguments.
func (x *expander) subst(d *macroDef, args [][]xtok, active []string, depth int) []xtok {
	param := func(s string) int {
		if !d.fn {
			return -1
		}
		if s == "__VA_ARGS__" && d.variadic {
			return len(d.params) - 1
		}
		for k, p := range d.params {
			if p == s {
				return k
			}
		}
		return -1
	}
	raw := func(k int) []xtok {
		if k == len(d.params)-1 && d.variadic {
			var v []xtok
			for a := k; a < len(args); a++ {
				if a > k {
					v = append(v, xtok{text: ","})
				}
				v = append(v, args[a]...)
			}
			return v
		}
		if k < len(args) {
			return args[k]
		}
		return nil
	}
	var out []xtok
	body := d.body
	for i := 0; i < len(body); i++ {
		t := body[i]
		switch {
		case t.text == "#" && d.fn && i+1 < len(body) && param(body[i+1].text) >= 0:
			out = append(out, xtok{text: stringify(raw(param(body[i+1].text))), space: t.space})
			i++
		case t.text == "##" && i+1 < len(body):
			nt := body[i+1]
			i++
			var r []xtok
			if k := param(nt.text); k >= 0 {
				r = raw(k)
				if len(r) == 0 && len(out) > 0 && out[len(out)-1].text == "," && (nt.text == "__VA_ARGS__" || k == len(d.params)-1 && d.variadic) {
					out = out[:len(out)-1] // GNU: , ## __VA_ARGS__ with no arguments
					continue
				}
			} else {
				r = []xtok{nt}
			}
			if len(r) == 0 {
				continue
			}
			if len(out) == 0 {
				out = append(out, r...)
				continue
			}
			out[len(out)-1].text += r[0].text
			out[len(out)-1].blue = false
			out = append(out, r[1:]...)
		default:
			k := param(t.text)
			if k < 0 {
				out = append(out, t)
				continue
			}
			a := raw(k)
			if !(i+1 < len(body) && body[i+1].text == "##") {
				var ok bool
				if a, ok = x.expand(a, active, depth+1); !ok {
					if x.over {
						return nil // a budget or the clock: no expansion at all
					}
					a = raw(k)
				}
			}
			if len(a) > 0 {
				a = append([]xtok(nil), a...)
				a[0].space = t.space
			}
			out = append(out, a...)
		}
		if len(out) > 1<<20 {
			x.over = true
			return nil
		}
	}
	return out
}

// stringify makes the string literal of # for an argument.
func stringify(a []xtok) string {
	s := render(a)
	s = strings.ReplaceAll(s, `\`, `\\`)
	return `"` + strings.ReplaceAll(s, `"`, `\"`) + `"`
}
