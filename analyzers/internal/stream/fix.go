package stream

import (
	"bytes"
	"fmt"
	"go/token"
	"regexp"
	"strconv"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/ascvet/ascvet/analyzers/internal/linear"
	"github.com/ascvet/ascvet/cppfront/ir"
	"github.com/ascvet/ascvet/simcheck/replay"
)

// The fixes move one statement: the Pre up before its loop (HoistFix), or
// the Post down after it (SinkFix). They are offered only where the move is
// safe and purely textual:
//
//   - the statement is alone on its line(s): indentation, the call, ';', and
//     at most a trailing // comment, which moves with it;
//   - the loop starts its line and ends its line, and is not the body of a
//     braceless if, else, for or while (the moved statement would escape it);
//   - the moved call does not name anything declared in the loop, nor the
//     induction variable (the Pre's address is rewritten for the first
//     iteration; the Post must not need it);
//   - nothing else in the loop touches the register or the pointer between
//     the loop's start and the Pre, or between the Post and the loop's end;
//   - the replay (simcheck/replay) proves the rewrite: the loop run on a
//     byte-exact model of UB and of the unaligned registers, as written and
//     rewritten, loads the same vectors and writes the same UB bytes for
//     every case it tries. When it cannot, the fix is withheld and the
//     reason is returned for the finding's message.
//
// The new line takes the loop's indentation and the file's line ending at
// that point (LF or CRLF), so formatting and comments are kept.
//
// In the pypto_pro Python DSL (ir.Python) the same rules hold with Python's
// syntax:
//
//   - a statement is the call alone on its line(s), with at most a trailing
//     # comment (no ';', no '\' continuation);
//   - a block is what is indented under its header, and cannot be empty:
//     the block the call leaves (the loop's body, or a with/try block inside
//     it) must keep another statement;
//   - a register created inside the loop by a line of its own
//     (ureg = vf.load_unalign_init()) moves out with the call; the fix is
//     withheld when the loop binds the register's name anywhere else, since
//     pypto then declares a fresh, unprimed register there;
//   - a Post is not sunk past the else clause of a for or while loop.
//
// The lowering leaves such rebindings out of the IR, so these checks read
// the text.

type source struct {
	src []byte
	tok *token.File
	py  bool // the file is Python (ir.Python)
}

func newSource(f *ir.File) source { return source{src: f.Src, tok: f.Tok, py: f.Lang == ir.Python} }

// comment returns the comment marker of the file's language.
func (s source) comment() string {
	if s.py {
		return "#"
	}
	return "//"
}

func (s source) off(p token.Pos) int { return s.tok.Offset(p) }

// lineStart returns the offset of the start of the line holding off.
func (s source) lineStart(off int) int {
	return bytes.LastIndexByte(s.src[:off], '\n') + 1
}

// lineEnd returns the offset just past the newline ending the line holding
// off (or len(src) when the file has no final newline), and that newline.
func (s source) lineEnd(off int) (int, string) {
	k := bytes.IndexByte(s.src[off:], '\n')
	if k < 0 {
		return len(s.src), ""
	}
	end := off + k + 1
	if k > 0 && s.src[off+k-1] == '\r' {
		return end, "\r\n"
	}
	return end, "\n"
}

func blank(b []byte) bool { return len(bytes.TrimSpace(b)) == 0 }

// statement returns the span of the statement line(s) holding the call in
// (from its line start to past its newline) and the statement text without
// the indentation and line ending (the call, ';', and a trailing comment),
// or why the call is not alone on its lines.
func (s source) statement(in *ir.Instr) (start, end int, text, why string) {
	a, b := s.off(in.Pos), s.off(in.End)
	if why := s.crOnly(a); why != "" {
		return 0, 0, "", why
	}
	start = s.lineStart(a)
	if !blank(s.src[start:a]) {
		return 0, 0, "", "the call shares its line with other code"
	}
	k := b
	for k < len(s.src) && (s.src[k] == ' ' || s.src[k] == '\t') {
		k++
	}
	if !s.py { // C++: the call ends with ';'
		if k >= len(s.src) || s.src[k] != ';' {
			return 0, 0, "", "the call is part of a larger statement"
		}
		k++
	}
	end, nl := s.lineEnd(k)
	rest := strings.TrimSpace(strings.TrimSuffix(string(s.src[k:end]), nl))
	if rest != "" && !strings.HasPrefix(rest, s.comment()) {
		return 0, 0, "", "two statements on one line"
	}
	text = strings.TrimRight(string(s.src[a:end]), "\r\n")
	return start, end, text, ""
}

