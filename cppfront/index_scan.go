package cppfront

import (
	"crypto/sha256"
	"regexp"
	"strings"
)

// The scan of a header for the project index (index.go): what it
// defines that can give a value, matched where it can start.

// header is what one file defines that can give a value.
type header struct {
	path     string               // where it was read
	includes []string             // its "..." includes, as written
	defs     map[string]string    // object-like #define, const/constexpr: name -> value text
	macros   map[string]*macroDef // #define and #undef, as the expander reads them (headermacro.go)
	funcs    map[string]constFn   // constexpr functions with one return: name -> body
	helpers  map[string][]*pureFn // scalar helpers with arguments (helpers.go): name -> one per arity
	aliases  map[string]string    // using X = Y; typedef Y X;
	classes  map[string]classDef  // classes and structs defined with a body (classes.go)
	vfNames  map[string]bool      // functions defined with a VF marker (foreign.go)
	foreign  *foreignFile         // those functions, lowered on first use
	sum      [sha256.Size]byte    // the sha256 of the bytes scanned
	size     int64                // the file's size and modification time when scanned
	mtime    int64
	gen      int // the index generation it was last checked in
}

// constFn is a constexpr function whose body is one return statement.
type constFn struct {
	tparams []string // template parameters, in order
	ret     string   // the returned expression
}

var (
	includeRE    = regexp.MustCompile(`^[ \t]*#[ \t]*include[ \t]*"([^"\n]+)"`)
	defineRE     = regexp.MustCompile(`^[ \t]*#[ \t]*define[ \t]+([A-Za-z_]\w*)[ \t]+([^\n]*?)[ \t]*$`)
	aliasStartRE = regexp.MustCompile(`^using\s+([A-Za-z_]\w*)\s*=\s*([^;]+);`)
	constFnRE    = regexp.MustCompile(`(?s)(?:template\s*<([^<>]*)>\s*)?(?:__aicore__\s+|__simd_callee__\s+|static\s+|inline\s+|constexpr\s+|__inline__\s+)*constexpr\s+(?:__aicore__\s+|inline\s+|static\s+)*[\w:<> ]+?\s+([A-Za-z_]\w*)\s*\(\s*\)\s*(?:const\s*)?\{\s*return\s+([^;{}]+);\s*\}`)
)

