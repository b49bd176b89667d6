// Package irtest builds VF IR by hand, for tests of the analyses that read
// it (regalloc, simcheck) without parsing C++:
//
//	b := irtest.New("k")
//	acc, x := b.VReg("acc", "float"), b.VReg("x", "float")
//	b.Instr(ir.OpDuplicate, irtest.W(acc), irtest.S("0"))
//	b.Loop(8, func() {
//		b.Instr(ir.OpLoadAlign, irtest.W(x), irtest.Ptr("src"))
//		b.Instr(ir.OpAdd, irtest.W(acc), irtest.R(acc), irtest.R(x))
//	})
//	fn := b.Func() // verified
//
// Every node gets a distinct, increasing position in a synthetic file, so
// ir.Verify holds and program order is position order.
package irtest

import (
	"fmt"
	"go/token"

	"github.com/ascvet/ascvet/cppfront/ir"
)

// Builder accumulates one region.
type Builder struct {
	fset  *token.FileSet
	tok   *token.File
	fn    *ir.Func
	off   int
	stack []*ir.Block // innermost last
	loops []ir.LoopID // enclosing loops, innermost last
	cond  int         // depth of enclosing ifs
}

const fileSize = 1 << 20

// New starts a region named name (a __simd_vf__ function).
func New(name string) *Builder {
	fset := token.NewFileSet()
	tok := fset.AddFile(name+".asc", -1, fileSize)
	b := &Builder{fset: fset, tok: tok}
	b.fn = &ir.Func{Name: name, Kind: ir.RegionSimdVF, Pos: b.next(), BodyPos: b.next(), Body: &ir.Block{}, Locals: map[string]int64{}}
	b.stack = []*ir.Block{b.fn.Body}
	return b
}

// FileSet returns the positions' file set.
func (b *Builder) FileSet() *token.FileSet { return b.fset }

func (b *Builder) next() token.Pos {
	b.off += 10
	if b.off >= fileSize {
		panic("internal error: irtest region too large")
	}
	return b.tok.Pos(b.off)
}

// Line returns the line-like index of a position: its order in the region.
func (b *Builder) Line(p token.Pos) int { return b.tok.Offset(p) / 10 }

func (b *Builder) reg(name string, class ir.RegClass, elem string, two bool, arr int) ir.RegID {
	id := ir.RegID(len(b.fn.Regs))
	p := b.next()
	b.fn.Regs = append(b.fn.Regs, &ir.Reg{ID: id, Name: name, Class: class, Elem: elem, TwoRegs: two, ArrayLen: arr, Pos: p, End: p + 1})
	return id
}

// VReg declares a RegTensor<elem> (one physical register, 64-bit elements included).
func (b *Builder) VReg(name, elem string) ir.RegID {
	return b.reg(name, ir.ClassVReg, elem, false, 1)
}

// VRegTwo declares a RegTensor<elem, RegTraitNumTwo>.
func (b *Builder) VRegTwo(name, elem string) ir.RegID {
	return b.reg(name, ir.ClassVReg, elem, true, 1)
}

// VRegArray declares RegTensor<elem> name[n].
func (b *Builder) VRegArray(name, elem string, n int) ir.RegID {
	return b.reg(name, ir.ClassVReg, elem, false, n)
}

// Mask declares a MaskReg.
func (b *Builder) Mask(name string) ir.RegID { return b.reg(name, ir.ClassMask, "", false, 1) }

// ULoad declares an UnalignRegForLoad.
func (b *Builder) ULoad(name string) ir.RegID { return b.reg(name, ir.ClassUnalignLoad, "", false, 1) }

// UStore declares an UnalignRegForStore.
func (b *Builder) UStore(name string) ir.RegID {
	return b.reg(name, ir.ClassUnalignStore, "", false, 1)
}

// Arg is one argument of Instr.
type Arg struct {
	role ir.ArgRole
	reg  ir.RegID
	part int
	expr *ir.Expr
	text string
}

// W writes r; R reads it; RW reads and writes it; M is the governing mask.
func W(r ir.RegID) Arg  { return Arg{role: ir.ArgW, reg: r, part: -1} }
func R(r ir.RegID) Arg  { return Arg{role: ir.ArgR, reg: r, part: -1} }
func RW(r ir.RegID) Arg { return Arg{role: ir.ArgRW, reg: r, part: -1} }
func M(r ir.RegID) Arg  { return Arg{role: ir.ArgMask, reg: r, part: -1} }

// WPart writes element k of a register array (or reg[k] of a two-register tensor).
func WPart(r ir.RegID, k int) Arg { return Arg{role: ir.ArgW, reg: r, part: k} }

// RPart reads element k of a register array (or reg[k] of a two-register tensor).
func RPart(r ir.RegID, k int) Arg { return Arg{role: ir.ArgR, reg: r, part: k} }

// Ptr is a UB address; PtrRW a post-updated one.
func Ptr(name string) Arg {
	return Arg{role: ir.ArgPtr, reg: ir.NoReg, part: -1, expr: ir.Sym(name), text: name}
}
func PtrRW(name string) Arg {
	return Arg{role: ir.ArgPtrRW, reg: ir.NoReg, part: -1, expr: ir.Sym(name), text: name}
}