// crOnly says why a line-based move is not made at off when the line
// holding it ends with a lone CR (classic Mac line endings), or "".
func (s source) crOnly(off int) string {
	k := bytes.IndexAny(s.src[off:], "\r\n")
	if k >= 0 && s.src[off+k] == '\r' && (off+k+1 >= len(s.src) || s.src[off+k+1] != '\n') {
		return "the file has CR-only line endings"
	}
	return ""
}

// loopLines returns the loop's line start, the offset past the newline
// after its end, its indentation and the line ending, or why the loop
// shares its first or last line with other code or is a braceless body.
func (s source) loopLines(lp *ir.Loop) (start, after int, indent, nl, why string) {
	a, b := s.off(lp.Pos), s.off(lp.End)
	if why := s.crOnly(a); why != "" {
		return 0, 0, "", "", why
	}
	if !s.py && lp.Kind != ir.LoopDo && b > 0 && s.src[b-1] != '}' {
		return 0, 0, "", "", "the loop body has no braces"
	}
	start = s.lineStart(a)
	if !blank(s.src[start:a]) {
		return 0, 0, "", "", "the loop shares its first line with other code"
	}
	after, nl = s.lineEnd(b)
	if rest := strings.TrimSpace(string(s.src[b:after])); nl == "" || rest != "" && !(s.py && strings.HasPrefix(rest, "#")) {
		return 0, 0, "", "", "the loop shares its last line with other code"
	}
	if !s.statementBoundaryBefore(start) {
		return 0, 0, "", "", "the loop is the body of a braceless if, else, for or while"
	}
	return start, after, string(s.src[start:a]), nl, ""
}

// statementBoundaryBefore reports whether the code before off ends a
// statement or opens a block ('{', '}', ';' or a preprocessor line), so that
// a statement inserted at off stays at the loop's level.
func (s source) statementBoundaryBefore(off int) bool {
	k := off
	for k > 0 {
		ls := s.lineStart(k - 1)
		line := strings.TrimSpace(string(s.src[ls:k]))
		if i := strings.Index(line, s.comment()); i >= 0 {
			line = strings.TrimSpace(line[:i])
		}
		if line == "" || !s.py && isLabel(line) {
			k = ls
			continue
		}
		if s.py { // Python statements end with their line, unless it continues
			return !strings.HasSuffix(line, "\\") && !strings.ContainsAny(line[len(line)-1:], "([{,")
		}
		if strings.HasPrefix(line, "#") {
			d := strings.TrimSpace(line[1:])
			switch {
			case strings.HasPrefix(d, "else") || strings.HasPrefix(d, "elif"):
				// The loop is in a later branch: what precedes it is what
				// precedes the #if.
				k = s.matchingIf(ls)
				if k < 0 {
					return false
				}
				continue
			case strings.HasPrefix(d, "endif"):
				return false // a branch's last statement precedes the loop: which one is not known
			}
			k = ls // #if, #pragma, #define...: the statement before them
			continue
		}
		switch line[len(line)-1] {
		case '{', '}', ';':
			return true
		}
		return false
	}
	return true
}

// matchingIf returns the offset of the line of the #if (#ifdef, #ifndef)
// that the #else or #elif line at off belongs to, or -1.
func (s source) matchingIf(off int) int {
	depth := 0
	for k := off; k > 0; {
		ls := s.lineStart(k - 1)
		line := strings.TrimSpace(string(s.src[ls:k]))
		k = ls
		if !strings.HasPrefix(line, "#") {
			continue
		}
		d := strings.TrimSpace(line[1:])
		switch {
		case strings.HasPrefix(d, "endif"):
			depth++
		case strings.HasPrefix(d, "if"):
			if depth == 0 {
				return ls
			}
			depth--
		}
	}
	return -1
}

