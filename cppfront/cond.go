package cppfront

import "strings"

// Conditional compilation, as far as the file itself decides it.
//
// A compiler keeps one group of each #if ... #elif ... #else ... #endif and
// drops the others. The front end cannot know every macro a build defines
// (the toolchain's __NPU_ARCH__, a header's include guard), so a
// conditional is decided only when each condition up to the group it keeps
// reads nothing unknown:
//   - integer literals, true and false (#if 0, #if 1);
//   - macros the command line defines (-D NAME[=VALUE], Index.SetDefines);
//   - macros the file #defines or #undefs before, in a group that is kept.
//
// A name nothing of these defines is unknown, not 0 (a header or the
// toolchain may define it), and so is a name #defined in a group that is
// itself undecided. For a decided conditional, the pre-pass blanks its
// directives and every group but the one kept (every newline stays, and so
// every offset): the rules, the simulator and the index then see the code
// the compiler builds, and a kernel written for two scenarios is read for
// the one named with -D. An undecided conditional is left as it is: all its
// groups stay, as before.

// condValue is what the pre-pass knows of a macro.
type condValue struct {
	defined bool   // known to be defined (false: known to be undefined)
	value   string // its replacement text when object-like and known
	known   bool   // the replacement text is known (object-like)
}

// condFrame is one conditional being read.
type condFrame struct {
	dirs    []int // tokens of its directives: #if..., #elif..., #else, #endif
	chosen  int   // the group kept (index into dirs), -1 none yet
	unknown bool  // a condition could not be decided before a group was kept
	dead    bool  // inside a group that is dropped: nothing here counts
	guard   bool  // an include guard: its group kept, its directives left
	outer   byte  // what the enclosing group is: 'y' kept, '?' undecided ('n': dead)
}

// guards reports whether the #ifndef that is token k of t, naming the
// macro in rest, is an include guard: a macro of unknown state that the
// next directive #defines.
func guards(out []byte, t *tokens, k int, rest string, state map[string]condValue) bool {
	m, _ := defineOf(rest)
	if _, ok := state[m]; ok || m == "" {
		return false
	}
	for _, tk := range t.toks[k+1:] {
		if tk.kind == '#' {
			name, rest := directiveOf(out[tk.start:tk.end])
			d, _ := defineOf(rest)
			return name == "define" && d == m
		}
	}
	return false
}

// selectConditionals blanks in out the directives and dropped groups of
// the conditionals the file decides (see above), defs being the command
// line's macros. t are out's tokens. It reports whether it blanked
// anything.
func selectConditionals(out []byte, t *tokens, defs map[string]string) bool {
	state := map[string]condValue{}
	for k, v := range defs {
		if v == "" {
			v = "1" // -D NAME
		}
		state[k] = condValue{defined: true, value: v, known: true}
	}
	var stack []*condFrame
	live := func() byte { // 'y' kept, 'n' dropped, '?' undecided
		if len(stack) == 0 {
			return 'y'
		}
		f := stack[len(stack)-1]
		switch {
		case f.dead:
			return 'n'
		case f.unknown:
			return '?' // (a dead outer group makes f dead)
		case f.chosen != len(f.dirs)-1:
			return 'n'
		}
		return f.outer
	}
	var spans [][2]int // to blank
	for k, tk := range t.toks {
		if tk.kind != '#' {
			continue
		}
		name, rest := directiveOf(out[tk.start:tk.end])
		switch name {
		case "if", "ifdef", "ifndef":
			l := live()
			f := &condFrame{dirs: []int{k}, chosen: -1, dead: l == 'n', outer: l}
			stack = append(stack, f)
			switch {
			case f.dead:
			case name == "ifndef" && guards(out, t, k, rest, state):
				// An include guard: the file is read as the compiler first
				// reads it, its guard undefined. Its directives stay.
				f.chosen, f.guard = 0, true
			default:
				f.decide(condOf(name, rest, state))
			}
		case "elif", "elifdef", "elifndef":
			if len(stack) == 0 {
				return blankSpans(out, spans)
			}
			f := stack[len(stack)-1]
			f.dirs = append(f.dirs, k)
			if !f.dead && !f.unknown && f.chosen < 0 {
				f.decide(condOf(strings.TrimPrefix(name, "el"), rest, state))
			}
		case "else":
			if len(stack) == 0 {
				return blankSpans(out, spans)
			}
			f := stack[len(stack)-1]
			f.dirs = append(f.dirs, k)
			if !f.dead && !f.unknown && f.chosen < 0 {
				f.chosen = len(f.dirs) - 1
			}
		case "endif":
			if len(stack) == 0 {
				return blankSpans(out, spans)
			}
			f := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			f.dirs = append(f.dirs, k)
			if f.dead || f.unknown || f.guard {
				continue
			}
			for g, d := range f.dirs {
				spans = append(spans, [2]int{int(t.toks[d].start), int(t.toks[d].end)})
				if g < len(f.dirs)-1 && g != f.chosen {
					spans = append(spans, [2]int{int(t.toks[d].end), int(t.toks[f.dirs[g+1]].start)})
				}
			}
		case "define", "undef":
			l := live()
			macro, body := defineOf(rest)
			switch {
			case macro == "" || l == 'n':
			case hasKey(defs, macro):
				// The command line's definition holds over the file's, as
				// it does for the constants that read it (Index.SetDefines).
			case l == '?':
				delete(state, macro) // defined or not: unknown
			case name == "undef":
				state[macro] = condValue{known: true}
			case body.fn:
				state[macro] = condValue{defined: true}
			default:
				state[macro] = condValue{defined: true, value: body.text, known: true}
			}
		}
	}
	if len(stack) > 0 {
		return false // unbalanced: a conditional open at the end; decide nothing
	}
	return blankSpans(out, spans)
}

