package cppfront

import (
	"bytes"
	"fmt"
	"slices"
	"strings"

	"github.com/ascvet/ascvet/cppfront/ir"
)

// Instantiations named by the files that include the file.
//
// A kernel's class template is defined in a header and instantiated by the
// operator's entry file, one folder up, under its tiling keys:
//
//	op_kernel/arch35/im2col_gather_cut_hw.h   template <typename T, typename U, typename Y, bool isPadding>
//	                                          class Im2colGatherCutHw { ... __VEC_SCOPE__ { ... } ... };
//	op_kernel/im2col_apt.cpp                  #include "arch35/im2col_gather_cut_hw.h"
//	                                          if (TILING_KEY_IS(1)) { Im2colGatherCutHw<uint8_t, uint16_t, int16_t, isPadding> op(pipe); ...
//
// The header alone gives no template argument, and every if constexpr on
// T is timed on its costlier branch. When a region's file names none of
// its template arguments, the files of its folder and of the folder above
// that include the file are read, once per run for their includes, and
// each explicit argument list they write for the region's class (or, for
// a function template, for the function) is an instantiation
// (ir.Func.Tuples): a type, a number, an enumerator or a qualified constant
// binds its parameter; a bare name (the includer's own template parameter,
// a constant of its own) binds nothing, so that parameter stays unknown.
// The lists must all parse, and at most ir.MaxInstantiations differ;
// otherwise the region keeps what its file says. The includers read are
// dependencies of the file.

// includerInstances sets ir.Func.Tuples on the template regions of the file
// whose own file gives no instantiation.
func (lw *lowerer) includerInstances() {
	if lw.index == nil || lw.noForeign {
		return
	}
	type want struct {
		fn     *ir.Func
		name   string   // the class or function template named
		params []string // its template parameters, in order
	}
	var wants []want
	for _, fn := range lw.f.Funcs {
		if !fn.Kind.Analysed() || len(fn.Instances) > 0 || len(fn.Tuples) > 0 {
			continue // its own file's call sites name its instantiations
		}
		if name, params := templateOf(fn); name != "" {
			wants = append(wants, want{fn, name, params})
		}
	}
	if len(wants) == 0 {
		return
	}
	// A class template is also instantiated by the file that defines it
	// (a launch function below the class): its text is searched first.
	var texts [][]byte
	own := false
	for _, w := range wants {
		own = own || w.fn.Class != "" || strings.Contains(w.fn.Name, ">::")
	}
	if own {
		texts = append(texts, lw.src)
	}
	files := lw.includerFiles()
	if len(files) == 0 && len(texts) == 0 {
		return
	}
	for _, p := range files {
		if src, ok := lw.includerText(p); ok {
			texts = append(texts, src)
		}
	}
	// Methods of one class share its instantiations: found once.
	memo := map[string][]ir.Bindings{}
	for _, w := range wants {
		key := fmt.Sprint(w.name, w.params, w.fn.Class == "" && !strings.Contains(w.fn.Name, ">::"))
		if tuples, done := memo[key]; done {
			w.fn.Tuples = lw.reachableTuples(w.fn, tuples)
			continue
		}
		var tuples []ir.Bindings
		seen := map[string]bool{}
		ok := true
		for i, src := range texts {
			lw.budget.check() // each text is scanned whole
			if own && i == 0 && w.fn.Class == "" && !strings.Contains(w.fn.Name, ">::") {
				continue // a function template's own file: its call sites said what they could (callSiteFacts)
			}
			for _, args := range append(namedArgs(src, w.name), macroArgs(src, w.name)...) {
				if len(args) > len(w.params) {
					ok = false
					break
				}
				b := bindArgs(w.params, args)
				if b.Empty() {
					continue
				}
				if k := b.String(); !seen[k] {
					seen[k] = true
					tuples = append(tuples, b)
				}
			}
		}
		if !ok || len(tuples) == 0 || len(tuples) > ir.MaxInstantiations {
			tuples = nil
		}
		memo[key] = tuples
		w.fn.Tuples = lw.reachableTuples(w.fn, tuples)
	}
}

