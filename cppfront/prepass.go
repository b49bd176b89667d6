package cppfront

import (
	"bytes"
	"strings"
)

// The pre-pass makes Ascend C parseable by tree-sitter-cpp without moving a
// single byte: every replacement has the length of what it replaces.
//
//	__aicore__ inline void f(__ubuf__ float* x)   // before
//	           inline void f(         float* x)   // after
//	if ASC_IS_AIV {                               // before
//	if(ASC_IS_AIV){                               // after
//	obj.template F(x)                             // before
//	obj.         F(x)                             // after
//
// What was blanked is recorded so that region kinds can be read back.
//
// Two encodings details are settled here too, in place: a UTF-8 byte order
// mark at the start becomes three spaces (tree-sitter would take it for a
// stray token), and a lone CR (old Mac line ends) becomes LF, which is what
// tree-sitter-cpp ends comments and directives with. ParseFile's line
// table counts CR-only breaks the same way.

// qualifiers are identifiers blanked wherever they occur as a whole token.
var qualifiers = map[string]bool{
	"__simd_vf__": true, "__simd_callee__": true, "__simd_caller__": true, "__aicore__": true, "__global__": true,
	"__vector__": true, "__ubuf__": true, "__local_mem__": true, "__gm__": true, "__cbuf__": true, "__fbuf__": true,
	"__VEC_SCOPE__": true, "__simt_vf__": true, "__simt_callee__": true, "__no_simd_vf_fusion__": true,
	"__host_aicore__": true, "__BLOCK_LOCAL__": true, "__tiling_data_ptr__": true, "__inline__": true,
	"__ca__": true, "__cb__": true, "__cc__": true, "__ssbuf__": true, "__sync_alias__": true, "__sync_noalias__": true,
	"__restrict__": true, "__forceinline__": true, "__device__": true, "__host__": true, "__in_pipe__": true, "__out_pipe__": true,
}

// macroCalls are function-like macros blanked together with their balanced argument list.
var macroCalls = map[string]bool{
	"LAUNCH_BOUND": true, "__launch_bounds__": true, "__attribute__": true, "__declspec": true, "__cce_attr__": true,
}

// blank is one replaced span of the original source.
type blank struct {
	start, end int    // byte offsets in the original
	text       string // what was there
}

// prepass returns a copy of src made parseable, and the spans it blanked.
// It reads the identifiers of the front end's tokens (lexText): those
// inside comments, string and character literals are left alone; the
// lines of directives are read as code, their own tokens.
func prepass(src []byte) ([]byte, []blank) {
	clean, blanks, _ := prepassLexed(src)
	return clean, blanks
}

// prepassLexed is prepass, that also returns the tokens of the text it
// returns: those it read, less the ones it blanked. Where a fix rewrote
// the text otherwise (a parenthesis or a ; written in), or a blank left a
// # first on its line (a directive now), the text is lexed again.
func prepassLexed(src []byte) ([]byte, []blank, *tokens) {
	return prepassDefs(src, nil)
}

// prepassDefs is prepassLexed for a build that defines the macros defs
// (-D): it first drops the groups of the conditionals the file decides
// (selectConditionals), with them.
func prepassDefs(src []byte, defs map[string]string) ([]byte, []blank, *tokens) {
	out := make([]byte, len(src))
	copy(out, src)
	if bytes.HasPrefix(out, utf8BOM) {
		fill(out[:len(utf8BOM)])
	}
	loneCRs(out)
	p := &prepasser{src: src, out: out, local: map[string]bool{}, walk: 2*len(out) + condReach}
	t := lexText(out)
	if selectConditionals(out, t, defs) && !t.dropBlanked() {
		t = lexText(out)
	}
	p.scan(t.toks, 0)
	if p.rewrote || !t.dropBlanked() {
		t = lexText(out)
	}
	return out, p.blanks, t
}