// loopPrefixStart returns where a statement inserted before the loop
// whose line starts at ls goes: above the #pragma lines and labels that
// belong to the loop (a #pragma unroll must stay right before its for).
func (s source) loopPrefixStart(ls int) int {
	at := ls
	for at > 0 {
		prev := s.lineStart(at - 1)
		line := strings.TrimSpace(string(s.src[prev:at]))
		if strings.HasPrefix(line, "#") && strings.HasPrefix(strings.TrimSpace(line[1:]), "pragma") || isLabel(line) {
			at = prev
			continue
		}
		break
	}
	return at
}

// isLabel reports whether line is a label of its own ("again:").
func isLabel(line string) bool {
	if !strings.HasSuffix(line, ":") || strings.HasSuffix(line, "::") {
		return false
	}
	w := strings.TrimSpace(strings.TrimSuffix(line, ":"))
	if w == "" || w == "default" || w == "public" || w == "private" || w == "protected" {
		return false
	}
	for i := 0; i < len(w); i++ {
		if !linear.IdentChar(w[i]) {
			return false
		}
	}
	return true
}

// declLine returns the line of a register declared inside the loop when
// that line declares nothing else and initialises nothing ("    Reg::UnalignRegForStore u;"),
// so that it can move out of the loop with the Pre or the Post; otherwise
// why not.
func (s source) declLine(r *ir.Reg) (start, end int, text, why string) {
	if r.Param || !r.Pos.IsValid() {
		return 0, 0, "", "the register " + r.Name + " has no declaration to move"
	}
	a := s.off(r.Pos)
	start = s.lineStart(a)
	end, nl := s.lineEnd(a)
	line := strings.TrimSuffix(string(s.src[start:end]), nl)
	if s.py {
		if !pyRegInit.MatchString(line) || pyRegInit.FindStringSubmatch(line)[1] != r.Name {
			return 0, 0, "", "the register " + r.Name + " is not created by a line of its own"
		}
		return start, end, strings.TrimSpace(line), ""
	}
	code := line
	if i := strings.Index(code, "//"); i >= 0 {
		code = code[:i]
	}
	code = strings.TrimSpace(code)
	switch {
	case !strings.HasSuffix(code, ";"):
		return 0, 0, "", "the declaration of " + r.Name + " is not alone on its line"
	case strings.Contains(code, ","):
		return 0, 0, "", "the register " + r.Name + " is declared with another in one declaration"
	case strings.ContainsAny(code, "={}()"):
		return 0, 0, "", "the declaration of " + r.Name + " initialises it"
	}
	f := strings.Fields(strings.TrimSuffix(code, ";"))
	if len(f) < 2 || f[len(f)-1] != r.Name {
		return 0, 0, "", "the declaration of " + r.Name + " is not alone on its line"
	}
	return start, end, strings.TrimSpace(line), ""
}

// pyRegInit is a Python line that creates an unaligned register and does
// nothing else: "    ureg = vf.load_unalign_init()  # comment".
var pyRegInit = regexp.MustCompile(`^[ \t]*([A-Za-z_][A-Za-z_0-9]*)[ \t]*=[ \t]*vf\.(?:load_unalign_init|unalign_reg_for_store)\(\)[ \t]*(?:#.*)?\r?$`)

// lines returns the lines of src[from:to] as [start, end) offsets, the end
// past the newline.
func (s source) lines(from, to int) [][2]int {
	var out [][2]int
	for off := from; off < to; {
		end, _ := s.lineEnd(off)
		out = append(out, [2]int{off, end})
		off = end
	}
	return out
}

// code returns the line at [start, end) without its line ending, its
// indentation and a trailing # comment (a '#' inside a string is taken for
// a comment too, which only makes the checks below more cautious).
func (s source) code(start, end int) (indent, code string) {
	line := strings.TrimRight(string(s.src[start:end]), "\r\n")
	code = strings.TrimLeft(line, " \t")
	indent = line[:len(line)-len(code)]
	if i := strings.IndexByte(code, '#'); i >= 0 {
		code = code[:i]
	}
	return indent, strings.TrimSpace(code)
}

// cut reports whether off lies in one of the ranges [cuts[i], cuts[i+1]).
func cut(off int, cuts []int) bool {
	for i := 0; i+1 < len(cuts); i += 2 {
		if off >= cuts[i] && off < cuts[i+1] {
			return true
		}
	}
	return false
}