// reachableTuples returns the instantiations of tuples in which the
// compiler builds the method holding fn: a class template's method is
// instantiated only where it is called, and a call under
// if constexpr (sizeof(T) == 4) is made only in the instantiations whose
// condition holds. The calls of the method in its file are read; an
// instantiation none of them is made in is dropped. When the method is
// called nowhere in the file (another file calls it), from too many
// places, or no instantiation would remain, tuples is returned whole.
func (lw *lowerer) reachableTuples(fn *ir.Func, tuples []ir.Bindings) []ir.Bindings {
	if len(tuples) < 2 {
		return tuples
	}
	var fd funcDef
	found := false
	for _, f := range lw.funcs {
		if lw.pos(f.start) <= fn.Pos && fn.End <= lw.pos(f.end) && f.end-f.start > 0 {
			if !found || f.end-f.start < fd.end-fd.start {
				fd, found = f, true // the innermost definition around the region
			}
		}
	}
	if !found || fd.name == "" {
		return tuples
	}
	name := lastComponent(fd.name)
	offs := lw.callOffsets(name, int(fd.start), int(fd.end))
	if len(offs) == 0 || len(offs) > 64 {
		return tuples
	}
	var sites [][]branch
	for _, off := range offs {
		lw.budget.check()
		conds, ok := textBranches(lw.src, off)
		if !ok {
			return tuples
		}
		sites = append(sites, conds)
	}
	var keep []ir.Bindings
	for _, b := range tuples {
		for _, conds := range sites {
			if reached(conds, b) {
				keep = append(keep, b)
				break
			}
		}
	}
	if len(keep) == 0 {
		return tuples
	}
	return keep
}

// textBranches returns the if constexpr branches around offset off of
// src, innermost first, read from the text (the caller's body may not be
// parsed: lazy.go): each block that opens before off and closes after it,
// headed by if constexpr (C) or else if constexpr (C), puts the call in
// C's then branch, and in the else branches of the if constexpr before
// it in its chain; a block headed by else, in the else branch of the
// chain before it. ok is false when the text does not read so (a brace
// or parenthesis unmatched within 64 KB).
func textBranches(src []byte, off int) ([]branch, bool) {
	var out []branch
	depth := 0
	for i := off - 1; i >= 0 && off-i < 64<<10; i-- {
		switch src[i] {
		case '}':
			depth++
		case '{':
			if depth > 0 {
				depth--
				continue
			}
			conds, ok := blockHead(src, i)
			if !ok {
				return nil, false
			}
			out = append(out, conds...)
		}
	}
	return out, true
}

// blockHead returns the branches a block opening at src[open] puts its
// statements in: its own if constexpr condition (then), and the
// conditions of the if constexpr chain before an else (not taken).
func blockHead(src []byte, open int) ([]branch, bool) {
	var out []branch
	j := skipBack(src, open)
	then := true
	for {
		if j > 0 && src[j-1] == ')' {
			// if constexpr (C) {  -- or a function, a loop, a switch
			o := openParen(src, j-1)
			if o < 0 {
				return nil, false
			}
			k := skipBack(src, o)
			if !endsWord(src, k, "constexpr") {
				return out, true
			}
			k = skipBack(src, k-len("constexpr"))
			if !endsWord(src, k, "if") {
				return out, true
			}
			out = append(out, branch{normSpace(string(src[o+1 : j-1])), then})
			j = skipBack(src, k-len("if"))
			if !endsWord(src, j, "else") {
				return out, true
			}
		} else if !endsWord(src, j, "else") {
			return out, true
		}
		// else: the chain before it was not taken.
		j = skipBack(src, j-len("else"))
		if j == 0 || src[j-1] != '}' {
			return out, true // else without a block before it: not read
		}
		o := openBrace(src, j-1)
		if o < 0 {
			return nil, false
		}
		j = skipBack(src, o)
		then = false
	}
}

// skipBack returns the offset just past the last byte before j that is
// not white space.
func skipBack[T ~string | ~[]byte](src T, j int) int {
	for j > 0 && (src[j-1] == ' ' || src[j-1] == '\t' || src[j-1] == '\n' || src[j-1] == '\r') {
		j--
	}
	return j
}