// dropBlanked removes the tokens the pre-pass blanked (it blanks whole
// tokens: their first byte is a space now), and reports whether the rest
// are the tokens of the text: false when a # is first on its line now (a
// directive, as lexText reads it), or a directive's line ends elsewhere (a
// blank took a backslash that continued it).
func (t *tokens) dropBlanked() bool {
	kept := t.toks[:0]
	for _, tk := range t.toks {
		switch c := t.src[tk.start]; {
		case c == ' ':
			continue
		case c == '#' && tk.kind == 'p' && t.firstOnLine(kept, int(tk.start)):
			return false
		case tk.kind == '#' && directiveLineEnd(t.src, int(tk.start)) != int(tk.end):
			return false
		}
		kept = append(kept, tk)
	}
	t.toks = kept
	t.scan = nil
	return true
}

// firstOnLine reports whether lexText, reading the text, would find no
// token on the line of the byte at i before it, given kept, the tokens
// before i: none, or a newline in the blanks and comments after the last.
func (t *tokens) firstOnLine(kept []tok, i int) bool {
	if len(kept) == 0 {
		return true
	}
	for k := int(kept[len(kept)-1].end); k < i; {
		next, newline := trivia(t.src, k)
		if newline {
			return true
		}
		k = max(next, k+1)
	}
	return false
}

// prepasser is the state of one pre-pass.
type prepasser struct {
	src, out []byte
	blanks   []blank
	local    map[string]bool // macros defined in this file as one qualifier: #define LocalMem __ubuf__
	walk     int             // bytes joinElse may still walk, so that a file of many else lines stays linear
	rewrote  bool            // a fix wrote a byte into the text that makes a token (not a blank)
	dir      []tok           // the tokens of the directive being read
}

// scan runs the pass over toks, the tokens of out from offset base on (a
// directive's are lexed from its text). A fix that rewrites the text
// ahead says where the scan resumes: tokens before that are passed.
func (p *prepasser) scan(toks []tok, base int) {
	resume := 0
	for k := 0; k < len(toks); k++ {
		tk := toks[k]
		i, j := base+int(tk.start), base+int(tk.end)
		if i < resume {
			continue
		}
		switch tk.kind {
		case '#':
			// The directive's line, read as code: a qualifier in a
			// #define's body is blanked, the name #define gives one is
			// recorded.
			// (Its text starts no line: no directive stands in it, and
			// the scan does not come back here from it.)
			p.dir = lexFrom(p.dir[:0], p.out[i+1:j], false)
			p.scan(p.dir, i+1)
		case 'a':
			resume = p.word(toks, k, base, i, j)
		}
	}
}

// word handles the identifier out[i:j], toks[k] (tokens from base on),
// and returns the offset where the scan resumes.
func (p *prepasser) word(toks []tok, k, base, i, j int) int {
	out, n := p.out, len(p.out)
	if c := out[i]; c >= 'a' && c <= 'z' && len(p.local) == 0 {
		// Most words: only these five of those that start in lower case
		// matter (qualifiers, macros and macro calls start with _ or an
		// upper-case letter).
		switch string(out[i:j]) {
		case "define", "if", "else", "using", "template":
		default:
			return j
		}
	}
	word := string(out[i:j]) // does not escape: on the stack when short
	switch {
	case word == "define" && prevNonSpace(out, i) == '#':
		if name, repl, end := defineAlias(out, j); name != "" && (qualifiers[repl] || p.local[repl]) {
			p.local[name] = true
			j = end // the macro's own name is not blanked
		} else if k := skipSpace(out, j); k < n && isIdentStart(out[k]) {
			e := k + 1
			for e < n && isIdentChar(out[e]) {
				e++
			}
			if qualifiers[string(out[k:e])] {
				j = e // #define __aicore__ (a host build defines the qualifier away): a macro's name, not a qualifier
			}
		}
	case qualifiers[word] || p.local[word]:
		p.blanks = append(p.blanks, blank{i, j, strings.Clone(word)})
		fill(out[i:j])
	case macroCalls[word]:
		if e := parenEnd(toks, k+1, base, out); e > 0 {
			p.blanks = append(p.blanks, blank{i, e, string(p.src[i:e])}) // src: out has its lone CRs turned to LF
			fill(out[i:e])
			j = e
		}
	case word == "if":
		if e := fixBareIf(out, i, j); e != j {
			j, p.rewrote = e, true
		}
	case word == "else" && base == 0 && atLineStart(out, i) && p.walk > 0:
		p.walk = joinElse(out, toks, k, p.walk)
	case word == "using":
		fixMultiUsing(out, j)
	case isMacroName(word) && atLineStart(out, i):
		if e := fixMacro(out, toks, k, base, &p.blanks); e != j {
			j, p.rewrote = e, true
		}
	case word == "template":
		// obj.template F(x) / obj->template F(x) / X::template F<..>:
		// the keyword after a member access or scope is optional for the parser.
		q := i - 1
		for q >= 0 && (out[q] == ' ' || out[q] == '\t') {
			q--
		}
		if q >= 0 && (out[q] == '.' || (out[q] == '>' && q > 0 && out[q-1] == '-')) {
			p.blanks = append(p.blanks, blank{i, j, strings.Clone(word)})
			fill(out[i:j])
		}
	}
	return j
}