// blockKeeps reports whether the block holding the statement that starts
// the line at start keeps a statement once the line ranges cuts are
// removed: a Python block cannot be empty. In C++ it always does ("{}" is
// a body). The block is the run of lines at the statement's indentation: a
// sibling before it is a line at that indentation or deeper that does not
// end with ':' (a header ending there opens the block); a sibling after it
// is a line at exactly that indentation. A line indented less, or that
// cannot be read so, ends the search with no sibling.
func (s source) blockKeeps(start int, cuts ...int) bool {
	if !s.py {
		return true
	}
	end, _ := s.lineEnd(start)
	ind, _ := s.code(start, end)
	before := s.lines(0, start)
	for k := len(before) - 1; k >= 0; k-- {
		l := before[k]
		if cut(l[0], cuts) {
			continue
		}
		in, c := s.code(l[0], l[1])
		if c == "" {
			continue
		}
		if !strings.HasSuffix(c, ":") && len(in) >= len(ind) && strings.HasPrefix(in, ind) {
			return true
		}
		break
	}
	for _, l := range s.lines(start, len(s.src)) {
		if cut(l[0], cuts) {
			continue
		}
		in, c := s.code(l[0], l[1])
		if c == "" {
			continue
		}
		return in == ind
	}
	return false
}

// rebinds reports whether, in Python, a line of the loop other than those
// in the ranges cuts binds name (name = ..., a, name = ...): pypto declares
// a new register there. In C++ a declaration in the loop is in lp.Decls.
func (s source) rebinds(lp *ir.Loop, name string, cuts ...int) bool {
	if !s.py {
		return false
	}
	for _, l := range s.lines(s.lineStart(s.off(lp.Pos)), s.off(lp.End)) {
		if cut(l[0], cuts) {
			continue
		}
		_, c := s.code(l[0], l[1])
		if left, ok := assignTarget(c); ok && linear.MentionsWord(left, name) {
			return true
		}
	}
	return false
}

// assignTarget returns the target of an assignment statement (the text
// before its first '=' outside brackets that is not part of ==, <=, >=, !=
// or :=), or false when code is not one. An augmented assignment (+=)
// counts: its target is bound too.
func assignTarget(code string) (string, bool) {
	depth := 0
	for i := 0; i < len(code); i++ {
		switch c := code[i]; c {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			depth--
		case '=':
			if depth != 0 {
				continue
			}
			if i+1 < len(code) && code[i+1] == '=' {
				i++
				continue
			}
			if i > 0 && strings.IndexByte("=<>!:", code[i-1]) >= 0 {
				continue
			}
			return code[:i], true
		}
	}
	return "", false
}

// hasElse reports whether the Python loop has an else clause: a line of the
// loop, after its header, at the loop's own indentation that is "else:".
func (s source) hasElse(lp *ir.Loop) bool {
	if !s.py {
		return false
	}
	a := s.off(lp.Pos)
	ind := string(s.src[s.lineStart(a):a])
	header, _ := s.lineEnd(a)
	for _, l := range s.lines(header, s.off(lp.End)) {
		in, c := s.code(l[0], l[1])
		if in == ind && strings.HasPrefix(c, "else") && strings.TrimSpace(strings.TrimPrefix(c, "else")) == ":" {
			return true
		}
	}
	return false
}

// movesOut says why the statement [start, end) and the register's line
// [ds, de) (when withDecl) cannot leave the loop, or "": every block they
// leave keeps a statement, and nothing else in the loop binds the
// register's name.
func (s source) movesOut(lp *ir.Loop, reg string, withDecl bool, start, end, ds, de int) string {
	cuts := []int{start, end}
	if withDecl {
		cuts = append(cuts, ds, de)
		if !s.blockKeeps(ds, cuts...) {
			return "the block would be left empty"
		}
	}
	if !s.blockKeeps(start, cuts...) {
		return "the block would be left empty"
	}
	if s.rebinds(lp, reg, cuts...) {
		return "the loop binds " + reg + " again"
	}
	return ""
}

