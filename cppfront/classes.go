package cppfront

import (
	"crypto/sha256"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// The class of an out-of-class member definition.
//
// A kernel class is often declared in one header and its members defined
// in others, which the operator's .cpp includes after it, so that they
// include nothing themselves:
//
//	// op_kernel/arch35/norm_x.h            // op_kernel/arch35/norm_x_compute.h, no #include
//	template <typename T, bool det>          template <typename T, bool det>
//	class NormX {                            __simd_vf__ inline void NormX<T, det>::ComputeVf(...)
//	    static constexpr uint32_t VL =       {
//	        GetVecLen() / sizeof(float);         ... LoadUnAlignPre(u, x + i * 2 * VL); ...
//	    ...                                  }
//	};
//
// The constants such a definition names are the class's. When the file
// defines members of a class it does not define itself, and the headers it
// includes do not define it either, the index looks for the class by name:
// the headers (.h, .hh, .hpp, .hxx, .inl, .inc) of the file's folder that
// define a class or struct of that name with a body, else those of the
// folder above. Exactly one header of the first folder that has any must
// define it, with the template parameters the definition names in the same
// order (NormX<T, det> for template <typename T, bool det> class NormX):
// then that header, and what it includes, are searched after the file's
// own includes, as if the file included it. A class defined twice (by two
// headers, or by one twice: a specialisation, #if branches) is not looked
// for further: which one the member belongs to is not known.

// ClassRef is a class whose members a file defines out of its body, as the
// definitions name it: NormX<T, det> is {NormX, [T det]}.
type ClassRef struct {
	Name string
	Args []string
}

// classDef is a class (or struct) a header defines with a body.
type classDef struct {
	tparams []string // its template parameters, in order
	twice   bool     // defined more than once in the header
}

// headerExts are the file extensions of the headers searched for a class.
var headerExts = []string{".h", ".hh", ".hpp", ".hxx", ".inl", ".inc"}

// scanClasses returns the classes and structs text (without comments)
// defines with a body, with their template parameters: the keyword, a
// name, and then a body, a base clause, final, or template arguments (a
// specialisation, which counts as a second definition) before the body;
// not enum class, not a template parameter (class T), not a declaration.
func scanClasses(text string) map[string]classDef {
	var out map[string]classDef
	for _, kw := range []string{"class", "struct"} {
		for k := 0; ; {
			j := strings.Index(text[k:], kw)
			if j < 0 {
				break
			}
			j += k
			k = j + len(kw)
			if j > 0 && isIdentChar(text[j-1]) || k < len(text) && isIdentChar(text[k]) {
				continue
			}
			if before := strings.TrimRight(text[:j], " \t\r\n"); strings.HasSuffix(before, "enum") {
				continue
			}
			n := skipBlank(text, k)
			e := n
			for e < len(text) && isIdentChar(text[e]) {
				e++
			}
			if e == n || !isIdentStart(text[n]) {
				continue
			}
			name := text[n:e]
			rest := skipBlank(text, e)
			if strings.HasPrefix(text[rest:], "final") {
				rest = skipBlank(text, rest+len("final"))
			}
			if rest >= len(text) || !strings.ContainsRune("{:<", rune(text[rest])) {
				continue // class T> or class T, a declaration, a variable
			}
			spec := text[rest] == '<'
			if text[rest] == ':' && strings.HasPrefix(text[rest:], "::") {
				continue // struct A::B: a nested class defined outside
			}
			// A body must come before any ';'.
			b := strings.IndexAny(text[rest:], ";{")
			if b < 0 || text[rest+b] != '{' {
				continue
			}
			if out == nil {
				out = map[string]classDef{}
			}
			d, seen := out[name]
			if seen || spec {
				d.twice = true
			}
			if !seen {
				d.tparams = templateParamsBefore(text, j)
			}
			out[strings.Clone(name)] = d
		}
	}
	return out
}

// templateParamsBefore returns the parameter names of the template<...>
// just before offset j, or nil.
func templateParamsBefore(text string, j int) []string {
	e := len(strings.TrimRight(text[:j], " \t\r\n"))
	if e == 0 || text[e-1] != '>' {
		return nil
	}
	depth := 0
	s := -1
	for i := e - 1; i >= 0; i-- {
		if text[i] == '>' {
			depth++
		} else if text[i] == '<' {
			if depth--; depth == 0 {
				s = i
				break
			}
		}
	}
	if s < 0 || !strings.HasSuffix(strings.TrimRight(text[:s], " \t\r\n"), "template") {
		return nil
	}
	var out []string
	for _, p := range splitTop(text[s+1 : e-1]) {
		if k := strings.IndexByte(p, '='); k >= 0 {
			p = p[:k]
		}
		p = strings.TrimRight(p, " \t\r\n")
		i := len(p)
		for i > 0 && isIdentChar(p[i-1]) {
			i--
		}
		out = append(out, strings.Clone(p[i:]))
	}
	return out
}

func skipBlank(s string, i int) int {
	for i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r') {
		i++
	}
	return i
}

