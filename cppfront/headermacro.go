package cppfront

import (
	"bytes"
	"path/filepath"
	"slices"
	"strings"

	"github.com/ascvet/ascvet/cppfront/ir"
)

// Macros of the headers a file includes. Kernels often define their VF
// building blocks in a header and use them in another file:
//
//	// vf_utils.h
//	#define CAST_2(d, s, m) Reg::Cast<float>(d##0, s##0, m); Reg::Cast<float>(d##1, s##1, m)
//	// kernel.h
//	#include "vf_utils.h"
//	CAST_2(dst, src, p);          // before: an unknown call, its writes unseen
//	 Reg::Cast<float>(dst0, src0, p); Reg::Cast<float>(dst1, src1, p) ;   // parsed
//
// When the index scans a header it also reads its #define and #undef
// directives into the expander's form (headerDefines). The macros of a
// file's "..." include closure, nearest header first, are merged once per
// closure and generation (Index.closureMacros); expandMacros looks a name
// up in the file's own definitions first, then in them. So:
//
//   - the file's own #define of a name hides a header's, wherever it is;
//   - an #undef in the file of a header's macro ends its uses there;
//   - a header's macro is visible from the start of the file (its
//     #include comes first in practice);
//   - two headers of the closure defining a name differently, a header
//     that #undefs it (its own helper macro, or another header's), and a
//     body holding a region marker make the name unusable, as conditional
//     compilation does for the file's own macros: it is left as written;
//   - a header's macro named as an API call or an element type the front
//     end knows (#define asc_create_mask_b32 pset_b32, #define bfloat16_t
//     ...) is not expanded: the op table reads the name better than the
//     header's internals;
//   - qualifiers in a header's body (__aicore__, __ubuf__) are dropped, as
//     the pre-pass blanks them in the file's own.
//
// Cost: the closure is read only for a file whose VF regions (from a
// region marker; not the rest of an __aicore__ function) hold a name
// spelled as macros are (upper case, digits and underscores, unqualified:
// DO_CAST_16, BLOCK_LEN) that the file neither #defines nor declares as a
// template parameter; a macro named in lower case is not looked for in the
// headers. Reading the closure of every file with VF code and an include
// made a cold run of the corpus read 515 headers more than the lowering
// asks for; the test reads 208. Once read, the closure is a dependency of
// the file (Index.Consulted), its lookups with it, whether or not a VF
// region used one of its macros: a name looked for and not found depends
// on the headers as much as one found (a header that comes to define it,
// or that is created where an include found nothing, changes the IR).

// headerMacros is what expandMacros sees of a file's include closure.
type headerMacros struct {
	load   func() map[string]*macroDef // the closure's macros; called once, on first need
	defs   map[string]*macroDef
	loaded bool
}

// get returns the closure's macros, loading them on first use.
func (hm *headerMacros) get() map[string]*macroDef {
	if hm == nil {
		return nil
	}
	if !hm.loaded {
		hm.loaded = true
		hm.defs = hm.load()
	}
	return hm.defs
}

// headerDefines reads the #define and #undef directives dirs (each one
// logical line, continuations kept, comments removed) of a header into
// macros: nil when it has none.
func headerDefines(dirs []byte) map[string]*macroDef {
	if len(dirs) == 0 {
		return nil
	}
	toks, spans := lexFile(lexText(dirs), nil)
	defs := readDefines(dirs, toks, spans)
	for name, d := range defs {
		d.hdr = true
		if d.undef >= 0 || d.hidden {
			d.bad = true // undefined again by the header: not visible after it
		}
		if _, _, ok := ir.Resolve(name, ir.NSNone, true, nil); ok {
			d.bad = true // an API name: the op table knows it
		}
		if _, ok := ir.ElemSize(name); ok {
			d.bad = true // an element type
		}
		body := d.body[:0]
		for _, t := range d.body {
			if _, ok := markerKinds[t.text]; ok {
				d.bad = true
			}
			if !qualifiers[t.text] {
				body = append(body, t)
			}
		}
		d.body = body
		d.from, d.at, d.undef, d.hidden = 0, 0, -1, false // positions of the header, not of a file
	}
	return defs
}

// isDefineLine reports whether line (a line of the header starting with
// '#', leading blanks removed) is a #define or #undef directive.
func isDefineLine(t string) bool {
	t = strings.TrimLeft(t[1:], " \t")
	return strings.HasPrefix(t, "define") || strings.HasPrefix(t, "undef")
}

// closureMacros returns the headers that includes (written in dir) name
// transitively (Index.closure), and their macros merged, nearest header
// first; a name two headers define differently, or one header leaves
// unusable, is unusable. Merged once per closure and generation.
func (ix *Index) closureMacros(dir string, includes []string) (*closure, map[string]*macroDef) {
	c := ix.closure(dir, includes)
	key := dir + "\x00" + strings.Join(includes, "\x00")
	ix.mu.Lock()
	defs, ok := ix.macros[key]
	ix.mu.Unlock()
	if ok {
		return c, defs
	}
	for _, h := range c.hs {
		for name, d := range h.macros {
			if defs == nil {
				defs = map[string]*macroDef{}
			}
			old := defs[name]
			switch {
			case old == nil:
				defs[name] = d
			case !old.bad && (d.bad || !sameDef(old, d)):
				c := *old // the header's own stays as it is
				c.bad = true
				defs[name] = &c
			}
		}
	}
	ix.mu.Lock()
	ix.macros[key] = defs
	ix.mu.Unlock()
	return c, defs
}

