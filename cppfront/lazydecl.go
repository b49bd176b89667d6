package cppfront

import "sort"

// Declarations lowering never reads.
//
// Outside function bodies, the text a kernel file keeps for tree-sitter is
// mostly its classes and namespaces: member variables, type aliases,
// constants, and the prototypes of functions defined elsewhere. A
// prototype is a declaration whose tree lowering never walks: walkDecls
// reads a declaration for a constant (constDecl: const or constexpr, and
// an initialiser) and a field for a member's type (recordFields), and
// neither is a function's declarator. Every fact a prototype gives the
// lowering (a VF marker, the names a class declares) comes from the text,
// which the lowerer reads unblanked. So planLazy blanks, as it blanks a
// body, every declaration-level prototype the scan is sure of:
//
//	template <typename T>                                  // blanked
//	__aicore__ inline void CopyIn(int32_t i, T *x);
//	__aicore__ inline LocalTensor<T> Get() const;           // blanked
//	void (*hook)(int);                                     // kept: a pointer
//	static constexpr uint32_t kLen(64);                    // kept: constexpr
//	REGISTER_KERNEL(AddCustom);                            // kept: one name
//
// Sure means: a statement at declaration level (not in a function body,
// not split by a directive) that ends in ";", starts with a word, has no
// "=" outside parentheses, and reads as a function's declarator: at least
// two words before its first parenthesis (a type and a name: a macro
// invocation has one), the last of them a name, and after the matching
// ")" only const, volatile, override, final, noexcept and & or &&. It
// names no VF marker, and none of the words that make a declaration more
// than a prototype (constexpr, const before the name, friend, operator,
// extern, using, typedef, static_assert, an explicit specialisation's
// template <>). An access specifier before it is kept.

// protoRejects are the words that keep a statement that would otherwise
// read as a prototype.
var protoRejects = map[string]bool{
	"using": true, "typedef": true, "static_assert": true, "constexpr": true, "consteval": true,
	"constinit": true, "const": true, "friend": true, "operator": true, "extern": true,
	"return": true, "enum": true, "class": true, "struct": true, "union": true, "namespace": true,
	"decltype": true, "auto": true, "sizeof": true, "alignas": true, "asm": true, "__asm__": true,
	"__attribute__": true, "typename": true, "requires": true, "concept": true,
	"public": true, "private": true, "protected": true,
}

// protoAfter are the words that may follow a prototype's parameter list.
var protoAfter = map[string]bool{"const": true, "volatile": true, "override": true, "final": true, "noexcept": true}

// prototypes returns the byte ranges [from, to) of the declaration-level
// prototypes of t that planLazy may blank (see above): blocks are
// scanBlocks', hits the VF markers' offsets (vfHits).
func (t *tokens) prototypes(blocks []lazyBlock, hits []int) [][2]int {
	src := t.src
	closeOf := make(map[int]int, len(blocks)) // the outermost brace blocks that are not namespaces or classes: skipped whole
	for _, b := range blocks {
		if b.parent < 0 && b.close > b.open {
			closeOf[b.open] = b.close
		}
	}
	var out [][2]int
	start := 0 // the first token of the statement being read
	for k := 0; k < len(t.toks); k++ {
		tk := t.toks[k]
		c := src[tk.start]
		switch {
		case tk.kind == '#':
			if k == start {
				start = k + 1 // a directive between statements
			} else {
				start = -1 // one inside a statement: not this one
			}
		case tk.kind == 'p' && c == '{':
			if end, ok := closeOf[int(tk.start)]; ok {
				k = t.at(end) // a function body (or an initialiser's braces): skipped
			}
			start = k + 1
		case tk.kind == 'p' && c == '}':
			start = k + 1
		case tk.kind == 'p' && c == ';':
			if start >= 0 && start < k {
				if from, ok := t.prototype(start, k, hits); ok {
					out = append(out, [2]int{from, int(tk.end)})
				}
			}
			start = k + 1
		case tk.kind == 'a' && k == start && start+1 < len(t.toks) && src[t.toks[start+1].start] == ':' &&
			t.toks[start+1].kind == 'p' && accessWord(src[tk.start:tk.end]):
			if k+2 < len(t.toks) && t.toks[k+2].kind == 'p' && src[t.toks[k+2].start] == ':' {
				start = -1 // public:: is no access specifier
				continue
			}
			k++
			start = k + 1 // public: stays
		}
	}
	return out
}

func accessWord(w []byte) bool {
	s := string(w)
	return s == "public" || s == "private" || s == "protected"
}

// prototype reports whether the tokens [from, semi) of t, a statement at
// declaration level ending at the ";" semi, are a prototype planLazy may
// blank, and the offset its text starts at.
func (t *tokens) prototype(from, semi int, hits []int) (int, bool) {
	src := t.src
	toks := t.toks[from:semi]
	if toks[0].kind != 'a' {
		return 0, false
	}
	start, end := int(toks[0].start), int(t.toks[semi].end)
	lo := 0 // a marker the pre-pass blanked lies before the first token
	if from > 0 {
		lo = int(t.toks[from-1].end)
	}
	if k := sort.SearchInts(hits, lo); k < len(hits) && hits[k] < end {
		return 0, false // a VF marker
	}
	i := 0
	if string(src[toks[0].start:toks[0].end]) == "template" {
		// template <...>: its parameter list, not empty (an explicit
		// specialisation) and with its < > balanced outside parentheses.
		if len(toks) < 3 || src[toks[1].start] != '<' || src[toks[2].start] == '>' {
			return 0, false
		}
		depth, parens := 0, 0
		for i = 1; i < len(toks); i++ {
			switch c := src[toks[i].start]; {
			case toks[i].kind != 'p':
			case c == '(' || c == '[':
				parens++
			case c == ')' || c == ']':
				parens--
			case c == '<' && parens == 0:
				depth++
			case c == '>' && parens == 0:
				depth--
			}
			if depth == 0 {
				break
			}
		}
		if depth != 0 {
			return 0, false
		}
		i++
	}
	words, lastName := 0, false
	for ; i < len(toks); i++ {
		tk := toks[i]
		w := src[tk.start:tk.end]
		if tk.kind == 'a' {
			if protoRejects[string(w)] || string(w) == "template" {
				return 0, false
			}
			words++
			lastName = true
			continue
		}
		if tk.kind != 'p' {
			return 0, false // a literal before the parameters
		}
		if w[0] == '(' {
			break
		}
		lastName = false
		if w[0] == '=' || w[0] == '[' || w[0] == '{' || w[0] == '}' {
			return 0, false
		}
	}
	if i == len(toks) || words < 2 || !lastName {
		return 0, false
	}
	// The parameter list, to its matching ")".
	parens := 0
	for ; i < len(toks); i++ {
		if toks[i].kind != 'p' {
			continue
		}
		switch src[toks[i].start] {
		case '(', '[':
			parens++
		case ')', ']':
			parens--
		case '{', '}':
			return 0, false
		}
		if parens == 0 {
			break
		}
	}
	if parens != 0 {
		return 0, false
	}
	for i++; i < len(toks); i++ {
		tk := toks[i]
		w := src[tk.start:tk.end]
		switch {
		case tk.kind == 'a' && protoAfter[string(w)]:
		case tk.kind == 'p' && w[0] == '&':
		default:
			return 0, false
		}
	}
	return start, true
}