// movableDecl reports whether the register of s is declared inside its
// loop, and if so returns the declaration line to move with the call, or
// why it cannot move: its line, or a name the move would redeclare or
// shadow.
func movableDecl(f *ir.File, src source, s Site) (moved bool, start, end int, text, why string) {
	r := s.Func.Regs[s.Reg]
	if !contains(s.Loop.Decls, r.Name) {
		return false, 0, 0, "", ""
	}
	start, end, text, why = src.declLine(r)
	if why != "" {
		return false, 0, 0, "", why
	}
	if overlapsMacro(f, start, end) {
		return false, 0, 0, "", "the declaration of " + r.Name + " comes from a macro"
	}
	if at, ok := clash(s.Func, s.Loop, r.Name, r.Pos); ok {
		return false, 0, 0, "", fmt.Sprintf("moving the declaration of %s out of the loop would redeclare or shadow the %s declared at line %d", r.Name, r.Name, f.Tok.Line(at))
	}
	return true, start, end, text, ""
}

// clash returns a declaration of name, other than the one at self, that
// is visible where the loop lp stands: a parameter, or a register or
// variable declared outside every loop and if that does not enclose lp.
// Moving a declaration of name before lp would redeclare it (same block)
// or shadow it (an enclosing one), changing what later uses mean. A
// register of the same name declared in the body of an earlier loop of the
// same block clashes too: that loop's own fix may move it out beside this.
func clash(fn *ir.Func, lp *ir.Loop, name string, self token.Pos) (token.Pos, bool) {
	for _, p := range fn.Params {
		if p.Name == name {
			return p.Pos, true
		}
	}
	visible := func(at token.Pos) bool {
		if at == self || at >= lp.Pos && at < lp.End {
			return false
		}
		for _, n := range enclosing(fn.Body, at) {
			if a, b := n.Span(); !(lp.Pos >= a && lp.End <= b) {
				return false
			}
		}
		return true
	}
	// An earlier sibling loop's register of the same name, declared in its
	// body, may be moved out into the same block by its own fix.
	same := func(a, b []ir.Node) bool {
		return len(a) == len(b) && (len(a) == 0 || a[len(a)-1] == b[len(b)-1])
	}
	around := enclosing(fn.Body, lp.Pos)
	sibling := func(at token.Pos) bool {
		encl := enclosing(fn.Body, at)
		if len(encl) == 0 {
			return false
		}
		l2, ok := encl[len(encl)-1].(*ir.Loop)
		return ok && l2 != lp && l2.Pos < lp.Pos && same(encl[:len(encl)-1], around[:len(around)-1])
	}
	for _, r := range fn.Regs {
		if r.Name == name && !r.Implicit && r.Pos.IsValid() && r.Pos != self && (visible(r.Pos) || sibling(r.Pos)) {
			return r.Pos, true
		}
	}
	for _, d := range fn.Names {
		if d.Name == name && d.Decl && visible(d.Pos) {
			return d.Pos, true
		}
	}
	return token.NoPos, false
}

// enclosing returns the loops and ifs of b that contain pos, outermost
// first.
func enclosing(b *ir.Block, pos token.Pos) []ir.Node {
	var out []ir.Node
	var walk func(b *ir.Block)
	walk = func(b *ir.Block) {
		if b == nil {
			return
		}
		for _, n := range b.Nodes {
			if a, e := n.Span(); pos < a || pos >= e {
				continue
			}
			switch n := n.(type) {
			case *ir.Loop:
				out = append(out, n)
				walk(n.Body)
			case *ir.If:
				out = append(out, n)
				walk(n.Then)
				walk(n.Else)
			}
		}
	}
	walk(b)
	return out
}

func without(names []string, x string) []string {
	out := make([]string, 0, len(names))
	for _, n := range names {
		if n != x {
			out = append(out, n)
		}
	}
	return out
}

// HoistFix moves a Pre that a contiguous stream does not need inside the
// loop to just before the loop, priming at the first iteration's address.
// It returns nil when the move is not purely textual, and nil with the
// reason when the replay cannot prove it.
func HoistFix(f *ir.File, s Site) (*analysis.SuggestedFix, string) {
	return checked(f, composeHoist)(f, s)
}

