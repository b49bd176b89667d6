package stream

import (
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/ascvet/ascvet/analyzers/internal/linear"
	"github.com/ascvet/ascvet/cppfront/ir"
)

// funcFacts is what the escape checks read of one function, gathered in
// one pass over its text and IR: a function with thousands of sites is
// read once, not once per site and name.
type funcFacts struct {
	body    string // the text, comments and strings blanked
	hasGoto bool

	lineStarts []int   // offsets of the body's lines
	stacks     [][]int // the preprocessor groups around each line (conditionalAt)

	addr        map[string]bool // &n
	ref         map[string]bool // T& r = n
	captured    map[string]bool // [&n] in a lambda's capture list
	capturedAll map[string]bool // named in the body of a lambda that captures by reference by default
	toInt       map[string]bool // (uint64_t)n, reinterpret_cast<...>(n)
	fromInt     map[string]bool // n = reinterpret_cast<...>(...), n = (T*)x
	condWrites  []condWrite     // lines under #if that write names
	passed      map[string]passedTo

	declared map[string]bool // parameters, declared names, loop variables and loop declarations
	pointers map[string]bool // declared as pointers
	regs     map[string]bool // registers
}

// condWrite is a line under a preprocessor condition and the names it writes.
type condWrite struct {
	stack []int
	names map[string]bool
}

// passedTo is the first call that may change a name passed to it.
type passedTo struct {
	callee  string
	unknown bool // the callee's body is not known
	unmatch bool // the argument matches no parameter
}

func (p passedTo) why(n string) string {
	switch {
	case p.unknown:
		return n + " is passed to " + p.callee + ", whose body is not known: it may take " + n + " by reference and change it"
	case p.unmatch:
		return n + " is passed to " + p.callee + ", which the analysis cannot match to a parameter"
	}
	return n + " is passed by reference to " + p.callee + ", which changes it"
}

var (
	identRe   = `[A-Za-z_]\w*`
	refRe     = regexp.MustCompile(`&\s*` + identRe + `\s*(?:=\s*(` + identRe + `)\s*[;,)]|[({]\s*(` + identRe + `)\s*[)}])`)
	toIntRe   = regexp.MustCompile(`(?:\(\s*(?:unsigned\s+long(?:\s+long)?|u?int(?:8|16|32|64|ptr)_t|size_t|uintptr_t)\s*\)\s*\(?\s*(` + identRe + `))|(?:(?:reinterpret|static)_cast\s*<[^>]*>\s*\(\s*(` + identRe + `))`)
	fromIntRe = regexp.MustCompile(`\b(` + identRe + `)\s*=\s*(?:reinterpret_cast\s*<|\(\s*(?:__ubuf__\s*)?` + identRe + `\s*\*\s*\))`)
	writeRe   = regexp.MustCompile(`(?:^|[^\w.>])(` + identRe + `)\s*(?:[-+*/%&|^]?=[^=]|\+\+|--)|(?:\+\+|--)\s*(` + identRe + `)`)
)

func newFuncFacts(fn *ir.Func, body string) *funcFacts {
	ff := &funcFacts{body: body, hasGoto: gotoRe.MatchString(body),
		addr: map[string]bool{}, ref: map[string]bool{}, captured: map[string]bool{}, capturedAll: map[string]bool{},
		toInt: map[string]bool{}, fromInt: map[string]bool{}, passed: map[string]passedTo{},
		declared: map[string]bool{}, pointers: map[string]bool{}, regs: map[string]bool{}}
	ff.scanAddr()
	for _, m := range refRe.FindAllStringSubmatch(body, -1) {
		ff.ref[m[1]+m[2]] = true
	}
	for _, m := range toIntRe.FindAllStringSubmatch(body, -1) {
		ff.toInt[m[1]+m[2]] = true
	}
	for _, m := range fromIntRe.FindAllStringSubmatch(body, -1) {
		ff.fromInt[m[1]] = true
	}
	ff.scanLambdas()
	ff.scanLines()
	for _, p := range fn.Params {
		ff.declared[p.Name] = true
		if p.Ptr {
			ff.pointers[p.Name] = true
		}
	}
	for _, d := range fn.Names {
		if d.Decl {
			ff.declared[d.Name] = true
			if d.Ptr {
				ff.pointers[d.Name] = true
			}
		}
	}
	for _, lp := range fn.Loops {
		if lp.Var != "" {
			ff.declared[lp.Var] = true
		}
		for _, d := range lp.Decls {
			ff.declared[d] = true
		}
	}
	for _, r := range fn.Regs {
		ff.regs[r.Name] = true
	}
	ff.scanCalls(fn)
	return ff
}