// parenEnd returns the offset just past the ) that closes the ( of
// toks[k] (tokens from base on), or -1 when toks[k] is no ( or none closes
// it.
func parenEnd(toks []tok, k, base int, out []byte) int {
	depth := 0
	for ; k < len(toks); k++ {
		tk := toks[k]
		if tk.kind != 'p' {
			if depth == 0 {
				return -1
			}
			continue
		}
		switch out[base+int(tk.start)] {
		case '(':
			if depth++; depth > maxParenDepth {
				return -1
			}
		case ')':
			if depth--; depth == 0 {
				return base + int(tk.end)
			}
		default:
			if depth == 0 {
				return -1
			}
		}
	}
	return -1
}

// maxParenDepth bounds the parentheses parenEnd follows: a macro's
// arguments nest a few deep.
const maxParenDepth = 64

// declStarters are tokens that can follow an attribute-like macro such as
// CATLASS_DEVICE at the start of a declaration.
var declStarters = map[string]bool{
	"class": true, "struct": true, "union": true, // TEMPLATE_DECL class Foo { ... }: a template header from a macro
	"static": true, "inline": true, "void": true, "template": true, "constexpr": true, "extern": true, "friend": true,
	"__simd_vf__": true, "__simd_callee__": true, "__simd_caller__": true, "__aicore__": true, "__global__": true,
	"__simt_vf__": true, "__simt_callee__": true, "__host_aicore__": true,
}

// isMacroName reports whether word looks like a macro: upper case, digits
// and underscores, with at least one letter and four characters.
func isMacroName(word string) bool {
	if len(word) < 4 || qualifiers[word] || macroCalls[word] {
		return false
	}
	letter := false
	for i := 0; i < len(word); i++ {
		c := word[i]
		switch {
		case c >= 'A' && c <= 'Z':
			letter = true
		case c == '_' || (c >= '0' && c <= '9'):
		default:
			return false
		}
	}
	return letter
}

func atLineStart(b []byte, i int) bool {
	for k := i - 1; k >= 0; k-- {
		switch b[k] {
		case ' ', '\t':
			continue
		case '\n':
			return true
		default:
			return false
		}
	}
	return true
}

// fixMacro handles two macro idioms at the start of a line:
//
//	CATLASS_DEVICE                      // an attribute-like macro before a
//	__simd_callee__ static void f() {}  // declaration: blanked, recorded
//
//	DAWSN_COMPUTE(x, y)                 // a statement macro without ';':
//	Next();                             // the byte after ')' becomes ';'
func fixMacro(out []byte, toks []tok, k, base int, blanks *[]blank) int {
	n := len(out)
	i, j := base+int(toks[k].start), base+int(toks[k].end)
	if k+1 >= len(toks) {
		return j
	}
	next := toks[k+1]
	ns := base + int(next.start)
	if skipSpace(out, j) != ns {
		return j // a comment or another blank between
	}
	if next.kind == 'a' {
		if declStarters[string(out[ns:base+int(next.end)])] {
			*blanks = append(*blanks, blank{i, j, string(out[i:j])})
			fill(out[i:j])
		}
		return j
	}
	if ns != j || next.kind != 'p' || out[ns] != '(' || base > 0 {
		return j // base > 0: in a directive's line, where a ; would end the directive there
	}
	e := parenEnd(toks, k+1, base, out)
	if e < 0 || e >= n {
		return j
	}
	// Only when nothing but white space follows on the line, and the next
	// line does not continue the expression.
	q := e
	for q < n && (out[q] == ' ' || out[q] == '\t' || out[q] == '\r') {
		q++
	}
	if q >= n || out[q] != '\n' {
		return j
	}
	if c := out[min(skipSpace(out, q), n-1)]; strings.IndexByte("{.;:?+-*/&|=<>,)", c) >= 0 {
		return j
	}
	out[e] = ';' // a space, a CR or the newline itself: offsets stay, only tree-sitter's row count changes
	return e
}

