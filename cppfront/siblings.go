package cppfront

import (
	"crypto/sha256"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/ascvet/ascvet/cppfront/ir"
	"github.com/ascvet/ascvet/internal/regfile"
)

// Callers in the file's folder.
//
// A header often holds __simd_callee__ helpers that only the kernels of
// other files of its folder call:
//
//	vf_block_common.h      __simd_callee__ void MainLoop(...) { ... }
//	vf_block_update.h      #include "vf_block_common.h"   ... MainLoop(...)
//	vf_block_no_update.h   #include "vf_block_common.h"   ... MainLoop(...)
//
// The compiler builds such a helper only inlined into those kernels, with
// what each keeps live around the call: what the helper holds alone is not
// what the machine sees. The kernels' files see it inlined (a helper of a
// header they include: foreign.go, ir.Func.Expand) and count it there; the
// helper's file, knowing that files of its folder that include it call it
// by name (ir.Func.CalledFrom), leaves its register count to them. The
// files read are dependencies of the file, as the headers of its scope
// are: a caller added or removed changes its analysis.

// siblingMax bounds the files of a folder that are looked at.
const siblingMax = 256

// siblingDir is what the index knows of one folder's files, this
// generation: which of them include which file.
type siblingDir struct {
	gen int
	by  map[string][]string // absolute path of a file included -> the folder's files that include it ("..." includes)
}

// includersIn returns the source files of folder dir other than path whose
// "..." includes name path, relative to dir. A folder is read once per
// generation, the first includePrefix bytes of at most siblingMax of its
// sources.
func (ix *Index) includersIn(path, dir string) []string {
	dir = filepath.Clean(ix.abs(dir))
	ix.mu.Lock()
	sd, ok := ix.sibDirs[dir]
	gen := ix.gen
	ix.mu.Unlock()
	if !ok || sd.gen != gen {
		sd = &siblingDir{gen: gen, by: map[string][]string{}}
		ents, err := os.ReadDir(dir)
		if err == nil {
			n := 0
			for _, e := range ents {
				if n >= siblingMax {
					break
				}
				if !e.Type().IsRegular() || !sourceExt(e.Name()) {
					continue
				}
				n++
				p := filepath.Join(dir, e.Name())
				for _, inc := range includesOf(p) {
					// Only the file next to the includer: the ones
					// asked about are in this folder or below it.
					if r := filepath.Join(dir, inc); r != p && !slices.Contains(sd.by[r], p) {
						sd.by[r] = append(sd.by[r], p)
					}
				}
			}
		}
		ix.mu.Lock()
		ix.sibDirs[dir] = sd
		ix.mu.Unlock()
	}
	return sd.by[filepath.Clean(ix.abs(path))]
}

// readBounded reads the regular file at p when it is at most
// indexMaxHeader bytes: a larger file is not read at all, and a pipe or a
// device, which could block, is not opened for reading (regfile.Read).
func readBounded(p string) ([]byte, bool) {
	src, err := regfile.Read(p, indexMaxHeader)
	return src, err == nil
}

// sourceExt reports whether name has an extension ascvet analyses.
func sourceExt(name string) bool {
	switch filepath.Ext(name) {
	case ".asc", ".cpp", ".cc", ".cxx", ".h", ".hh", ".hpp", ".hxx":
		return true
	}
	return false
}

// includePrefix is how much of a file is read for its includes: they open
// a file; one written further down is not seen.
const includePrefix = 32 << 10

// includesOf returns the "..." includes in the first includePrefix bytes
// of the file at p.
func includesOf(p string) []string {
	if !regular(p) {
		return nil // a pipe or a device (a link to one) would block the open
	}
	bp := prefixBufs.Get().(*[]byte)
	defer prefixBufs.Put(bp)
	n, err := regfile.ReadPrefix(p, *bp)
	if err != nil && n == 0 {
		return nil
	}
	return quotedIncludes((*bp)[:n]) // copies its strings out
}

// prefixBufs hold includePrefix bytes each, for includesOf.
var prefixBufs = sync.Pool{New: func() any { b := make([]byte, includePrefix); return &b }}