// S is a scalar operand.
func S(text string) Arg {
	return Arg{role: ir.ArgScalar, reg: ir.NoReg, part: -1, expr: ir.Unknown(text), text: text}
}

// Instr appends an instruction of op with args; defs and uses follow the roles.
func (b *Builder) Instr(op ir.Op, args ...Arg) *ir.Instr {
	loop := ir.NoLoop
	if len(b.loops) > 0 {
		loop = b.loops[len(b.loops)-1]
	}
	in := &ir.Instr{ID: ir.InstrID(len(b.fn.Instrs)), Op: op, Form: ir.FormReg, Name: op.String(), Callee: op.String(), Loop: loop, Cond: b.cond > 0}
	in.Pos = b.next()
	for _, a := range args {
		p := b.next()
		o := ir.Operand{Role: a.role, Reg: a.reg, Part: a.part, Expr: a.expr, Text: a.text, Pos: p, End: p + 1}
		if a.reg != ir.NoReg {
			o.Text = b.fn.Regs[a.reg].Name
			switch a.role {
			case ir.ArgW:
				in.Defs = appendReg(in.Defs, a.reg)
			case ir.ArgRW:
				in.Defs = appendReg(in.Defs, a.reg)
				in.Uses = appendReg(in.Uses, a.reg)
			default:
				in.Uses = appendReg(in.Uses, a.reg)
			}
		}
		if a.role == ir.ArgPtrRW {
			in.PtrDefs = append(in.PtrDefs, a.text)
		}
		in.Args = append(in.Args, o)
	}
	in.End = b.next()
	b.fn.Instrs = append(b.fn.Instrs, in)
	b.top().Nodes = append(b.top().Nodes, in)
	return in
}

// Call appends a call of a same-file helper passing registers by reference.
func (b *Builder) Call(callee string, regs ...ir.RegID) *ir.Instr {
	args := make([]Arg, len(regs))
	for i, r := range regs {
		args[i] = RW(r)
	}
	in := b.Instr(ir.OpCall, args...)
	in.Form, in.Name, in.Callee = ir.FormCall, callee, callee
	return in
}

func appendReg(rs []ir.RegID, r ir.RegID) []ir.RegID {
	for _, x := range rs {
		if x == r {
			return rs
		}
	}
	return append(rs, r)
}

func (b *Builder) top() *ir.Block { return b.stack[len(b.stack)-1] }

// Loop appends a counted loop of trip iterations (trip < 0: unknown) whose
// body body builds.
func (b *Builder) Loop(trip int64, body func()) *ir.Loop {
	id := ir.LoopID(len(b.fn.Loops))
	l := &ir.Loop{ID: id, Kind: ir.LoopFor, Parent: ir.NoLoop, Depth: len(b.loops) + 1, Var: fmt.Sprintf("i%d", id),
		Init: ir.Const(0), Step: ir.Const(1), CmpOp: "<", Cond: b.cond > 0, Body: &ir.Block{}}
	if len(b.loops) > 0 {
		l.Parent = b.loops[len(b.loops)-1]
	}
	if trip >= 0 {
		l.Bound, l.Trip, l.TripKnown = ir.Const(trip), trip, true
		l.AtMostOnce = trip <= 1
	} else {
		l.Bound = ir.Sym("n")
	}
	l.Pos = b.next()
	b.fn.Loops = append(b.fn.Loops, l)
	b.top().Nodes = append(b.top().Nodes, l)
	b.stack = append(b.stack, l.Body)
	b.loops = append(b.loops, id)
	body()
	b.loops = b.loops[:len(b.loops)-1]
	b.stack = b.stack[:len(b.stack)-1]
	l.End = b.next()
	return l
}

// If appends an if statement; els may be nil.
func (b *Builder) If(then, els func()) *ir.If {
	s := &ir.If{Cond: ir.Sym("c"), Then: &ir.Block{}}
	s.Pos = b.next()
	b.top().Nodes = append(b.top().Nodes, s)
	b.cond++
	b.stack = append(b.stack, s.Then)
	then()
	b.stack = b.stack[:len(b.stack)-1]
	if els != nil {
		s.Else = &ir.Block{}
		b.stack = append(b.stack, s.Else)
		els()
		b.stack = b.stack[:len(b.stack)-1]
	}
	b.cond--
	s.End = b.next()
	return s
}

// Func finishes the region and checks it with ir.Verify; a violation is a
// bug in the test's construction and panics.
func (b *Builder) Func() *ir.Func {
	b.fn.End = b.next()
	f := b.File()
	if errs := ir.Verify(f); len(errs) > 0 {
		panic(fmt.Sprintf("internal error: irtest built invalid IR: %v", errs))
	}
	return b.fn
}

// File wraps the region in a file.
func (b *Builder) File() *ir.File {
	return &ir.File{Name: b.tok.Name(), Tok: b.tok, Funcs: []*ir.Func{b.fn}, Consts: map[string]int64{}, Aliases: map[string]string{}}
}

// Link gives the helper calls of f's regions their targets, as the front
// ends do once a file is lowered (ir.LinkTargets): call it after adding
// every region.
func Link(f *ir.File) *ir.File {
	ir.LinkTargets(f.Funcs)
	return f
}
