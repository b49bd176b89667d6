package stream

import (
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/ascvet/ascvet/analyzers/internal/linear"
	"github.com/ascvet/ascvet/cppfront/ir"
)

// Escape analysis. A fix moves a statement across the start or the end of
// a loop; the IR says what the loop's instructions do to the names the
// statement reads, but not what C++ may do to them behind its back. Before
// any fix, every name the moved statement reads, and the stream's pointers,
// offsets and induction variable, are checked in the function's text: the
// fix is refused, with the reason, when one of them
//
//   - has its address taken (&p);
//   - is bound to a reference (T*& q = p);
//   - is captured by reference by a lambda ([&] or [&p]);
//   - is passed to a helper that may take it by non-const reference (a
//     helper whose body is known and leaves it alone is fine);
//   - is a member (cur.src, this->srcUb_, or a name the function does not
//     declare);
//   - is converted to or from an integer ((uint64_t)p, reinterpret_cast);
//   - is named by a macro of the file;
//   - or is written under a preprocessor condition (#if ... #endif).
//
// The loop's own initialiser (for (i = 0, p = src + skip; ...)) counts as
// well: a statement hoisted above it would read p before it is set.

// escapeNames returns the names a fix of s must check: the identifiers the
// moved statement's arguments read (not namespaces, not the callee), the
// pointers and offsets of the stream's instructions in the loop, and the
// loop variable.
func escapeNames(s Site, stmt string) []string {
	var names []string
	add := func(text string) {
		for _, n := range identsOf(text) {
			if !slices.Contains(names, n) {
				names = append(names, n)
			}
		}
	}
	if k := strings.IndexByte(stmt, '('); k >= 0 {
		add(stmt[k:])
	}
	for _, in := range s.Func.InstrsIn(s.Loop) {
		if !hasReg(in.Uses, s.Reg) && !hasReg(in.Defs, s.Reg) {
			continue
		}
		for _, a := range in.Args {
			if a.Reg == ir.NoReg {
				add(a.Text)
			}
		}
	}
	if v := s.Loop.Var; v != "" && !slices.Contains(names, v) {
		names = append(names, v)
	}
	return names
}

// identsOf returns the identifiers of text that name values: not those
// followed by :: (namespaces, classes), not those after . or -> (members:
// see memberAccess), not keywords or type names.
func identsOf(text string) []string {
	var out []string
	for i := 0; i < len(text); {
		c := text[i]
		if !linear.IdentChar(c) || c >= '0' && c <= '9' {
			i++
			continue
		}
		j := i
		for j < len(text) && linear.IdentChar(text[j]) {
			j++
		}
		w := text[i:j]
		rest := strings.TrimLeft(text[j:], " \t")
		before := strings.TrimRight(text[:i], " \t")
		switch {
		case strings.HasPrefix(rest, "::"):
		case strings.HasSuffix(before, ".") || strings.HasSuffix(before, "->") || strings.HasSuffix(before, "::"):
		case notValue[w], isTypeName(w):
		default:
			out = append(out, w)
		}
		i = j
	}
	return out
}

var notValue = map[string]bool{
	"sizeof": true, "static_cast": true, "reinterpret_cast": true, "const_cast": true, "const": true,
	"true": true, "false": true, "nullptr": true, "this": true, "template": true, "typename": true,
	"unsigned": true, "signed": true, "int": true, "long": true, "short": true, "char": true, "bool": true,
	"float": true, "double": true, "void": true, "auto": true, "half": true, "bfloat16_t": true,
}

func isTypeName(w string) bool {
	return strings.HasSuffix(w, "_t") && (strings.HasPrefix(w, "int") || strings.HasPrefix(w, "uint") || w == "size_t")
}

// memberAccess returns the first member access of text (a.b, a->b,
// this->b), or "".
func memberAccess(text string) string {
	m := memberRe.FindString(text)
	return m
}

var memberRe = regexp.MustCompile(`\b[A-Za-z_]\w*\s*(?:\.|->)\s*[A-Za-z_]\w*`)