// fixMultiUsing turns C++17 "using A::x, A::y;" into "using A::x; A::y;",
// which tree-sitter-cpp parses (the rest become expression statements).
func fixMultiUsing(out []byte, j int) {
	depth := 0
	for k := j; k < len(out) && k < j+4096; k++ {
		switch out[k] {
		case '<', '(':
			depth++
		case '>', ')':
			depth--
		case ',':
			if depth == 0 {
				out[k] = ';'
			}
		case ';', '{', '}', '=':
			return
		}
	}
}

// fixBareIf rewrites "if NAME {" (no parentheses, as in "if ASC_IS_AIV {")
// into "if(NAME){" within the same bytes. It returns where scanning resumes.
func fixBareIf(out []byte, i, j int) int {
	n := len(out)
	k := j
	for k < n && (out[k] == ' ' || out[k] == '\t') {
		k++
	}
	if k == j || k >= n || !isIdentStart(out[k]) {
		return j
	}
	e := k + 1
	for e < n && isIdentChar(out[e]) {
		e++
	}
	word := string(out[k:e])
	if word == "constexpr" {
		return j
	}
	b := e
	for b < n && (out[b] == ' ' || out[b] == '\t') {
		b++
	}
	if b >= n || out[b] != '{' {
		return j
	}
	switch {
	case b > e:
		out[e] = ')'
	case e-k >= 2:
		out[e-1] = ')' // no room: the macro name loses its last character, its value is unknown anyway
	default:
		return j // no room for the ): left as it is, not half rewritten
	}
	out[j] = '('
	return b
}

// joinElse makes an if chain that conditional compilation cuts parse as
// one statement. i is the offset of an else at the start of its line:
//
//	if constexpr (A) {
//	    F();
//	}
//	#if defined(X)                 // blanked
//	else if constexpr (B) {
//	    G();
//	}
//	#endif                         // blanked
//
// tree-sitter-cpp parses the groups of a conditional inside a body as
// statements, and no statement starts with else: its error recovery can
// then take a whole class for one function. When only blank lines,
// comments and conditional directives stand between the else and a line
// that ends a statement ('}' or ';'), the directives of those conditionals
// are blanked, every #elif and #else of them too: all their groups stay,
// as when the conditions hold, and the else continues the if before them.
// toks are the file's tokens, toks[k] the else; walk is the number of
// bytes the walks over directives may still take; it returns what is left.
func joinElse(out []byte, toks []tok, k, walk int) int {
	var conds []int // the conditional directives passed, by their token
	for j := k - 1; j >= 0 && walk > 0; j-- {
		tk := toks[j]
		if out[tk.start] == ' ' {
			continue // blanked already
		}
		if tk.kind == '#' {
			walk -= int(tk.end - tk.start)
			if tk.dir == 'o' {
				return walk // another directive: not only conditionals between
			}
			conds = append(conds, j)
			continue
		}
		// The last token of the line before: a statement ends there?
		if c := out[tk.start]; len(conds) > 0 && tk.kind == 'p' && (c == '}' || c == ';') {
			for _, d := range conds {
				walk = blankConditional(out, toks, d, walk)
			}
		}
		return walk
	}
	return walk
}

