package config

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// keyLines finds the line of every key (and of every array element) of a
// TOML document that github.com/BurntSushi/toml has already accepted, so
// that errors found while checking the decoded values can name a line:
// the TOML decoder keeps key positions to itself.
//
// A key path is the list of its segments, with "[i]" for the i-th element
// of an array or array of tables, as keyPath builds it:
//
//	checks = ["all",            checks        → 1, checks.[0] → 1
//	          "-ASC3004"]       checks.[1]    → 2
//	[[overrides]]               overrides     → 3, overrides.[0] → 3
//	severity = { ASC1003 = 1 }  overrides.[0].severity.ASC1003 → 4
//
// The scanner runs before the TOML decoder, to refuse a file whose key
// paths are longer than maxDepth (see deep), and must therefore terminate
// on any input: on anything unexpected it skips a byte, and a key it
// missed falls back to the line of its nearest known parent (see lineOf).
type keyLines struct {
	src   string
	i     int            // read offset in src
	line  int            // line of src[i], from 1
	lines map[string]int // keyPath → line of its first appearance
	aot   map[string]int // keyPath of an array of tables → number of its tables so far
	deep  int            // line of the first key path longer than maxDepth; 0 when none
}

// maxDepth is the longest key path a configuration file may have: its
// segments count the keys of a table header and of a dotted key, the
// arrays and the inline tables. The deepest path of a real file has 4
// (overrides.[0].severity.ASC1003). Without a bound, a 64 KB file nested
// 32,000 deep took 7-20 GB here (each level records its whole path) and,
// as a dotted key, 39 GB and 52 s in the TOML decoder.
const maxDepth = 64

// DeepLine returns the line of the first key path of the TOML text src
// nested more than 64 levels deep (keys of a table header or a dotted key,
// arrays, inline tables), or 0 when there is none. It reads src once and
// keeps little, whatever its nesting: a TOML decoder given a dotted key
// 32,000 segments long took 39 GB. Other TOML files ascvet reads (the
// machine models) are checked with it before they are decoded.
func DeepLine(src string) int {
	return scanKeyLines(src).deep
}

// MaxDepth is the deepest key path DeepLine accepts.
const MaxDepth = maxDepth

// tooDeep records that a key path at line is longer than maxDepth and
// ends the scan.
func (k *keyLines) tooDeep(line int) {
	k.deep = line
	k.i = len(k.src)
}

// keyPath joins key segments; "\x1f" cannot appear unescaped in TOML keys
// that matter here, and only needs to be unambiguous.
func keyPath(segs ...string) string { return strings.Join(segs, "\x1f") }

// index is the path segment of the i-th element of an array.
func index(i int) string { return "[" + strconv.Itoa(i) + "]" }

func scanKeyLines(src string) *keyLines {
	k := &keyLines{src: src, line: 1, lines: map[string]int{}, aot: map[string]int{}}
	k.document()
	return k
}

// lineOf returns the line of path, or of its longest prefix that has one,
// or 0.
func (k *keyLines) lineOf(segs []string) int {
	for n := len(segs); n > 0; n-- {
		if l, ok := k.lines[keyPath(segs[:n]...)]; ok {
			return l
		}
	}
	return 0
}

func (k *keyLines) record(segs []string, line int) {
	p := keyPath(segs...)
	if _, ok := k.lines[p]; !ok {
		k.lines[p] = line
	}
}

func (k *keyLines) eof() bool { return k.i >= len(k.src) }

func (k *keyLines) peek() byte {
	if k.eof() {
		return 0
	}
	return k.src[k.i]
}

func (k *keyLines) advance() {
	if k.src[k.i] == '\n' {
		k.line++
	}
	k.i++
}

// skipSpace skips blanks and, with newlines set, newlines and comments.
func (k *keyLines) skipSpace(newlines bool) {
	for !k.eof() {
		switch c := k.peek(); {
		case c == ' ' || c == '\t' || c == '\r':
			k.advance()
		case c == '\n' && newlines:
			k.advance()
		case c == '#' && newlines:
			for !k.eof() && k.peek() != '\n' {
				k.advance()
			}
		default:
			return
		}
	}
}

func (k *keyLines) document() {
	var table []string // resolved path of the current table
	for {
		k.skipSpace(true)
		if k.eof() {
			return
		}
		start := k.i
		if k.peek() == '[' {
			table = k.header()
		} else {
			k.keyValue(table)
		}
		if k.i == start { // not TOML after all: never loop forever
			k.advance()
		}
	}
}

// header reads "[a.b]" or "[[a.b]]" and returns the resolved table path.
func (k *keyLines) header() []string {
	line := k.line
	k.advance() // [
	aot := k.peek() == '['
	if aot {
		k.advance()
	}
	keys := k.key()
	if len(keys) > maxDepth {
		k.tooDeep(line)
		return nil
	}
	var path []string
	for j, seg := range keys {
		path = append(path, seg)
		k.record(path, line)
		p := keyPath(path...)
		if aot && j == len(keys)-1 {
			k.aot[p]++
			path = append(path, index(k.aot[p]-1))
			k.record(path, line)
		} else if n := k.aot[p]; n > 0 {
			path = append(path, index(n-1))
		}
		if len(path) > maxDepth {
			k.tooDeep(line)
			return nil
		}
	}
	for !k.eof() && k.peek() != '\n' && k.peek() != '#' {
		k.advance() // ] or ]]
	}
	return path
}

