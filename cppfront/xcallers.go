package cppfront

import (
	"bytes"
	"path/filepath"
	"regexp"
	"strings"

	sitter "github.com/tree-sitter/go-tree-sitter"

	"github.com/ascvet/ascvet/cppfront/ir"
)

// Values passed by callers in other files.
//
// A helper of a header is often called only by the kernels of files that
// include it, each passing a constant or a 0/1 flag:
//
//	vf.h         __simd_vf__ void Fold(..., uint16_t hasTail) { for (i = 0; i < hasTail; ++i) ... }
//	kernel.h     #include "vf.h"   ...  uint16_t hasTail = tail > 0 ? 1 : 0;  Fold(..., hasTail);
//
// The helper's file alone leaves hasTail unknown, and the loop it bounds is
// timed as 16 iterations. The files that include the file (includersIn:
// its folder's and the folder above's, read once per run for their
// includes) are read for calls of the function by name, and each argument
// is classified from its text as the call writes it: an integer or a
// boolean, a constant the includer or the file defines with one, or a 0/1
// flag (c ? 1 : 0, a comparison, a local initialised with one). A value
// every call agrees on binds the parameter, as calls in the file do
// (callSiteFacts); a parameter every call passes a 0/1 flag runs a loop it
// bounds at most once. An argument not so classified, a call whose
// arguments do not split, or a count that differs from the parameters
// leaves the parameter unknown; so does a call of a class member (its
// name may be another class's). The files read are dependencies of the
// file (includerText).

// textCall is the argument list of one call in another file.
type textCall struct {
	src    []byte      // the caller's file
	consts *textConsts // its constants asked for so far, shared by the lowerings that read it (nil: none)
	at     int         // offset of the call's name in src
	args   []string    // the arguments as written
}

// includerCalls returns the calls of fd's function in the files that
// include the file, and ok false when one could not be read as a call
// (its arguments do not split): the parameters are then not bound.
func (lw *lowerer) includerCalls(fd funcDef) ([]textCall, bool) {
	if lw.index == nil || lw.noForeign || fd.class != "" || strings.Contains(fd.name, "::") {
		return nil, true
	}
	name := lastComponent(fd.name)
	var out []textCall
	for _, p := range lw.includerFiles() {
		lw.budget.check() // each file is a scan of up to its whole text
		src, ok := lw.includerText(p)
		if !ok {
			continue
		}
		for _, k := range identOffsets(src, name) {
			if k > 0 && (src[k-1] == '.' || src[k-1] == '>' && k > 1 && src[k-2] == '-') || inComment(src, k) {
				continue // a member of some object: not this function
			}
			if k >= 2 && src[k-1] == ':' && src[k-2] == ':' {
				continue // qualified by a class or namespace not known to be this one
			}
			j := skipSpace(src, k+len(name))
			if j < len(src) && src[j] == '<' {
				e := matchAngle(src, j)
				if e < 0 {
					return nil, false
				}
				j = skipSpace(src, e+1)
			}
			if j >= len(src) || src[j] != '(' {
				continue // a declaration, a pointer taken, a name in a string
			}
			e := callParen(src, j)
			if e < 0 {
				return nil, false
			}
			if isDefinition(src, e) {
				continue // a declaration or definition of a function of that name
			}
			inner := strings.TrimSpace(string(src[j+1 : e]))
			var args []string
			if inner != "" {
				args = callArgs(inner)
			}
			out = append(out, textCall{src: src, consts: lw.includers[p].consts, at: k, args: args})
			if len(out) > 64 {
				return nil, false
			}
		}
	}
	return out, true
}

// includerFiles returns the files of the file's folder and of the folder
// above that include it (includerInstances reads the same).
func (lw *lowerer) includerFiles() []string {
	if lw.xfiles != nil {
		return *lw.xfiles
	}
	dir := lw.index.abs(filepath.Dir(lw.f.Name))
	files := lw.includersIn(dir)
	if up := filepath.Dir(dir); up != dir {
		files = append(files, lw.includersIn(up)...)
	}
	lw.xfiles = &files
	return files
}