// hasKey reports whether m has the key k.
func hasKey(m map[string]string, k string) bool {
	_, ok := m[k]
	return ok
}

// decide records the value of the condition of f's last group.
func (f *condFrame) decide(v int64, ok bool) {
	switch {
	case !ok:
		f.unknown = true
	case v != 0:
		f.chosen = len(f.dirs) - 1
	}
}

// blankSpans fills spans of out with blanks, keeping line breaks.
func blankSpans(out []byte, spans [][2]int) bool {
	for _, s := range spans {
		fill(out[s[0]:s[1]])
	}
	return len(spans) > 0
}

// directiveOf returns the name of the directive d (its text, from the #)
// and the rest of its logical line, comments removed and continued lines
// joined.
func directiveOf(d []byte) (string, string) {
	s := strings.ReplaceAll(strings.ReplaceAll(string(d[1:]), "\\\r\n", " "), "\\\n", " ")
	s = strings.TrimSpace(stripComments(s))
	i := 0
	for i < len(s) && isIdentChar(s[i]) {
		i++
	}
	return s[:i], strings.TrimSpace(s[i:])
}

// macroBody is a #define's replacement.
type macroBody struct {
	text string
	fn   bool // function-like: NAME( with no space before the parenthesis
}

// defineOf splits the rest of a #define (or #undef) line into the macro's
// name and its replacement.
func defineOf(rest string) (string, macroBody) {
	i := 0
	for i < len(rest) && isIdentChar(rest[i]) {
		i++
	}
	if i == 0 || !isIdentStart(rest[0]) {
		return "", macroBody{}
	}
	if i < len(rest) && rest[i] == '(' {
		return rest[:i], macroBody{fn: true}
	}
	return rest[:i], macroBody{text: strings.TrimSpace(rest[i:])}
}

// condOf evaluates the condition of an #if (name "if", rest its
// expression) or the name of an #ifdef or #ifndef, under state.
func condOf(name, rest string, state map[string]condValue) (int64, bool) {
	switch name {
	case "ifdef", "ifndef":
		m, _ := defineOf(rest)
		v, ok := state[m]
		if m == "" || !ok {
			return 0, false
		}
		if v.defined == (name == "ifdef") {
			return 1, true
		}
		return 0, true
	}
	p := &condParser{s: rest, state: state, steps: new(int)}
	v, ok := p.ternary()
	p.space()
	if p.failed || p.i != len(p.s) {
		return 0, false
	}
	return v, ok
}

// condParser evaluates an #if expression in three values: known and
// nonzero, known and zero, unknown (ok false). A && or || whose one side
// decides it is decided, as the preprocessor short-circuits; failed marks
// text it cannot read (then nothing is decided).
type condParser struct {
	s      string
	i      int
	state  map[string]condValue
	depth  int  // macro replacements being read, against a definition that names itself
	nest   int  // parentheses and unary operators open, against a stack overflow
	steps  *int // operands read in all, against definitions that multiply each other
	failed bool
}

// Limits of one #if's evaluation; past them it is undecided.
const (
	condMaxNest  = 256
	condMaxSteps = 1 << 16
)

func (p *condParser) space() {
	for p.i < len(p.s) && (p.s[p.i] == ' ' || p.s[p.i] == '\t' || p.s[p.i] == '\n' || p.s[p.i] == '\r') {
		p.i++
	}
}

func (p *condParser) eat(op string) bool {
	p.space()
	if !strings.HasPrefix(p.s[p.i:], op) {
		return false
	}
	// Not the first character of a longer operator.
	if n := p.i + len(op); n < len(p.s) {
		switch two := p.s[p.i:min(n+1, len(p.s))]; {
		case op == "<" && (two == "<<" || two == "<="), op == ">" && (two == ">>" || two == ">="),
			op == "&" && two == "&&", op == "|" && two == "||", op == "!" && two == "!=", op == "=" && two == "==":
			return false
		}
	}
	p.i += len(op)
	return true
}

func (p *condParser) ternary() (int64, bool) {
	c, cok := p.binary(0)
	if !p.eat("?") {
		return c, cok
	}
	a, aok := p.ternary()
	if !p.eat(":") {
		p.failed = true
		return 0, false
	}
	b, bok := p.ternary()
	switch {
	case !cok:
		return 0, false
	case c != 0:
		return a, aok
	default:
		return b, bok
	}
}