// endsWord reports whether src[:j] ends with the word w.
func endsWord(src []byte, j int, w string) bool {
	s := j - len(w)
	return s >= 0 && string(src[s:j]) == w && (s == 0 || !isIdentChar(src[s-1]))
}

// openParen returns the ( that the ) at c closes, or -1.
func openParen(src []byte, c int) int { return openOf(src, c, '(', ')') }

// openBrace returns the { that the } at c closes, or -1.
func openBrace(src []byte, c int) int { return openOf(src, c, '{', '}') }

func openOf(src []byte, c int, open, close byte) int {
	depth := 0
	for i := c; i >= 0 && c-i < 64<<10; i-- {
		switch src[i] {
		case close:
			depth++
		case open:
			if depth--; depth == 0 {
				return i
			}
		}
	}
	return -1
}

// branch is one if constexpr around a call: its condition as written, and
// whether the call is in its then branch (else in its else branch).
type branch struct {
	cond string
	then bool
}

// reached reports whether a call under the if constexpr branches conds
// is made in the instantiation b: no condition that folds under b
// contradicts the branch the call is in.
func reached(conds []branch, b ir.Bindings) bool {
	for _, c := range conds {
		if v, ok := ir.EvalCond(c.cond, nil, b); ok && (v != 0) != c.then {
			return false
		}
	}
	return true
}

// templateOf returns the template a region belongs to and its parameters:
// the class of a method, from the region's name ("C<T, U>::M",
// "C<T, U>::M.vec_scope#1"), or a function template with parameters of
// its own.
func templateOf(fn *ir.Func) (string, []string) {
	if fn.Class != "" && len(fn.ClassTParams) > 0 {
		return fn.Class, fn.ClassTParams
	}
	name := fn.Name
	if k := strings.Index(name, ".vec_scope#"); k >= 0 {
		name = name[:k]
	}
	if k := strings.LastIndex(name, ">::"); k >= 0 {
		open := strings.IndexByte(name, '<')
		if open <= 0 || open > k {
			return "", nil
		}
		cls := name[:open]
		if j := strings.LastIndex(cls, "::"); j >= 0 {
			cls = cls[j+2:]
		}
		params := splitTop(name[open+1 : k])
		for i, p := range params {
			params[i] = strings.TrimSpace(p)
			if _, isType := ir.ElemSize(params[i]); !isIdentifier(params[i]) || isType || params[i] == "true" || params[i] == "false" {
				return "", nil // a specialisation's arguments: not parameter names
			}
		}
		return cls, params
	}
	if strings.Contains(name, "::") || len(fn.TParams) == 0 {
		return "", nil
	}
	return name, fn.TParams
}

// namedArgs returns the template argument lists src writes for name:
// each name<...> outside comments, as identifier, followed by its
// arguments, split at their top-level commas.
func namedArgs(src []byte, name string) [][]string {
	var out [][]string
	for k := 0; ; {
		j := bytes.Index(src[k:], []byte(name))
		if j < 0 {
			return out
		}
		j += k
		k = j + len(name)
		if j > 0 && (isIdentChar(src[j-1]) || src[j-1] == '~') || inComment(src, j) || afterClassKey(src, j) {
			continue
		}
		e := k
		for e < len(src) && (src[e] == ' ' || src[e] == '\t') {
			e++
		}
		if e >= len(src) || src[e] != '<' {
			continue
		}
		end := matchAngle(src, e)
		if end < 0 {
			continue
		}
		var args []string
		for _, a := range splitTop(string(src[e+1 : end])) {
			args = append(args, normSpace(a))
		}
		out = append(out, args)
		k = end + 1
	}
}

// afterClassKey reports whether the name at offset j of src follows class
// or struct: a (partial) specialisation's head, template <typename T>
// class C<T, 2> { ... }, which is no instantiation.
func afterClassKey(src []byte, j int) bool {
	k := j
	for k > 0 && (src[k-1] == ' ' || src[k-1] == '\t' || src[k-1] == '\n') {
		k--
	}
	for _, key := range []string{"class", "struct"} {
		if s := k - len(key); s >= 0 && string(src[s:k]) == key && (s == 0 || !isIdentChar(src[s-1])) {
			return true
		}
	}
	return false
}