// keyValue reads "a.b = value" in table.
func (k *keyLines) keyValue(table []string) {
	line := k.line
	keys := k.key()
	if len(keys) == 0 {
		return
	}
	if len(table)+len(keys) > maxDepth {
		k.tooDeep(line)
		return
	}
	path := append([]string(nil), table...)
	for _, seg := range keys {
		path = append(path, seg)
		k.record(path, line)
	}
	k.skipSpace(false)
	if k.peek() != '=' {
		return
	}
	k.advance()
	k.skipSpace(false)
	k.value(path)
}

// key reads a dotted key: bare, "basic" or 'literal' segments. It stops
// after maxDepth+1 segments, which its callers refuse.
func (k *keyLines) key() []string {
	var segs []string
	for len(segs) <= maxDepth {
		k.skipSpace(false)
		switch c := k.peek(); {
		case c == '"':
			segs = append(segs, k.basicString())
		case c == '\'':
			segs = append(segs, k.literalString())
		case isBare(c):
			j := k.i
			for !k.eof() && isBare(k.peek()) {
				k.advance()
			}
			segs = append(segs, k.src[j:k.i])
		default:
			return segs
		}
		k.skipSpace(false)
		if k.peek() != '.' {
			return segs
		}
		k.advance()
	}
	return segs
}

func isBare(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-'
}

// value skips one value, recording the keys and elements inside it.
func (k *keyLines) value(path []string) {
	switch k.peek() {
	case '"':
		if strings.HasPrefix(k.src[k.i:], `"""`) {
			k.multiline(`"""`)
		} else {
			k.basicString()
		}
	case '\'':
		if strings.HasPrefix(k.src[k.i:], `'''`) {
			k.multiline(`'''`)
		} else {
			k.literalString()
		}
	case '[':
		if len(path) >= maxDepth {
			k.tooDeep(k.line)
			return
		}
		k.advance()
		for n := 0; ; n++ {
			k.skipSpace(true)
			if k.eof() || k.peek() == ']' {
				break
			}
			elem := append(append([]string(nil), path...), index(n))
			k.record(elem, k.line)
			start := k.i
			k.value(elem)
			k.skipSpace(true)
			if k.peek() == ',' {
				k.advance()
			} else if k.i == start {
				return
			}
		}
		if !k.eof() {
			k.advance() // ]
		}
	case '{':
		k.advance()
		for {
			k.skipSpace(true)
			if k.eof() || k.peek() == '}' {
				break
			}
			start := k.i
			k.keyValue(path)
			k.skipSpace(true)
			if k.peek() == ',' {
				k.advance()
			} else if k.i == start {
				return
			}
		}
		if !k.eof() {
			k.advance() // }
		}
	default: // number, boolean, date-time (which may hold a space)
		for !k.eof() && !strings.ContainsRune(",]}\n#", rune(k.peek())) {
			k.advance()
		}
	}
}

func (k *keyLines) multiline(delim string) {
	k.i += len(delim)
	for !k.eof() {
		if k.peek() == '\\' && delim == `"""` {
			k.advance()
			if !k.eof() {
				k.advance()
			}
			continue
		}
		if strings.HasPrefix(k.src[k.i:], delim) {
			k.i += len(delim)
			for k.peek() == delim[0] { // up to two quotes may end the content
				k.i++
			}
			return
		}
		k.advance()
	}
}

func (k *keyLines) literalString() string {
	k.advance()
	j := k.i
	for !k.eof() && k.peek() != '\'' && k.peek() != '\n' {
		k.advance()
	}
	s := k.src[j:k.i]
	if k.peek() == '\'' {
		k.advance()
	}
	return s
}

// basicString reads a "..." string and returns its value.
func (k *keyLines) basicString() string {
	k.advance()
	var b strings.Builder
	for !k.eof() && k.peek() != '"' && k.peek() != '\n' {
		c := k.peek()
		if c != '\\' {
			b.WriteByte(c)
			k.advance()
			continue
		}
		k.advance()
		if k.eof() {
			break
		}
		e := k.peek()
		k.advance()
		switch e {
		case 'b':
			b.WriteByte('\b')
		case 't':
			b.WriteByte('\t')
		case 'n':
			b.WriteByte('\n')
		case 'f':
			b.WriteByte('\f')
		case 'r':
			b.WriteByte('\r')
		case 'e':
			b.WriteByte(0x1b)
		case 'x', 'u', 'U':
			n := map[byte]int{'x': 2, 'u': 4, 'U': 8}[e]
			if k.i+n <= len(k.src) {
				if v, err := strconv.ParseUint(k.src[k.i:k.i+n], 16, 32); err == nil && utf8.ValidRune(rune(v)) {
					b.WriteRune(rune(v))
					k.i += n
					continue
				}
			}
			b.WriteByte('\\')
			b.WriteByte(e)
		default: // \" \\ and anything else
			b.WriteByte(e)
		}
	}
	if k.peek() == '"' {
		k.advance()
	}
	return b.String()
}