// scan reads what a header defines. The patterns are matched only where
// they can start (a # line, a const or using keyword), and what is kept is
// copied out of the text, so that a header costs what it defines.
func scan(path string, src []byte) *header {
	h := newHeader()
	text := stripComments(string(src))
	h.vfNames = vfFuncNames(text)
	if strings.Contains(text, "class") || strings.Contains(text, "struct") {
		h.classes = scanClasses(text)
	}
	var dirs []byte // the #define and #undef lines, for headerDefines
	for k := 0; k < len(text); {
		e := strings.IndexByte(text[k:], '\n')
		if e < 0 {
			e = len(text)
		} else {
			e += k
		}
		line := text[k:e]
		start := k
		k = e + 1
		t := strings.TrimLeft(line, " \t")
		if !strings.HasPrefix(t, "#") {
			continue
		}
		if isDefineLine(t) {
			for strings.HasSuffix(strings.TrimRight(text[start:e], "\r"), "\\") && e < len(text) {
				n := strings.IndexByte(text[e+1:], '\n')
				if n < 0 {
					e = len(text)
				} else {
					e += 1 + n
				}
			}
			dirs = append(append(dirs, text[start:e]...), '\n')
			k = e + 1
		}
		if m := includeRE.FindStringSubmatch(line); m != nil {
			h.includes = append(h.includes, strings.Clone(m[1])) // as written: resolved from the header's folder
		} else if m := defineRE.FindStringSubmatch(line); m != nil && !strings.HasSuffix(m[2], "\\") {
			h.defs[strings.Clone(m[1])] = strings.Clone(m[2])
		}
	}
	h.macros = headerDefines(dirs)
	if strings.Contains(text, "return") {
		scanHelpers(text, func(name string, f pureFn) { addHelper(h.helpers, name, f) })
	}
	if !strings.Contains(text, "const") {
		return h
	}
	// The statement from a keyword to the next ';': the patterns below
	// cannot cross one, so the matches are those on the whole text.
	each := func(word string, re *regexp.Regexp, f func(m []string)) {
		for k := 0; ; {
			j := strings.Index(text[k:], word)
			if j < 0 {
				return
			}
			j += k
			k = j + len(word)
			if j > 0 && isIdentChar(text[j-1]) {
				continue
			}
			end := strings.IndexByte(text[j:], ';')
			if end < 0 {
				return
			}
			stmt := text[j : j+end+1]
			if word == "const" {
				// The name is followed by = or {, before any other bracket.
				if b := strings.IndexAny(stmt, "=(){}"); b < 0 || stmt[b] != '=' && stmt[b] != '{' {
					continue
				}
			}
			var m []string
			if word == "const" {
				m = matchConst(stmt)
			} else {
				m = re.FindStringSubmatch(stmt)
			}
			if m != nil {
				f(m)
				k = j + len(m[0])
			}
		}
	}
	each("const", nil, func(m []string) {
		v := m[2]
		if v == "" {
			v = m[3]
		}
		name := strings.Clone(m[1]) // a map assignment stores the key again, even an existing one
		if _, dup := h.defs[name]; dup {
			h.defs[name] = "" // defined twice (#if branches, other classes): no value
			return
		}
		h.defs[name] = strings.Clone(v)
	})
	each("using", aliasStartRE, func(m []string) {
		h.aliases[strings.Clone(m[1])] = strings.Clone(strings.TrimSpace(m[2]))
	})
	// Only around a "constexpr" followed by "return" close by: the
	// function pattern is slow on whole files.
	for k := 0; ; {
		j := strings.Index(text[k:], "constexpr")
		if j < 0 {
			break
		}
		j += k
		end := min(len(text), j+600)
		k = j + len("constexpr")
		n := k
		for n < len(text) && (text[n] == ' ' || text[n] == '\t' || text[n] == '\n' || text[n] == '\r') {
			n++
		}
		if n < len(text) && text[n] == '(' {
			continue // if constexpr (...)
		}
		win := text[max(0, j-300):end]
		if !nullaryReturn(win) {
			continue
		}
		for _, m := range constFnRE.FindAllStringSubmatch(win, -1) {
			h.addFn(m)
		}
	}
	return h
}

// matchConst matches a statement from a const or constexpr keyword to the
// first ";", its end, as FindStringSubmatch with the pattern
//
//	^(?:constexpr|const)\b[^;=(){}]*?\b([A-Za-z_]\w*)\s*(?:=\s*([^;{}]+?)|\{\s*([^;{}]+?)\s*\})\s*;
//
// does, without its backtracking, a tenth of scanning a header
// (TestMatchConst holds them equal): the name is the word just before the
// first of = ( ) { }, which must be = or {, and the value what follows,
// trimmed, up to the ";" or the closing }.
func matchConst(stmt string) []string {
	kw := 0
	switch {
	case strings.HasPrefix(stmt, "constexpr") && len(stmt) > 9 && !isIdentChar(stmt[9]):
		kw = 9
	case strings.HasPrefix(stmt, "const") && len(stmt) > 5 && !isIdentChar(stmt[5]):
		kw = 5
	default:
		return nil
	}
	semi := strings.IndexByte(stmt, ';')
	if semi < 0 {
		return nil
	}
	stmt = stmt[:semi+1] // no part of the pattern but its end crosses a ";"
	b := kw + strings.IndexAny(stmt[kw:], "=(){}")
	if b < kw || stmt[b] != '=' && stmt[b] != '{' {
		return nil
	}
	ne := b
	for ne > kw && isRESpace(stmt[ne-1]) {
		ne--
	}
	ns := ne
	for ns > kw && isIdentChar(stmt[ns-1]) {
		ns--
	}
	if ns == ne || !isIdentStart(stmt[ns]) {
		return nil
	}
	body := stmt[b+1 : len(stmt)-1] // after = or {, before the ";"
	if stmt[b] == '=' {
		if strings.ContainsAny(body, "{}") {
			return nil
		}
		v, ok := reValue(body)
		if !ok {
			return nil
		}
		return []string{stmt, stmt[ns:ne], v, ""}
	}
	c := strings.IndexAny(body, "{}")
	if c < 0 || body[c] != '}' || strings.TrimLeft(body[c+1:], " \t\n\f\r") != "" {
		return nil
	}
	v, ok := reValue(body[:c])
	if !ok {
		return nil
	}
	return []string{stmt, stmt[ns:ne], "", v}
}

