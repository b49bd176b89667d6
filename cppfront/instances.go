package cppfront

import (
	"regexp"
	"slices"
	"strings"

	"github.com/ascvet/ascvet/cppfront/ir"
)

// Template instantiations from the call sites of a file.
//
// A helper written for one element type is often a template called only
// under a guard that names the type:
//
//	if constexpr (std::is_same<IDX_T, int64_t>::value) {
//	    ComputeInt64<IDX_T>(addr, n);          // ComputeInt64 sees IDX_T = int64_t
//	} else if constexpr (IsSameType<IDX_T, int32_t>::value) {
//	    ComputeInt32<IDX_T>(addr, n);
//	}
//
// instances records, for a function template whose every call in the file
// is seen in a lowered region, the types each of its parameters takes:
// from explicit template arguments that are types, or that are the
// caller's own parameters narrowed by an enclosing is_same guard (in the
// branch where it holds). A call that says nothing, or a call that ascvet
// cannot see (in code that is not lowered), leaves the function without
// instances: then every element size stays possible.

// sameRE matches is_same<A, B>::value, is_same_v<A, B> and IsSameType<A, B>::value.
var sameRE = regexp.MustCompile(`^(?:std::)?(?:is_same|is_same_v|IsSameType|AscendC::IsSameType)\s*<\s*([\w:]+)\s*,\s*([\w:]+)\s*>(?:\s*::\s*value)?$`)

// guard is what an enclosing if constexpr says about a template parameter.
type guard struct{ param, typ string }

func (lw *lowerer) instances() {
	byName := map[string][]*ir.Func{}
	for _, fn := range lw.f.Funcs {
		if len(fn.TParams) > 0 && fn.Kind.Analysed() {
			byName[lastComponent(fn.Name)] = append(byName[lastComponent(fn.Name)], fn)
		}
	}
	if len(byName) == 0 {
		return
	}
	type site struct {
		in     *ir.Instr
		caller *ir.Func
		guards []guard
	}
	sites := map[string][]site{}
	for _, caller := range lw.f.Funcs {
		var walk func(b *ir.Block, gs []guard)
		walk = func(b *ir.Block, gs []guard) {
			if b == nil {
				return
			}
			for _, n := range b.Nodes {
				switch n := n.(type) {
				case *ir.Instr:
					if n.Op == ir.OpCall && byName[lastComponent(n.Callee)] != nil {
						k := lastComponent(n.Callee)
						sites[k] = append(sites[k], site{n, caller, gs})
					}
				case *ir.Loop:
					walk(n.Body, gs)
				case *ir.If:
					then := gs
					if m := sameRE.FindStringSubmatch(n.CondText); n.Constexpr && m != nil {
						then = append(slices.Clip(gs), guard{m[1], m[2]}, guard{m[2], m[1]})
					}
					walk(n.Then, then)
					walk(n.Else, gs)
				}
			}
		}
		walk(caller.Body, nil)
	}
	for name, fns := range byName {
		if len(fns) != 1 || len(sites[name]) == 0 || len(sites[name]) != lw.textCalls(name, fns[0]) {
			continue
		}
		fn := fns[0]
		inst := map[string][]string{}
		for _, s := range sites[name] {
			for k, p := range fn.TParams {
				if p == "" {
					continue
				}
				t := ""
				if k < len(s.in.TArgs) {
					t = strings.TrimSpace(s.in.TArgs[k])
				} else if len(s.in.TArgs) == 0 {
					t = p // a member of the same class template: the same name
				}
				t = narrow(t, s.guards, s.caller)
				if _, ok := ir.ElemSize(t); !ok {
					inst = nil
					break
				}
				if !slices.Contains(inst[p], t) {
					inst[p] = append(inst[p], t)
				}
			}
			if inst == nil {
				break
			}
		}
		if len(inst) > 0 {
			fn.Instances = inst
		}
	}
}

// narrow resolves a template argument that is a parameter of the caller
// by the guards around the call, or by the caller's own instances.
func narrow(t string, gs []guard, caller *ir.Func) string {
	if _, ok := ir.ElemSize(t); ok {
		return t
	}
	for i := len(gs) - 1; i >= 0; i-- {
		if gs[i].param == t {
			if _, ok := ir.ElemSize(gs[i].typ); ok {
				return gs[i].typ
			}
		}
	}
	if ts := caller.Instances[t]; len(ts) == 1 {
		return ts[0]
	}
	return ""
}

// textCalls counts the places in the file that call name (name( or
// name<...>( not preceded by a type, as a declaration is), outside the
// definition of fn itself.
func (lw *lowerer) textCalls(name string, fn *ir.Func) int {
	src := lw.src
	from, to := lw.f.Tok.Offset(fn.Pos), lw.f.Tok.Offset(fn.End)
	n := 0
	for i := 0; ; {
		k := strings.Index(string(src[i:]), name)
		if k < 0 {
			return n
		}
		k += i
		i = k + len(name)
		if k > 0 && isIdentChar(src[k-1]) || i < len(src) && isIdentChar(src[i]) || k >= from && k < to {
			continue
		}
		j := skipSpace(src, i)
		if j < len(src) && src[j] == '<' {
			depth := 0
			for ; j < len(src); j++ {
				if src[j] == '<' {
					depth++
				} else if src[j] == '>' {
					depth--
					if depth == 0 {
						break
					}
				} else if src[j] == ';' || src[j] == '{' {
					break
				}
			}
			j = skipSpace(src, j+1)
		}
		if j >= len(src) || src[j] != '(' {
			continue
		}
		// A declaration has a type (a word, >, *, &) before the name; a
		// qualified name (Class::name) is looked through.
		b := k
		for b >= 2 && src[b-1] == ':' && src[b-2] == ':' {
			b -= 2
			for b > 0 && (isIdentChar(src[b-1]) || src[b-1] == '>' || src[b-1] == '<' || src[b-1] == ',' || src[b-1] == ' ') {
				if src[b-1] == ' ' && b >= 2 && !isIdentChar(src[b-2]) && src[b-2] != '>' {
					break
				}
				b--
			}
		}
		p := b - 1
		for p >= 0 && isSpaceByte(src[p]) {
			p--
		}
		if p >= 1 && src[p] == '>' && src[p-1] == '-' {
			n++ // this->name(
			continue
		}
		if p >= 0 && (isIdentChar(src[p]) || src[p] == '>' || src[p] == '*' || src[p] == '&') {
			w := p
			for w >= 0 && isIdentChar(src[w]) {
				w--
			}
			if word := string(src[w+1 : p+1]); word != "return" && word != "else" {
				continue
			}
		}
		n++
	}
}

// lastComponent returns the name after the last ::, without template arguments.
func lastComponent(s string) string {
	if k := strings.IndexByte(s, '<'); k >= 0 {
		s = s[:k]
	}
	if k := strings.LastIndexAny(s, ":.>"); k >= 0 {
		s = s[k+1:]
	}
	return s
}
