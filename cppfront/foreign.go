package cppfront

import (
	"bytes"
	"crypto/sha256"
	"go/token"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/ascvet/ascvet/cppfront/ir"
)

// Helpers of other files.
//
// A VF function often calls a __simd_callee__ helper that a header of its
// repository defines (a shared Load/Store-with-cast, a reduction step).
// The index records, when it scans a header, the names of the VF
// functions the header defines (vfNames); when a call of a name the file
// does not define has register arguments, and one of the headers the file
// includes defines a VF function of that name, the header is lowered (once
// per run, through the index, without following helpers of further
// headers) and the call is linked to its definition (Instr.Target) as a
// call of a helper of the file is. Its body is then inlined where the
// simulator and the register analysis read it; the copies' positions are
// the call's (the header's positions are not the file's). The header is a
// dependency of the file (Index.Consulted) like every header of its scope.

// foreignLowerTimeout bounds the lowering of one header for its helpers.
const foreignLowerTimeout = 10 * time.Second

// foreignFile is a header's VF functions, lowered once.
type foreignFile struct {
	once  sync.Once
	funcs []*ir.Func
}

// vfFuncNames returns the names of the functions text defines with a VF
// marker (__simd_callee__, __simd_vf__) before their name, or __aicore__
// and register parameters (a helper VF code calls, as the file's own
// RegionAicoreRegs): the identifier before the first parenthesis after the
// marker.
func vfFuncNames(text string) map[string]bool {
	var out map[string]bool
	for _, marker := range []string{"__simd_callee__", "__simd_vf__", "__aicore__"} {
		for k := 0; ; {
			j := strings.Index(text[k:], marker)
			if j < 0 {
				break
			}
			j += k + len(marker)
			k = j
			p := strings.IndexByte(text[j:min(len(text), j+400)], '(')
			if p < 0 {
				continue
			}
			e := j + p
			for e > j && (text[e-1] == ' ' || text[e-1] == '\t' || text[e-1] == '\n' || text[e-1] == '\r') {
				e--
			}
			s := e
			for s > j && isIdentChar(text[s-1]) {
				s--
			}
			if marker == "__aicore__" && !takesRegs(text, j+p) {
				continue // host code: only a helper that takes registers is VF code
			}
			if s < e && isIdentStart(text[s]) {
				if out == nil {
					out = map[string]bool{}
				}
				out[strings.Clone(text[s:e])] = true
			}
		}
	}
	return out
}

// takesRegs reports whether the parameter list that opens at text[open]
// names a register type (RegTensor, MaskReg, an unaligned register).
func takesRegs(text string, open int) bool {
	depth := 0
	for k := open; k < len(text) && k < open+2000; k++ {
		switch text[k] {
		case '(':
			depth++
		case ')':
			if depth--; depth == 0 {
				ps := text[open:k]
				return strings.Contains(ps, "RegTensor") || strings.Contains(ps, "MaskReg") || strings.Contains(ps, "UnalignReg")
			}
		case '{', ';':
			return false
		}
	}
	return false
}

// Helpers returns the VF functions named name that the headers of the
// scope (not the file itself) define, lowered from their header.
func (sc *Scope) Helpers(name string) []*ir.Func {
	var out []*ir.Func
	for _, h := range sc.hs[1:] {
		if !h.vfNames[name] {
			continue
		}
		for _, fn := range sc.ix.lowerForeign(h) {
			if fn.Name == name || strings.HasSuffix(fn.Name, "::"+name) {
				out = append(out, fn)
			}
		}
	}
	return out
}

// lowerForeign lowers a header for its helpers, once per run: nothing
// when it changed since the index scanned it (its hash would not be the
// one the file's cache entry records).
func (ix *Index) lowerForeign(h *header) []*ir.Func {
	h.foreign.once.Do(func() {
		src, err := os.ReadFile(h.path)
		if err != nil || len(src) > indexMaxHeader || sha256.Sum256(src) != h.sum || bytes.IndexByte(src, 0) >= 0 {
			return
		}
		fset := token.NewFileSet()
		f, err := ParseFileOptions(fset, h.path, src, Options{Index: ix, Timeout: foreignLowerTimeout, noForeign: true})
		if err != nil {
			return
		}
		h.foreign.funcs = helpersOf(f, fset)
	})
	return h.foreign.funcs
}

// helpersOf returns the functions of f, lowered for its helpers in fset,
// that a caller may inline.
func helpersOf(f *ir.File, fset *token.FileSet) []*ir.Func {
	if f == nil {
		return nil
	}
	var out []*ir.Func
	for _, fn := range f.Funcs {
		if fn.Kind.Analysed() && fn.Kind != ir.RegionVecScope && fn.Body != nil {
			fn.Foreign, fn.Fset = true, fset
			out = append(out, fn)
		}
	}
	return out
}

// foreignFrom gives the index the helpers of the header at path, whose
// bytes are src, lowered by lower from the trees its own analysis parsed:
// when the index knows the header (a file of the run included it), it has
// helpers, they were not lowered yet, and src is what the index scanned.
func (ix *Index) foreignFrom(path string, src []byte, lower func(*token.FileSet) *ir.File) {
	ix.mu.Lock()
	h, ok := ix.headers[path]
	current := ok && h.gen == ix.gen
	ix.mu.Unlock()
	if !current || len(h.vfNames) == 0 || h.foreign == nil || len(src) > indexMaxHeader || bytes.IndexByte(src, 0) >= 0 || sha256.Sum256(src) != h.sum {
		return
	}
	h.foreign.once.Do(func() {
		fset := token.NewFileSet()
		h.foreign.funcs = helpersOf(lower(fset), fset)
	})
}

// foreignHelpers is the lookup linkCalls uses for a name the file does not
// define: the VF functions of that name in the file's headers.
func (lw *lowerer) foreignHelpers(name string) []*ir.Func {
	if lw.index == nil || lw.noForeign {
		return nil
	}
	if fns, ok := lw.foreign[name]; ok {
		return fns
	}
	sc := lw.scope()
	if sc == nil {
		return nil
	}
	fns := sc.Helpers(name)
	if lw.foreign == nil {
		lw.foreign = map[string][]*ir.Func{}
	}
	lw.foreign[name] = fns
	return fns
}
