package cppfront

import (
	"crypto/sha256"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"

	"github.com/ascvet/ascvet/cppfront/ir"
)

// The project index: names a file uses but does not define.
//
// A kernel's constants, aliases and small constexpr helpers often live in
// a header of its repository:
//
//	#include "../inc/kernel_utils.h"         // constexpr int64_t VFLEN = GetVRegSize() / sizeof(int64_t);
//	... src + i * VFLEN ...                    // VFLEN folds to 32
//
// An Index answers, for a file and a name, the value the name has in the
// headers the file includes ("..." includes, resolved next to the file,
// then in the usual include folders of its ancestors: include, inc,
// op_kernel, common/inc/op_kernel), transitively. It is consulted lazily,
// only for a name a VF region needs and the file does not define; each
// header is read and scanned once per run, textually, for what can give a
// value: object-like #defines, const/constexpr variables and static
// members, using aliases, and constexpr functions whose body is a single
// return. Memory grows with the headers VF code includes, not with the tree.
type Index struct {
	mu       sync.Mutex
	gen      int                             // bumped by Refresh: headers are checked again
	wd       string                          // the working directory, this generation (abs)
	headers  map[string]*header              // by path
	found    map[[2]string]string            // (dir, include) -> resolved path, "" when not found; also ancestors' lookups and folders (inAncestor, isDir)
	closures map[string]*closure             // dir and includes -> their closure, this generation
	used     map[string]*consulted           // file name -> what its lowering consulted, until Consulted takes it
	folders  map[string][]*header            // folder -> its headers that define a class (classes.go), this generation
	sibDirs  map[string]*siblingDir          // folder -> its sources' includes (siblings.go)
	edges    map[string][]edge               // header path -> its includes resolved (edgesOf), this generation
	macros   map[string]map[string]*macroDef // dir and includes -> the macros of their closure (headermacro.go), this generation
	texts    map[string]includerSrc          // files read for what they include and call (siblings.go), this generation
	textSize int                             // the bytes texts holds, at most maxIncluderTexts
}

// NewIndex returns an empty index, to share between the files of one run.
func NewIndex() *Index {
	wd, _ := os.Getwd()
	return &Index{wd: wd, headers: map[string]*header{}, found: map[[2]string]string{}, closures: map[string]*closure{}, used: map[string]*consulted{}, folders: map[string][]*header{}, sibDirs: map[string]*siblingDir{}, edges: map[string][]edge{}, macros: map[string]map[string]*macroDef{}, texts: map[string]includerSrc{}}
}

// Refresh makes the index check its headers again, by size and
// modification time, and resolve includes again: for a process that
// outlives one run (an editor's server). Within a run a header is read once.
func (ix *Index) Refresh() {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	ix.gen++
	ix.wd, _ = os.Getwd()
	clear(ix.found)
	clear(ix.closures)
	clear(ix.used)
	clear(ix.folders)
	clear(ix.macros)
	clear(ix.sibDirs)
	clear(ix.edges)
	clear(ix.texts)
	ix.textSize = 0
}

