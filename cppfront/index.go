package cppfront

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"io"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"

	"github.com/ascvet/ascvet/cppfront/ir"
	"github.com/ascvet/ascvet/internal/regfile"
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
	dirs     map[string]dirListing           // folder -> its entries' types, as include lookups list them (regular), this generation
	textSize int                             // the bytes texts holds, at most maxIncluderTexts
	defines  *header                         // the macros the command line defines (SetDefines), nil for none
}

// SetDefines makes defs (name -> value, as -D NAME=VALUE gives them) the
// macros every file sees first, before its own #defines and its headers':
// a compiler's -D, for the build macros a source leaves to the build
// (SCENARIO_NUM, a tiling key). The value is C++ text, read as a
// constant's initialiser is. A change of the set forgets every header
// read, and what was lowered from them.
func (ix *Index) SetDefines(defs map[string]string) {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	var h *header
	if len(defs) > 0 {
		h = newHeader()
		h.path = "<command line>"
		for k, v := range defs {
			h.defs[k] = v
		}
	}
	if sameDefs(ix.defines, h) {
		return
	}
	ix.defines = h
	ix.gen++
	clear(ix.headers)
	clear(ix.closures)
	clear(ix.macros)
}

// commandDefines returns the macros SetDefines gave (nil for a nil index
// or none), not to be changed.
func (ix *Index) commandDefines() map[string]string {
	if ix == nil {
		return nil
	}
	ix.mu.Lock()
	defer ix.mu.Unlock()
	if ix.defines == nil {
		return nil
	}
	return ix.defines.defs
}

// sameDefs reports whether two SetDefines headers define the same.
func sameDefs(a, b *header) bool {
	if a == nil || b == nil {
		return a == b
	}
	return maps.Equal(a.defs, b.defs)
}

// NewIndex returns an empty index, to share between the files of one run.
func NewIndex() *Index {
	wd, _ := os.Getwd()
	return &Index{wd: wd, headers: map[string]*header{}, found: map[[2]string]string{}, closures: map[string]*closure{}, used: map[string]*consulted{}, folders: map[string][]*header{}, sibDirs: map[string]*siblingDir{}, edges: map[string][]edge{}, macros: map[string]map[string]*macroDef{}, texts: map[string]includerSrc{}, dirs: map[string]dirListing{}}
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
	clear(ix.dirs)
	ix.textSize = 0
}