// callParen returns the index of the ) that closes a call's ( at j, or -1
// when a ;, a brace or 4 KB come first.
func callParen(src []byte, j int) int {
	depth := 0
	for i := j; i < len(src) && i < j+4096; i++ {
		switch src[i] {
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 {
				return i
			}
		case ';', '{', '}':
			return -1
		}
	}
	return -1
}

// callArgs splits a call's arguments at their top-level commas. A < is a
// template's bracket only when it follows a name directly and its > comes
// before any operator that cannot be in a template argument list:
// static_cast<uint16_t>(x) is one argument, tail < 4 ? 1 : 0 a comparison.
func callArgs(s string) []string {
	var out []string
	depth, start := 0, 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			depth--
		case '<':
			if i > 0 && isIdentChar(s[i-1]) {
				if e := templateClose(s, i); e > i {
					i = e
				}
			}
		case ',':
			if depth == 0 {
				out = append(out, strings.TrimSpace(s[start:i]))
				start = i + 1
			}
		}
	}
	return append(out, strings.TrimSpace(s[start:]))
}

// templateClose returns the > that closes a template argument list's < at
// j, or -1 when what follows is no such list.
func templateClose(s string, j int) int {
	depth := 0
	for k := j; k < len(s); k++ {
		switch s[k] {
		case '<':
			depth++
		case '>':
			if depth--; depth == 0 {
				return k
			}
		case '?', ';', '|', '&', '=', '!':
			return -1
		}
	}
	return -1
}

// isDefinition reports whether the ) at e ends a function's declarator:
// followed by {, ;, a qualifier or an attribute rather than by what
// follows a call in an expression.
func isDefinition(src []byte, e int) bool {
	j := skipSpace(src, e+1)
	if j >= len(src) {
		return false
	}
	if src[j] == '{' {
		return true
	}
	rest := src[j:min(len(src), j+16)]
	for _, q := range []string{"const", "override", "noexcept", "->", "final"} {
		if bytes.HasPrefix(rest, []byte(q)) {
			return true
		}
	}
	return false
}

// textValue classifies an argument as another file's call writes it: its
// value when fixed, or zeroOne when it is a 0/1 flag.
func (lw *lowerer) textValue(c textCall, arg string) (v *ir.Expr, zeroOne bool) {
	a := stripCasts(arg)
	if x, ok := ir.LiteralValue(a); ok {
		return ir.Const(x), false
	}
	if zeroOneText(a) {
		return nil, true
	}
	if !isIdentifier(a) {
		return nil, false
	}
	// A local flag initialised once before the call.
	if init, ok := localInit(c.src, c.at, a); ok {
		init = stripCasts(init)
		if x, ok := constText(init); ok {
			return ir.Const(x), false
		}
		return nil, zeroOneText(init)
	}
	// A constant the caller's file defines, once.
	if x, ok := c.constant(a); ok {
		return ir.Const(x), false
	}
	return nil, false
}

// constant is fileConstant of the caller's file, through its memo when
// the index keeps the text.
func (c textCall) constant(name string) (int64, bool) {
	if c.consts != nil {
		return c.consts.of(c.src, name)
	}
	return fileConstant(c.src, name)
}

// castRE matches a cast around a whole argument.
var castRE = regexp.MustCompile(`^(?:static_cast<[^<>()]+>\((.*)\)|\(\s*(?:u?int(?:8|16|32|64)_t|bool|int|unsigned)\s*\)\s*(.*))$`)

// stripCasts removes casts and parentheses around a whole argument.
func stripCasts(a string) string {
	for range 4 {
		a = strings.TrimSpace(a)
		if m := castRE.FindStringSubmatch(a); m != nil {
			a = m[1] + m[2]
			continue
		}
		if len(a) > 1 && a[0] == '(' && callParen([]byte(a), 0) == len(a)-1 {
			a = a[1 : len(a)-1]
			continue
		}
		break
	}
	return a
}