// blankConditional blanks the directives of the conditional that has the
// directive toks[d]: its #if, #elif, #else and #endif (continued lines
// included), not those of the conditionals nested in it. An unbalanced
// conditional, or one reaching further than condReach from d, is left as
// it is. It returns what is left of walk, the bytes it may walk.
func blankConditional(out []byte, toks []tok, d, walk int) int {
	live := func(j int) bool { return toks[j].kind == '#' && out[toks[j].start] != ' ' }
	from := int(toks[d].start)
	open := d
	if toks[d].dir != 'i' {
		open = -1
		depth := 0
		for j := d - 1; j >= 0 && from-int(toks[j].start) < condReach && walk > 0; j-- {
			walk -= int(toks[j].end - toks[j].start)
			if !live(j) {
				continue
			}
			switch toks[j].dir {
			case 'n':
				depth++
			case 'i':
				if depth == 0 {
					open = j
				}
				depth--
			}
			if open >= 0 {
				break
			}
		}
		if open < 0 {
			return walk
		}
	}
	lines := []int{open}
	depth := 0
	for j := open + 1; j < len(toks) && int(toks[j].start)-from < condReach && walk > 0; j++ {
		walk -= int(toks[j].end - toks[j].start)
		if !live(j) {
			continue
		}
		switch toks[j].dir {
		case 'i':
			depth++
		case 'e':
			if depth == 0 {
				lines = append(lines, j)
			}
		case 'n':
			if depth--; depth < 0 {
				for _, l := range append(lines, j) {
					fill(out[toks[l].start:toks[l].end])
				}
				return walk
			}
		}
	}
	return walk
}

// condReach is how far from the directive by an else blankConditional
// looks for the rest of its conditional: the conditionals inside a body
// that cut an if chain are a few lines long.
const condReach = 64 << 10

// prevNonSpace returns the byte before i, skipping spaces and tabs, or 0.
func prevNonSpace(b []byte, i int) byte {
	for k := i - 1; k >= 0; k-- {
		if b[k] != ' ' && b[k] != '\t' {
			return b[k]
		}
	}
	return 0
}

// defineAlias reads "NAME REPL" after "#define" when both are single
// identifiers and nothing else follows on the line.
func defineAlias(b []byte, j int) (name, repl string, nameEnd int) {
	ident := func(k int) (int, int) {
		for k < len(b) && (b[k] == ' ' || b[k] == '\t') {
			k++
		}
		s := k
		for k < len(b) && isIdentChar(b[k]) {
			k++
		}
		return s, k
	}
	s1, e1 := ident(j)
	if e1 == s1 || e1 >= len(b) || (b[e1] != ' ' && b[e1] != '\t') {
		return "", "", 0
	}
	s2, e2 := ident(e1)
	if e2 == s2 {
		return "", "", 0
	}
	k := e2
	for k < len(b) && (b[k] == ' ' || b[k] == '\t' || b[k] == '\r') {
		k++
	}
	if k < len(b) && b[k] != '\n' {
		return "", "", 0
	}
	return string(b[s1:e1]), string(b[s2:e2]), e1
}

// utf8BOM is the UTF-8 encoding of U+FEFF, the byte order mark.
var utf8BOM = []byte{0xEF, 0xBB, 0xBF}

// loneCRs turns every CR not followed by LF into LF.
func loneCRs(b []byte) {
	for i := bytes.IndexByte(b, '\r'); i >= 0 && i < len(b); {
		if i+1 == len(b) || b[i+1] != '\n' {
			b[i] = '\n'
		}
		k := bytes.IndexByte(b[i+1:], '\r')
		if k < 0 {
			return
		}
		i += 1 + k
	}
}

func fill(b []byte) {
	for i := range b {
		if b[i] != '\n' && b[i] != '\r' {
			b[i] = ' '
		}
	}
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// skipQuoted returns the offset after the string or character literal
// that opens at b[i] with the quote q; an unterminated one ends before the
// newline.
func skipQuoted[T ~string | ~[]byte](b T, i int, q byte) int {
	for k := i + 1; k < len(b); k++ {
		switch b[k] {
		case '\\':
			k++
		case q:
			return k + 1
		case '\n':
			return k // unterminated: stop at the line end
		}
	}
	return len(b)
}

// skipRawString skips R"delim( ... )delim".
func skipRawString(b []byte, i int) int {
	open := bytes.IndexByte(b[i:], '(')
	if open < 0 || open > 17 {
		return i + 1
	}
	delim := b[i+1 : i+open]
	end := append(append([]byte{')'}, delim...), '"')
	k := bytes.Index(b[i+open:], end)
	if k < 0 {
		return len(b)
	}
	return i + open + k + len(end)
}

func isIdentStart(c byte) bool {
	return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')
}

func isIdentChar(c byte) bool { return isIdentStart(c) || (c >= '0' && c <= '9') }
