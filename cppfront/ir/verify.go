package ir

import (
	"fmt"
	"go/token"
)

// Verify checks the invariants of a lowered file and returns every
// violation found (nil when the IR is well formed). Tests run it after every
// lowering; a violation is a front-end bug, never a user error.
//
// Invariants:
//   - dense IDs: Regs[i].ID, Instrs[i].ID and Loops[i].ID equal i;
//   - the structured body reaches every instruction and loop exactly once,
//     instructions in ID order and loops in pre-order;
//   - an instruction's Loop is its innermost enclosing loop; a loop's Parent
//     and Depth match its nesting;
//   - every register reference (operand, def, use, param) is in range;
//   - every position lies in the file, Pos <= End, and inside the region;
//   - an instruction of a known op has a role for every argument, and a
//     written or read register argument appears in Defs or Uses;
//   - the file's Expansions are sorted and disjoint (InExpansion searches them).
func Verify(f *File) []error {
	var errs []error
	bad := func(fn *Func, format string, args ...any) {
		errs = append(errs, fmt.Errorf("%s: %s: %s", f.Name, fn.Name, fmt.Sprintf(format, args...)))
	}
	for i, x := range f.Expansions {
		if x.Pos > x.End || i > 0 && x.Pos < f.Expansions[i-1].End {
			errs = append(errs, fmt.Errorf("%s: expansion %d (%s) out of order or overlapping", f.Name, i, x.Name))
		}
	}
	inFile := func(p token.Pos) bool {
		if f.Tok == nil {
			return true
		}
		return int(p) >= f.Tok.Base() && int(p) <= f.Tok.Base()+f.Tok.Size()
	}
	for _, fn := range f.Funcs {
		if !inFile(fn.Pos) || !inFile(fn.End) || fn.Pos > fn.End {
			bad(fn, "region span %d-%d outside the file", fn.Pos, fn.End)
		}
		for i, r := range fn.Regs {
			if r.ID != RegID(i) {
				bad(fn, "reg %d has ID %d", i, r.ID)
			}
			if r.Pos.IsValid() && (r.Pos > r.End || r.Pos < fn.Pos || r.End > fn.End) {
				bad(fn, "reg %s span outside the region", r.Name)
			}
		}
		for i, l := range fn.Loops {
			if l.ID != LoopID(i) {
				bad(fn, "loop %d has ID %d", i, l.ID)
			}
		}
		for _, e := range fn.Errors {
			if e < fn.Pos || e > fn.End {
				bad(fn, "error position outside the region")
			}
		}
		for _, p := range fn.Params {
			if p.Reg != NoReg && (p.Reg < 0 || int(p.Reg) >= len(fn.Regs)) {
				bad(fn, "param %s reg out of range", p.Name)
			}
		}
		if !fn.Kind.Analysed() {
			if len(fn.Instrs) != 0 {
				bad(fn, "SIMT region has instructions")
			}
			continue
		}
		if fn.Body == nil {
			bad(fn, "analysed region has no body")
			continue
		}
		v := &verifier{fn: fn, bad: func(format string, args ...any) { bad(fn, format, args...) }, inFile: inFile}
		v.block(fn.Body, NoLoop, 0)
		if v.nextInstr != len(fn.Instrs) {
			bad(fn, "body reaches %d of %d instructions", v.nextInstr, len(fn.Instrs))
		}
		if v.nextLoop != len(fn.Loops) {
			bad(fn, "body reaches %d of %d loops", v.nextLoop, len(fn.Loops))
		}
	}
	return errs
}

type verifier struct {
	fn        *Func
	bad       func(format string, args ...any)
	inFile    func(token.Pos) bool
	nextInstr int
	nextLoop  int
}

func (v *verifier) regOK(r RegID) bool { return r >= 0 && int(r) < len(v.fn.Regs) }