// siblingCallers lists, for each helper region of the file, the files of
// its folder that include the file and call the helper by name
// (ir.Func.CalledFrom), and records those files as the file's
// dependencies.
func (lw *lowerer) siblingCallers() {
	if lw.index == nil || lw.noForeign {
		return
	}
	var helpers []*ir.Func
	for _, fn := range lw.f.Funcs {
		if fn.Body != nil && (fn.Kind == ir.RegionSimdCallee || fn.Kind == ir.RegionAicoreRegs) {
			helpers = append(helpers, fn)
		}
	}
	if len(helpers) == 0 {
		return
	}
	sibs := lw.includersIn(filepath.Dir(lw.f.Name))
	if len(sibs) == 0 {
		return
	}
	for _, p := range sibs {
		src, ok := lw.includerText(p)
		if !ok {
			continue
		}
		for _, fn := range helpers {
			if callsName(src, lastComponent(fn.Name)) && !slices.Contains(fn.CalledFrom, p) {
				fn.CalledFrom = append(fn.CalledFrom, p)
			}
		}
	}
}

// includersIn is Index.includersIn for the file being lowered, recorded
// as a lookup its lowering depends on: a file of the folder that comes to
// include it, or stops, changes its analysis.
func (lw *lowerer) includersIn(dir string) []string {
	files := lw.index.includersIn(lw.f.Name, dir)
	d := Dep{Path: lw.index.abs(lw.f.Name), Lookup: lookupIncluders + filepath.Clean(lw.index.abs(dir)), Sum: sha256.Sum256([]byte(strings.Join(files, "\x00")))}
	lw.index.use(lw.f.Name, &closure{looks: []Dep{d}})
	return files
}

// includerText returns the text of a file that includes the file being
// lowered (siblingCallers, includerInstances), read once per lowering and
// recorded as a dependency of the file.
func (lw *lowerer) includerText(p string) ([]byte, bool) {
	if t, ok := lw.includers[p]; ok {
		return t.src, t.ok
	}
	t := lw.index.includerSrc(p)
	if lw.includers == nil {
		lw.includers = map[string]includerSrc{}
	}
	lw.includers[p] = t
	if !t.ok {
		return nil, false
	}
	lw.index.use(lw.f.Name, &closure{hs: []*header{{path: p, sum: t.sum}}})
	return t.src, true
}

// includerSrc is a file read for what it includes and calls: the files of
// a folder are read by the lowering of each header they include, so the
// index keeps them for the generation, up to maxIncluderTexts bytes.
type includerSrc struct {
	src    []byte // shared: read only
	sum    [sha256.Size]byte
	ok     bool
	consts *textConsts // the constants of src asked for so far (fileConstant), nil when src is not kept
}

// textConsts memoizes fileConstant over one kept text: the lowerings of
// the files a text includes ask it for the same arguments' names (a
// tiling field, a vector length), and each answer is a scan of the whole
// text.
type textConsts struct {
	mu sync.Mutex
	m  map[string]textConst
}

type textConst struct {
	v  int64
	ok bool
}

// of returns fileConstant(src, name), src being the text c is for.
func (c *textConsts) of(src []byte, name string) (int64, bool) {
	c.mu.Lock()
	r, hit := c.m[name]
	c.mu.Unlock()
	if hit {
		return r.v, r.ok
	}
	r.v, r.ok = fileConstant(src, name)
	c.mu.Lock()
	if c.m == nil {
		c.m = map[string]textConst{}
	}
	c.m[name] = r
	c.mu.Unlock()
	return r.v, r.ok
}

// maxIncluderTexts bounds the bytes of includer files an index keeps.
const maxIncluderTexts = 64 << 20

// includerSrc returns the text of the file at p (readBounded), read once
// per generation while the index has room for it.
func (ix *Index) includerSrc(p string) includerSrc {
	ix.mu.Lock()
	t, hit := ix.texts[p]
	ix.mu.Unlock()
	if hit {
		return t
	}
	src, ok := readBounded(p)
	t = includerSrc{src: src, ok: ok}
	if ok {
		t.sum = sha256.Sum256(src)
	}
	ix.mu.Lock()
	if _, dup := ix.texts[p]; !dup && ix.textSize+len(src) <= maxIncluderTexts {
		t.consts = &textConsts{}
		ix.texts[p] = t
		ix.textSize += len(src)
	}
	ix.mu.Unlock()
	return t
}

// callsName reports whether src names name as an identifier followed by
// "(" or "<" (a call, or one with template arguments).
func callsName(src []byte, name string) bool {
	for _, k := range identOffsets(src, name) {
		if e := skipSpace(src, k+len(name)); e < len(src) && (src[e] == '(' || src[e] == '<') {
			return true
		}
	}
	return false
}