// composeHoist is HoistFix before its text is validated.
func composeHoist(f *ir.File, s Site) (*fixItem, string) {
	if fromMacro(f, s) {
		return nil, "the Pre or its loop comes from a macro expansion"
	}
	if len(s.Func.Errors) > 0 {
		return nil, "the region does not parse (ASC0001), so the move cannot be checked"
	}
	src := newSource(f)
	pre, lp, fn := s.Instr, s.Loop, s.Func
	ls, _, indent, nl, why := src.loopLines(lp)
	if why != "" {
		return nil, why
	}
	start, end, text, why := src.statement(pre)
	if why != "" {
		return nil, why
	}
	if overlapsMacro(f, start, end) {
		return nil, "the call names a macro, whose expansion the move would copy unchecked"
	}
	if why := escapes(f, s, text); why != "" {
		return nil, why
	}
	// Nothing in the loop before the Pre may touch its register or pointer.
	pk := ptrArg(pre)
	if pk < 0 {
		return nil, "the Pre has no address operand"
	}
	addr := pre.Args[pk]
	for _, in := range fn.InstrsIn(lp) {
		if in.ID >= pre.ID || !fn.Within(in.Loop, lp.ID) {
			continue
		}
		if hasReg(in.Uses, s.Reg) || hasReg(in.Defs, s.Reg) || mentioned(addr.Text, in.PtrDefs) != "" {
			return nil, in.Name + " before the Pre in the loop touches its register or pointer"
		}
	}
	// Rewrite the address for the first iteration.
	newAddr := addr.Text
	if lp.Var != "" && linear.MentionsWord(addr.Text, lp.Var) {
		init, ok := lp.Init.Value()
		if !ok {
			return nil, "the loop's start does not fold, so the first iteration's address is not known"
		}
		newAddr, ok = substitute(addr.Text, lp.Var, init)
		if !ok {
			return nil, "the address " + addr.Text + " cannot be rewritten for the first iteration"
		}
	}
	withDecl, ds, de, dtext, why := movableDecl(f, src, s)
	if why != "" {
		return nil, why
	}
	decls := without(lp.Decls, lp.Var)
	if withDecl {
		decls = without(decls, s.Func.Regs[s.Reg].Name)
	}
	if n := mentioned(newAddr, append(decls, lp.Assigns...)); n != "" {
		return nil, "the address names " + n + ", which the loop declares or assigns"
	}
	if n := mentioned(stripComment(text, src.comment()), decls); n != "" {
		return nil, "the call names " + n + ", which the loop declares"
	}
	if why := src.movesOut(lp, s.Func.Regs[s.Reg].Name, withDecl, start, end, ds, de); why != "" {
		return nil, why
	}
	a, b := src.off(addr.Pos)-src.off(pre.Pos), src.off(addr.End)-src.off(pre.Pos)
	// The rest of the call must not need the iteration either (an array
	// register u[i], a Python offset argument beside the address).
	if lp.Var != "" && linear.MentionsWord(stripComment(text[:a]+text[b:], src.comment()), lp.Var) {
		return nil, "the call uses the loop variable " + lp.Var + " beside its address"
	}
	at := src.loopPrefixStart(ls)
	moved := indent + text[:a] + newAddr + text[b:] + nl
	edits := []analysis.TextEdit{}
	if withDecl {
		moved = indent + dtext + nl + moved
		edits = append(edits, analysis.TextEdit{Pos: f.Tok.Pos(ds), End: f.Tok.Pos(de)})
	}
	edits = append(edits,
		analysis.TextEdit{Pos: f.Tok.Pos(at), End: f.Tok.Pos(at), NewText: []byte(moved)},
		analysis.TextEdit{Pos: f.Tok.Pos(start), End: f.Tok.Pos(end)})
	if ok, why := replay.ProveHoist(fn, lp, pre); !ok {
		return nil, why
	}
	fix := &analysis.SuggestedFix{Message: "hoist the LoadUnAlignPre before the loop", TextEdits: edits}
	return &fixItem{s: s, fix: fix, call: len(edits) - 2, hoisted: true}, ""
}

// SinkFix moves a Post that a contiguous stream does not need inside the
// loop to just after the loop. It returns nil when the move is not purely
// textual, and nil with the reason when the replay cannot prove it.
func SinkFix(f *ir.File, s Site) (*analysis.SuggestedFix, string) {
	return checked(f, composeSink)(f, s)
}