// scanAddr records the names whose address is taken: a unary & before a
// name that is not indexed, called or accessed (&p, not &p[k] or &p->x).
func (ff *funcFacts) scanAddr() {
	b := ff.body
	for i := 0; i < len(b); i++ {
		if b[i] != '&' {
			continue
		}
		if i+1 < len(b) && b[i+1] == '&' {
			i++
			continue
		}
		p := i - 1
		for p >= 0 && (b[p] == ' ' || b[p] == '\t' || b[p] == '\n' || b[p] == '\r') {
			p--
		}
		if p >= 0 && (linear.IdentChar(b[p]) || b[p] == ')' || b[p] == ']' || b[p] == '&') {
			continue // binary &, or a reference declarator (T& r)
		}
		j := i + 1
		for j < len(b) && (b[j] == ' ' || b[j] == '\t') {
			j++
		}
		k := j
		for k < len(b) && linear.IdentChar(b[k]) {
			k++
		}
		if k == j || b[j] >= '0' && b[j] <= '9' {
			continue
		}
		e := k
		for e < len(b) && (b[e] == ' ' || b[e] == '\t') {
			e++
		}
		if e < len(b) && (b[e] == '[' || b[e] == '(' || b[e] == '.' || linear.IdentChar(b[e]) || b[e] == '-' && e+1 < len(b) && b[e+1] == '>') {
			continue
		}
		ff.addr[b[j:k]] = true
	}
}

// scanLambdas records the names lambdas capture by reference: by name, or
// by default (& or this) and named in the lambda's body.
func (ff *funcFacts) scanLambdas() {
	body := ff.body
	for _, m := range lambdaRe.FindAllStringSubmatchIndex(body, -1) {
		capture := body[m[2]:m[3]]
		if !strings.Contains(capture, "&") && !strings.Contains(capture, "this") {
			continue
		}
		open := m[1] - 1
		inner := body[open:matchBrace(body, open)]
		for _, c := range strings.Split(capture, ",") {
			c = strings.TrimSpace(c)
			switch {
			case c == "&" || c == "this" || c == "*this":
				eachWord(inner, func(w string) { ff.capturedAll[w] = true })
			case strings.HasPrefix(c, "&"):
				ff.captured[strings.TrimSpace(c[1:])] = true
			}
		}
	}
}

// scanLines records the preprocessor groups around each line and the
// names written under a condition.
func (ff *funcFacts) scanLines() {
	var stack []int
	at := 0
	for _, l := range strings.SplitAfter(ff.body, "\n") {
		t := strings.TrimSpace(l)
		directive := strings.HasPrefix(t, "#")
		ff.lineStarts = append(ff.lineStarts, at)
		ff.stacks = append(ff.stacks, slices.Clone(stack)) // the groups the line is in
		if directive {
			d := strings.TrimSpace(t[1:])
			switch {
			case strings.HasPrefix(d, "if"):
				stack = append(stack, at)
			case strings.HasPrefix(d, "el"):
				if len(stack) > 0 {
					stack[len(stack)-1] = at
				}
			case strings.HasPrefix(d, "endif"):
				if len(stack) > 0 {
					stack = stack[:len(stack)-1]
				}
			}
		} else if len(stack) > 0 {
			names := map[string]bool{}
			for _, m := range writeRe.FindAllStringSubmatch(l, -1) {
				names[m[1]+m[2]] = true
			}
			if len(names) > 0 {
				ff.condWrites = append(ff.condWrites, condWrite{slices.Clone(stack), names})
			}
		}
		at += len(l)
	}
}

// conditionalAt returns the preprocessor groups around offset off of the
// body, outermost first (see the package's sameConditional).
func (ff *funcFacts) conditionalAt(off int) []int {
	k := sort.SearchInts(ff.lineStarts, off+1) - 1
	if k < 0 {
		return nil
	}
	return ff.stacks[k]
}

// scanCalls records, for each name passed alone to a call that is not of
// the API, the first call that may change it.
func (ff *funcFacts) scanCalls(fn *ir.Func) {
	writes := map[[2]any]bool{} // (target, parameter) -> the target writes it
	for _, in := range fn.Instrs {
		if in.Op != ir.OpCall && in.Op != ir.OpUnknown || apiCallee(in.Callee) {
			continue
		}
		for k, a := range in.Args {
			n := strings.TrimSpace(a.Text)
			if !isPlainIdent(n) {
				continue
			}
			if _, ok := ff.passed[n]; ok {
				continue
			}
			switch {
			case in.Target == nil:
				ff.passed[n] = passedTo{callee: in.Name, unknown: true}
			case k >= len(in.Target.Params):
				ff.passed[n] = passedTo{callee: in.Name, unmatch: true}
			default:
				p := in.Target.Params[k]
				if !p.Ref || strings.Contains(p.Type, "const") {
					continue
				}
				key := [2]any{in.Target, p.Name}
				w, ok := writes[key]
				if !ok {
					w = writesName(in.Target, p.Name)
					writes[key] = w
				}
				if w {
					ff.passed[n] = passedTo{callee: in.Name}
				}
			}
		}
	}
}

// isPlainIdent reports whether s is one identifier.
func isPlainIdent(s string) bool {
	if s == "" || s[0] >= '0' && s[0] <= '9' {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !linear.IdentChar(s[i]) {
			return false
		}
	}
	return true
}

// eachWord calls f with each identifier of text.
func eachWord(text string, f func(string)) {
	for i := 0; i < len(text); {
		if !linear.IdentChar(text[i]) {
			i++
			continue
		}
		j := i
		for j < len(text) && linear.IdentChar(text[j]) {
			j++
		}
		if text[i] < '0' || text[i] > '9' {
			f(text[i:j])
		}
		i = j
	}
}