// header is what one file defines that can give a value.
type header struct {
	path     string               // where it was read
	includes []string             // its "..." includes, as written
	defs     map[string]string    // object-like #define, const/constexpr: name -> value text
	macros   map[string]*macroDef // #define and #undef, as the expander reads them (headermacro.go)
	funcs    map[string]constFn   // constexpr functions with one return: name -> body
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

// Index limits: how far includes are followed, and how large a header is read.
const (
	indexDepth     = 6
	indexMaxHeader = 4 << 20
	indexMaxFiles  = 400
)

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

// load returns the scanned header at path, reading it on first use, and
// again in a later generation when its size or modification time changed.
// The file is read and scanned without the lock: two files that include
// it may both scan it once.
func (ix *Index) load(path string) *header {
	ix.mu.Lock()
	h, ok := ix.headers[path]
	gen := ix.gen
	current := ok && h.gen == gen // h.gen is written under the lock
	ix.mu.Unlock()
	if current {
		return h
	}
	st, err := os.Stat(path)
	if err != nil || !st.Mode().IsRegular() || st.Size() > indexMaxHeader {
		return nil
	}
	if ok && h.size == st.Size() && h.mtime == st.ModTime().UnixNano() {
		ix.mu.Lock()
		h.gen = gen
		ix.mu.Unlock()
		return h
	}
	src, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	h = scan(path, src)
	h.path, h.size, h.mtime, h.gen, h.sum = path, st.Size(), st.ModTime().UnixNano(), gen, sha256.Sum256(src)
	ix.mu.Lock()
	ix.headers[path] = h
	ix.mu.Unlock()
	return h
}

// abs returns p absolute, from the working directory of this generation
// (os.Getwd costs two stats a call): what a dependency names, so that runs
// from other folders, which share a cache entry, check the same files.
func (ix *Index) abs(p string) string {
	if p == "" || filepath.IsAbs(p) {
		return p
	}
	ix.mu.Lock()
	wd := ix.wd
	ix.mu.Unlock()
	if wd == "" {
		return filepath.Clean(p)
	}
	return filepath.Join(wd, p)
}

// includeDirs are the folders, under each ancestor of a file, where an
// include is looked for when it is not next to the file.
var includeDirs = []string{"", "include", "inc", "op_kernel", filepath.Join("common", "inc", "op_kernel"), filepath.Join("common", "inc")}

// resolve finds the file an include written in dir names: next to it,
// else in the include folders of dir's ancestors. Both answers are cached,
// the second per ancestor, since the files of a tree share most of theirs.
// The ancestors are those of the absolute folder: a file named from its
// own folder ("k.asc", dir ".") sees the headers it sees when named from
// the top of the repository.
func (ix *Index) resolve(dir, inc string) string {
	k := [2]string{dir, inc}
	ix.mu.Lock()
	p, ok := ix.found[k]
	ix.mu.Unlock()
	if ok {
		return p
	}
	if regular(filepath.Join(dir, inc)) {
		p = filepath.Join(dir, inc)
	} else {
		base := strings.TrimLeft(filepath.ToSlash(inc), "./")
		from := dir
		if abs, err := filepath.Abs(dir); err == nil {
			from = abs
		}
		for a, n := from, 0; n < 8 && p == ""; a, n = filepath.Dir(a), n+1 {
			p = ix.inAncestor(a, base)
			if filepath.Dir(a) == a {
				break
			}
		}
	}
	ix.mu.Lock()
	ix.found[k] = p
	ix.mu.Unlock()
	return p
}

// inAncestor looks for base in the include folders of one ancestor.
func (ix *Index) inAncestor(a, base string) string {
	k := [2]string{"\x00" + a, base}
	ix.mu.Lock()
	p, ok := ix.found[k]
	ix.mu.Unlock()
	if ok {
		return p
	}
	for _, sub := range includeDirs {
		if sub != "" && !ix.isDir(filepath.Join(a, sub)) {
			continue // most ancestors have none of the folders: one stat each per run
		}
		if c := filepath.Join(a, sub, base); regular(c) {
			p = c
			break
		}
	}
	ix.mu.Lock()
	ix.found[k] = p
	ix.mu.Unlock()
	return p
}

// isDir reports, cached, whether path is a folder.
func (ix *Index) isDir(path string) bool {
	k := [2]string{"\x01", path}
	ix.mu.Lock()
	p, ok := ix.found[k]
	ix.mu.Unlock()
	if !ok {
		if st, err := os.Stat(path); err == nil && st.IsDir() {
			p = path
		}
		ix.mu.Lock()
		ix.found[k] = p
		ix.mu.Unlock()
	}
	return p != ""
}

func regular(path string) bool {
	st, err := os.Stat(path)
	return err == nil && st.Mode().IsRegular()
}

// closure is the headers some includes name, transitively, and the
// lookups that found them (or found nothing): what the closure depends on
// besides the headers' bytes.
type closure struct {
	hs    []*header
	looks []Dep
}

// closure returns the closure of includes written in dir, nearest first,
// reading each header on first use. The files of a folder share most of
// theirs: a closure is computed once per generation.
func (ix *Index) closure(dir string, includes []string) *closure {
	key := dir + "\x00" + strings.Join(includes, "\x00")
	ix.mu.Lock()
	out, ok := ix.closures[key]
	ix.mu.Unlock()
	if ok {
		return out
	}
	out = ix.walk(dir, includes)
	ix.mu.Lock()
	ix.closures[key] = out
	ix.mu.Unlock()
	return out
}

// walk follows includes breadth first, up to indexDepth and indexMaxFiles,
// recording each lookup: an include that was not found, or that a file
// created later would shadow, changes the closure as much as a header's
// bytes do (ccache's manifests record the same).
func (ix *Index) walk(dir string, includes []string) *closure {
	c := &closure{}
	seen := map[string]bool{}
	looked := map[[2]string]bool{}
	type item struct {
		path  string
		depth int
	}
	var queue []item
	visit := func(es []edge, depth int) {
		for _, e := range es {
			if e.look != nil && !looked[e.key] {
				looked[e.key] = true
				c.looks = append(c.looks, *e.look)
			}
			if e.path != "" && !seen[e.path] {
				seen[e.path] = true
				queue = append(queue, item{e.path, depth})
			}
		}
	}
	visit(ix.resolveAll(dir, includes), 1)
	for len(queue) > 0 && len(c.hs) < indexMaxFiles {
		it := queue[0]
		queue = queue[1:]
		h := ix.load(it.path)
		if h == nil {
			continue
		}
		c.hs = append(c.hs, h)
		if it.depth < indexDepth {
			visit(ix.edgesOf(it.path, h.includes), it.depth+1)
		}
	}
	return c
}

// edge is one include of a header, resolved (Index.edgesOf).
type edge struct {
	key  [2]string // the including folder and the include as written
	path string    // where it resolves, "" when nowhere
	look *Dep      // the lookup a closure records for it, nil when the file is next to the includer
}

// edgesOf returns the includes incs of the header at path resolved as
// walk's push resolves them, once a generation: every closure that reaches
// a header walks on from it, and most closures reach the same headers.
func (ix *Index) edgesOf(path string, incs []string) []edge {
	ix.mu.Lock()
	es, ok := ix.edges[path]
	ix.mu.Unlock()
	if ok {
		return es
	}
	es = ix.resolveAll(filepath.Dir(path), incs)
	ix.mu.Lock()
	ix.edges[path] = es
	ix.mu.Unlock()
	return es
}

// resolveAll resolves the includes incs of a file in dir. A file found
// next to the includer, the first place looked at, stays the answer until
// it is removed, which the header's own dependency sees: two lookups in
// three are of that kind, and only the others are recorded (edge.look).
func (ix *Index) resolveAll(dir string, incs []string) []edge {
	es := make([]edge, 0, len(incs))
	for _, inc := range incs {
		p := ix.resolve(dir, inc)
		e := edge{key: [2]string{dir, inc}, path: p}
		if p != filepath.Join(dir, inc) {
			e.look = &Dep{Path: ix.abs(dir), Lookup: lookupInclude + inc, Sum: sha256.Sum256([]byte(ix.abs(p)))}
		}
		es = append(es, e)
	}
	return es
}

// Scope is what one file sees through the index: its own definitions
// and those of the headers it includes, nearest first. It caches the values
// it gives; it belongs to one file's lowering.
type Scope struct {
	ix     *Index
	hs     []*header
	values map[string]*ir.Expr // name or call (name<targs>()) -> value, nil when none
}

// Scope returns the scope of the file name, in dir, whose own definitions
// are self and whose "..." includes are includes, as written; classes are
// those whose members the file defines outside their body and does not
// define (classes.go). The headers of the scope are the file's
// dependencies (Consulted).
func (ix *Index) Scope(name, dir string, self *header, includes []string, classes ...ClassRef) *Scope {
	c := ix.closure(dir, includes)
	if len(classes) > 0 {
		c = ix.withClasses(dir, c, classes)
	}
	ix.use(name, c)
	return &Scope{ix: ix, hs: append([]*header{self}, c.hs...), values: map[string]*ir.Expr{}}
}

// Dep is what a file's lowering depends on besides its own bytes: a
// header it read (Lookup empty), with the sha256 of the bytes read; or a
// lookup whose answer it used (Lookup set), made in the folder or for the
// file Path, with the sha256 of the answer. A lookup that found nothing is
// a dependency too: the file created later changes the answer.
type Dep struct {
	Path   string
	Sum    [sha256.Size]byte
	Lookup string // "" (a header read); lookupInclude, lookupClass or lookupIncluders, then what was looked up
}

// The kinds of lookup (Dep.Lookup).
const (
	lookupInclude   = "include:"   // an include as written in the folder Path: the file it resolves to
	lookupClass     = "class:"     // the header of the folder Path or its parent that defines a class: its path and template parameters
	lookupIncluders = "includers:" // the files of a folder (after the colon) that include the file Path
)

// Holds reports whether the lookup d still has the answer it had, now (in
// this generation of the index: Refresh makes it look again). A header
// read (d.Lookup empty) is for the caller to check, by its bytes.
func (ix *Index) Holds(d Dep) bool {
	var answer string
	switch k, arg, _ := strings.Cut(d.Lookup, ":"); k + ":" {
	case lookupInclude:
		answer = ix.abs(ix.resolve(d.Path, arg))
	case lookupClass:
		path, tparams := ix.classHeader(d.Path, arg)
		answer = classAnswer(ix.abs(path), tparams)
	case lookupIncluders:
		answer = strings.Join(ix.includersIn(d.Path, arg), "\x00")
	default:
		return false
	}
	return sha256.Sum256([]byte(answer)) == d.Sum
}

// consulted is what the lowering of one file consulted through the index.
type consulted struct {
	hs    []*header
	looks []Dep
}

// Consulted returns, and forgets, what the last lowering of the file name
// consulted through the index: the headers, with the hashes of what it
// read, and the lookups whose answers it used, paths absolute. None when
// its lowering needed nothing from the index.
func (ix *Index) Consulted(name string) []Dep {
	ix.mu.Lock()
	c, ok := ix.used[name]
	delete(ix.used, name)
	ix.mu.Unlock()
	if !ok {
		return nil
	}
	out := make([]Dep, 0, len(c.hs)+len(c.looks))
	for _, h := range c.hs {
		out = append(out, Dep{Path: ix.abs(h.path), Sum: h.sum})
	}
	return append(out, c.looks...)
}

// Value returns the value name has in the scope, fixed for the run
// (constants and element sizes), or false.
func (sc *Scope) Value(name string) (*ir.Expr, bool) {
	if v, ok := sc.values[name]; ok {
		return v, v != nil
	}
	ev := &evaluator{hs: sc.hs}
	v := ev.name(name, nil)
	sc.values[name] = v
	return v, v != nil
}

// Call returns the value of a call of a constexpr function without
// arguments (GetVLEleNums<T>()) with the template arguments targs, or false.
func (sc *Scope) Call(name string, targs []string) (*ir.Expr, bool) {
	k := name + "<" + strings.Join(targs, ",") + ">()"
	if v, ok := sc.values[k]; ok {
		return v, v != nil
	}
	ev := &evaluator{hs: sc.hs}
	v := ev.call(name, targs, nil)
	sc.values[k] = v
	return v, v != nil
}

// newHeader returns an empty header, for a file's own definitions.
func newHeader() *header {
	return &header{defs: map[string]string{}, funcs: map[string]constFn{}, aliases: map[string]string{}, foreign: &foreignFile{}}
}

// evaluator folds definition texts into fixed values.
type evaluator struct {
	hs    []*header
	depth int
}

// lookupDef returns the definition text of name in the headers.
func (ev *evaluator) lookupDef(name string) (string, bool) {
	for _, h := range ev.hs {
		if v, ok := h.defs[name]; ok {
			return v, v != ""
		}
	}
	return "", false
}

// name evaluates a name; types maps template parameters to arguments.
func (ev *evaluator) name(name string, types map[string]string) *ir.Expr {
	if k := strings.LastIndex(name, "::"); k >= 0 {
		name = name[k+2:]
	}
	if name == "VECTOR_REG_WIDTH" || name == "VRegSize" {
		return ir.Const(ir.VectorBytes)
	}
	text, ok := ev.lookupDef(name)
	if !ok || ev.depth > 16 {
		return nil
	}
	ev.depth++
	defer func() { ev.depth-- }()
	p := &exprParser{s: text, ev: ev, types: types}
	v := p.expr()
	if p.failed || strings.TrimSpace(p.s[p.i:]) != "" {
		return nil
	}
	return fixed(v)
}

// call evaluates a constexpr function with one return, given its template arguments.
func (ev *evaluator) call(name string, targs []string, outer map[string]string) *ir.Expr {
	if k := strings.LastIndex(name, "::"); k >= 0 {
		name = name[k+2:]
	}
	if v, ok := ir.SizeCalls[name]; ok {
		return ir.Const(v)
	}
	if ev.depth > 16 {
		return nil
	}
	for _, h := range ev.hs {
		f, ok := h.funcs[name]
		if !ok {
			continue
		}
		if len(targs) != len(f.tparams) {
			return nil
		}
		types := map[string]string{}
		for j, t := range f.tparams {
			a := strings.TrimSpace(targs[j])
			if o, ok := outer[a]; ok {
				a = o
			}
			types[t] = a
		}
		ev.depth++
		defer func() { ev.depth-- }()
		p := &exprParser{s: f.ret, ev: ev, types: types}
		v := p.expr()
		if p.failed || strings.TrimSpace(p.s[p.i:]) != "" {
			return nil
		}
		return fixed(v)
	}
	return nil
}

// alias resolves a type name through the headers' using aliases.
func (ev *evaluator) alias(t string) string {
	for n := 0; n < 8; n++ {
		found := false
		for _, h := range ev.hs {
			if d, ok := h.aliases[t]; ok {
				t, found = d, true
				break
			}
		}
		if !found {
			break
		}
	}
	return t
}

// exprParser parses a C++ integer constant expression of a definition.
type exprParser struct {
	s      string
	i      int
	ev     *evaluator
	types  map[string]string // template parameter -> argument
	failed bool
}

func (p *exprParser) space() {
	for p.i < len(p.s) && (p.s[p.i] == ' ' || p.s[p.i] == '\t' || p.s[p.i] == '\n' || p.s[p.i] == '\r') {
		p.i++
	}
}

func (p *exprParser) peek(tok string) bool {
	p.space()
	return strings.HasPrefix(p.s[p.i:], tok)
}

func (p *exprParser) eat(tok string) bool {
	if p.peek(tok) {
		p.i += len(tok)
		return true
	}
	return false
}

var binaryLevels = [][]string{{"|"}, {"^"}, {"&"}, {"<<", ">>"}, {"+", "-"}, {"*", "/", "%"}}

func (p *exprParser) expr() *ir.Expr { return p.binary(0) }

func (p *exprParser) binary(level int) *ir.Expr {
	if level == len(binaryLevels) {
		return p.unary()
	}
	x := p.binary(level + 1)
	for !p.failed {
		op := ""
		for _, o := range binaryLevels[level] {
			if p.peek(o) && !p.peek(o+o) && !p.peek(o+"=") || (o == "<<" || o == ">>") && p.peek(o) {
				op = o
				break
			}
		}
		if op == "" {
			return x
		}
		p.i += len(op)
		y := p.binary(level + 1)
		switch op {
		case "+", "-", "*", "/", "%":
			x = ir.Bin(op, x, y)
		default:
			xv, ok1 := x.Value()
			yv, ok2 := y.Value()
			if !ok1 || !ok2 || (op == "<<" || op == ">>") && (yv < 0 || yv > 62) {
				p.failed = true
				return nil
			}
			switch op {
			case "<<":
				x = ir.Const(xv << yv)
			case ">>":
				x = ir.Const(xv >> yv)
			case "&":
				x = ir.Const(xv & yv)
			case "|":
				x = ir.Const(xv | yv)
			case "^":
				x = ir.Const(xv ^ yv)
			}
		}
	}
	return x
}

func (p *exprParser) unary() *ir.Expr {
	switch {
	case p.eat("-"):
		return ir.Neg(p.unary())
	case p.eat("+"):
		return p.unary()
	case p.eat("~"):
		v, ok := p.unary().Value()
		if !ok {
			p.failed = true
			return nil
		}
		return ir.Const(^v)
	}
	return p.primary()
}

func (p *exprParser) ident() string {
	p.space()
	j := p.i
	for j < len(p.s) && (isIdentChar(p.s[j]) || p.s[j] == ':' && j+1 < len(p.s) && p.s[j+1] == ':') {
		if p.s[j] == ':' {
			j++
		}
		j++
	}
	id := p.s[p.i:j]
	p.i = j
	return id
}

// targs reads <...> after a name, if any.
func (p *exprParser) targs() []string {
	if !p.peek("<") || p.peek("<<") {
		return nil
	}
	k := matchAngle([]byte(p.s), p.i)
	if k < 0 {
		return nil // a comparison, which a constant of ours never is: left to fail
	}
	out := splitTop(p.s[p.i+1 : k])
	p.i = k + 1
	return out
}

// size returns sizeof of a type name, symbolic for a template parameter.
func (p *exprParser) size(t string) *ir.Expr {
	t = normSpace(t)
	if a, ok := p.types[t]; ok {
		t = a
	}
	t = p.ev.alias(t)
	if sz, ok := ir.ElemSize(t); ok {
		return ir.Const(sz)
	}
	if isIdentifier(t) {
		return &ir.Expr{Kind: ir.ExprSizeof, Name: t}
	}
	p.failed = true
	return nil
}

func (p *exprParser) primary() *ir.Expr {
	if p.failed {
		return nil
	}
	p.space()
	if p.i >= len(p.s) {
		p.failed = true
		return nil
	}
	c := p.s[p.i]
	switch {
	case c == '(':
		p.i++
		// A C-style cast: (uint32_t)x.
		save := p.i
		t := strings.TrimSpace(p.ident())
		if t != "" && p.eat(")") {
			if _, ok := ir.ElemSize(p.ev.alias(t)); ok {
				return p.unary()
			}
		}
		p.i = save
		x := p.expr()
		if !p.eat(")") {
			p.failed = true
		}
		return x
	case c >= '0' && c <= '9':
		j := p.i
		for j < len(p.s) && (isIdentChar(p.s[j]) || p.s[j] == '\'') {
			j++
		}
		v, ok := parseInt(p.s[p.i:j])
		p.i = j
		if !ok {
			p.failed = true
			return nil
		}
		return ir.Const(v)
	case isIdentStart(c):
		id := p.ident()
		switch id {
		case "sizeof":
			if !p.eat("(") {
				p.failed = true
				return nil
			}
			k := strings.IndexByte(p.s[p.i:], ')')
			if k < 0 {
				p.failed = true
				return nil
			}
			t := p.s[p.i : p.i+k]
			p.i += k + 1
			return p.size(t)
		case "static_cast", "reinterpret_cast":
			p.targs()
			if !p.eat("(") {
				p.failed = true
				return nil
			}
			x := p.expr()
			if !p.eat(")") {
				p.failed = true
			}
			return x
		}
		targs := p.targs()
		if p.eat("(") {
			if !p.eat(")") {
				p.failed = true // only calls without arguments
				return nil
			}
			x := p.ev.call(id, targs, p.types)
			if x == nil {
				p.failed = true
			}
			return x
		}
		x := p.ev.name(id, p.types)
		if x == nil {
			p.failed = true
		}
		return x
	}
	p.failed = true
	return nil
}