// macroArgs returns the template argument lists for name that the
// invocations of src's function-like macros write, their bodies naming
// name with the macro's parameters:
//
//	#define RUN_IMPL(INPUT_TYPE, RENORM) do { Kernel<INPUT_TYPE, RENORM> op; ... } while (0)
//	... RUN_IMPL(half, 0); RUN_IMPL(float, 1);
//
// gives [half 0] and [float 1]. A parameter stands for its argument as
// written, __VA_ARGS__ for the rest; an invocation whose arguments are
// fewer than the parameters gives nothing.
func macroArgs(src []byte, name string) [][]string {
	if !bytes.Contains(src, []byte("#define")) || !bytes.Contains(src, []byte(name)) {
		return nil
	}
	var out [][]string
	for k := 0; ; {
		j := bytes.Index(src[k:], []byte("#define"))
		if j < 0 {
			return out
		}
		j += k
		end := j
		for end < len(src) && src[end] != '\n' {
			if src[end] == '\\' && end+1 < len(src) && (src[end+1] == '\n' || src[end+1] == '\r') {
				end += 2
				continue
			}
			end++
		}
		k = end
		def := src[j+len("#define") : end]
		i := skipSpace(def, 0)
		ns := i
		for i < len(def) && isIdentChar(def[i]) {
			i++
		}
		macro := string(def[ns:i])
		if macro == "" || i >= len(def) || def[i] != '(' {
			continue // an object-like macro
		}
		pe := bytes.IndexByte(def[i:], ')')
		if pe < 0 {
			continue
		}
		var params []string
		for _, p := range strings.Split(string(def[i+1:i+pe]), ",") {
			params = append(params, strings.TrimSpace(p))
		}
		body := def[i+pe+1:]
		lists := namedArgs(body, name)
		if len(lists) == 0 {
			continue
		}
		for _, at := range identOffsets(src, macro) {
			if at >= j && at < end || inComment(src, at) {
				continue // the definition itself
			}
			o := skipSpace(src, at+len(macro))
			if o >= len(src) || src[o] != '(' {
				continue
			}
			c := callParen(src, o)
			if c < 0 {
				continue
			}
			actual := callArgs(string(src[o+1 : c]))
			if len(actual) < len(params) && !(len(params) > 0 && params[len(params)-1] == "..." && len(actual) >= len(params)-1) {
				continue
			}
			for _, l := range lists {
				var args []string
				for _, a := range l {
					switch idx := slices.Index(params, a); {
					case a == "__VA_ARGS__" && len(params) > 0 && params[len(params)-1] == "...":
						args = append(args, actual[min(len(params)-1, len(actual)):]...)
					case idx >= 0 && params[idx] != "...":
						args = append(args, normSpace(actual[idx]))
					default:
						args = append(args, a)
					}
				}
				out = append(out, args)
			}
		}
	}
}

// inComment reports whether offset j of src is in a // comment of its line.
func inComment(src []byte, j int) bool {
	s := bytes.LastIndexByte(src[:j], '\n') + 1
	return bytes.Contains(src[s:j], []byte("//"))
}

// bindArgs binds params to args: a number or a boolean as a value; a
// type, an enumerator or a qualified name as a type argument (what
// Bindings.Type and the condition folding read); a bare name binds
// nothing (the includer's own parameter or constant).
func bindArgs(params, args []string) ir.Bindings {
	b := ir.Bindings{Types: map[string]string{}, Values: map[string]*ir.Expr{}}
	for i, a := range args {
		if i >= len(params) || a == "" {
			continue
		}
		if v, ok := ir.LiteralValue(a); ok {
			b.Values[params[i]] = ir.Const(v)
			continue
		}
		if _, known := ir.ElemSize(a); known || strings.Contains(a, "::") {
			b.Types[params[i]] = strings.TrimPrefix(a, "::")
		}
	}
	return b
}
