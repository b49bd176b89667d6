package align

import (
	"strings"

	"github.com/ascvet/ascvet/analyzers/internal/linear"
	"github.com/ascvet/ascvet/cppfront/ir"
)

// Frame holds what the address reasoning needs to know about one region:
// its pointer parameters, the names it moves, and where each instruction
// sits among loops and ifs.
type Frame struct {
	File   *ir.File
	Fn     *ir.Func
	params map[string]ir.Param // parameters passed as a pointer by value (__ubuf__ T* p), by name
	moved  map[string]bool     // names the region reassigns, takes the address of, hands to a call, or post-updates off the 32-byte grid
	path   map[ir.InstrID][]ir.Node
}

// NewFrame analyses fn of f.
func NewFrame(f *ir.File, fn *ir.Func) *Frame {
	fr := &Frame{File: f, Fn: fn, params: map[string]ir.Param{}, moved: map[string]bool{}, path: map[ir.InstrID][]ir.Node{}}
	for _, p := range fn.Params {
		if p.Name != "" && p.Reg == ir.NoReg && fr.pointerParam(p) {
			fr.params[p.Name] = p
		}
	}
	for name := range fr.params {
		if fr.reassigned(name) {
			fr.moved[name] = true
		}
	}
	for _, l := range fn.Loops {
		for _, n := range l.Assigns {
			fr.moved[n] = true
		}
	}
	for _, in := range fn.Instrs {
		switch in.Op {
		case ir.OpCall, ir.OpUnknown:
			// A helper may take the pointer by reference and move it.
			for _, a := range in.Args {
				fr.moved[named(a.Text)] = true
			}
		}
		for _, n := range in.PtrDefs {
			if !fr.keepsGrid(in, n) {
				fr.moved[n] = true
			}
		}
	}
	fr.walk(fn.Body, nil)
	return fr
}

// named returns the variable an argument names through casts and &:
// "src" for "src", "&src" and "(__ubuf__ T*&)src".
func named(text string) string {
	t := strings.TrimSpace(text)
	if strings.HasPrefix(t, "(") {
		if k := strings.LastIndexByte(t, ')'); k >= 0 {
			t = strings.TrimSpace(t[k+1:])
		}
	}
	return strings.TrimLeft(t, "&* ")
}

func (fr *Frame) walk(b *ir.Block, stack []ir.Node) {
	if b == nil {
		return
	}
	for _, n := range b.Nodes {
		switch n := n.(type) {
		case *ir.Instr:
			fr.path[n.ID] = stack
		case *ir.Loop:
			fr.walk(n.Body, append(stack[:len(stack):len(stack)], n))
		case *ir.If:
			s := append(stack[:len(stack):len(stack)], n)
			fr.walk(n.Then, s)
			fr.walk(n.Else, s)
		}
	}
}

// src returns the source text between two positions of the file.
func (fr *Frame) src(pos, end int) string {
	if pos < 0 || end > len(fr.File.Src) || pos > end {
		return ""
	}
	return string(fr.File.Src[pos:end])
}

// pointerParam reports whether p is declared as a pointer passed by value:
// its declaration holds one '*' and no '&' outside template arguments. A
// reference to a pointer (T*& p) is the caller's moving pointer.
func (fr *Frame) pointerParam(p ir.Param) bool {
	tok := fr.File.Tok
	if tok == nil || !p.Pos.IsValid() {
		return false
	}
	start := tok.Offset(p.Pos)
	src := fr.File.Src
	depth, stars := 0, 0
	for i := start; i < len(src); i++ {
		switch src[i] {
		case '<', '(', '[':
			if src[i] == '[' && depth == 0 {
				return false // an array parameter
			}
			depth++
		case '>', ']':
			depth--
		case ')':
			if depth == 0 {
				return stars == 1
			}
			depth--
		case ',':
			if depth == 0 {
				return stars == 1
			}
		case '*':
			if depth == 0 {
				stars++
			}
		case '&', '=':
			if depth == 0 {
				return false
			}
		}
	}
	return false
}

