package suppress

// The comment scanner. Directives live in comments only, so the scanner
// finds the real comments of a file and skips everything that only looks
// like one: string and character literals (C++ raw strings R"d(...)d"
// included), digit separators (1'000'000), Python's triple-quoted strings.
// It is a lexer's first stage, not a parser: it never fails, and text it
// cannot classify (an unterminated literal) ends at the end of its line.
//
//	s = "// ascvet:ignore X r";  // ascvet:ignore ASC1001 r
//	    ^ string, skipped         ^ comment: a directive

// comment is one comment of a file.
type comment struct {
	start, end int  // byte offsets of the comment, delimiters included
	block      bool // a /* */ comment
}

// body returns the offsets of the comment's text without its delimiters.
func (c comment) body(src []byte, syntax Syntax) (start, end int) {
	switch {
	case syntax == Python:
		return c.start + 1, c.end
	case c.block:
		end = c.end
		if end-c.start >= 4 && src[end-2] == '*' && src[end-1] == '/' {
			end -= 2
		}
		return c.start + 2, end
	default:
		return c.start + 2, c.end
	}
}

// scan returns the comments of src in order.
func scan(src []byte, syntax Syntax) []comment {
	if syntax == Python {
		return scanPython(src)
	}
	return scanCPP(src)
}

func scanCPP(src []byte) []comment {
	var cs []comment
	n := len(src)
	for i := 0; i < n; {
		c := src[i]
		switch {
		case c == '/' && i+1 < n && src[i+1] == '/':
			j := i + 2
			for ; j < n; j++ {
				if src[j] != '\n' {
					continue
				}
				// A backslash at the end of the line continues the comment.
				k := j - 1
				if k > i+1 && src[k] == '\r' {
					k--
				}
				if k <= i+1 || src[k] != '\\' {
					break
				}
			}
			end := j
			if end > i+2 && src[end-1] == '\r' {
				end--
			}
			cs = append(cs, comment{start: i, end: end})
			i = j
		case c == '/' && i+1 < n && src[i+1] == '*':
			j := i + 2
			for j < n && !(src[j] == '*' && j+1 < n && src[j+1] == '/') {
				j++
			}
			j = min(j+2, n)
			cs = append(cs, comment{start: i, end: j, block: true})
			i = j
		case c == '"' || c == '\'':
			i = skipQuoted(src, i)
		case isDigit(c) || c == '.' && i+1 < n && isDigit(src[i+1]):
			i = skipNumber(src, i)
		case isIdentStart(c):
			j := i + 1
			for j < n && isIdent(src[j]) {
				j++
			}
			word := string(src[i:j])
			switch {
			case j < n && src[j] == '"' && isRawPrefix(word):
				i = skipRaw(src, j)
			case j < n && (src[j] == '"' || src[j] == '\'') && isEncodingPrefix(word):
				i = skipQuoted(src, j)
			default:
				i = j
			}
		default:
			i++
		}
	}
	return cs
}

func scanPython(src []byte) []comment {
	var cs []comment
	n := len(src)
	for i := 0; i < n; {
		switch c := src[i]; {
		case c == '#':
			j := i + 1
			for j < n && src[j] != '\n' {
				j++
			}
			end := j
			if end > i+1 && src[end-1] == '\r' {
				end--
			}
			cs = append(cs, comment{start: i, end: end})
			i = j
		case (c == '"' || c == '\'') && i+2 < n && src[i+1] == c && src[i+2] == c:
			j := i + 3
			for j < n && !(src[j] == c && j+2 < n && src[j+1] == c && src[j+2] == c) {
				if src[j] == '\\' {
					j++
				}
				j++
			}
			i = min(j+3, n)
		case c == '"' || c == '\'':
			// Prefixes (r, b, f, rb...) need no care: a backslash never
			// ends a Python string, raw or not, so skipping the escaped
			// character is right for all of them.
			i = skipQuoted(src, i)
		case isIdentStart(c) || isDigit(c):
			for i < n && isIdent(src[i]) {
				i++
			}
		default:
			i++
		}
	}
	return cs
}

// skipQuoted returns the offset after the literal that opens at src[i] (a
// quote). An unterminated literal ends before the newline.
func skipQuoted(src []byte, i int) int {
	q := src[i]
	for j := i + 1; j < len(src); j++ {
		switch src[j] {
		case '\\':
			j++
		case q:
			return j + 1
		case '\n':
			return j
		}
	}
	return len(src)
}

// skipRaw returns the offset after the C++ raw string whose quote is at
// src[q]: "delim( ... )delim". A quote that does not open a well-formed
// raw string is skipped as an ordinary literal.
func skipRaw(src []byte, q int) int {
	j := q + 1
	for j < len(src) && j-q-1 <= 16 && src[j] != '(' {
		switch src[j] {
		case ' ', ')', '\\', '\t', '\n', '\v', '\f', '\r', '"':
			return skipQuoted(src, q)
		}
		j++
	}
	if j >= len(src) || src[j] != '(' {
		return skipQuoted(src, q)
	}
	closing := ")" + string(src[q+1:j]) + "\""
	for k := j + 1; k+len(closing) <= len(src); k++ {
		if src[k] == ')' && string(src[k:k+len(closing)]) == closing {
			return k + len(closing)
		}
	}
	return len(src)
}

// skipNumber returns the offset after the preprocessing number at src[i],
// digit separators (1'000) and exponents (1e-3, 0x1p+4) included.
func skipNumber(src []byte, i int) int {
	j := i + 1
	for j < len(src) {
		c := src[j]
		switch {
		case isIdent(c) || c == '.':
		case c == '\'' && j+1 < len(src) && isIdent(src[j+1]):
		case (c == '+' || c == '-') && (src[j-1]|0x20 == 'e' || src[j-1]|0x20 == 'p'):
		default:
			return j
		}
		j++
	}
	return j
}

func isRawPrefix(w string) bool {
	switch w {
	case "R", "LR", "uR", "UR", "u8R":
		return true
	}
	return false
}

func isEncodingPrefix(w string) bool {
	switch w {
	case "L", "u", "U", "u8":
		return true
	}
	return false
}

func isDigit(c byte) bool      { return '0' <= c && c <= '9' }
func isIdentStart(c byte) bool { return c == '_' || 'a' <= c|0x20 && c|0x20 <= 'z' }
func isIdent(c byte) bool      { return isIdentStart(c) || isDigit(c) }