// reValue is what \s*([^;{}]+?)\s* captures matching all of s (which
// holds none of ;{}): s trimmed of the white space around, or, when s is
// white space only, its last byte; ok is false when s is empty.
func reValue(s string) (string, bool) {
	if s == "" {
		return "", false
	}
	v := strings.Trim(s, " \t\n\f\r")
	if v == "" {
		return s[len(s)-1:], true
	}
	return v, true
}

// isRESpace is regexp's \s: space, \t, \n, \f, \r.
func isRESpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r'
}

// nullaryReturn reports whether win holds "( ) [const] { return", the
// shape constFnRE needs, so that the slow pattern runs only where it can
// match.
func nullaryReturn(win string) bool {
	back := func(k int) int { // the index of the last non-space byte before k, or -1
		for k--; k >= 0 && (win[k] == ' ' || win[k] == '\t' || win[k] == '\n' || win[k] == '\r'); k-- {
		}
		return k
	}
	for off := 0; ; {
		r := strings.Index(win[off:], "return")
		if r < 0 {
			return false
		}
		r += off
		off = r + len("return")
		k := back(r)
		if k < 0 || win[k] != '{' {
			continue
		}
		k = back(k)
		if k >= 4 && win[k-4:k+1] == "const" {
			k = back(k - 4)
		}
		if k < 0 || win[k] != ')' {
			continue
		}
		if k = back(k); k >= 0 && win[k] == '(' {
			return true
		}
	}
}

// addFn records a constexpr function matched by constFnRE.
func (h *header) addFn(m []string) {
	{
		var tps []string
		for _, p := range splitTop(m[1]) {
			f := strings.Fields(p)
			if len(f) >= 2 {
				tps = append(tps, strings.Clone(f[len(f)-1]))
			}
		}
		h.funcs[strings.Clone(m[2])] = constFn{tparams: tps, ret: strings.Clone(m[3])}
	}
}

// stripComments blanks // and /* */ comments (not inside string literals).
func stripComments(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		k := strings.IndexAny(s[i:], "\"/") // the text up to the next string or comment is copied as it is
		if k < 0 {
			b.WriteString(s[i:])
			break
		}
		b.WriteString(s[i : i+k])
		i += k
		switch {
		case s[i] == '"':
			j := i + 1
			for j < len(s) && s[j] != '"' && s[j] != '\n' {
				if s[j] == '\\' {
					j++
				}
				j++
			}
			if j >= len(s) {
				j = len(s) - 1
			}
			b.WriteString(s[i : j+1])
			i = j + 1
		case strings.HasPrefix(s[i:], "//"):
			e := strings.IndexByte(s[i:], '\n')
			if e < 0 {
				i = len(s)
				break
			}
			b.WriteByte('\n')
			i += e + 1
		case strings.HasPrefix(s[i:], "/*"):
			k := strings.Index(s[i+2:], "*/")
			end := len(s)
			if k >= 0 {
				end = i + 2 + k + 2
			}
			b.WriteString(strings.Repeat("\n", strings.Count(s[i:end], "\n")))
			i = end
		default:
			b.WriteByte('/')
			i++
		}
	}
	return b.String()
}

// newHeader returns an empty header, for a file's own definitions.
func newHeader() *header {
	return &header{defs: map[string]string{}, funcs: map[string]constFn{}, helpers: map[string][]*pureFn{}, aliases: map[string]string{}, foreign: &foreignFile{}}
}