func (v *verifier) block(b *Block, loop LoopID, depth int) {
	if b == nil {
		v.bad("nil block")
		return
	}
	for _, n := range b.Nodes {
		pos, end := n.Span()
		if !v.inFile(pos) || !v.inFile(end) || pos > end || pos < v.fn.Pos || end > v.fn.End {
			v.bad("node span %d-%d outside the region %d-%d", pos, end, v.fn.Pos, v.fn.End)
		}
		switch n := n.(type) {
		case *Instr:
			v.instr(n, loop)
		case *Loop:
			if int(n.ID) != v.nextLoop {
				v.bad("loop L%d reached out of pre-order (want L%d)", n.ID, v.nextLoop)
			}
			v.nextLoop++
			if n.ID < 0 || int(n.ID) >= len(v.fn.Loops) || v.fn.Loops[n.ID] != n {
				v.bad("loop L%d is not Loops[%d]", n.ID, n.ID)
			}
			if n.Parent != loop {
				v.bad("loop L%d has parent L%d, nested in L%d", n.ID, n.Parent, loop)
			}
			if n.Depth != depth+1 {
				v.bad("loop L%d has depth %d, want %d", n.ID, n.Depth, depth+1)
			}
			if n.TripKnown && n.Trip < 0 {
				v.bad("loop L%d has negative trip count", n.ID)
			}
			v.block(n.Body, n.ID, depth+1)
		case *If:
			v.block(n.Then, loop, depth)
			if n.Else != nil {
				v.block(n.Else, loop, depth)
			}
		case *Jump:
			switch n.Kind {
			case JumpBreak, JumpContinue:
				if n.Loop == NoLoop || !v.fn.Within(loop, n.Loop) {
					v.bad("%s at %d leaves L%d, which does not enclose it", n.Kind, n.Pos, n.Loop)
				}
			default:
				if n.Loop != NoLoop {
					v.bad("%s at %d names loop L%d", n.Kind, n.Pos, n.Loop)
				}
			}
		default:
			v.bad("unknown node %T", n)
		}
	}
}

func (v *verifier) instr(in *Instr, loop LoopID) {
	if int(in.ID) != v.nextInstr {
		v.bad("instr i%d reached out of order (want i%d)", in.ID, v.nextInstr)
	}
	v.nextInstr++
	if in.ID < 0 || int(in.ID) >= len(v.fn.Instrs) || v.fn.Instrs[in.ID] != in {
		v.bad("instr i%d is not Instrs[%d]", in.ID, in.ID)
		return
	}
	if in.Loop != loop {
		v.bad("instr i%d has loop L%d, nested in L%d", in.ID, in.Loop, loop)
	}
	if int(in.Op) >= NumOps {
		v.bad("instr i%d has op %d out of range", in.ID, in.Op)
	}
	for _, r := range in.Defs {
		if !v.regOK(r) {
			v.bad("instr i%d defines reg %d out of range", in.ID, r)
		}
	}
	for _, r := range in.Uses {
		if !v.regOK(r) {
			v.bad("instr i%d uses reg %d out of range", in.ID, r)
		}
	}
	for k, a := range in.Args {
		if a.Pos < in.Pos || a.End > in.End || a.Pos > a.End {
			v.bad("instr i%d arg %d span outside the call", in.ID, k)
		}
		if a.Reg != NoReg && !v.regOK(a.Reg) {
			v.bad("instr i%d arg %d reg out of range", in.ID, k)
			continue
		}
		if in.Op == OpUnknown {
			continue
		}
		if a.Role == ArgNone {
			v.bad("instr i%d (%s) arg %d has no role", in.ID, in.Op, k)
		}
		if a.Reg == NoReg {
			continue
		}
		switch a.Role {
		case ArgW:
			if !hasReg(in.Defs, a.Reg) {
				v.bad("instr i%d writes r%d but does not define it", in.ID, a.Reg)
			}
		case ArgRW:
			if !hasReg(in.Defs, a.Reg) || !hasReg(in.Uses, a.Reg) {
				v.bad("instr i%d reads and writes r%d but lacks it in defs or uses", in.ID, a.Reg)
			}
		case ArgR, ArgMask, ArgAddr:
			if !hasReg(in.Uses, a.Reg) {
				v.bad("instr i%d reads r%d but does not use it", in.ID, a.Reg)
			}
		}
	}
}

func hasReg(rs []RegID, r RegID) bool {
	for _, x := range rs {
		if x == r {
			return true
		}
	}
	return false
}
