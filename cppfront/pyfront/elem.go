package pyfront

import (
	"strings"

	"github.com/ascvet/ascvet/cppfront/ir"
)

// Element types the DSL leaves unstated. A register made by
// vf.load_unalign, or by vf.load_align without dtype=, has no element type
// in the code: pypto takes it from the tile, whose type only the host code
// states. The rules that need a size (ASC1001 proves a stream contiguous
// only when it knows how many elements one vector holds) would then stay
// silent. inferElems recovers the type where the code fixes it anyway:
//
//	m = vf.create_mask(dtype=pl.DT_FP32)
//	x = vf.load_unalign(u, src, 64, post_update=True)   # x: unknown ...
//	vf.store_align(dst, x, m, i * 64)                    # ... used under a float mask: x is float
//
// The evidence about a register r is what each instruction that reads or
// writes r as the data of one element type says about that type:
//
//   - the dtype of the mask it is used under, when every definition of the
//     mask is a vf.create_mask or vf.update_mask with an explicit dtype=
//     (the default FP32 is not evidence: code that omits dtype= often does
//     not mean it);
//   - the dtype= the call gives;
//   - the element type of the other data registers of the call, when the
//     code or the op table states it;
//   - the width of an explicit _Bn dist mode (a size, not a type).
//
// Only ops whose register operands, destination included, and mask all
// have the one element type T count (arithmetic, compares, select, move,
// duplicate and the loads and stores). Conversions, reductions, gathers,
// scatters, helpers and unknown calls say nothing; a register that
// vf.bit_cast reads is never inferred, since its name then stands for
// another type too. r gets a type only when all the evidence names the same
// type, with the size every dist width agrees with; one disagreement, or
// none at all, leaves r unknown. The evidence is taken from the types the
// lowering found, never from inferred ones, so the result does not depend
// on the order of the registers.
//
// Then the instructions whose T was unknown get the type of their data
// registers, when those are all known and agree (a load whose destination
// is now known, the store of such a register), and a width-less dist mode
// of theirs the width of that type (dist=pl.LoadDist.BRC on float data is
// DIST_BRC_B32), as the lowering does when the type is stated.

// sameType reports whether every register operand of op, and its mask,
// has the element type T of the op.
func sameType(op ir.Op) bool {
	switch op {
	case ir.OpAdd, ir.OpSub, ir.OpMul, ir.OpDiv, ir.OpMax, ir.OpMin, ir.OpAnd, ir.OpOr, ir.OpXor, ir.OpAbsSub,
		ir.OpMulAddDst, ir.OpMulDstAdd, ir.OpPrelu, ir.OpMuls, ir.OpAdds, ir.OpMins, ir.OpMaxs, ir.OpAxpy,
		ir.OpLeakyRelu, ir.OpAbs, ir.OpNot, ir.OpRelu, ir.OpNeg, ir.OpLn, ir.OpLog, ir.OpLog2, ir.OpLog10,
		ir.OpExp, ir.OpSqrt, ir.OpSelect, ir.OpCompare, ir.OpCompares, ir.OpMove, ir.OpDuplicate,
		ir.OpLoadAlign, ir.OpStoreAlign, ir.OpLoadUnAlign, ir.OpStoreUnAlign, ir.OpLoad, ir.OpStore:
		return true
	}
	return false
}

// evidence gathers what the instructions say about one register's type.
type evidence struct {
	types map[string]bool // element types named
	sizes map[int64]bool  // element sizes required
}

func (e *evidence) typ(t string) {
	if t == "" {
		return
	}
	if e.types == nil {
		e.types = map[string]bool{}
	}
	e.types[t] = true
}

func (e *evidence) size(n int64) {
	if e.sizes == nil {
		e.sizes = map[int64]bool{}
	}
	e.sizes[n] = true
}

// verdict returns the one type the evidence names, or "".
func (e *evidence) verdict() string {
	if len(e.types) != 1 {
		return ""
	}
	var t string
	for x := range e.types {
		t = x
	}
	sz, ok := ir.ElemSize(t)
	if !ok {
		return ""
	}
	for n := range e.sizes {
		if n != sz {
			return ""
		}
	}
	return t
}