// zeroOneRE matches c ? 1 : 0 and c ? 0 : 1.
var zeroOneRE = regexp.MustCompile(`^[^?]+\?\s*[01]\s*:\s*[01]$`)

// zeroOneText reports whether an expression's text is a 0/1 flag: a
// conditional of 0 and 1, a comparison or a negation at top level.
func zeroOneText(a string) bool {
	if zeroOneRE.MatchString(a) {
		return true
	}
	if strings.ContainsAny(a, "?,") || strings.Contains(a, "<<") || strings.Contains(a, ">>") {
		return false
	}
	for _, op := range []string{"==", "!=", "<=", ">=", "&&", "||"} {
		if strings.Contains(a, op) {
			return true
		}
	}
	return a == "true" || a == "false" || strings.HasPrefix(a, "!") && !strings.HasPrefix(a, "!=")
}

// localInit returns the initialiser of name's one declaration or
// assignment in the 4 KB before the call at offset at, when nothing else
// in between assigns it; ok false otherwise.
func localInit(src []byte, at int, name string) (string, bool) {
	from := max(0, at-4096)
	var found string
	n := 0
	for _, k := range identOffsets(src[from:at], name) {
		k += from
		j := skipSpace(src, k+len(name))
		if j >= at {
			continue
		}
		switch {
		case src[j] == '=' && (j+1 >= len(src) || src[j+1] != '='):
			e := bytes.IndexByte(src[j:at], ';')
			if e < 0 {
				return "", false
			}
			found = strings.TrimSpace(string(src[j+1 : j+e]))
			n++
		case j+1 < len(src) && (src[j+1] == '=' && strings.IndexByte("+-*/%&|^", src[j]) >= 0 || src[j] == '+' && src[j+1] == '+' || src[j] == '-' && src[j+1] == '-'):
			return "", false // changed after its initialiser
		case k >= 2 && (src[k-1] == '+' && src[k-2] == '+' || src[k-1] == '-' && src[k-2] == '-'):
			return "", false
		case src[j] == '(' || src[j] == '{':
			return "", false // initialised by a constructor call or a list
		}
	}
	return found, n == 1
}

// fileConstant returns the value of a constant src defines once with a
// literal or a platform size query: a const or constexpr declaration
// (const uint16_t ROWS = 8;) or an object-like #define (#define ROWS 8);
// ok false when it defines none, or more than one of that name.
func fileConstant(src []byte, name string) (int64, bool) {
	var val int64
	n := 0
	for _, k := range identOffsets(src, name) {
		ls := bytes.LastIndexByte(src[:k], '\n') + 1
		le := bytes.IndexByte(src[k:], '\n')
		if le < 0 {
			le = len(src)
		} else {
			le += k
		}
		head, tail := src[ls:k], strings.TrimSpace(string(src[k+len(name):le]))
		var lit string
		switch t := strings.TrimSpace(string(head)); {
		case strings.HasPrefix(t, "#") && strings.TrimSpace(strings.TrimPrefix(t, "#")) == "define":
			lit = strings.TrimSpace(strings.TrimSuffix(strings.TrimPrefix(tail, "("), ")"))
		case hasWord(head, "const") || hasWord(head, "constexpr"):
			rest, ok := strings.CutPrefix(tail, "=")
			if !ok {
				continue // a use, or a declaration without a literal
			}
			rest, ok = strings.CutSuffix(strings.TrimSpace(rest), ";")
			if !ok {
				return 0, false
			}
			lit = strings.TrimSpace(rest)
		default:
			continue
		}
		v, ok := constText(lit)
		if !ok {
			return 0, false
		}
		val = v
		n++
	}
	return val, n == 1
}