// composeSink is SinkFix before its text is validated.
func composeSink(f *ir.File, s Site) (*fixItem, string) {
	if fromMacro(f, s) {
		return nil, "the Post or its loop comes from a macro expansion"
	}
	if len(s.Func.Errors) > 0 {
		return nil, "the region does not parse (ASC0001), so the move cannot be checked"
	}
	src := newSource(f)
	post, lp, fn := s.Instr, s.Loop, s.Func
	ls, after, indent, nl, why := src.loopLines(lp)
	if why != "" {
		return nil, why
	}
	start, end, text, why := src.statement(post)
	if why != "" {
		return nil, why
	}
	if overlapsMacro(f, start, end) {
		return nil, "the call names a macro, whose expansion the move would copy unchecked"
	}
	if why := escapes(f, s, text); why != "" {
		return nil, why
	}
	withDecl, ds, de, dtext, why := movableDecl(f, src, s)
	if why != "" {
		return nil, why
	}
	decls := lp.Decls
	if withDecl {
		decls = without(decls, s.Func.Regs[s.Reg].Name)
	}
	if n := mentioned(stripComment(text, src.comment()), decls); n != "" {
		return nil, "the call names " + n + ", which the loop declares"
	}
	if lp.Var != "" && linear.MentionsWord(stripComment(text, src.comment()), lp.Var) {
		return nil, "the call uses the loop variable " + lp.Var
	}
	// Nothing in the loop after the Post may touch its register or pointer.
	for _, in := range fn.InstrsIn(lp) {
		if in.ID <= post.ID || !fn.Within(in.Loop, lp.ID) {
			continue
		}
		if hasReg(in.Uses, s.Reg) || hasReg(in.Defs, s.Reg) || mentioned(text, in.PtrDefs) != "" {
			return nil, in.Name + " after the Post in the loop touches its register or pointer"
		}
	}
	if why := src.movesOut(lp, s.Func.Regs[s.Reg].Name, withDecl, start, end, ds, de); why != "" {
		return nil, why
	}
	if src.hasElse(lp) {
		return nil, "the loop has an else clause, which the Post would have to precede"
	}
	var edits []analysis.TextEdit
	if withDecl {
		at := src.loopPrefixStart(ls)
		edits = append(edits,
			analysis.TextEdit{Pos: f.Tok.Pos(at), End: f.Tok.Pos(at), NewText: []byte(indent + dtext + nl)},
			analysis.TextEdit{Pos: f.Tok.Pos(ds), End: f.Tok.Pos(de)})
	}
	edits = append(edits,
		analysis.TextEdit{Pos: f.Tok.Pos(start), End: f.Tok.Pos(end)},
		analysis.TextEdit{Pos: f.Tok.Pos(after), End: f.Tok.Pos(after), NewText: []byte(indent + text + nl)})
	if ok, why := replay.ProveSink(fn, lp, post); !ok {
		return nil, why
	}
	fix := &analysis.SuggestedFix{Message: "sink the StoreUnAlignPost after the loop", TextEdits: edits}
	return &fixItem{s: s, fix: fix, call: len(edits) - 1}, ""
}

// mentioned returns the first of names that text names as a whole word,
// or "".
func mentioned(text string, names []string) string {
	for _, n := range names {
		if n != "" && linear.MentionsWord(text, n) {
			return n
		}
	}
	return ""
}

// stripComment returns text without a trailing comment that starts with
// marker.
func stripComment(text, marker string) string {
	if i := strings.Index(text, marker); i >= 0 {
		return text[:i]
	}
	return text
}

// substitute rewrites an address for the loop variable v = init. With
// init 0 the additive terms that are multiples of v are dropped
// ("src + i * VL - 1" becomes "src - 1"); otherwise v is replaced by the
// value. It reports false when v occurs in a way it cannot rewrite.
func substitute(text, v string, init int64) (string, bool) {
	terms, ops, ok := splitAdditive(text)
	if !ok {
		return "", false
	}
	var b strings.Builder
	kept := 0
	for i, t := range terms {
		tt := strings.TrimSpace(t)
		if inner, ok := parenthesised(tt); ok && linear.MentionsWord(inner, v) && !isMultipleOf(tt, v) {
			// (i * VL + HEAD): the sum inside is rewritten on its own.
			sub, ok := substitute(inner, v, init)
			if !ok {
				return "", false
			}
			tt = "(" + sub + ")"
		} else if linear.MentionsWord(tt, v) {
			if !isMultipleOf(tt, v) {
				return "", false
			}
			if init == 0 {
				continue
			}
			tt = replaceWord(tt, v, itoa(init))
		}
		if kept > 0 || ops[i] == "-" {
			if kept == 0 {
				b.WriteString("-")
			} else {
				b.WriteString(" " + ops[i] + " ")
			}
		}
		b.WriteString(tt)
		kept++
	}
	if kept == 0 {
		return "", false
	}
	return b.String(), true
}

