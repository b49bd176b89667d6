package replay

import (
	"go/token"
	"strings"

	"github.com/ascvet/ascvet/cppfront/ir"
)

// findAliases finds the pointers, other than the stream's, that the loop's
// instructions name and whose provenance meets the stream pointer's: a
// name's provenance is the name and, transitively, the variables its
// declaration and assignments take their values from (fn.Names), integer
// scalars left out. Distinct parameters, and pointers derived from
// distinct ones, are assumed to address disjoint buffers [A].
func (p *prover) findAliases() {
	fn := p.fn
	defs := map[string][]*ir.NameDef{}
	for i := range fn.Names {
		d := &fn.Names[i]
		defs[d.Name] = append(defs[d.Name], d)
	}
	scalar := func(name string) bool {
		if _, ok := fn.Locals[name]; ok {
			return true
		}
		for _, l := range fn.Loops {
			if l.Var == name {
				return true
			}
		}
		for _, prm := range fn.Params {
			if prm.Name == name {
				_, ok := ir.ElemSize(pointee(prm.Type))
				return prm.Reg == ir.NoReg && !prm.Ptr && ok
			}
		}
		for _, d := range defs[name] {
			if d.Decl {
				_, ok := ir.ElemSize(pointee(d.Type))
				return !d.Ptr && !strings.Contains(d.Type, "*") && ok
			}
		}
		return false
	}
	var origins func(name string, seen map[string]bool)
	origins = func(name string, seen map[string]bool) {
		if seen[name] || scalar(name) {
			return
		}
		seen[name] = true
		for _, d := range defs[name] {
			for _, f := range d.From {
				origins(f, seen)
			}
		}
	}
	rootO := map[string]bool{}
	origins(p.root, rootO)
	p.aliases = map[string]*alias{}
	regs := map[string]bool{}
	for _, r := range fn.Regs {
		regs[r.Name] = true
	}
	for _, in := range fn.InstrsIn(p.lp) {
		p.touches(in, func(name string) bool {
			if name == p.root || regs[name] || p.aliases[name] != nil || scalar(name) {
				return false
			}
			o := map[string]bool{}
			origins(name, o)
			for n := range o {
				if rootO[n] {
					p.aliases[name] = p.aliasAt(name, defs)
					break
				}
			}
			return false
		})
	}
}

// aliasAt works out where the alias name points relative to the stream
// pointer at the loop's entry.
func (p *prover) aliasAt(name string, defs map[string][]*ir.NameDef) *alias {
	a := &alias{name: name}
	rootType := p.typeOf(p.root, defs)
	if t := p.typeOf(name, defs); t == "" || t != rootType {
		sa, oka := ir.ElemSize(t)
		sb, okb := ir.ElemSize(rootType)
		if !oka || !okb || sa != sb {
			a.why = "its element type is not the stream's"
			return a
		}
	}
	single := func(n string) *ir.NameDef {
		if ds := defs[n]; len(ds) == 1 && ds[0].Decl && ds[0].Op == "=" && ds[0].Init != nil && ds[0].Pos < p.lp.Pos {
			return ds[0]
		}
		return nil
	}
	// name = root + off, declared before the loop.
	if d := single(name); d != nil {
		if rest, coef, ok := d.Init.Linear(p.root); ok && coef == 1 && p.scalarOnly(rest) {
			if why := p.moves(p.root, d.Pos); why != "" {
				a.why = why
				return a
			}
			a.off = rest
			return a
		}
	}
	// root = name + off, declared before the loop, name never written.
	if d := single(p.root); d != nil && len(defs[name]) <= 1 && !p.advanced(name) {
		if rest, coef, ok := d.Init.Linear(name); ok && coef == 1 && p.scalarOnly(rest) {
			if why := p.moves(p.root, d.Pos); why != "" {
				a.why = why
				return a
			}
			a.off = ir.Neg(rest)
			return a
		}
	}
	a.why = "its value is not the stream pointer's plus an offset the replay can evaluate"
	return a
}

// scalarOnly reports whether e names no pointer that matters: no alias
// candidate and not the loop variable.
func (p *prover) scalarOnly(e *ir.Expr) bool {
	ok := true
	walkSyms(e, func(kind ir.ExprKind, name string) {
		if kind == ir.ExprSym && (name == p.lp.Var || name == p.root || isPointerName(p.fn, name)) {
			ok = false
		}
	})
	return ok && !hasUnknown(e)
}

// advanced reports whether an instruction of fn post-updates name.
func (p *prover) advanced(name string) bool {
	for _, in := range p.fn.Instrs {
		for _, d := range in.PtrDefs {
			if d == name {
				return true
			}
		}
	}
	return false
}

// moves says why the stream pointer's value at the loop's entry may not be
// the one it had at from (an alias's declaration), or "": it is written
// between from and the loop, or, in an enclosing loop that from is not
// inside, anywhere (the next iteration of that loop enters with another
// value).
func (p *prover) moves(name string, from token.Pos) string {
	written := func(a, b token.Pos) bool {
		for _, d := range p.fn.Names {
			if d.Name == name && d.Pos > a && d.Pos < b {
				return true
			}
		}
		for _, in := range p.fn.Instrs {
			if in.Pos > a && in.Pos < b {
				for _, d := range in.PtrDefs {
					if d == name {
						return true
					}
				}
			}
		}
		return false
	}
	if written(from, p.lp.Pos) {
		return "the stream pointer " + name + " moves between its declaration and the loop"
	}
	for l := p.lp.Parent; l != ir.NoLoop; l = p.fn.Loops[l].Parent {
		outer := p.fn.Loops[l]
		if from >= outer.Pos && from < outer.End {
			break
		}
		if written(outer.Pos-1, outer.End) {
			return "the stream pointer " + name + " moves in an enclosing loop"
		}
	}
	return ""
}

// typeOf returns the element type a pointer name points to: its
// parameter's or declaration's type without qualifiers.
func (p *prover) typeOf(name string, defs map[string][]*ir.NameDef) string {
	for _, prm := range p.fn.Params {
		if prm.Name == name {
			return pointee(prm.Type)
		}
	}
	for _, d := range defs[name] {
		if d.Decl {
			return pointee(d.Type)
		}
	}
	return ""
}

// pointee strips qualifiers and pointer marks from a declared type:
// "__ubuf__ float*" and "const float" give "float".
func pointee(t string) string {
	t = strings.ReplaceAll(t, "*", " ")
	var keep []string
	for _, f := range strings.Fields(t) {
		switch f {
		case "const", "constexpr", "static", "volatile", "__ubuf__", "__gm__", "__local_mem__", "__restrict__", "__restrict", "inline", "register":
			continue
		}
		keep = append(keep, f)
	}
	return strings.Join(keep, " ")
}