// reassigned reports whether the body of the region may change name by a
// statement: name = ..., name += ..., ++name, &name (a scan of the source:
// the IR records assignments only inside loops).
func (fr *Frame) reassigned(name string) bool {
	tok := fr.File.Tok
	fn := fr.Fn
	if tok == nil || !fn.BodyPos.IsValid() || !fn.End.IsValid() {
		return true
	}
	body := fr.src(tok.Offset(fn.BodyPos), tok.Offset(fn.End))
	for i := 0; ; {
		k := strings.Index(body[i:], name)
		if k < 0 {
			return false
		}
		k += i
		i = k + len(name)
		if k > 0 && (linear.IdentChar(body[k-1]) || body[k-1] == '.' || body[k-1] == '>' || body[k-1] == ':') {
			continue
		}
		if i < len(body) && linear.IdentChar(body[i]) {
			continue
		}
		before := strings.TrimRight(body[:k], " \t\n")
		after := strings.TrimLeft(body[i:], " \t\n")
		switch {
		case strings.HasSuffix(before, "++"), strings.HasSuffix(before, "--"):
			return true
		case strings.HasSuffix(before, "&") && !strings.HasSuffix(before, "&&"):
			return true
		case strings.HasPrefix(after, "++"), strings.HasPrefix(after, "--"):
			return true
		case strings.HasPrefix(after, "=") && !strings.HasPrefix(after, "=="):
			return true
		}
		for _, op := range []string{"+=", "-=", "*=", "/=", "%=", "<<=", ">>=", "&=", "|=", "^="} {
			if strings.HasPrefix(after, op) {
				return true
			}
		}
	}
}

// keepsGrid reports whether in's post-update of name advances it by a
// constant multiple of 32 bytes, so that a 32-byte-aligned pointer stays
// aligned after it.
func (fr *Frame) keepsGrid(in *ir.Instr, name string) bool {
	ptr, stride := -1, -1
	for k, a := range in.Args {
		switch a.Role {
		case ir.ArgPtrRW:
			ptr = k
		case ir.ArgScalar:
			if stride >= 0 {
				return false
			}
			stride = k
		case ir.ArgAddr:
			return false
		case ir.ArgW, ir.ArgR:
			if r := a.Reg; r != ir.NoReg && fr.Fn.Regs[r].Class == ir.ClassMask {
				return false // mask offsets are not in elements
			}
		}
	}
	if ptr < 0 || stride < 0 || in.Form == ir.FormRaw || in.Args[ptr].Text != name {
		return ptr < 0 // UpdateMask counts and the like are not pointers
	}
	sz, ok := ir.ElemSize(in.Elem)
	if !ok {
		return false
	}
	v, ok := in.Args[stride].Expr.Value()
	return ok && Mod(v*sz, 32) == 0
}

// Base returns the pointer parameter of the region that may be assumed
// 32-byte aligned wherever the region uses it: UB buffers are allocated
// 32-byte aligned, so a parameter passed a buffer is aligned unless the
// region moves it (assigns it, takes its address, hands it to a helper, or
// post-updates it by a stride off the 32-byte grid).
func (fr *Frame) Base(name string) (ir.Param, bool) {
	p, ok := fr.params[name]
	if !ok || fr.moved[name] {
		return ir.Param{}, false
	}
	return p, true
}

// Enclosing returns the loops around in, innermost first.
func (fr *Frame) Enclosing(in *ir.Instr) []*ir.Loop {
	var ls []*ir.Loop
	for id := in.Loop; id != ir.NoLoop && int(id) < len(fr.Fn.Loops); id = fr.Fn.Loops[id].Parent {
		ls = append(ls, fr.Fn.Loops[id])
	}
	return ls
}