// classHeader returns the header that defines the class ref names for a
// file in dir, and the class's template parameters (see the comment at the
// top of this file), or "".
func (ix *Index) classHeader(dir, name string) (string, []string) {
	for _, d := range []string{dir, filepath.Dir(dir)} {
		var path string
		var def classDef
		for _, h := range ix.folder(d) {
			c, ok := h.classes[name]
			if !ok {
				continue
			}
			if path != "" || c.twice {
				return "", nil
			}
			path, def = h.path, c
		}
		if path != "" {
			return path, def.tparams
		}
		if filepath.Dir(d) == d {
			break
		}
	}
	return "", nil
}

// folder returns the scanned headers of the folder d that define a class,
// reading each on first use (as the headers a file includes are), once
// per generation.
func (ix *Index) folder(d string) []*header {
	ix.mu.Lock()
	hs, ok := ix.folders[d]
	ix.mu.Unlock()
	if ok {
		return hs
	}
	entries, _ := os.ReadDir(d)
	for n, e := range entries {
		if n >= indexMaxFiles {
			break
		}
		if e.IsDir() || !slices.Contains(headerExts, strings.ToLower(filepath.Ext(e.Name()))) {
			continue
		}
		if h := ix.load(filepath.Join(d, e.Name())); h != nil && len(h.classes) > 0 {
			hs = append(hs, h)
		}
	}
	ix.mu.Lock()
	ix.folders[d] = hs
	ix.mu.Unlock()
	return hs
}

// withClasses returns c (a file's include closure) followed by the
// headers that define the classes refs names, found by classHeader, and
// what they include: for each class that no header of c defines, whose
// header is found, and whose template parameters are the arguments of
// every ref to it (a member of a specialisation, Foo<half>::F, makes the
// class's constants another's). The class lookups are recorded with the
// closure's: a header created later that defines the class changes the
// answer.
func (ix *Index) withClasses(dir string, c *closure, refs []ClassRef) *closure {
	out := &closure{hs: slices.Clone(c.hs), looks: slices.Clone(c.looks)}
	for k, ref := range refs {
		if slices.ContainsFunc(refs[:k], func(r ClassRef) bool { return r.Name == ref.Name }) {
			continue // done with the first ref to it
		}
		if slices.ContainsFunc(out.hs, func(h *header) bool { _, ok := h.classes[ref.Name]; return ok }) {
			continue
		}
		path, tparams := ix.classHeader(dir, ref.Name)
		out.looks = append(out.looks, Dep{Path: ix.abs(dir), Lookup: lookupClass + ref.Name, Sum: sha256.Sum256([]byte(classAnswer(ix.abs(path), tparams)))})
		if path == "" || slices.ContainsFunc(refs, func(r ClassRef) bool { return r.Name == ref.Name && !slices.Equal(r.Args, tparams) }) {
			continue
		}
		cc := ix.closure(filepath.Dir(path), []string{filepath.Base(path)})
		for _, h := range cc.hs {
			if !slices.Contains(out.hs, h) {
				out.hs = append(out.hs, h)
			}
		}
		for _, d := range cc.looks {
			if !slices.Contains(out.looks, d) {
				out.looks = append(out.looks, d)
			}
		}
	}
	return out
}

// classAnswer is what a class lookup found (Index.Holds): the header's
// path and the class's template parameters.
func classAnswer(path string, tparams []string) string {
	return path + "\x00" + strings.Join(tparams, "\x00")
}

// outOfClass returns the classes whose members the file defines outside
// their body (NormX<T, det>::Compute) and does not define itself, in the
// order of their first definition.
func (lw *lowerer) outOfClass() []ClassRef {
	var out []ClassRef
	for _, fd := range lw.funcs {
		if fd.class != "" {
			continue
		}
		cut := qualifierEnd(fd.name)
		if cut < 0 {
			continue
		}
		qual := strings.TrimSpace(fd.name[:cut])
		if k := strings.LastIndex(qual[:max(0, strings.IndexByte(qual+"<", '<'))], "::"); k >= 0 {
			qual = qual[k+2:] // ns::NormX<T>: the class's own name
		}
		name, args := splitTemplate(qual)
		if !isIdentifier(name) || lw.knownNS[name] {
			continue
		}
		for i := range args {
			args[i] = normSpace(args[i])
		}
		ref := ClassRef{Name: name, Args: args}
		if !slices.ContainsFunc(out, func(r ClassRef) bool { return r.Name == ref.Name && slices.Equal(r.Args, ref.Args) }) {
			out = append(out, ref)
		}
	}
	return out
}