// constText reads a constant's initialiser: an integer, or a platform
// size query (Ops::Base::GetVRegSize(), ir.SizeCalls).
func constText(t string) (int64, bool) {
	if v, ok := ir.LiteralValue(t); ok {
		return v, true
	}
	if call, ok := strings.CutSuffix(t, "()"); ok {
		v, known := ir.SizeCalls[lastComponent(strings.TrimSpace(call))]
		return v, known
	}
	return 0, false
}

// withIncluderCalls combines what the file's own calls say of the
// parameters (vals, zo; own false when the file has none) with the calls
// ext of the files that include it: a parameter keeps a value every call
// agrees on, or is a 0/1 flag when every call passes one. When a call
// could not be read (ok false), nothing is known; a template parameter's
// value from the file's calls is dropped, since the other files' template
// arguments are not read here (includerInstances reads them).
func (lw *lowerer) withIncluderCalls(ext []textCall, ok, own bool, params []ir.Param, vals map[string]*ir.Expr, zo map[string]bool) (map[string]*ir.Expr, map[string]bool) {
	if !ok {
		return nil, nil
	}
	outV, outZ := map[string]*ir.Expr{}, map[string]bool{}
	for _, c := range ext {
		if len(c.args) != len(params) {
			return nil, nil // a default argument, or another function of that name
		}
	}
	for k, p := range params {
		if p.Reg != ir.NoReg || p.Ptr || p.Name == "" {
			continue
		}
		var agreed *ir.Expr
		valOK := true
		if own {
			agreed, valOK = vals[p.Name], vals[p.Name] != nil
		}
		allZO := !own || zo[p.Name] || isZeroOne(vals[p.Name])
		for _, c := range ext {
			v, z := lw.textValue(c, c.args[k])
			switch {
			case v == nil:
				valOK = false
			case agreed == nil:
				agreed = v
			case v.String() != agreed.String():
				valOK = false
			}
			allZO = allZO && (z || isZeroOne(v))
		}
		switch {
		case valOK && agreed != nil:
			outV[p.Name] = agreed
		case allZO:
			outZ[p.Name] = true
		}
	}
	if len(outV) == 0 {
		outV = nil
	}
	if len(outZ) == 0 {
		outZ = nil
	}
	return outV, outZ
}

// isZeroOne reports whether v is the constant 0 or 1.
func isZeroOne(v *ir.Expr) bool {
	x, ok := v.Value()
	return ok && (x == 0 || x == 1)
}

// scopeCallerFacts returns what the calls of the function def (around a
// __VEC_SCOPE__ block) pass to its parameters params: the values every
// call agrees on and the parameters every call passes a 0/1 flag, from
// the calls in the file and in the files including it, as callSiteFacts
// finds them for a VF function.
func (lw *lowerer) scopeCallerFacts(def *sitter.Node, params []ir.Param, flats map[uint]*flat) (map[string]*ir.Expr, map[string]bool) {
	if len(params) == 0 {
		return nil, nil
	}
	var fd funcDef
	found := false
	for _, f := range lw.funcs {
		if f.node.StartByte() == def.StartByte() && f.node.EndByte() == def.EndByte() {
			fd, found = f, true
			break
		}
	}
	if !found || fd.name == "" {
		return nil, nil
	}
	own := len(lw.callOffsets(lastComponent(fd.name), int(fd.start), int(fd.end))) > 0
	var sites []callSite
	if own {
		var ok bool
		if sites, ok = lw.callSites(fd, flats); !ok {
			return nil, nil
		}
	}
	ext, extOK := lw.includerCalls(fd)
	if !own && len(ext) == 0 {
		return nil, nil
	}
	var vals map[string]*ir.Expr
	var zo map[string]bool
	if own {
		vals = paramAgreement(sites, params, fd)
		zo = zeroOneParams(sites, params, vals)
	}
	if len(ext) > 0 || !extOK {
		vals, zo = lw.withIncluderCalls(ext, extOK, own, params, vals, zo)
	}
	return vals, zo
}
