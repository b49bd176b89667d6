package cppfront

import (
	"go/token"
	"strconv"
	"strings"

	sitter "github.com/tree-sitter/go-tree-sitter"

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

// linkCalls links, folds and makes exact the helper calls of f's regions;
// foreign finds the helpers of other headers a call of a name the file does
// not define may call (foreign.go).
func linkCalls(f *ir.File, foreign func(name string) []*ir.Func) {
	ir.LinkTargets(f.Funcs)
	for _, fn := range f.Funcs {
		for _, in := range fn.Instrs {
			if in.Op == ir.OpUnknown && in.Form == ir.FormUnknown && foreign != nil && regArgs(in) {
				if name, ok := userHelperName(in); ok {
					linkForeign(in, foreign(name))
				}
			}
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

// userHelperName returns the name an unknown call may call a helper of
// the project by, and whether it may: not a name spelled as a macro
// (DO_CAST_16), not a method called on another object (a member of this
// one is: this->template LoadData<T>(...)), not a call of the Ascend API
// the op table does not know (AscendC::, Reg::, MicroAPI::, asc_*), whose
// library implementation is not the kernel's code.
func userHelperName(in *ir.Instr) (string, bool) {
	callee, name := in.Callee, in.Name
	if rest, ok := strings.CutPrefix(callee, "this->"); ok {
		callee = strings.TrimPrefix(strings.TrimSpace(rest), "template ")
		if k := strings.IndexByte(callee, '<'); k >= 0 {
			callee = callee[:k] // LoadData<T>: its template arguments
		}
		name = lastComponent(callee)
	}
	if macroCall(name) || strings.ContainsAny(callee, ".>") || strings.HasPrefix(name, "asc_") {
		return "", false
	}
	for _, ns := range []string{"AscendC::", "Reg::", "MicroAPI::", "std::"} {
		if strings.Contains(callee, ns) {
			return "", false
		}
	}
	return name, true
}

// regArgs reports whether a call passes a register.
func regArgs(in *ir.Instr) bool {
	for _, a := range in.Args {
		if a.Reg != ir.NoReg {
			return true
		}
	}
	return false
}

// linkForeign makes an unknown call a call of the helper of another header
// it calls, when one of cands takes its arguments: every register argument
// read and written, every other a scalar, until the helper's body makes
// them exact (exactCall).
func linkForeign(in *ir.Instr, cands []*ir.Func) {
	h := ir.PickTarget(cands, len(in.Args))
	if h == nil {
		return
	}
	in.Op, in.Form, in.Target = ir.OpCall, ir.FormCall, h
	for k := range in.Args {
		a := &in.Args[k]
		if a.Reg == ir.NoReg {
			a.Role = ir.ArgScalar
			continue
		}
		a.Role = ir.ArgRW
		if !containsReg(in.Uses, a.Reg) {
			in.Uses = append(in.Uses, a.Reg)
		}
		if !containsReg(in.Defs, a.Reg) {
			in.Defs = append(in.Defs, a.Reg)
		}
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
		if fn.Foreign {
			break // made exact when its header was lowered; shared by the files that call it
		}
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

// deduceRegParams finds the parameters of VF functions whose type is a
// template parameter (template <typename RegT> __simd_callee__ void
// F(RegT& dst, RegT& src, Mask& m)) that every call in the file passes a
// register of one class, as the compiler deduces RegT, and lowers those
// functions again with them as registers of that class: without it their
// operations read and write no register. A call that passes a parameter of
// the same kind of its own caller is decided once that one is (rounds); a
// call that passes anything else, or calls that disagree, leave the
// parameter a scalar.
func (lw *lowerer) deduceRegParams(regions []region) {
	type cand struct {
		r region
		k int
	}
	isCand := func(fn *ir.Func, fd funcDef, k int) bool {
		p := fn.Params[k]
		if p.Reg != ir.NoReg || p.Ptr || p.Name == "" {
			return false
		}
		switch fn.Kind {
		case ir.RegionSimdVF, ir.RegionSimdCallee, ir.RegionSimdCaller:
		default:
			return false
		}
		return fd.tparams[strings.TrimSpace(strings.TrimPrefix(p.Type, "const "))]
	}
	for round := 0; round < 4; round++ {
		var cands []cand
		pending := map[*ir.Func]map[string]bool{} // candidate parameters, by function
		for _, r := range regions {
			fn := lw.f.Funcs[r.at]
			for k := range fn.Params {
				if isCand(fn, r.fd, k) {
					cands = append(cands, cand{r, k})
					if pending[fn] == nil {
						pending[fn] = map[string]bool{}
					}
					pending[fn][fn.Params[k].Name] = true
				}
			}
		}
		if len(cands) == 0 {
			return
		}
		// The calls of the file by name, once a round.
		type site struct {
			caller *ir.Func
			in     *ir.Instr
		}
		calls := map[string][]site{}
		for _, caller := range lw.f.Funcs {
			for _, in := range caller.Instrs {
				if in.Op == ir.OpCall {
					calls[in.Name] = append(calls[in.Name], site{caller, in})
				}
			}
		}
		redo := map[int]region{}
		for _, c := range cands {
			fn := lw.f.Funcs[c.r.at]
			name := lastComponent(fn.Name)
			class, agree, seen := ir.ClassNone, true, 0
			for _, st := range calls[name] {
				caller, in := st.caller, st.in
				if len(in.Args) != len(fn.Params) {
					continue
				}
				a := in.Args[c.k]
				if a.Reg == ir.NoReg {
					if pending[caller][a.Text] {
						continue // the caller's own parameter of a template type: a later round
					}
					agree = false
					continue
				}
				cl := caller.Regs[a.Reg].Class
				if seen > 0 && cl != class {
					agree = false
				}
				class = cl
				seen++
			}
			if !agree || seen == 0 || class == ir.ClassNone {
				continue
			}
			if lw.regParams == nil {
				lw.regParams = map[token.Pos]map[string]ir.RegClass{}
			}
			if lw.regParams[fn.Pos] == nil {
				lw.regParams[fn.Pos] = map[string]ir.RegClass{}
			}
			lw.regParams[fn.Pos][fn.Params[c.k].Name] = class
			redo[c.r.at] = c.r
		}
		if len(redo) == 0 {
			return
		}
		for at, r := range redo {
			lw.f.Funcs[at] = lw.lowerFunc(r.fd, r.kind, nil)
		}
	}
}

// mayWrite reports whether a call of name, a helper the file defines, may
// write the variable passed as its argument k: when name is a
// function-like macro of the file (it may expand to anything), when a
// definition of that name takes a reference that is not const in that
// place, or when the definitions cannot tell (an argument past their
// parameters, a parameter list that does not read). A parameter taken by
// value, through a pointer or by const reference leaves the caller's
// variable as it was (DivCeil(n, step) keeps step's value).
func (lw *lowerer) mayWrite(name string, k int) bool {
	name = lastComponent(name)
	if lw.macroFns[name] {
		return true
	}
	lw.refMu.Lock()
	defer lw.refMu.Unlock()
	refs, ok := lw.refs[name]
	if !ok {
		refs = lw.refParams(name)
		lw.refs[name] = refs
	}
	return refs == nil || k >= len(refs) || refs[k]
}

// refParams returns, for the functions the file defines named name, which
// parameters may be written through (a reference, not const), merged over
// every definition of the name; nil when one of them does not read.
func (lw *lowerer) refParams(name string) []bool {
	var out []bool
	found := false
	for _, fd := range lw.funcs {
		if lastComponent(fd.name) != name || fd.node == nil {
			continue
		}
		params := paramList(fd.node)
		if params == nil {
			return nil
		}
		found = true
		var ps []string
		for i := uint(0); i < params.NamedChildCount(); i++ {
			c := params.NamedChild(i)
			if kind, _ := kindOf(c.KindId()); kind == "comment" {
				continue
			}
			ps = append(ps, c.Utf8Text(lw.src))
		}
		for len(out) < len(ps) {
			out = append(out, false)
		}
		for i, p := range ps {
			if strings.Contains(p, "...") {
				return nil // a pack: any argument from here on
			}
			out[i] = out[i] || writableParam(p)
		}
	}
	if !found {
		return nil
	}
	return out
}

// paramList returns the parameter list of the function definition n.
func paramList(n *sitter.Node) *sitter.Node {
	d := n.ChildByFieldName("declarator")
	for depth := 0; d != nil && depth < 8; depth++ {
		if kind, _ := kindOf(d.KindId()); kind == "function_declarator" {
			return d.ChildByFieldName("parameters")
		}
		d = d.ChildByFieldName("declarator")
	}
	return nil
}

// writableParam reports whether the parameter declaration p takes its
// argument by a reference that is not const (T& x, T&& x, T& x = d).
func writableParam(p string) bool {
	if k := strings.IndexByte(p, '='); k >= 0 {
		p = p[:k]
	}
	amp := strings.IndexByte(p, '&')
	if amp < 0 {
		return false
	}
	return !strings.Contains(" "+strings.ReplaceAll(p[:amp], "*", " ")+" ", " const ")
}
