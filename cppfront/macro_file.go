package cppfront

import (
	"bytes"
	"go/token"
	"sort"
	"strings"

	"github.com/ascvet/ascvet/cppfront/ir"
)

// The file side of macro expansion (macro.go): the file's tokens and
// directives, the #defines it makes, the expansion of a file being parsed
// and the snapping of what was expanded back to the text as written.

// ftok is a token of the file.
type ftok struct {
	start, end int
	kind       byte // 'i' identifier, 'n' number, 's' literal, 'p' punctuator
	space      bool // white space or a comment before it
	dir        bool // part of a preprocessor directive
}

// lexFile returns the preprocessing tokens of t's text from its lexer's
// tokens (lex.go): multi-byte punctuators joined, a directive's line split
// into its tokens, each marked with the blank or comment before it; dirs
// are the [start, end) spans of the directives (from '#' to the end of the
// logical line). It keeps the tokens of the directives and those in the
// keep spans (sorted, disjoint) only: expansion looks at no others, and a
// big generated file has millions.
func lexFile(t *tokens, keep [][2]int) (toks []ftok, dirs [][2]int) {
	b := t.src
	// As many as the lexer's tokens kept, which it joins at most, and the
	// directives' (a token per 3 bytes at most, about): growing a big
	// slice by appends costs more than the lexing.
	n := 64
	for _, k := range keep {
		n += t.at(k[1]) - t.at(k[0])
	}
	for _, tk := range t.toks {
		if tk.kind == '#' {
			n += int(tk.end-tk.start) / 3
		}
	}
	toks = make([]ftok, 0, n)
	r := 0    // the keep span at or after the current token
	prev := 0 // the end of the token before
	add := func(start, end int, kind byte, dir bool) {
		for r < len(keep) && keep[r][1] <= start {
			r++
		}
		if dir || r < len(keep) && start >= keep[r][0] {
			toks = append(toks, ftok{start: start, end: end, kind: kind, space: start > prev, dir: dir})
		}
		prev = end
	}
	// lexed adds the lexer's tokens ts (of b from base on), joining
	// punctuators.
	lexed := func(ts []tok, base int, dir bool) {
		for k := 0; k < len(ts); k++ {
			start, end := base+int(ts[k].start), base+int(ts[k].end)
			switch ts[k].kind {
			case 'a':
				add(start, end, 'i', dir)
			case '0':
				add(start, end, 'n', dir)
			case '"':
				if isIdentStart(b[start]) {
					add(start, end, 'i', dir) // a raw literal with its prefix: read as the name it starts with
				} else {
					add(start, end, 's', dir)
				}
			case 'p':
				n := ppPunctLen(b[start:])
				for k+1 < len(ts) && base+int(ts[k+1].start) < start+n {
					if ts[k+1].kind != 'p' {
						n = base + int(ts[k+1].start) - start // ...5: the lexer's number .5 stands
						break
					}
					k++ // the rest of the punctuator
				}
				add(start, start+n, 'p', dir)
			}
		}
	}
	var sub []tok // a directive's tokens
	from := 0     // the first token of the run of code tokens before the directive
	for k, tk := range t.toks {
		if tk.kind != '#' {
			continue
		}
		lexed(t.toks[from:k], 0, false)
		from = k + 1
		start, end := int(tk.start), int(tk.end)
		dirs = append(dirs, [2]int{start, end})
		n := ppPunctLen(b[start:end]) // #, or ## first on a line
		add(start, start+n, 'p', true)
		sub = lexFrom(sub[:0], b[start+n:end], false)
		lexed(sub, start+n, true)
	}
	lexed(t.toks[from:], 0, false)
	return toks, dirs
}

// ppPunctLen is the length of the punctuator b starts with: ##, ... and
// those of punctLen.
func ppPunctLen(b []byte) int {
	switch {
	case len(b) >= 2 && b[0] == '#' && b[1] == '#':
		return 2
	case len(b) >= 3 && b[0] == '.' && b[1] == '.' && b[2] == '.':
		return 3
	}
	return punctLen(b)
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
	m, _ := expandFileBy(f, src, clean, nil, blanks, maxDepth, ix, clock{})
	return m
}

// expandFileBy is expandFile with the file's clock (expandMacrosBy): late
// reports that it was over during the expansion.
func expandFileBy(f *ir.File, src, clean []byte, ctoks *tokens, blanks []blank, maxDepth int, ix *Index, clk clock) (_ *macroMap, late bool) {
	var c *closure
	hdr := fileMacros(ix, f.Name, clean, &c)
	m, late := expandMacrosBy(src, clean, ctoks, blanks, hdr, clk, 0)
	if late {
		return nil, true
	}
	if hdr != nil && hdr.loaded && c != nil {
		ix.use(f.Name, c)
	}
	if m == nil {
		return nil, false
	}
	if m.toks = lexText(m.clean); m.toks.nesting() > maxDepth {
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

// vfSpans returns the spans of t's text that may be VF code: from each
// region marker or __aicore__ (blanked by the pre-pass) to the end of the
// braced body that follows it, in order and disjoint. A marker followed by
// ';' before any '{' (a declaration) has none.
func vfSpans(t *tokens, blanks []blank) [][2]int {
	var spans [][2]int
	for _, b := range blanks {
		if _, ok := markerKinds[b.text]; !ok && b.text != "__aicore__" {
			continue
		}
		if len(spans) > 0 && b.start < spans[len(spans)-1][1] {
			continue // inside the body of the one before
		}
		if end := t.bodyEnd(b.end); end > 0 {
			spans = append(spans, [2]int{b.start, end})
		}
	}
	return spans
}

// bodyEnd returns the offset just past the braced body that starts at the
// first '{' outside parentheses after offset i, or -1 when a ';' or the end
// of the text comes first, or the braces are not closed. Directives are
// passed over.
func (t *tokens) bodyEnd(i int) int {
	paren, brace := 0, 0
	for k := t.at(i); k < len(t.toks); k++ {
		tk := t.toks[k]
		if tk.kind != 'p' {
			continue
		}
		switch t.src[tk.start] {
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
					return int(tk.end)
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

// usesMacro reports whether an identifier of t in one of the spans is the
// name of a #define of the text (names) or of a header's macro (hdr): a
// quick test before the expansion's own tokens are made (most files define
// only their include guard, and use no header's macro).
func usesMacro(t *tokens, spans [][2]int, names map[string]bool, hdr map[string]*macroDef) bool {
	for _, sp := range spans {
		for k := t.at(sp[0]); k < len(t.toks) && int(t.toks[k].start) < sp[1]; k++ {
			if tk := t.toks[k]; tk.kind == 'a' {
				if w := t.src[tk.start:tk.end]; names[string(w)] || hdr[string(w)] != nil {
					return true
				}
			}
		}
	}
	return false
}

// defineNames returns the names the #define directives of t define.
func defineNames(t *tokens) map[string]bool {
	names := map[string]bool{}
	for _, tk := range t.toks {
		if tk.kind != '#' {
			continue
		}
		d := t.src[tk.start+1 : tk.end]
		if directive(d) != "define" {
			continue
		}
		j := bytes.Index(d, []byte("define")) + len("define")
		k := j
		for k < len(d) && (d[k] == ' ' || d[k] == '\t') {
			k++
		}
		e := k
		for e < len(d) && isIdentChar(d[e]) {
			e++
		}
		if e > k && k > j {
			names[string(d[k:e])] = true
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
