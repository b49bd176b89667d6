package cppfront

import (
	"bytes"
	"go/token"
	"sort"
	"strings"

	"github.com/ascvet/ascvet/cppfront/ir"
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
	m, _ := expandMacrosBy(src, clean, blanks, hdr, clock{}, 0)
	return m
}

// expandMacrosBy is expandMacros with the file's clock (its deadline and
// stop flag), checked as it expands (a few hundred bytes of nested macros
// can ask for an exponential expansion): late reports that the clock is
// over, and the result is nil. work
// bounds the tokens the expansion looks at, argument re-expansions
// included (0: 8 times maxExpansion of the file's size); past it the file
// is parsed unexpanded, as past the other budgets.
func expandMacrosBy(src, clean []byte, blanks []blank, hdr *headerMacros, clk clock, work int) (_ *macroMap, late bool) {
	if work <= 0 {
		work = 8 * maxExpansion(len(src))
	}
	own := bytes.Contains(clean, []byte("define"))
	if !own && hdr == nil {
		return nil, false
	}
	regions := vfSpans(clean, blanks)
	if len(regions) == 0 {
		return nil, false
	}
	var names map[string]bool
	if own {
		names = defineNames(clean)
	}
	if hdr != nil && !macroLike(clean, blanks, names) {
		hdr = nil // no name the headers could define as a macro: they are not read
	}
	if hd := hdr.get(); len(names) == 0 && len(hd) == 0 || !usesMacro(clean, regions, names, hd) {
		return nil, false
	}
	toks, dirs := lexFile(clean, regions)
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

// ftok is a token of the file.
type ftok struct {
	start, end int
	kind       byte // 'i' identifier, 'n' number, 's' literal, 'p' punctuator
	space      bool // white space or a comment before it
	dir        bool // part of a preprocessor directive
}

// lexFile splits b into preprocessing tokens; dirs are the [start, end)
// spans of the directives (from '#' to the end of the logical line). It
// keeps the tokens of the directives and those in the keep spans (sorted,
// disjoint) only: expansion looks at no others, and a big generated file
// has millions.
func lexFile(b []byte, keep [][2]int) (toks []ftok, dirs [][2]int) {
	n := len(b)
	lineStart, inDir, space := true, false, false
	dirStart := 0
	kept := 0
	for _, k := range keep {
		kept += k[1] - k[0]
	}
	toks = make([]ftok, 0, kept/4+64) // kernel code has a token per 4 to 6 bytes; growing a big slice by appends cost more than the lexing
	r := 0                            // the keep span at or after the current token
	for i := 0; i < n; {
		c := b[i]
		switch {
		case c == '\n':
			if inDir {
				dirs = append(dirs, [2]int{dirStart, i})
				inDir = false
			}
			lineStart, space = true, true
			i++
			continue
		case c == '\\' && i+1 < n && (b[i+1] == '\n' || b[i+1] == '\r' && i+2 < n && b[i+2] == '\n'):
			i += 2
			if b[i-1] == '\r' {
				i++
			}
			space = true
			continue
		case c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v':
			i++
			space = true
			continue
		case c == '/' && i+1 < n && b[i+1] == '/':
			for i < n && b[i] != '\n' {
				i++
			}
			space = true
			continue
		case c == '/' && i+1 < n && b[i+1] == '*':
			k := bytes.Index(b[i+2:], []byte("*/"))
			if k < 0 {
				i = n
			} else {
				i += k + 4
			}
			space = true
			continue
		}
		t := ftok{start: i, space: space, dir: inDir}
		if c == '#' && lineStart && !inDir {
			inDir, dirStart, t.dir = true, i, true
		}
		lineStart, space = false, false
		switch {
		case isIdentStart(c):
			j, _ := identEnd(b, i)
			t.kind, t.end = 'i', j
		case c >= '0' && c <= '9' || c == '.' && i+1 < n && b[i+1] >= '0' && b[i+1] <= '9':
			j := i + 1
			for j < n && (isIdentChar(b[j]) || b[j] == '.' || b[j] == '\'' ||
				(b[j] == '+' || b[j] == '-') && (b[j-1] == 'e' || b[j-1] == 'E' || b[j-1] == 'p' || b[j-1] == 'P')) {
				j++
			}
			t.kind, t.end = 'n', j
		case c == '"' || c == '\'':
			t.kind, t.end = 's', skipQuoted(b, i, c)
		case c == '#' && i+1 < n && b[i+1] == '#':
			t.kind, t.end = 'p', i+2
		case c == '.' && i+2 < n && b[i+1] == '.' && b[i+2] == '.':
			t.kind, t.end = 'p', i+3
		default:
			t.kind, t.end = 'p', i+punctLen(b[i:])
		}
		for r < len(keep) && keep[r][1] <= t.start {
			r++
		}
		if t.dir || r < len(keep) && t.start >= keep[r][0] {
			toks = append(toks, t)
		}
		i = t.end
	}
	if inDir {
		dirs = append(dirs, [2]int{dirStart, n})
	}
	return toks, dirs
}

// readDefines collects the #define and #undef directives of the file.
func readDefines(b []byte, toks []ftok, dirs [][2]int) map[string]*macroDef {
	var defs map[string]*macroDef
	txt := func(t ftok) string { return string(b[t.start:t.end]) }
	for i := 0; i < len(toks); i++ {
		if !toks[i].dir || txt(toks[i]) != "#" {
			continue
		}
		end := dirEnd(dirs, toks[i].start)
		j := i + 1
		for j < len(toks) && toks[j].start < end {
			j++
		}
		line := toks[i+1 : j] // the directive's tokens after '#'
		hash := toks[i].start
		i = j - 1
		if len(line) < 2 || line[1].kind != 'i' {
			continue
		}
		name := txt(line[1])
		switch txt(line[0]) {
		case "undef":
			if d := defs[name]; d != nil {
				if d.undef < 0 {
					d.undef = line[0].start
				}
			} else {
				if defs == nil {
					defs = map[string]*macroDef{}
				}
				defs[name] = &macroDef{name: name, bad: true, undef: line[0].start, hidden: true} // #undef first: a header's macro
			}
			continue
		case "define":
		default:
			continue
		}
		d := &macroDef{name: name, undef: -1, from: hash, at: dirEnd(dirs, line[1].start)}
		rest := line[2:]
		if len(rest) > 0 && txt(rest[0]) == "(" && !rest[0].space {
			d.fn = true
			k := 1
			for ; k < len(rest); k++ {
				s := txt(rest[k])
				if s == ")" {
					break
				}
				switch {
				case s == ",":
				case s == "...":
					d.variadic = true
					if len(d.params) == 0 || k > 0 && txt(rest[k-1]) == "," || k == 1 {
						d.params = append(d.params, "__VA_ARGS__")
					}
				case rest[k].kind == 'i':
					d.params = append(d.params, s)
				default:
					d.bad = true
				}
			}
			if k >= len(rest) {
				d.bad = true
				k--
			}
			rest = rest[k+1:]
		}
		for _, t := range rest {
			d.body = append(d.body, xtok{text: txt(t), space: t.space})
		}
		if len(d.body) > 0 {
			d.body[0].space = false
		}
		if old := defs[name]; old != nil {
			if old.bad || !sameDef(old, d) || old.undef >= 0 {
				old.bad = true
			}
			old.hidden = false // #undef then #define: redefined, unusable as the others
			continue
		}
		if defs == nil {
			defs = map[string]*macroDef{}
		}
		defs[name] = d
	}
	for name, d := range defs {
		if reserved(name) {
			d.bad = true
		}
	}
	return defs
}

// reserved are names the front end handles itself.
func reserved(name string) bool {
	return qualifiers[name] || macroCalls[name] || name == "defined"
}

func sameDef(a, b *macroDef) bool {
	if a.fn != b.fn || a.variadic != b.variadic || len(a.params) != len(b.params) || len(a.body) != len(b.body) {
		return false
	}
	for i := range a.params {
		if a.params[i] != b.params[i] {
			return false
		}
	}
	for i := range a.body {
		if a.body[i].text != b.body[i].text {
			return false
		}
	}
	return true
}

// dirEnd returns the end of the directive holding off.
func dirEnd(dirs [][2]int, off int) int {
	k := sort.Search(len(dirs), func(i int) bool { return dirs[i][1] > off })
	if k < len(dirs) {
		return dirs[k][1]
	}
	return off
}

// expandFile expands the same-file macros of the file f being parsed (src
// its text, clean and blanks the pre-pass output) and records the
// invocations in f. While the file is lowered, f.Src holds the expanded
// original text (lowering indexes it with the parser's offsets); the caller
// puts src back. It returns nil when nothing was expanded.
func expandFile(f *ir.File, src, clean []byte, blanks []blank, maxDepth int, ix *Index) *macroMap {
	m, _ := expandFileBy(f, src, clean, blanks, maxDepth, ix, clock{})
	return m
}

// expandFileBy is expandFile with the file's clock (expandMacrosBy): late
// reports that it was over during the expansion.
func expandFileBy(f *ir.File, src, clean []byte, blanks []blank, maxDepth int, ix *Index, clk clock) (_ *macroMap, late bool) {
	var c *closure
	hdr := fileMacros(ix, f.Name, clean, &c)
	m, late := expandMacrosBy(src, clean, blanks, hdr, clk, 0)
	if late {
		return nil, true
	}
	if hdr != nil && hdr.loaded && c != nil {
		ix.use(f.Name, c)
	}
	if m == nil || nesting(m.clean) > maxDepth {
		return nil, false
	}
	for _, sp := range m.spans {
		f.Expansions = append(f.Expansions, ir.Expansion{Pos: f.Tok.Pos(sp.os), End: f.Tok.Pos(sp.oe), Name: sp.name})
	}
	f.Src = m.exp
	return m, false
}

// text returns the source text of the parser's range [a, b) (see macroMap.text).
func (lw *lowerer) text(a, b uint32) string {
	if lw.mac != nil {
		return lw.mac.text(int(a), int(b))
	}
	return string(lw.f.Src[a:b])
}

// vfSpans returns the spans of clean that may be VF code: from each region
// marker or __aicore__ (blanked by the pre-pass) to the end of the braced
// body that follows it, in order and disjoint. A marker followed by ';'
// before any '{' (a declaration) has none.
func vfSpans(clean []byte, blanks []blank) [][2]int {
	var spans [][2]int
	for _, b := range blanks {
		if _, ok := markerKinds[b.text]; !ok && b.text != "__aicore__" {
			continue
		}
		if len(spans) > 0 && b.start < spans[len(spans)-1][1] {
			continue // inside the body of the one before
		}
		if end := bodyEnd(clean, b.end); end > 0 {
			spans = append(spans, [2]int{b.start, end})
		}
	}
	return spans
}

// bodyEnd returns the offset just past the braced body that starts at the
// first '{' outside parentheses after i, or -1 when a ';' or the end of the
// file comes first, or the braces are not closed.
func bodyEnd(b []byte, i int) int {
	paren, brace := 0, 0
	for k := i; k < len(b); k++ {
		switch c := b[k]; c {
		case '/':
			if k+1 < len(b) && b[k+1] == '/' {
				e := bytes.IndexByte(b[k:], '\n')
				if e < 0 {
					return -1
				}
				k += e
			} else if k+1 < len(b) && b[k+1] == '*' {
				e := bytes.Index(b[k+2:], []byte("*/"))
				if e < 0 {
					return -1
				}
				k += e + 3
			}
		case '"', '\'':
			k = skipQuoted(b, k, c) - 1
		case '(':
			paren++
		case ')':
			paren--
		case ';':
			if paren <= 0 && brace == 0 {
				return -1
			}
		case '{':
			if paren <= 0 {
				brace++
			}
		case '}':
			if paren <= 0 {
				brace--
				if brace == 0 {
					return k + 1
				}
			}
		}
	}
	return -1
}

// punctLen returns the length of the punctuator at the start of b.
func punctLen(b []byte) int {
	if len(b) < 2 || !strings.ContainsRune("<>-+=!&|:*/%^.", rune(b[0])) {
		return 1
	}
	for _, p := range [...]string{"<<=", ">>=", "->*", "++", "--", "<<", ">>", "<=", ">=", "==", "!=", "&&", "||", "->", "::",
		"+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", ".*"} {
		if len(b) >= len(p) && string(b[:len(p)]) == p {
			return len(p)
		}
	}
	return 1
}

// usesMacro reports whether an identifier in one of the spans of b is the
// name of a #define of b (names) or of a header's macro (hdr): a quick test
// before lexing the whole file (most files define only their include
// guard, and use no header's macro).
func usesMacro(b []byte, spans [][2]int, names map[string]bool, hdr map[string]*macroDef) bool {
	for _, sp := range spans {
		for i := sp[0]; i < sp[1]; {
			if !isIdentStart(b[i]) {
				i++
				continue
			}
			j := i + 1
			for j < sp[1] && isIdentChar(b[j]) {
				j++
			}
			if names[string(b[i:j])] || hdr[string(b[i:j])] != nil {
				return true
			}
			i = j
		}
	}
	return false
}

// defineNames returns the names after the #define directives of b.
func defineNames(b []byte) map[string]bool {
	names := map[string]bool{}
	for k := 0; ; {
		i := bytes.Index(b[k:], []byte("define"))
		if i < 0 {
			break
		}
		i += k
		k = i + 6
		if prevNonSpace(b, i) != '#' {
			continue
		}
		j := k
		for j < len(b) && (b[j] == ' ' || b[j] == '\t') {
			j++
		}
		e := j
		for e < len(b) && isIdentChar(b[e]) {
			e++
		}
		if e > j && j > k {
			names[string(b[j:e])] = true
		}
	}
	return names
}

// markedDefs marks unusable the macros whose body holds a region marker.
func markedDefs(defs map[string]*macroDef, blanks []blank) {
	var marks []int // marker starts, in order as the blanks are
	for _, b := range blanks {
		if _, ok := markerKinds[b.text]; ok {
			marks = append(marks, b.start)
		}
	}
	for _, d := range defs {
		if i := sort.SearchInts(marks, d.from); i < len(marks) && marks[i] < d.at {
			d.bad = true
		}
	}
}

// snapExpansions widens every span of f's regions that starts or ends in
// an expansion to the whole invocation. pos picks the start or the end of
// the invocation for an offset inside it by the bytes around it; on odd
// input (unbalanced macros, stray bytes) it can pick wrong, and a start
// mapped to the invocation's end (or an end to its start) would put a
// child outside its parent. Snapping by role keeps the map monotone, so
// every containment of the syntax tree holds in the file.
func snapExpansions(f *ir.File) {
	if len(f.Expansions) == 0 {
		return
	}
	find := func(p token.Pos, start bool) (token.Pos, bool) {
		i := sort.Search(len(f.Expansions), func(i int) bool { return f.Expansions[i].End > p || start && f.Expansions[i].End == p })
		if i == len(f.Expansions) {
			return 0, false
		}
		x := f.Expansions[i]
		if start && p > x.Pos && p <= x.End {
			return x.Pos, true
		}
		if !start && p >= x.Pos && p < x.End {
			return x.End, true
		}
		return 0, false
	}
	span := func(pos, end *token.Pos) {
		if !pos.IsValid() {
			return
		}
		if p, ok := find(*pos, true); ok {
			*pos = p
		}
		if e, ok := find(*end, false); ok && e > *pos {
			*end = e
		}
	}
	var block func(b *ir.Block)
	block = func(b *ir.Block) {
		if b == nil {
			return
		}
		for _, n := range b.Nodes {
			switch s := n.(type) {
			case *ir.If:
				span(&s.Pos, &s.End)
				block(s.Then)
				block(s.Else)
			case *ir.Loop:
				block(s.Body)
			}
		}
	}
	for _, fns := range [][]*ir.Func{f.Funcs, f.Helpers} {
		for _, fn := range fns {
			span(&fn.Pos, &fn.End)
			for _, r := range fn.Regs {
				span(&r.Pos, &r.End)
			}
			for _, in := range fn.Instrs {
				span(&in.Pos, &in.End)
				for k := range in.Args {
					span(&in.Args[k].Pos, &in.Args[k].End)
				}
			}
			for _, l := range fn.Loops {
				span(&l.Pos, &l.End)
			}
			block(fn.Body)
		}
	}
}

// identEnd returns the end of the identifier that starts at i, or of the
// raw string literal it prefixes (R"(...)", u8R"...": raw is true).
func identEnd(b []byte, i int) (end int, raw bool) {
	j := i + 1
	for j < len(b) && isIdentChar(b[j]) {
		j++
	}
	if j < len(b) && b[j] == '"' && b[j-1] == 'R' {
		return skipRawString(b, j), true
	}
	return j, false
}
