package ir

import (
	"fmt"
	"go/token"
	"io"
	"maps"
	"slices"
	"strings"
)

// Fprint writes a stable, human-readable dump of f, for golden tests and
// for `ascvet ir`. Positions print as line:col (1-based, columns in bytes).
func Fprint(w io.Writer, fset *token.FileSet, f *File) error {
	p := &printer{fset: fset}
	p.printf("file %s\n", f.Name)
	for _, x := range f.Expansions {
		p.printf("expansion %s %s-%s\n", x.Name, p.lc(x.Pos), p.lc(x.End))
	}
	for _, fn := range f.Funcs {
		p.fn(fn)
	}
	_, err := io.WriteString(w, p.b.String())
	return err
}

// String returns the dump of one function.
func (fn *Func) String(fset *token.FileSet) string {
	p := &printer{fset: fset}
	p.fn(fn)
	return p.b.String()
}

type printer struct {
	fset *token.FileSet
	b    strings.Builder
}

func (p *printer) printf(format string, args ...any) { fmt.Fprintf(&p.b, format, args...) }

func (p *printer) lc(pos token.Pos) string {
	if !pos.IsValid() {
		return "-"
	}
	ps := p.fset.Position(pos)
	return fmt.Sprintf("%d:%d", ps.Line, ps.Column)
}

func (p *printer) span(a, b token.Pos) string { return p.lc(a) + "-" + p.lc(b) }

func (p *printer) fn(fn *Func) {
	extra := ""
	if fn.Template {
		extra = " template"
	}
	p.printf("func %s %s %s%s\n", fn.Name, fn.Kind, p.span(fn.Pos, fn.End), extra)
	for _, e := range fn.Errors {
		p.printf("  error @%s\n", p.lc(e))
	}
	for _, prm := range fn.Params {
		reg := ""
		if prm.Reg != NoReg {
			reg = fmt.Sprintf(" r%d", prm.Reg)
		}
		p.printf("  param %s %q%s\n", prm.Name, prm.Type, reg)
	}
	if fn.Class != "" {
		p.printf("  class %s<%s>\n", fn.Class, strings.Join(fn.ClassTParams, ", "))
	}
	for _, name := range slices.Sorted(maps.Keys(fn.TypeAliases)) {
		p.printf("  alias %s = %s\n", name, fn.TypeAliases[name])
	}
	if insts := fn.Instantiations(); len(insts) > 1 || len(insts) == 1 && !insts[0].Empty() {
		for _, b := range insts {
			p.printf("  instance %s\n", b.String())
		}
	}
	for _, r := range fn.Regs {
		p.printf("  reg r%d %s %s%s @%s\n", r.ID, r.Name, r.Class, regExtra(r), p.lc(r.Pos))
	}
	if !fn.Kind.Analysed() || fn.Body == nil {
		return
	}
	p.block(fn, fn.Body, 1)
}

func regExtra(r *Reg) string {
	var parts []string
	if r.Elem != "" {
		parts = append(parts, "<"+r.Elem+">")
	}
	if r.TwoRegs {
		parts = append(parts, " x2")
	}
	if r.ArrayLen != 1 {
		parts = append(parts, fmt.Sprintf(" [%d]", r.ArrayLen))
	}
	if r.Param {
		parts = append(parts, " param")
	}
	if r.Ref {
		parts = append(parts, " ref")
	}
	if r.Implicit {
		parts = append(parts, " implicit")
	}
	if r.Role != RoleNone {
		parts = append(parts, " role="+r.Role.String())
	}
	return strings.Join(parts, "")
}

func (p *printer) block(fn *Func, b *Block, depth int) {
	ind := strings.Repeat("  ", depth)
	for _, n := range b.Nodes {
		switch n := n.(type) {
		case *Instr:
			p.instr(fn, n, ind)
		case *Loop:
			trip := "?"
			if n.TripKnown {
				trip = fmt.Sprint(n.Trip)
			}
			hdr := ""
			if n.Var != "" {
				hdr = fmt.Sprintf(" %s = %s; %s %s %s; step %s", n.Var, n.Init, n.Var, n.CmpOp, n.Bound, n.Step)
			}
			cond := ""
			if n.Cond {
				cond = " cond"
			}
			if n.AtMostOnce {
				cond += " once"
			}
			if len(n.Assigns) > 0 {
				cond += " assigns=" + strings.Join(n.Assigns, ",")
			}
			if n.Unroll != 0 {
				cond += fmt.Sprintf(" unroll=%d", n.Unroll)
			}
			p.printf("%sloop L%d %s depth=%d%s trip=%s%s @%s\n", ind, n.ID, n.Kind, n.Depth, hdr, trip, cond, p.span(n.Pos, n.End))
			p.block(fn, n.Body, depth+1)
		case *Jump:
			target := ""
			if n.Loop != NoLoop {
				target = fmt.Sprintf(" L%d", n.Loop)
			}
			if n.Cond {
				target += " cond"
			}
			p.printf("%s%s%s @%s\n", ind, n.Kind, target, p.span(n.Pos, n.End))
		case *If:
			kw := "if"
			if n.Constexpr {
				kw = "if constexpr"
			}
			p.printf("%s%s (%s) @%s\n", ind, kw, n.Cond, p.span(n.Pos, n.End))
			p.block(fn, n.Then, depth+1)
			if n.Else != nil {
				p.printf("%selse\n", ind)
				p.block(fn, n.Else, depth+1)
			}
		}
	}
}

func (p *printer) instr(fn *Func, in *Instr, ind string) {
	var b strings.Builder
	fmt.Fprintf(&b, "%si%d %s", ind, in.ID, in.Op)
	if in.Op == OpUnknown || in.Op == OpCall || in.Form != FormReg {
		fmt.Fprintf(&b, " [%s %s]", in.Form, in.Callee)
	}
	if len(in.TArgs) > 0 {
		fmt.Fprintf(&b, " <%s>", strings.Join(in.TArgs, ", "))
	}
	if in.Elem != "" {
		fmt.Fprintf(&b, " elem=%s", in.Elem)
	}
	if in.Dist != "" {
		fmt.Fprintf(&b, " dist=%s", in.Dist)
	}
	if in.Post {
		b.WriteString(" post")
	}
	if in.Merging {
		b.WriteString(" merging")
	}
	if in.Cond {
		b.WriteString(" cond")
	}
	b.WriteString(" (")
	for k, a := range in.Args {
		if k > 0 {
			b.WriteString(", ")
		}
		b.WriteString(a.Role.String())
		b.WriteByte(' ')
		if a.Reg != NoReg {
			fmt.Fprintf(&b, "r%d", a.Reg)
			if a.Part >= 0 {
				fmt.Fprintf(&b, ".%d", a.Part)
			}
		} else if a.Expr != nil {
			b.WriteString(a.Expr.String())
		} else {
			b.WriteString(a.Text)
		}
	}
	b.WriteString(")")
	if in.Assign != "" {
		fmt.Fprintf(&b, " -> %s", in.Assign)
	}
	fmt.Fprintf(&b, " defs=%s uses=%s", regList(in.Defs), regList(in.Uses))
	if len(in.PtrDefs) > 0 {
		fmt.Fprintf(&b, " updates=%s", strings.Join(in.PtrDefs, ","))
	}
	fmt.Fprintf(&b, " @%s\n", p.span(in.Pos, in.End))
	p.b.WriteString(b.String())
}

func regList(rs []RegID) string {
	parts := make([]string, len(rs))
	for i, r := range rs {
		parts[i] = fmt.Sprintf("r%d", r)
	}
	return "[" + strings.Join(parts, " ") + "]"
}