// escapes says why a fix of s, moving the statement stmt, is not safe
// because a name it depends on escapes the analysis (see above), or "".
func escapes(f *ir.File, s Site, stmt string) string {
	if f.Lang == ir.Python {
		return "" // no references, lambdas capturing by reference, casts or macros
	}
	fn, lp := s.Func, s.Loop
	args := stmt
	if k := strings.IndexByte(stmt, '('); k >= 0 {
		args = stmt[k:]
	}
	if m := memberAccess(stripComment(args, "//")); m != "" {
		return "the call reads the member " + strings.Join(strings.Fields(m), "") + ", which the analysis does not follow"
	}
	for _, in := range fn.InstrsIn(lp) {
		if !hasReg(in.Uses, s.Reg) && !hasReg(in.Defs, s.Reg) {
			continue
		}
		for _, a := range in.Args {
			if a.Reg != ir.NoReg {
				continue
			}
			if m := memberAccess(a.Text); m != "" {
				return "the stream's " + in.Name + " reads the member " + strings.Join(strings.Fields(m), "") + ", which the analysis does not follow"
			}
		}
	}
	names := escapeNames(s, stripComment(stmt, "//"))
	a, b := f.Tok.Offset(fn.Pos), f.Tok.Offset(fn.End)
	if a < 0 || b > len(f.Src) || a > b {
		return "the function's text is not at hand"
	}
	tc := textOf(f)
	ff := tc.facts(fn, a, b)
	if ff.hasGoto {
		return "the function jumps with goto, which may enter or leave the loop past the moved statement"
	}
	at := f.Tok.Offset(s.Instr.Pos) - a
	if !slices.Equal(ff.conditionalAt(at), ff.conditionalAt(f.Tok.Offset(lp.Pos)-a)) || !slices.Equal(ff.conditionalAt(at), ff.conditionalAt(f.Tok.Offset(lp.End)-1-a)) {
		return "the call is under a preprocessor condition that its loop is not, which the move would leave"
	}
	namers := tc.macroNamers()
	header := map[string]bool{} // the names the loop's initialiser writes
	for _, m := range writeRe.FindAllStringSubmatch(loopHeaderInit(ff.body, f.Tok.Offset(lp.Pos)-a), -1) {
		header[m[1]+m[2]] = true
	}
	loopStack := ff.conditionalAt(f.Tok.Offset(lp.Pos) - a)
	for _, n := range names {
		if why := escapesName(f, s, ff, namers, header, loopStack, n); why != "" {
			return why
		}
	}
	return ""
}

func escapesName(f *ir.File, s Site, ff *funcFacts, namers map[string]string, header map[string]bool, loopStack []int, n string) string {
	lp := s.Loop
	isReg := ff.regs[n]
	declared := ff.declared[n] || n == lp.Var || isReg
	if !declared && !folded(f, s, n) {
		return n + " is not declared in the function (a member or a global), so the analysis does not see what else changes it"
	}
	if m, ok := namers[n]; ok && declared {
		return n + " is named by the macro " + m + ", whose uses the analysis does not follow"
	}
	if ff.captured[n] || ff.capturedAll[n] {
		return n + " is captured by reference by a lambda, which may change it"
	}
	if ff.addr[n] {
		return "the address of " + n + " is taken, so it may change behind the analysis"
	}
	if ff.ref[n] {
		return n + " is bound to a reference, through which it may change"
	}
	if p, ok := ff.passed[n]; ok && !isReg {
		return p.why(n)
	}
	if ff.pointers[n] {
		if ff.toInt[n] {
			return n + " is converted to an integer, and may be read back through another pointer"
		}
		if ff.fromInt[n] {
			return n + " is set from an integer, so it may alias any buffer"
		}
	}
	for _, cw := range ff.condWrites {
		if cw.names[n] && !(len(cw.stack) <= len(loopStack) && slices.Equal(cw.stack, loopStack[:len(cw.stack)])) {
			return n + " is written under a preprocessor condition, which the analysis does not read"
		}
	}
	if header[n] && n != lp.Var {
		return "the loop's initialiser assigns " + n + ", so a statement before the loop would read its old value"
	}
	return ""
}