// use records what c holds as consulted by the lowering of the file
// name, with what was recorded before (Consulted takes it).
func (ix *Index) use(name string, c *closure) {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	old, ok := ix.used[name]
	if !ok {
		ix.used[name] = &consulted{hs: c.hs, looks: c.looks}
		return
	}
	hs := old.hs[:len(old.hs):len(old.hs)]
	for _, h := range c.hs {
		// One entry per file: within a generation a path is one header.
		if !slices.ContainsFunc(hs, func(o *header) bool { return o.path == h.path }) {
			hs = append(hs, h)
		}
	}
	looks := old.looks[:len(old.looks):len(old.looks)]
	for _, d := range c.looks {
		if !slices.ContainsFunc(looks, func(o Dep) bool { return o.Path == d.Path && o.Lookup == d.Lookup }) {
			looks = append(looks, d)
		}
	}
	ix.used[name] = &consulted{hs: hs, looks: looks}
}

// quotedIncludes returns the "..." includes of b, as written, in order: a
// quick scan for '#' at the start of a line, "include" and a quoted name.
func quotedIncludes(b []byte) []string {
	var out []string
	for k := 0; ; {
		i := bytes.Index(b[k:], []byte("include"))
		if i < 0 {
			return out
		}
		i += k
		k = i + len("include")
		h := i - 1
		for h >= 0 && (b[h] == ' ' || b[h] == '\t') {
			h--
		}
		if h < 0 || b[h] != '#' || !atLineStart(b, h) {
			continue
		}
		j := k
		for j < len(b) && (b[j] == ' ' || b[j] == '\t') {
			j++
		}
		if j >= len(b) || b[j] != '"' {
			continue
		}
		e := bytes.IndexAny(b[j+1:], "\"\n")
		if e <= 0 || b[j+1+e] != '"' {
			continue
		}
		out = append(out, string(b[j+1:j+1+e]))
	}
}

// fileMacros is the headerMacros of the file name for ix: its include
// closure's, found from the "..." includes of clean. c is set to the
// closure when it is loaded.
func fileMacros(ix *Index, name string, clean []byte, c **closure) *headerMacros {
	if ix == nil {
		return nil
	}
	return &headerMacros{load: func() map[string]*macroDef {
		incs := quotedIncludes(clean)
		if len(incs) == 0 {
			return nil
		}
		var defs map[string]*macroDef
		*c, defs = ix.closureMacros(filepath.Dir(name), incs)
		return defs
	}}
}

// macroLike reports whether an identifier of the VF regions of t's text
// (from a region marker of blanks to the end of its body; not those of
// __aicore__ functions) is spelled as a macro (upper case, digits and
// underscores, with a letter) and is none of: in a directive, qualified
// (X::NAME, obj.NAME, NAME::x), in own (the file's macros), a template
// parameter of the file (typename NAME, class NAME): the names the
// headers' macros are looked up for.
func macroLike(t *tokens, blanks []blank, own map[string]bool) bool {
	end := -1
	for _, bl := range blanks {
		if _, ok := markerKinds[bl.text]; !ok || bl.start < end {
			continue
		}
		if end = t.bodyEnd(bl.end); end > 0 && macroLikeIn(t, bl.start, end, own) {
			return true
		}
	}
	return false
}

// macroLikeIn is macroLike for the tokens of [from, to).
func macroLikeIn(t *tokens, from, to int, own map[string]bool) bool {
	b := t.src
	for k := t.at(from); k < len(t.toks) && int(t.toks[k].start) < to; k++ {
		tk := t.toks[k]
		if tk.kind != 'a' {
			continue
		}
		i, j := int(tk.start), int(tk.end)
		c := b[i]
		upper := c == '_' || c >= 'A' && c <= 'Z'
		letter := c != '_'
		for _, d := range b[i+1 : j] {
			if d >= 'a' && d <= 'z' {
				upper = false
			} else if d >= 'A' && d <= 'Z' {
				letter = true
			}
		}
		if upper && letter && j-i >= 2 && !qualifiedAt(b, i, j) && !own[string(b[i:j])] && !qualifiers[string(b[i:j])] && !templateParam(b, string(b[i:j])) {
			return true
		}
	}
	return false
}

// templateParam reports whether b declares name as a template parameter.
func templateParam(b []byte, name string) bool {
	for _, kw := range [...]string{"typename ", "class "} {
		for k := 0; ; {
			i := bytes.Index(b[k:], []byte(kw+name))
			if i < 0 {
				break
			}
			k += i + len(kw) + len(name)
			if k >= len(b) || !isIdentChar(b[k]) {
				return true
			}
		}
	}
	return false
}

// qualifiedAt reports whether the identifier b[i:j] is qualified or
// qualifies: after ::, . or ->, or before ::.
func qualifiedAt(b []byte, i, j int) bool {
	k := i - 1
	for k >= 0 && (b[k] == ' ' || b[k] == '\t') {
		k--
	}
	if k >= 0 && (b[k] == '.' || b[k] == ':' || b[k] == '>' && k > 0 && b[k-1] == '-') {
		return true
	}
	for j < len(b) && (b[j] == ' ' || b[j] == '\t') {
		j++
	}
	return j+1 < len(b) && b[j] == ':' && b[j+1] == ':'
}