// condLevels are the binary operators by precedence, loosest first.
var condLevels = [][]string{{"||"}, {"&&"}, {"|"}, {"^"}, {"&"}, {"==", "!="}, {"<=", ">=", "<", ">"}, {"<<", ">>"}, {"+", "-"}, {"*", "/", "%"}}

func (p *condParser) binary(level int) (int64, bool) {
	if level == len(condLevels) {
		return p.unary()
	}
	x, xok := p.binary(level + 1)
	for !p.failed {
		op := ""
		for _, o := range condLevels[level] {
			if p.eat(o) {
				op = o
				break
			}
		}
		if op == "" {
			return x, xok
		}
		y, yok := p.binary(level + 1)
		switch {
		case op == "&&" && (xok && x == 0 || yok && y == 0):
			x, xok = 0, true
			continue
		case op == "||" && (xok && x != 0 || yok && y != 0):
			x, xok = 1, true
			continue
		case !xok || !yok:
			x, xok = 0, false
			continue
		}
		x, xok = condApply(op, x, y)
	}
	return x, xok
}

// condApply applies a binary operator to two known values.
func condApply(op string, x, y int64) (int64, bool) {
	b := func(c bool) int64 {
		if c {
			return 1
		}
		return 0
	}
	switch op {
	case "&&":
		return b(x != 0 && y != 0), true
	case "||":
		return b(x != 0 || y != 0), true
	case "|":
		return x | y, true
	case "^":
		return x ^ y, true
	case "&":
		return x & y, true
	case "==":
		return b(x == y), true
	case "!=":
		return b(x != y), true
	case "<":
		return b(x < y), true
	case ">":
		return b(x > y), true
	case "<=":
		return b(x <= y), true
	case ">=":
		return b(x >= y), true
	case "<<", ">>":
		if y < 0 || y > 62 {
			return 0, false
		}
		if op == "<<" {
			return x << y, true
		}
		return x >> y, true
	case "+":
		return x + y, true
	case "-":
		return x - y, true
	case "*":
		return x * y, true
	case "/", "%":
		if y == 0 {
			return 0, false
		}
		if op == "/" {
			return x / y, true
		}
		return x % y, true
	}
	return 0, false
}

func (p *condParser) unary() (int64, bool) {
	if p.nest++; p.nest > condMaxNest {
		p.failed = true
		return 0, false
	}
	defer func() { p.nest-- }()
	switch {
	case p.eat("!"):
		v, ok := p.unary()
		if v == 0 {
			return 1, ok
		}
		return 0, ok
	case p.eat("-"):
		v, ok := p.unary()
		return -v, ok
	case p.eat("+"):
		return p.unary()
	case p.eat("~"):
		v, ok := p.unary()
		return ^v, ok
	}
	return p.primary()
}

func (p *condParser) primary() (int64, bool) {
	p.space()
	if *p.steps++; *p.steps > condMaxSteps {
		p.failed = true
	}
	if p.failed || p.i >= len(p.s) {
		p.failed = true
		return 0, false
	}
	c := p.s[p.i]
	switch {
	case c == '(':
		p.i++
		v, ok := p.ternary()
		if !p.eat(")") {
			p.failed = true
		}
		return v, ok
	case c >= '0' && c <= '9':
		v, j, ok := numberAt(p.s, p.i)
		p.i = j
		if !ok {
			p.failed = true
		}
		return v, ok
	case isIdentStart(c):
		j := p.i
		for j < len(p.s) && isIdentChar(p.s[j]) {
			j++
		}
		id := p.s[p.i:j]
		p.i = j
		switch id {
		case "defined":
			paren := p.eat("(")
			p.space()
			k := p.i
			for k < len(p.s) && isIdentChar(p.s[k]) {
				k++
			}
			m := p.s[p.i:k]
			p.i = k
			if m == "" || paren && !p.eat(")") {
				p.failed = true
				return 0, false
			}
			v, ok := p.state[m]
			if !ok {
				return 0, false
			}
			if v.defined {
				return 1, true
			}
			return 0, true
		case "true":
			return 1, true
		case "false":
			return 0, true
		}
		p.space()
		if p.i < len(p.s) && p.s[p.i] == '(' {
			p.failed = true // a function-like macro's call: not read here
			return 0, false
		}
		v, ok := p.state[id]
		switch {
		case !ok:
			return 0, false
		case !v.defined:
			return 0, true // known undefined: 0, as the preprocessor reads it
		case !v.known || p.depth >= 8:
			return 0, false
		}
		if v.value == "" {
			return 0, false // #define NAME: an #if of it does not compile
		}
		sub := &condParser{s: v.value, state: p.state, depth: p.depth + 1, nest: p.nest, steps: p.steps}
		r, rok := sub.ternary()
		sub.space()
		if sub.failed || sub.i != len(sub.s) {
			return 0, false
		}
		return r, rok
	}
	p.failed = true
	return 0, false
}
