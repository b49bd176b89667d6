package ir

import (
	"slices"
	"strconv"
	"strings"
	"sync"
)

// Conditions of if constexpr: Taken folds one under an instantiation's
// Bindings with a small parser of C++ constant expressions (is_same,
// sizeof, comparisons, logic), over the canonical spelling of types.

// Taken returns the branch of an if constexpr that an instantiation with
// bindings b compiles (an empty block for a false condition without an
// else), and whether the condition folds. A runtime if never folds here.
func (s *If) Taken(b Bindings) (*Block, bool) {
	if !s.Constexpr {
		return nil, false
	}
	v, ok := EvalCond(s.CondText, s.Cond, b)
	if !ok {
		return nil, false
	}
	if v != 0 {
		return s.Then, true
	}
	if s.Else == nil {
		return &Block{}, true
	}
	return s.Else, true
}

// EvalCond folds a constant condition: its text as written (for the type
// traits an expression cannot hold: is_same, IsSameType, sizeof of a bound
// type), else its expression with b's values bound.
func EvalCond(text string, cond *Expr, b Bindings) (int64, bool) {
	if text != "" {
		p := &condParser{toks: condTokensOf(text), b: b}
		if v, ok := p.or(); ok && p.k == len(p.toks) {
			return v, true
		}
	}
	return b.Subst(cond).Value()
}

// condParser evaluates a C++ constant condition over tokens. Each level
// returns ok false for what it cannot fold; && and || still fold when the
// known side decides.
type condParser struct {
	toks  []string
	k     int
	b     Bindings
	depth int // unary and parenthesis nesting, bounded by maxCondDepth
}

// maxCondDepth bounds the nesting the condition parser follows (!!!...x,
// ((...))): deeper, the condition does not fold.
const maxCondDepth = 256

func (p *condParser) peek() string {
	if p.k < len(p.toks) {
		return p.toks[p.k]
	}
	return ""
}

func (p *condParser) or() (int64, bool) { return p.logic("||", 1, p.and) }

func (p *condParser) and() (int64, bool) { return p.logic("&&", 0, p.cmp) }

// logic folds a chain of one logical operator over operands: a known
// operand equal to absorb (1 for ||, 0 for &&) decides the chain even when
// another is not known.
func (p *condParser) logic(op string, absorb int64, operand func() (int64, bool)) (int64, bool) {
	v, ok := operand()
	for p.peek() == op {
		p.k++
		w, wok := operand()
		switch {
		case ok && (v != 0) == (absorb != 0), wok && (w != 0) == (absorb != 0):
			v, ok = absorb, true
		case ok && wok:
			v = 1 - absorb
		default:
			ok = false
		}
	}
	return v, ok
}

// condLevels are the binary operators the condition parser folds, from
// the loosest binding level (comparisons) to the tightest (arithmetic).
var condLevels = []map[string]bool{
	{"==": true, "!=": true, "<": true, ">": true, "<=": true, ">=": true},
	{"+": true, "-": true, "*": true, "/": true, "%": true, "&": true, "|": true},
}

func (p *condParser) cmp() (int64, bool) { return p.binary(0) }

// binary folds the operators of condLevels[level], left to right, over
// operands of the next level (unary ones past the last).
func (p *condParser) binary(level int) (int64, bool) {
	operand := func() (int64, bool) {
		if level+1 < len(condLevels) {
			return p.binary(level + 1)
		}
		return p.unary()
	}
	k0 := p.k
	v, ok := operand()
	left := p.enumerator(k0)
	for {
		op := p.peek()
		if !condLevels[level][op] {
			return v, ok
		}
		p.k++
		k1 := p.k
		w, wok := operand()
		if l, r := left, p.enumerator(k1); (!ok || !wok) && (op == "==" || op == "!=") && l != "" && r != "" && (l == r || qualifier(l) == qualifier(r)) {
			// Two enumerators of one enumeration (pseMode ==
			// PseTypeEnum::X, the parameter bound to one): equal when
			// they are the same one. Names of two scopes may be
			// constants of one value: not folded.
			v, ok = b2i((l == r) == (op == "==")), true
			left = ""
			continue
		}
		left = ""
		if !ok || !wok {
			ok = false
			continue
		}
		v, ok = foldBin(op, v, w)
	}
}

