package cppfront

import (
	"bytes"
	"regexp"
	"strings"
)

// Template instantiations from the call sites of a file.
//
// A helper written for one element type is often a template called only
// under a guard that names the type:
//
//	if constexpr (std::is_same<IDX_T, int64_t>::value) {
//	    ComputeInt64<IDX_T>(addr, n);          // ComputeInt64 sees IDX_T = int64_t
//	} else if constexpr (IsSameType<IDX_T, int32_t>::value) {
//	    ComputeInt32<IDX_T>(addr, n);
//	}
//
// callSiteFacts records, for a function template whose every call in the
// file is found (also through AscendC::VF_CALL<F<T>>(...)), the types each
// of its parameters takes: from explicit template arguments that are
// types, or that are the caller's own parameters narrowed by an enclosing
// is_same guard (in the branch where it holds). A call that says nothing,
// or a call that cannot be found, leaves the function without instances:
// then every element size stays possible.

// sameRE matches is_same<A, B>::value, is_same_v<A, B> and IsSameType<A, B>::value.
var sameRE = regexp.MustCompile(`^(?:std::)?(?:is_same|is_same_v|IsSameType|AscendC::IsSameType)\s*<\s*([\w:]+)\s*,\s*([\w:]+)\s*>(?:\s*::\s*value)?$`)

// guard is what an enclosing if constexpr says about a template parameter.
type guard struct{ param, typ string }

// identOffsets returns where name starts as a whole identifier in src (as
// eachIdent splits it), in order. One scan for the name costs less than a
// map of every identifier of the file: a file has few VF regions to look
// up.
func identOffsets(src []byte, name string) []int {
	if name == "" || !isIdentStart(name[0]) {
		return nil
	}
	for k := 1; k < len(name); k++ {
		if !isIdentChar(name[k]) {
			return nil
		}
	}
	var out []int
	for i := 0; ; {
		j := bytes.Index(src[i:], []byte(name))
		if j < 0 {
			return out
		}
		k, e := i+j, i+j+len(name)
		if (k == 0 || !isIdentChar(src[k-1])) && (e == len(src) || !isIdentChar(src[e])) {
			out = append(out, k)
		}
		i = k + 1
	}
}

// functionIdents returns where the names of the functions the file
// defines (their last components) start as identifiers in src, found in
// one pass over src, as identOffsets finds one name: a file of many
// functions is not searched once per function. An identifier is looked up
// only when its first byte and its length are those of a name: most of a
// file's identifiers are not, and the lookup was most of the pass.
func functionIdents(src []byte, funcs []funcDef) map[string][]int {
	out := map[string][]int{}
	var first [256]bool
	var lens [64]bool // lens[n]: a name of n bytes; a longer one sets long
	long := false
	for _, fd := range funcs {
		if n := lastComponent(fd.name); n != "" {
			out[n] = nil
			first[n[0]] = true
			if len(n) < len(lens) {
				lens[len(n)] = true
			} else {
				long = true
			}
		}
	}
	for i := 0; i < len(src); {
		if !isIdentStart(src[i]) || i > 0 && isIdentChar(src[i-1]) {
			i++
			continue
		}
		e := i + 1
		for e < len(src) && isIdentChar(src[e]) {
			e++
		}
		if n := e - i; first[src[i]] && (n < len(lens) && lens[n] || n >= len(lens) && long) {
			if offs, ok := out[string(src[i:e])]; ok {
				out[string(src[i:e])] = append(offs, i)
			}
		}
		i = e
	}
	return out
}

// callOffsets returns the offsets of the places in the file that call name
// (name( or name<...>( not preceded by a type, as a declaration is),
// outside [from, to).
func (lw *lowerer) callOffsets(name string, from, to int) []int {
	src := lw.src
	if lw.idents == nil {
		lw.idents = functionIdents(src, lw.funcs)
	}
	offs, ok := lw.idents[name]
	if !ok {
		offs = identOffsets(src, name)
		lw.idents[name] = offs
	}
	var out []int
	for _, k := range offs {
		i := k + len(name)
		if k >= from && k < to {
			continue
		}
		j := skipSpace(src, i)
		if j < len(src) && src[j] == '<' {
			depth := 0
			for ; j < len(src); j++ {
				if src[j] == '<' {
					depth++
				} else if src[j] == '>' {
					depth--
					if depth == 0 {
						break
					}
				} else if src[j] == ';' || src[j] == '{' {
					break
				}
			}
			j = skipSpace(src, j+1)
		}
		if j < len(src) && src[j] == '>' {
			j = skipSpace(src, j+1) // VF_CALL<name<...>>(...): name is the function called
		}
		if j >= len(src) || src[j] != '(' {
			continue
		}
		// A declaration has a type (a word, >, *, &) before the name; a
		// qualified name (Class::name) is looked through.
		b := k
		for b >= 2 && src[b-1] == ':' && src[b-2] == ':' {
			b -= 2
			for b > 0 && (isIdentChar(src[b-1]) || src[b-1] == '>' || src[b-1] == '<' || src[b-1] == ',' || src[b-1] == ' ') {
				if src[b-1] == ' ' && b >= 2 && !isIdentChar(src[b-2]) && src[b-2] != '>' {
					break
				}
				b--
			}
		}
		// The last byte of the token before: white space and comments
		// are passed over (a comment ending the line before a call is no
		// type before a name).
		p := -1
		if j := lw.tokens().at(b) - 1; j >= 0 && lw.toks.toks[j].kind != '#' {
			p = int(lw.toks.toks[j].end) - 1 // after a directive (#endif), a statement starts
		}
		if p >= 1 && src[p] == '>' && src[p-1] == '-' {
			out = append(out, k) // this->name(
			continue
		}
		if p >= 0 && (isIdentChar(src[p]) || src[p] == '>' || src[p] == '*' || src[p] == '&') {
			w := p
			for w >= 0 && isIdentChar(src[w]) {
				w--
			}
			if word := string(src[w+1 : p+1]); word != "return" && word != "else" {
				continue
			}
		}
		out = append(out, k)
	}
	return out
}

// tokens returns the tokens of lw.src, lexed on first use.
func (lw *lowerer) tokens() *tokens {
	if lw.toks == nil {
		lw.toks = lexText(lw.src)
	}
	return lw.toks
}

// lastComponent returns the name after the last ::, . or -> that is not
// inside template arguments, without its own template arguments
// (Outer<T, U>::Inner<4> -> Inner).
func lastComponent(s string) string {
	depth, start := 0, 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '<':
			depth++
		case c == '>' && depth > 0:
			depth--
		case depth > 0:
		case c == ':' || c == '.' || c == '>':
			start = i + 1
		}
	}
	s = s[start:]
	if k := strings.IndexByte(s, '<'); k >= 0 {
		s = s[:k]
	}
	return strings.TrimSpace(s)
}