func itoa(v int64) string {
	if v < 0 {
		return "(" + strconv.FormatInt(v, 10) + ")"
	}
	return strconv.FormatInt(v, 10)
}

// splitAdditive splits text at top-level + and - (not inside parentheses,
// brackets or template arguments, and not unary). ops[i] is the operator
// before terms[i] ("+" for the first).
func splitAdditive(text string) (terms, ops []string, ok bool) {
	depth := 0
	last := 0
	op := "+"
	prevSignificant := byte(0)
	for i := 0; i < len(text); i++ {
		c := text[i]
		if c == '-' && i+1 < len(text) && text[i+1] == '>' {
			i++ // member access, not a minus
			prevSignificant = '>'
			continue
		}
		switch c {
		case '(', '[', '<':
			depth++
		case ')', ']', '>':
			depth--
			if depth < 0 {
				return nil, nil, false
			}
		case '+', '-':
			if depth == 0 && prevSignificant != 0 && !strings.ContainsRune("+-*/%(<[,=", rune(prevSignificant)) {
				terms = append(terms, text[last:i])
				ops = append(ops, op)
				op = string(c)
				last = i + 1
			}
		}
		if c != ' ' && c != '\t' {
			prevSignificant = c
		}
	}
	if depth != 0 {
		return nil, nil, false
	}
	terms = append(terms, text[last:])
	ops = append(ops, op)
	return terms, ops, true
}

// isMultipleOf reports whether term is v, or a product with v as one
// top-level factor and no other occurrence of v.
func isMultipleOf(term, v string) bool {
	factors, ok := splitTopLevel(term, '*')
	if !ok {
		return false
	}
	n := 0
	for _, f := range factors {
		f = strings.TrimSpace(f)
		for {
			inner, ok := parenthesised(f)
			if !ok {
				break
			}
			f = strings.TrimSpace(inner)
		}
		switch {
		case f == v:
			n++
		case !linear.MentionsWord(f, v):
		case isProduct(f) && isMultipleOf(f, v):
			n++ // (i * VL) * 2
		default:
			return false // (i + 1) * VL, i * i: not a multiple of i alone
		}
	}
	return n == 1 && !strings.ContainsAny(term, "/%")
}

// isProduct reports whether text has more than one factor at its top
// level and no top-level sum.
func isProduct(text string) bool {
	factors, ok := splitTopLevel(text, '*')
	if !ok || len(factors) < 2 {
		return false
	}
	terms, _, ok := splitAdditive(text)
	return ok && len(terms) == 1
}

// parenthesised returns the inside of text when one pair of parentheses
// encloses all of it: "(a + b)" but not "(a) + (b)".
func parenthesised(text string) (string, bool) {
	text = strings.TrimSpace(text)
	if len(text) < 2 || text[0] != '(' || text[len(text)-1] != ')' {
		return "", false
	}
	depth := 0
	for i := 0; i < len(text); i++ {
		switch text[i] {
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 && i != len(text)-1 {
				return "", false
			}
		}
	}
	return text[1 : len(text)-1], depth == 0
}

// splitTopLevel splits text at sep outside parentheses, brackets and
// template arguments; false when they do not balance.
func splitTopLevel(text string, sep byte) ([]string, bool) {
	var out []string
	depth, last := 0, 0
	for i := 0; i < len(text); i++ {
		switch c := text[i]; {
		case c == '(' || c == '[' || c == '<':
			depth++
		case c == ')' || c == ']' || c == '>':
			depth--
			if depth < 0 {
				return nil, false
			}
		case c == sep && depth == 0:
			out = append(out, text[last:i])
			last = i + 1
		}
	}
	return append(out, text[last:]), depth == 0
}

// replaceWord replaces whole-word occurrences of w in s by r.
func replaceWord(s, w, r string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		if strings.HasPrefix(s[i:], w) && (i == 0 || !linear.IdentChar(s[i-1])) && (i+len(w) >= len(s) || !linear.IdentChar(s[i+len(w)])) {
			b.WriteString(r)
			i += len(w)
			continue
		}
		b.WriteByte(s[i])
		i++
	}
	return b.String()
}
