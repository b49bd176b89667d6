package cppfront

import (
	"bytes"
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
// Identifiers inside comments, string and character literals are left alone.
func prepass(src []byte) ([]byte, []blank) {
	out := make([]byte, len(src))
	copy(out, src)
	var blanks []blank
	n := len(out)
	for i := 0; i < n; {
		c := out[i]
		switch {
		case c == '/' && i+1 < n && out[i+1] == '/':
			j := bytes.IndexByte(out[i:], '\n')
			if j < 0 {
				return out, blanks
			}
			i += j
		case c == '/' && i+1 < n && out[i+1] == '*':
			j := bytes.Index(out[i+2:], []byte("*/"))
			if j < 0 {
				return out, blanks
			}
			i += j + 4
		case c == '"' || c == '\'':
			if c == '"' && i > 0 && out[i-1] == 'R' {
				i = skipRawString(out, i)
				continue
			}
			i = skipQuoted(out, i, c)
		case isIdentStart(c):
			j := i + 1
			for j < n && isIdentChar(out[j]) {
				j++
			}
			if i > 0 && (isIdentChar(out[i-1])) {
				i = j
				continue
			}
			word := string(out[i:j])
			switch {
			case qualifiers[word]:
				blanks = append(blanks, blank{i, j, word})
				fill(out[i:j])
			case macroCalls[word]:
				k := skipSpace(out, j)
				if k < n && out[k] == '(' {
					if e := matchParen(out, k); e > 0 {
						blanks = append(blanks, blank{i, e, string(out[i:e])})
						fill(out[i:e])
						j = e
					}
				}
			case word == "if":
				j = fixBareIf(out, i, j)
			case word == "template":
				// obj.template F(x) / obj->template F(x) / X::template F<..>:
				// the keyword after a member access or scope is optional for the parser.
				p := i - 1
				for p >= 0 && (out[p] == ' ' || out[p] == '\t') {
					p--
				}
				if p >= 0 && (out[p] == '.' || (out[p] == '>' && p > 0 && out[p-1] == '-')) {
					blanks = append(blanks, blank{i, j, word})
					fill(out[i:j])
				}
			}
			i = j
		default:
			i++
		}
	}
	return out, blanks
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
	out[j] = '('
	if b > e {
		out[e] = ')'
	} else if e-k >= 2 {
		out[e-1] = ')' // no room: the macro name loses its last character, its value is unknown anyway
	} else {
		return j
	}
	return b
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

// matchParen returns the offset just past the parenthesis matching b[i]=='(', or -1.
func matchParen(b []byte, i int) int {
	depth := 0
	for k := i; k < len(b); k++ {
		switch b[k] {
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 {
				return k + 1
			}
		case '"', '\'':
			k = skipQuoted(b, k, b[k]) - 1
		case '\n':
			if depth > 64 {
				return -1
			}
		}
	}
	return -1
}

func skipQuoted(b []byte, i int, q byte) int {
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