// qualifier returns what qualifies a name: "E" for E::X.
func qualifier(name string) string {
	if k := strings.LastIndex(name, "::"); k >= 0 {
		return name[:k]
	}
	return ""
}

// enumerator returns the enumerator the operand that starts at token k
// names, when it is one token: a qualified name (PseTypeEnum::X), or a
// template parameter bound to one; "" otherwise.
func (p *condParser) enumerator(k int) string {
	if p.k != k+1 {
		return ""
	}
	t := p.toks[k]
	if t == "" || !isIdentStart(t[0]) {
		return ""
	}
	if v, ok := p.b.Values[t]; ok && v != nil {
		if v.Kind != ExprSym {
			return ""
		}
		t = v.Name
	} else if u := p.b.Type(t); u != t {
		t = u
	}
	t = strings.TrimPrefix(t, "::")
	if !strings.Contains(t, "::") {
		return "" // a name not bound, or not qualified: not known to be an enumerator
	}
	return t
}

func (p *condParser) unary() (int64, bool) {
	if p.depth++; p.depth > maxCondDepth {
		p.k = len(p.toks)
		return 0, false
	}
	defer func() { p.depth-- }()
	switch p.peek() {
	case "!":
		p.k++
		v, ok := p.unary()
		return b2i(v == 0), ok
	case "-":
		p.k++
		v, ok := p.unary()
		return -v, ok
	case "(":
		p.k++
		v, ok := p.or()
		if p.peek() != ")" {
			return 0, false
		}
		p.k++
		return v, ok
	}
	return p.primary()
}

// traitNames are the spellings of std::is_same.
var traitNames = map[string]bool{
	"is_same": true, "is_same_v": true, "IsSameType": true, "IsSameTypeV": true, "IsSame": true,
}

func (p *condParser) primary() (int64, bool) {
	t := p.peek()
	if t == "" {
		return 0, false
	}
	p.k++
	switch {
	case t == "true":
		return 1, true
	case t == "false":
		return 0, true
	case t[0] >= '0' && t[0] <= '9':
		v, err := strconv.ParseInt(strings.TrimRight(t, "uUlL"), 0, 64)
		return v, err == nil
	case t == "sizeof":
		args, ok := p.group("(", ")")
		if !ok || len(args) != 1 {
			return 0, false
		}
		return ElemSize(p.b.Type(args[0]))
	case !isIdentStart(t[0]):
		return 0, false
	}
	name := t
	if k := strings.LastIndex(name, "::"); k >= 0 {
		name = name[k+2:]
	}
	if traitNames[name] && p.peek() == "<" {
		args, ok := p.group("<", ">")
		p.suffix()
		if !ok || len(args) != 2 {
			return 0, false
		}
		a, b := canonType(p.b.Type(args[0])), canonType(p.b.Type(args[1]))
		if a == b {
			return 1, true
		}
		if _, ka := ElemSize(a); !ka {
			return 0, false // a template parameter not bound, or a type not known
		}
		if _, kb := ElemSize(b); !kb {
			return 0, false
		}
		return 0, true
	}
	if p.peek() == "<" || p.peek() == "(" {
		return 0, false // another template or a call: not folded here
	}
	p.suffix()
	if v, ok := p.b.Values[t]; ok {
		return v.Value()
	}
	return 0, false
}

// suffix skips ::value and () after a trait.
func (p *condParser) suffix() {
	if p.peek() == "::value" {
		p.k++
	}
	if p.peek() == "(" && p.k+1 < len(p.toks) && p.toks[p.k+1] == ")" {
		p.k += 2
	}
}

