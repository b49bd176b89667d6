package cppfront

import (
	"strconv"
	"strings"

	"github.com/ascvet/ascvet/cppfront/ir"
)

// Calls of helpers the file defines.
//
// A call of a __simd_callee__ (or register-taking) helper is lowered
// before the helper's body is known to the caller: every register passed
// is then both read and written (ArgRW), as for a function from
// elsewhere. Once every region of the file is lowered, linkCalls gives
// each call the definition it calls (Instr.Target), folds its template
// arguments that name constants (Tail<FOUR> with constexpr FOUR = 4 is
// Tail<4>), and makes its register arguments exact from the helper's body
// (callEffects): a register the helper only reads is read, one it writes
// before any read is written, one it does not touch is neither. An output
// parameter is then no false dependence carried across iterations, and a
// register the helper only reads dies at the call.

// linkCalls links, folds and makes exact the helper calls of f's regions.
func linkCalls(f *ir.File) {
	ir.LinkTargets(f.Funcs)
	for _, fn := range f.Funcs {
		for _, in := range fn.Instrs {
			if in.Op == ir.OpCall && in.Target != nil {
				foldTArgs(in, fn.Locals, f.Consts)
			}
		}
	}
	e := &effects{done: map[*ir.Func]*effect{}}
	for _, fn := range f.Funcs {
		e.of(fn)
	}
}

// foldTArgs writes a template argument of a call that names a constant
// the caller or the file knows as its value.
func foldTArgs(in *ir.Instr, locals, consts map[string]int64) {
	for k, t := range in.TArgs {
		if !isIdentifier(strings.ReplaceAll(t, "::", "_")) {
			continue
		}
		v, ok := locals[t]
		if !ok {
			v, ok = consts[t]
		}
		if ok {
			if k == 0 {
				in.TArgs = append([]string(nil), in.TArgs...) // the lowering's slice may be shared
			}
			in.TArgs[k] = strconv.FormatInt(v, 10)
		}
	}
}

// effect is what a helper does with its register parameters, by
// parameter register.
type effect struct {
	read, write map[ir.RegID]bool
}

// effects computes the effects of the regions of a file, each once; a
// region being computed (a recursive call) has none yet, and its calls
// keep their conservative roles.
type effects struct {
	done map[*ir.Func]*effect
}

// of makes the helper calls of fn exact and returns fn's effect on its
// parameters.
func (e *effects) of(fn *ir.Func) *effect {
	if ef, ok := e.done[fn]; ok {
		return ef
	}
	e.done[fn] = nil // in progress
	for _, in := range fn.Instrs {
		if in.Op == ir.OpCall && in.Target != nil {
			if ef := e.of(in.Target); ef != nil {
				exactCall(fn, in, ef)
			}
		}
	}
	ef := &effect{read: map[ir.RegID]bool{}, write: map[ir.RegID]bool{}}
	param := map[ir.RegID]bool{}
	for _, p := range fn.Params {
		if p.Reg != ir.NoReg {
			param[p.Reg] = true
		}
	}
	// A register is read when an instruction reads it before a write
	// that surely happens (outside loops and ifs, with no jump before it
	// in the helper) has defined it all.
	jumps := hasJump(fn.Body)
	full := map[ir.RegID]bool{}
	for _, in := range fn.Instrs {
		for _, u := range in.Uses {
			if param[u] && !full[u] {
				ef.read[u] = true
			}
		}
		for _, d := range in.Defs {
			if !param[d] {
				continue
			}
			ef.write[d] = true
			if !jumps && in.Loop == ir.NoLoop && !in.Cond && !containsReg(in.Uses, d) && fn.Regs[d].ArrayLen == 1 && wholeDef(in, d) {
				full[d] = true
			}
		}
	}
	e.done[fn] = ef
	return ef
}

// wholeDef reports whether in writes all of register d: not one part of
// it (x.reg[k], v[k]).
func wholeDef(in *ir.Instr, d ir.RegID) bool {
	for _, a := range in.Args {
		if a.Reg == d && a.Part >= 0 {
			return false
		}
	}
	return true
}

// hasJump reports whether a block holds a jump out of the straight line.
func hasJump(b *ir.Block) bool {
	if b == nil {
		return false
	}
	for _, n := range b.Nodes {
		switch n := n.(type) {
		case *ir.Jump:
			return true
		case *ir.Loop:
			if hasJump(n.Body) {
				return true
			}
		case *ir.If:
			if hasJump(n.Then) || hasJump(n.Else) {
				return true
			}
		}
	}
	return false
}

// exactCall gives the register arguments of a call of a helper whose
// effect is ef the roles the helper's body gives them, and the call the
// reads and writes that follow.
func exactCall(fn *ir.Func, in *ir.Instr, ef *effect) {
	h := in.Target
	args := map[ir.RegID]bool{}
	for _, a := range in.Args {
		if a.Reg != ir.NoReg {
			args[a.Reg] = true
		}
	}
	for k := range in.Args {
		a := &in.Args[k]
		if a.Reg == ir.NoReg || k >= len(h.Params) || h.Params[k].Reg == ir.NoReg {
			continue
		}
		p := h.Params[k].Reg
		r, w := ef.read[p], ef.write[p]
		if w && (a.Part >= 0 || fn.Regs[a.Reg].ArrayLen != 1) {
			r = true // one part written: the rest is kept
		}
		switch {
		case r && w:
			a.Role = ir.ArgRW
		case w:
			a.Role = ir.ArgW
		case r:
			a.Role = ir.ArgR
		default:
			a.Role = ir.ArgPassed
		}
	}
	// Rebuild the reads and writes: what is not an argument (the register
	// assigned the result) stays.
	var defs, uses []ir.RegID
	for _, d := range in.Defs {
		if !args[d] {
			defs = append(defs, d)
		}
	}
	for _, u := range in.Uses {
		if !args[u] {
			uses = append(uses, u)
		}
	}
	for k, a := range in.Args {
		if a.Reg == ir.NoReg {
			continue
		}
		conservative := k >= len(h.Params) || h.Params[k].Reg == ir.NoReg
		if (conservative || a.Role == ir.ArgR || a.Role == ir.ArgRW) && !containsReg(uses, a.Reg) {
			uses = append(uses, a.Reg)
		}
		if (conservative || a.Role == ir.ArgW || a.Role == ir.ArgRW) && !containsReg(defs, a.Reg) {
			defs = append(defs, a.Reg)
		}
	}
	in.Defs, in.Uses = defs, uses
}