// Step returns the constant increment of l's variable when the variable
// provably takes at least two values in a row: a recognised variable that
// the body does not assign, a folded non-zero step, and a loop that may run
// more than once.
func Step(l *ir.Loop) (int64, bool) {
	if l.Var == "" || l.AtMostOnce || l.TripKnown && l.Trip <= 1 {
		return 0, false
	}
	for _, n := range l.Assigns {
		if n == l.Var {
			return 0, false
		}
	}
	s, ok := l.Step.Value()
	if !ok || s == 0 {
		return 0, false
	}
	return s, true
}

// varies reports whether the symbol or atom k may change from one iteration
// of l to the next (other than through l's own variable): a name declared
// or assigned in l, or post-updated by an instruction in l. The variable of
// a loop nested in l is not: it runs through the same values in every
// iteration of l when that loop's bounds do not vary in l.
func (fr *Frame) varies(k string, l *ir.Loop) bool {
	if linear.IsAtom(k) {
		if linear.MentionsWord(k, l.Var) {
			return true
		}
		for _, n := range fr.loopNames(l) {
			if linear.MentionsWord(k, n) {
				return true
			}
		}
		return false
	}
	if k == l.Var {
		return false
	}
	for _, n := range l.Assigns {
		if n == k {
			return true
		}
	}
	for _, in := range fr.Fn.Instrs {
		if fr.inside(in, l) {
			for _, n := range in.PtrDefs {
				if n == k {
					return true
				}
			}
		}
	}
	for _, n := range l.Decls {
		if n != k {
			continue
		}
		for _, inner := range fr.Fn.Loops {
			if inner != l && inner.Var == k && fr.nested(inner, l) && !fr.boundsVary(inner, l) {
				return false
			}
		}
		return true
	}
	return false
}

// loopNames are the names that change in l: declared, assigned, its variable.
func (fr *Frame) loopNames(l *ir.Loop) []string {
	ns := append([]string{l.Var}, l.Decls...)
	return append(ns, l.Assigns...)
}

func (fr *Frame) boundsVary(inner, l *ir.Loop) bool {
	if inner.Init == nil || inner.Bound == nil || inner.Step == nil {
		return true
	}
	for _, e := range []*ir.Expr{inner.Init, inner.Bound, inner.Step} {
		if hasUnknown(e) {
			return true
		}
		for _, n := range fr.loopNames(l) {
			if e.Mentions(n) {
				return true
			}
		}
	}
	return false
}

// nested reports whether loop inner is inside loop l.
func (fr *Frame) nested(inner, l *ir.Loop) bool {
	for id := inner.Parent; id != ir.NoLoop; id = fr.Fn.Loops[id].Parent {
		if id == l.ID {
			return true
		}
	}
	return false
}

// inside reports whether in is in the body of l.
func (fr *Frame) inside(in *ir.Instr, l *ir.Loop) bool {
	for id := in.Loop; id != ir.NoLoop; id = fr.Fn.Loops[id].Parent {
		if id == l.ID {
			return true
		}
	}
	return false
}

// everyIteration reports whether in runs in every iteration of l in which
// it runs at all: no if between l and in whose condition may change with
// l's iteration (if constexpr and conditions on names that do not change in
// l are fine).
func (fr *Frame) everyIteration(in *ir.Instr, l *ir.Loop) bool {
	below := false
	for _, n := range fr.path[in.ID] {
		if n == ir.Node(l) {
			below = true
			continue
		}
		s, ok := n.(*ir.If)
		if !below || !ok || s.Constexpr {
			continue
		}
		if s.Cond == nil || hasUnknown(s.Cond) {
			return false
		}
		for _, name := range fr.loopNames(l) {
			if s.Cond.Mentions(name) {
				return false
			}
		}
	}
	return below
}

func hasUnknown(e *ir.Expr) bool {
	if e == nil {
		return true
	}
	switch e.Kind {
	case ir.ExprUnknown:
		return true
	case ir.ExprBin:
		return hasUnknown(e.X) || hasUnknown(e.Y)
	case ir.ExprNeg:
		return hasUnknown(e.X)
	}
	return false
}