// group reads a bracketed list opened by open, split at its top-level
// commas, each part's tokens joined.
func (p *condParser) group(open, close string) ([]string, bool) {
	if p.peek() != open {
		return nil, false
	}
	p.k++
	var parts []string
	var cur []string
	depth := 0
	for p.k < len(p.toks) {
		t := p.toks[p.k]
		p.k++
		switch {
		case t == "<" || t == "(":
			depth++
		case (t == ">" || t == ")") && depth > 0:
			depth--
		case t == close && depth == 0:
			return append(parts, strings.Join(cur, " ")), true
		case t == ">>" && close == ">" && depth == 1:
			// A<B<C>> closes two levels.
			p.toks[p.k-1] = ">"
			p.k--
			depth--
			cur = append(cur, ">")
			continue
		case t == "," && depth == 0:
			parts = append(parts, strings.Join(cur, " "))
			cur = nil
			continue
		}
		cur = append(cur, t)
	}
	return nil, false
}

// condToks keeps the tokens of the conditions split so far: a simulated
// body folds every if constexpr of its loop and of the helpers it inlines
// once per instantiation, as written and with each fix, and splitting
// the same few texts again was half of that folding's CPU in a file of
// large helpers. It starts again empty at condToksMax texts.
var condToks struct {
	sync.Mutex
	m map[string][]string
}

const condToksMax = 1 << 14

// condTokensOf is condTokens(s), from condToks when s was split before.
// The slice is the caller's own: the parser rewrites a >> it splits.
func condTokensOf(s string) []string {
	condToks.Lock()
	t, ok := condToks.m[s]
	condToks.Unlock()
	if !ok {
		t = condTokens(s)
		condToks.Lock()
		if condToks.m == nil || len(condToks.m) >= condToksMax {
			condToks.m = map[string][]string{}
		}
		condToks.m[s] = t
		condToks.Unlock()
	}
	return slices.Clone(t)
}

// condTokens splits a condition: qualified names (with ::value kept as a
// token of its own), numbers, and operators.
func condTokens(s string) []string {
	var out []string
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			i++
		case isIdentStart(c) || c == ':' && i+1 < len(s) && s[i+1] == ':':
			j := i
			for j < len(s) && (isIdentChar(s[j]) || s[j] == ':' && j+1 < len(s) && s[j+1] == ':') {
				if s[j] == ':' {
					j += 2
					continue
				}
				j++
			}
			raw := s[i:j]
			w := strings.TrimPrefix(raw, "::")
			switch v, ok := strings.CutSuffix(w, "::value"); {
			case raw == "::value":
				out = append(out, raw) // is_same<A, B>::value
			case ok && v != "":
				out = append(out, v, "::value")
			default:
				out = append(out, w)
			}
			i = j
		case c >= '0' && c <= '9':
			j := i
			for j < len(s) && (isIdentChar(s[j]) || s[j] == '.') {
				j++
			}
			out = append(out, s[i:j])
			i = j
		default:
			if i+1 < len(s) {
				switch two := s[i : i+2]; two {
				case "&&", "||", "==", "!=", "<=", ">=", ">>":
					out = append(out, two)
					i += 2
					continue
				}
			}
			out = append(out, s[i:i+1])
			i++
		}
	}
	return out
}

func isIdentStart(c byte) bool { return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
func isIdentChar(c byte) bool  { return isIdentStart(c) || c >= '0' && c <= '9' }

// canonType normalises a type for comparison: qualifiers, namespaces and
// spacing dropped.
func canonType(t string) string {
	t = strings.TrimSpace(t)
	t = strings.TrimPrefix(t, "const ")
	t = strings.TrimPrefix(t, "::")
	for _, ns := range []string{"AscendC::", "std::"} {
		t = strings.TrimPrefix(t, ns)
	}
	switch t {
	case "float32_t":
		return "float"
	case "float16_t":
		return "half"
	case "int":
		return "int32_t"
	case "unsigned", "unsigned int":
		return "uint32_t"
	}
	return strings.ReplaceAll(t, " ", "")
}