// folded reports whether n, which the function does not declare, is a
// constant the front end folded (a constexpr of the function, the file or
// a header, or a template value parameter): the moved instruction's and
// the stream's operands that name it all fold without it.
func folded(f *ir.File, s Site, n string) bool {
	if _, ok := s.Func.Locals[n]; ok {
		return true
	}
	if _, ok := f.Consts[n]; ok {
		return true
	}
	if slices.Contains(s.Func.TParams, n) {
		return true
	}
	ins := []*ir.Instr{s.Instr}
	for _, in := range s.Func.InstrsIn(s.Loop) {
		if hasReg(in.Uses, s.Reg) || hasReg(in.Defs, s.Reg) {
			ins = append(ins, in)
		}
	}
	for _, in := range ins {
		for _, a := range in.Args {
			if a.Reg != ir.NoReg || !linear.MentionsWord(a.Text, n) {
				continue
			}
			if a.Expr == nil || a.Expr.Mentions(n) {
				return false
			}
		}
	}
	return true
}

var gotoRe = regexp.MustCompile(`\bgoto\b`)

// textCache holds what the escape checks read of a file's text, computed
// once per file (a big file has thousands of sites: reading its whole text
// for each would be quadratic): its macros, and each function's text with
// comments and strings blanked.
type textCache struct {
	f      *ir.File
	once   sync.Once
	namers map[string]string // name -> the first macro of the file whose body names it
	mu     sync.Mutex
	funcs  map[*ir.Func]*funcFacts
}

// macroNamers returns, for each name a macro of the file names (not as a
// parameter), the first such macro.
func (tc *textCache) macroNamers() map[string]string {
	tc.once.Do(func() {
		tc.namers = map[string]string{}
		for m, body := range fileDefines(string(tc.f.Src)) {
			eachWord(body, func(w string) {
				if old, ok := tc.namers[w]; !ok || m < old {
					tc.namers[w] = m
				}
			})
		}
	})
	return tc.namers
}

// facts returns fn's facts, fn's text being the file's [a, b).
func (tc *textCache) facts(fn *ir.Func, a, b int) *funcFacts {
	tc.mu.Lock()
	defer tc.mu.Unlock()
	if ff, ok := tc.funcs[fn]; ok {
		return ff
	}
	ff := newFuncFacts(fn, blankCommentsAndStrings(string(tc.f.Src[a:b])))
	tc.funcs[fn] = ff
	return ff
}

// textCaches keeps the caches of the files analysed last. A cache holds its
// file, so a file's address is not reused while its cache is kept.
var textCaches struct {
	sync.Mutex
	files []*textCache
}

// maxTextCaches bounds textCaches: more than the files analysed at once.
const maxTextCaches = 16

// forgetText drops f's cache once its fixes are composed: a file's facts
// are not kept past its analysis (a long-lived language server would hold
// the last files' IR).
func forgetText(f *ir.File) {
	textCaches.Lock()
	defer textCaches.Unlock()
	textCaches.files = slices.DeleteFunc(textCaches.files, func(tc *textCache) bool { return tc.f == f })
}

func textOf(f *ir.File) *textCache {
	textCaches.Lock()
	defer textCaches.Unlock()
	for _, tc := range textCaches.files {
		if tc.f == f {
			return tc
		}
	}
	tc := &textCache{f: f, funcs: map[*ir.Func]*funcFacts{}}
	if len(textCaches.files) == maxTextCaches {
		textCaches.files = textCaches.files[1:]
	}
	textCaches.files = append(textCaches.files, tc)
	return tc
}

// blankCommentsAndStrings returns text with comments and the insides of
// string and character literals replaced by spaces (newlines kept), so
// that offsets and lines stay where they were.
func blankCommentsAndStrings(text string) string {
	b := []byte(text)
	for i := 0; i < len(b); i++ {
		switch {
		case b[i] == '/' && i+1 < len(b) && b[i+1] == '/':
			for i < len(b) && b[i] != '\n' {
				b[i] = ' '
				i++
			}
		case b[i] == '/' && i+1 < len(b) && b[i+1] == '*':
			for i < len(b) && !(b[i] == '*' && i+1 < len(b) && b[i+1] == '/') {
				if b[i] != '\n' {
					b[i] = ' '
				}
				i++
			}
			if i < len(b) {
				b[i] = ' '
				if i+1 < len(b) {
					b[i+1] = ' '
				}
				i++
			}
		case b[i] == '"' || b[i] == '\'':
			q := b[i]
			i++
			for i < len(b) && b[i] != q && b[i] != '\n' {
				if b[i] == '\\' && i+1 < len(b) {
					b[i] = ' '
					i++
				}
				b[i] = ' '
				i++
			}
		}
	}
	return string(b)
}