// dataRegs returns the vector registers of in that carry its data: the
// vector operands it reads or writes, and a returned register that is not
// an operand.
func dataRegs(fn *ir.Func, in *ir.Instr) []ir.RegID {
	var out []ir.RegID
	for _, a := range in.Args {
		if a.Reg == ir.NoReg || fn.Regs[a.Reg].Class != ir.ClassVReg {
			continue
		}
		switch a.Role {
		case ir.ArgW, ir.ArgR, ir.ArgRW:
			out = addReg(out, a.Reg)
		}
	}
	for _, r := range in.Defs {
		if fn.Regs[r].Class == ir.ClassVReg {
			out = addReg(out, r)
		}
	}
	return out
}

// distWidth returns the element size an explicit _Bn dist mode names.
func distWidth(d string) (int64, bool) {
	for _, w := range []struct {
		suf string
		n   int64
	}{{"_B8", 1}, {"_B16", 2}, {"_B32", 4}, {"_B64", 8}} {
		if strings.HasSuffix(d, w.suf) {
			return w.n, true
		}
	}
	return 0, false
}

// maskTypes returns the dtype of each mask register every definition of
// which is a create_mask or update_mask with an explicit dtype=.
func (fb *funcBuilder) maskTypes() map[ir.RegID]string {
	fn := fb.fn
	out := map[ir.RegID]string{}
	bad := map[ir.RegID]bool{}
	for _, in := range fn.Instrs {
		for _, r := range in.Defs {
			if fn.Regs[r].Class != ir.ClassMask || bad[r] {
				continue
			}
			t := ""
			if in.Op == ir.OpCreateMask || in.Op == ir.OpUpdateMask {
				t = fb.dtypes[in.ID]
			}
			if t == "" || out[r] != "" && out[r] != t {
				bad[r] = true
				delete(out, r)
				continue
			}
			out[r] = t
		}
	}
	return out
}

// inferElems gives the vector registers of the function whose element type
// the code leaves unstated the type the evidence agrees on, then the
// instructions whose T was unknown the type of their data (see above).
func (fb *funcBuilder) inferElems() {
	fn := fb.fn
	masks := fb.maskTypes()
	known := make([]string, len(fn.Regs)) // the types the lowering found
	for i, r := range fn.Regs {
		known[i] = r.Elem
	}
	ev := make([]evidence, len(fn.Regs))
	for _, in := range fn.Instrs {
		if !sameType(in.Op) {
			continue
		}
		data := dataRegs(fn, in)
		if len(data) == 0 {
			continue
		}
		var about evidence
		for _, a := range in.Args {
			if a.Role == ir.ArgMask && a.Reg != ir.NoReg {
				about.typ(masks[a.Reg])
			}
		}
		about.typ(fb.dtypes[in.ID])
		if n, ok := distWidth(in.Dist); ok {
			about.size(n)
		}
		for _, r := range data {
			e := &ev[r]
			for t := range about.types {
				e.typ(t)
			}
			for n := range about.sizes {
				e.size(n)
			}
			for _, p := range data {
				if p != r {
					e.typ(known[p])
				}
			}
		}
	}
	for i, r := range fn.Regs {
		if r.Class != ir.ClassVReg || r.Elem != "" || fb.viewed[ir.RegID(i)] {
			continue
		}
		r.Elem = ev[i].verdict()
	}
	for _, in := range fn.Instrs {
		if in.Elem != "" || !sameType(in.Op) {
			continue
		}
		t := ""
		for _, r := range dataRegs(fn, in) {
			e := fn.Regs[r].Elem
			if e == "" || t != "" && e != t {
				t = ""
				break
			}
			t = e
		}
		in.Elem = t
		if t != "" && len(in.TArgs) > 0 && in.TArgs[0] == "T" {
			in.TArgs[0] = t
		}
		if _, ok := distWidth(in.Dist); t != "" && !ok {
			// A width-less mode takes the width of the data, as when
			// the type is stated (ir.DSLDist).
			if stem, found := strings.CutPrefix(in.Dist, "DIST_"); found {
				sz, _ := ir.ElemSize(t)
				in.Dist = ir.DSLDist(stem, sz, false)
			}
		}
	}
}

// explicitDType returns the element type a dtype argument of a vf call
// names ("float" for dtype=pl.DT_FP32), or "" when the call gives none.
func explicitDType(args []argNode, dargs []ir.DSLArg) string {
	for k, a := range args {
		if a.key != "" && a.key != "dtype" && a.key != "cmp_dtype" {
			continue
		}
		if t, ok := ir.DSLDType(dargs[k].Value); ok {
			return t
		}
	}
	return ""
}