// Index limits: how far includes are followed, and how large a header is read.
const (
	indexDepth     = 6
	indexMaxHeader = 4 << 20
	indexMaxFiles  = 400
)

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
	src, err := regfile.ReadChecked(path, indexMaxHeader)
	if err != nil {
		return nil
	}
	text := src
	if defs := ix.commandDefines(); len(defs) > 0 || hasIfZero(src) {
		// Under -D the header is read as the build reads it: the #if
		// chains it and the command line decide selected, as a file's own
		// are (selectConditionals). Its sum stays that of its bytes.
		// Without -D, a header that holds an #if 0 (or #if false) is read
		// so too, for the chains it decides alone: lexing every header
		// would cost a cold run, lexing these few does not.
		sel := bytes.Clone(src)
		if selectConditionals(sel, lexText(sel), defs) {
			text = sel
		}
	}
	h = scan(path, text)
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
	if ix.regular(filepath.Join(dir, inc)) {
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
		if c := filepath.Join(a, sub, base); ix.regular(c) {
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

// regular is regular for the include lookups, from the listing of the
// path's folder, read once per generation (dirEntries): a lookup probes
// the same few folders (the includer's, its ancestors' include folders)
// for each include of each file, and most probes find nothing, which a
// stat per probe took a failed system call to say. A link is stat'ed.
func (ix *Index) regular(path string) bool {
	dir, name := filepath.Split(path)
	ents, listed := ix.dirEntries(filepath.Clean(dir))
	if !listed {
		return regular(path) // a folder that could not be listed: ask for the file
	}
	t, ok := ents[name]
	switch {
	case !ok:
		return false
	case t&fs.ModeSymlink != 0:
		return regular(path)
	default:
		return t.IsRegular()
	}
}

// dirEntries returns the names in the folder dir and their types, listed
// once per generation: none when there is no such folder. listed is false
// when dir exists but could not be listed (a folder one may enter but not
// read): its files are then stat'ed one by one.
func (ix *Index) dirEntries(dir string) (ents map[string]fs.FileMode, listed bool) {
	ix.mu.Lock()
	d, ok := ix.dirs[dir]
	ix.mu.Unlock()
	if ok {
		return d.ents, d.listed
	}
	list, err := readDirUpTo(dir, maxListed)
	switch {
	case err == nil && len(list) <= maxListed:
		d.listed = true
		d.ents = make(map[string]fs.FileMode, len(list))
		for _, e := range list {
			d.ents[e.Name()] = e.Type()
		}
	case errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR):
		d.listed = true // nothing is there
	}
	ix.mu.Lock()
	ix.dirs[dir] = d
	ix.mu.Unlock()
	return d.ents, d.listed
}

// maxListed bounds the entries of a folder dirEntries keeps: a bigger one
// (an ancestor such as /tmp, a folder of generated files) is asked for
// file by file, as before, rather than held.
const maxListed = 4096

// readDirUpTo lists at most n+1 entries of dir (n+1: there are more).
func readDirUpTo(dir string, n int) ([]fs.DirEntry, error) {
	f, err := os.Open(dir)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	list, err := f.ReadDir(n + 1)
	if errors.Is(err, io.EOF) {
		err = nil // an empty folder
	}
	return list, err
}

// dirListing is a folder as dirEntries listed it.
type dirListing struct {
	ents   map[string]fs.FileMode
	listed bool
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
	ix *Index
	hs []*header
	// values is the memo of Value and Call: name or call (name<targs>())
	// -> value, nil when none. The functions of a file lowered in parallel
	// (lowerParallel) share the scope, so mu guards it; a value two of
	// them evaluate at once is evaluated twice, the same.
	mu     sync.Mutex
	values map[string]*ir.Expr
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
	hs := append([]*header{self}, c.hs...)
	ix.mu.Lock()
	if d := ix.defines; d != nil {
		hs = append([]*header{d}, hs...)
	}
	ix.mu.Unlock()
	return &Scope{ix: ix, hs: hs, values: map[string]*ir.Expr{}}
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
	return sc.memo(name, func(ev *evaluator) *ir.Expr { return ev.name(name, nil) })
}

// Call returns the value of a call of a constexpr function without
// arguments (GetVLEleNums<T>()) with the template arguments targs, or false.
func (sc *Scope) Call(name string, targs []string) (*ir.Expr, bool) {
	k := name + "<" + strings.Join(targs, ",") + ">()"
	return sc.memo(k, func(ev *evaluator) *ir.Expr { return ev.call(name, targs, nil) })
}

// memo returns the value kept under k, evaluating it with eval (outside
// the lock: the headers it reads do not change) the first time.
func (sc *Scope) memo(k string, eval func(*evaluator) *ir.Expr) (*ir.Expr, bool) {
	sc.mu.Lock()
	v, ok := sc.values[k]
	sc.mu.Unlock()
	if !ok {
		v = eval(&evaluator{hs: sc.hs})
		sc.mu.Lock()
		sc.values[k] = v
		sc.mu.Unlock()
	}
	return v, v != nil
}

// hasIfZero reports whether src has a line "#if 0" or "#if false" (blanks
// allowed around the #): a group no build compiles.
func hasIfZero(src []byte) bool {
	for off := 0; ; {
		k := bytes.IndexByte(src[off:], '#')
		if k < 0 {
			return false
		}
		k += off
		off = k + 1
		if b := bytes.TrimRight(src[:k], " \t"); len(b) > 0 && b[len(b)-1] != '\n' {
			continue // not first on its line
		}
		line := src[k+1:]
		if e := bytes.IndexByte(line, '\n'); e >= 0 {
			line = line[:e]
		}
		if f := bytes.Fields(line); len(f) >= 2 && string(f[0]) == "if" && (string(f[1]) == "0" || string(f[1]) == "false") {
			return true
		}
	}
}