// fileDefines returns the macros the file defines: name -> body.
func fileDefines(src string) map[string]string {
	out := map[string]string{}
	lines := strings.Split(blankCommentsAndStrings(src), "\n")
	for k := 0; k < len(lines); k++ {
		l := strings.TrimSpace(lines[k])
		if !strings.HasPrefix(l, "#") {
			continue
		}
		l = strings.TrimSpace(l[1:])
		if !strings.HasPrefix(l, "define") {
			continue
		}
		full := l
		for strings.HasSuffix(strings.TrimRight(full, " \t\r"), "\\") && k+1 < len(lines) {
			k++
			full = strings.TrimSuffix(strings.TrimRight(full, " \t\r"), "\\") + " " + lines[k]
		}
		rest := strings.TrimSpace(strings.TrimPrefix(full, "define"))
		j := 0
		for j < len(rest) && linear.IdentChar(rest[j]) {
			j++
		}
		if j == 0 {
			continue
		}
		name, body := rest[:j], rest[j:]
		if strings.HasPrefix(body, "(") {
			// A function-like macro: its parameters name its arguments,
			// which the expansion shows where it is used; its body is
			// read without them.
			if k := strings.IndexByte(body, ')'); k > 0 {
				params := strings.Split(body[1:k], ",")
				body = body[k+1:]
				for _, p := range params {
					if p = strings.TrimSpace(p); p != "" && p != "..." {
						body = replaceWord(body, p, "")
					}
				}
			}
		}
		out[name] = body
	}
	return out
}

// lambdaRe finds a lambda's capture list and the start of its body.
var lambdaRe = regexp.MustCompile(`\[([^\[\]]*)\]\s*(?:\([^()]*\))?\s*(?:mutable\s*)?(?:->\s*[^{;]*)?\{`)

// matchBrace returns the offset past the brace that closes the one at open
// (len(text) when it is not closed).
func matchBrace(text string, open int) int {
	depth := 0
	for i := open; i < len(text); i++ {
		switch text[i] {
		case '{':
			depth++
		case '}':
			depth--
			if depth == 0 {
				return i + 1
			}
		}
	}
	return len(text)
}

// apiCallee reports whether callee is a call of the Ascend C API, whose
// effects the op table gives.
func apiCallee(callee string) bool {
	return strings.Contains(callee, "Reg::") || strings.Contains(callee, "MicroAPI::") || strings.HasPrefix(callee, "asc_") || strings.HasPrefix(callee, "AscendC::")
}

// writesName reports whether fn writes the scalar name: an assignment, an
// increment, or a post-update of an instruction, or hands it on to another
// call that may.
func writesName(fn *ir.Func, name string) bool {
	for _, d := range fn.Names {
		if !d.Decl && d.Name == name {
			return true
		}
	}
	for _, lp := range fn.Loops {
		if slices.Contains(lp.Assigns, name) {
			return true
		}
	}
	for _, in := range fn.Instrs {
		if slices.Contains(in.PtrDefs, name) {
			return true
		}
		if (in.Op == ir.OpCall || in.Op == ir.OpUnknown) && !apiCallee(in.Callee) {
			for _, a := range in.Args {
				if strings.TrimSpace(a.Text) == name || strings.TrimSpace(a.Text) == "&"+name {
					return true
				}
			}
		}
	}
	return false
}

// loopHeaderInit returns the initialiser of a for loop starting at off of
// body (the text between "for (" and its first ';'), or "".
func loopHeaderInit(body string, off int) string {
	if off < 0 || off >= len(body) {
		return ""
	}
	rest := body[off:]
	if !strings.HasPrefix(rest, "for") {
		return ""
	}
	k := strings.IndexByte(rest, '(')
	if k < 0 {
		return ""
	}
	depth := 0
	for i := k; i < len(rest); i++ {
		switch rest[i] {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			depth--
		case ';':
			if depth == 1 {
				return rest[k+1 : i]
			}
		}
	}
	return ""
}
