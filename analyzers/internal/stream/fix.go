package stream

import (
	"bytes"
	"go/token"
	"strconv"
	"strings"

	"golang.org/x/tools/go/analysis"

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

type source struct {
	src []byte
	tok *token.File
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
// or false when the call is not alone on its lines.
func (s source) statement(in *ir.Instr) (start, end int, text string, ok bool) {
	a, b := s.off(in.Pos), s.off(in.End)
	start = s.lineStart(a)
	if !blank(s.src[start:a]) {
		return 0, 0, "", false
	}
	k := b
	for k < len(s.src) && (s.src[k] == ' ' || s.src[k] == '\t') {
		k++
	}
	if k >= len(s.src) || s.src[k] != ';' {
		return 0, 0, "", false
	}
	k++
	end, nl := s.lineEnd(k)
	rest := strings.TrimSpace(strings.TrimSuffix(string(s.src[k:end]), nl))
	if rest != "" && !strings.HasPrefix(rest, "//") {
		return 0, 0, "", false
	}
	text = strings.TrimRight(string(s.src[a:end]), "\r\n")
	return start, end, text, true
}

// loopLines returns the loop's line start, the offset past the newline
// after its end, its indentation and the line ending, or false when the loop
// shares its first or last line with other code or is a braceless body.
func (s source) loopLines(lp *ir.Loop) (start, after int, indent, nl string, ok bool) {
	a, b := s.off(lp.Pos), s.off(lp.End)
	start = s.lineStart(a)
	if !blank(s.src[start:a]) {
		return 0, 0, "", "", false
	}
	after, nl = s.lineEnd(b)
	if !blank(s.src[b:after]) || nl == "" {
		return 0, 0, "", "", false
	}
	if !s.statementBoundaryBefore(start) {
		return 0, 0, "", "", false
	}
	return start, after, string(s.src[start:a]), nl, true
}

// statementBoundaryBefore reports whether the code before off ends a
// statement or opens a block ('{', '}', ';' or a preprocessor line), so that
// a statement inserted at off stays at the loop's level.
func (s source) statementBoundaryBefore(off int) bool {
	k := off
	for k > 0 {
		ls := s.lineStart(k - 1)
		line := strings.TrimSpace(string(s.src[ls:k]))
		if i := strings.Index(line, "//"); i >= 0 {
			line = strings.TrimSpace(line[:i])
		}
		if line == "" {
			k = ls
			continue
		}
		if strings.HasPrefix(line, "#") {
			return true
		}
		switch line[len(line)-1] {
		case '{', '}', ';':
			return true
		}
		return false
	}
	return true
}

// mentionsAny reports whether text names one of names as a whole word.
func mentionsAny(text string, names []string) bool {
	for _, n := range names {
		if n != "" && mentionsWord(text, n) {
			return true
		}
	}
	return false
}

// declLine returns the line of a register declared inside the loop when
// that line declares nothing else and initialises nothing ("    Reg::UnalignRegForStore u;"),
// so that it can move out of the loop with the Pre or the Post.
func (s source) declLine(r *ir.Reg) (start, end int, text string, ok bool) {
	if r.Param || !r.Pos.IsValid() {
		return 0, 0, "", false
	}
	a := s.off(r.Pos)
	start = s.lineStart(a)
	end, nl := s.lineEnd(a)
	line := strings.TrimSuffix(string(s.src[start:end]), nl)
	code := line
	if i := strings.Index(code, "//"); i >= 0 {
		code = code[:i]
	}
	code = strings.TrimSpace(code)
	if !strings.HasSuffix(code, ";") || strings.ContainsAny(code, ",={}()") {
		return 0, 0, "", false
	}
	f := strings.Fields(strings.TrimSuffix(code, ";"))
	if len(f) < 2 || f[len(f)-1] != r.Name {
		return 0, 0, "", false
	}
	return start, end, strings.TrimSpace(line), true
}

// movableDecl reports whether the register of s is declared inside its
// loop, and if so returns the declaration line to move with the call.
func movableDecl(src source, s Site) (moved bool, start, end int, text string, ok bool) {
	r := s.Func.Regs[s.Reg]
	if !contains(s.Loop.Decls, r.Name) {
		return false, 0, 0, "", true
	}
	start, end, text, ok = src.declLine(r)
	return ok, start, end, text, ok
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
	src := source{src: f.Src, tok: f.Tok}
	pre, lp, fn := s.Instr, s.Loop, s.Func
	ls, _, indent, nl, ok := src.loopLines(lp)
	if !ok {
		return nil, ""
	}
	start, end, text, ok := src.statement(pre)
	if !ok {
		return nil, ""
	}
	// Nothing in the loop before the Pre may touch its register or pointer.
	pk := ptrArg(pre)
	if pk < 0 {
		return nil, ""
	}
	addr := pre.Args[pk]
	for _, in := range fn.Instrs {
		if in.ID >= pre.ID || !inLoop(fn, in.Loop, lp) {
			continue
		}
		if hasReg(in.Uses, s.Reg) || hasReg(in.Defs, s.Reg) || mentionsAny(addr.Text, in.PtrDefs) {
			return nil, ""
		}
	}
	// Rewrite the address for the first iteration.
	newAddr := addr.Text
	if lp.Var != "" && mentionsWord(addr.Text, lp.Var) {
		init, ok := lp.Init.Value()
		if !ok {
			return nil, ""
		}
		newAddr, ok = substitute(addr.Text, lp.Var, init)
		if !ok {
			return nil, ""
		}
	}
	withDecl, ds, de, dtext, ok := movableDecl(src, s)
	if !ok {
		return nil, ""
	}
	decls := without(lp.Decls, lp.Var)
	if withDecl {
		decls = without(decls, s.Func.Regs[s.Reg].Name)
	}
	if mentionsAny(newAddr, append(decls, lp.Assigns...)) || mentionsAny(text, decls) {
		return nil, ""
	}
	a, b := src.off(addr.Pos)-src.off(pre.Pos), src.off(addr.End)-src.off(pre.Pos)
	moved := indent + text[:a] + newAddr + text[b:] + nl
	edits := []analysis.TextEdit{}
	if withDecl {
		moved = indent + dtext + nl + moved
		edits = append(edits, analysis.TextEdit{Pos: f.Tok.Pos(ds), End: f.Tok.Pos(de)})
	}
	edits = append(edits,
		analysis.TextEdit{Pos: f.Tok.Pos(ls), End: f.Tok.Pos(ls), NewText: []byte(moved)},
		analysis.TextEdit{Pos: f.Tok.Pos(start), End: f.Tok.Pos(end)})
	if ok, why := replay.ProveHoist(fn, lp, pre); !ok {
		return nil, why
	}
	return &analysis.SuggestedFix{Message: "hoist the LoadUnAlignPre before the loop", TextEdits: edits}, ""
}

// SinkFix moves a Post that a contiguous stream does not need inside the
// loop to just after the loop. It returns nil when the move is not purely
// textual, and nil with the reason when the replay cannot prove it.
func SinkFix(f *ir.File, s Site) (*analysis.SuggestedFix, string) {
	src := source{src: f.Src, tok: f.Tok}
	post, lp, fn := s.Instr, s.Loop, s.Func
	ls, after, indent, nl, ok := src.loopLines(lp)
	if !ok {
		return nil, ""
	}
	start, end, text, ok := src.statement(post)
	if !ok {
		return nil, ""
	}
	withDecl, ds, de, dtext, ok := movableDecl(src, s)
	if !ok {
		return nil, ""
	}
	decls := lp.Decls
	if withDecl {
		decls = without(decls, s.Func.Regs[s.Reg].Name)
	}
	if mentionsAny(text, decls) || (lp.Var != "" && mentionsWord(text, lp.Var)) {
		return nil, ""
	}
	// Nothing in the loop after the Post may touch its register or pointer.
	for _, in := range fn.Instrs {
		if in.ID <= post.ID || !inLoop(fn, in.Loop, lp) {
			continue
		}
		if hasReg(in.Uses, s.Reg) || hasReg(in.Defs, s.Reg) || mentionsAny(text, in.PtrDefs) {
			return nil, ""
		}
	}
	var edits []analysis.TextEdit
	if withDecl {
		edits = append(edits,
			analysis.TextEdit{Pos: f.Tok.Pos(ls), End: f.Tok.Pos(ls), NewText: []byte(indent + dtext + nl)},
			analysis.TextEdit{Pos: f.Tok.Pos(ds), End: f.Tok.Pos(de)})
	}
	edits = append(edits,
		analysis.TextEdit{Pos: f.Tok.Pos(start), End: f.Tok.Pos(end)},
		analysis.TextEdit{Pos: f.Tok.Pos(after), End: f.Tok.Pos(after), NewText: []byte(indent + text + nl)})
	if ok, why := replay.ProveSink(fn, lp, post); !ok {
		return nil, why
	}
	return &analysis.SuggestedFix{Message: "sink the StoreUnAlignPost after the loop", TextEdits: edits}, ""
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
		if mentionsWord(tt, v) {
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
	factors := strings.Split(term, "*")
	n := 0
	for _, f := range factors {
		f = strings.TrimSpace(f)
		f = strings.TrimSuffix(strings.TrimPrefix(f, "("), ")")
		if strings.TrimSpace(f) == v {
			n++
		} else if mentionsWord(f, v) {
			return false
		}
	}
	return n == 1 && !strings.ContainsAny(term, "/%")
}

// replaceWord replaces whole-word occurrences of w in s by r.
func replaceWord(s, w, r string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		if strings.HasPrefix(s[i:], w) && (i == 0 || !identChar(s[i-1])) && (i+len(w) >= len(s) || !identChar(s[i+len(w)])) {
			b.WriteString(r)
			i += len(w)
			continue
		}
		b.WriteByte(s[i])
		i++
	}
	return b.String()
}
