package stream

// Stores beside a load stream, and a stream re-primed in the middle of an
// iteration.
//
// A store in the loop breaks a hoisted Pre only when it may write bytes the
// stream still takes from its unaligned register: the register holds the
// 32-byte block in which the next iteration starts, loaded one iteration
// earlier. Per iteration the stream reads the bytes [P, P+consumed) from
// its Pre address P, and carries [P+consumed, P+consumed+32) over in the
// register. A store whose address is P plus a constant D (the same base,
// the same coefficient of the loop variable) and whose bytes lie wholly
// before P or wholly at or after P+consumed+32 cannot touch them in any
// iteration; any other store to the stream's base is assumed to overlap:
//
//	LoadUnAlignPre(u, buf + i*64 + 67);      // reads  [P, P+256), holds up to P+288
//	LoadUnAlign(v, u, buf + i*64 + 67);
//	StoreAlign(buf + i*64, v, m);            // writes [P-268, P-12): before P, no overlap
//
//	StoreAlign(buf + i*64 + 3, v, m);        // writes [P, P+256): the Pre stays
//
// A second Pre on the register that primes exactly where the previous load
// of the iteration ended re-primes the stream in place: the register
// already holds that block, so the two Pres are one stream, contiguous when
// the first Pre is, and hoisting the first leaves the second redundant.
//
//	LoadUnAlignPre(u, src + 2*i*64);         // the stream's Pre: hoistable
//	LoadUnAlign(a, u, src + 2*i*64);
//	LoadUnAlignPre(u, src + (2*i+1)*64);     // in place: deletable, not reported
//	LoadUnAlign(b, u, src + (2*i+1)*64);

import (
	"github.com/ascvet/ascvet/analyzers/internal/linear"
	"github.com/ascvet/ascvet/cppfront/ir"
)

// blockBytes is the size of the aligned block an unaligned register holds.
const blockBytes = 32

// storesOver reports whether a store in lp may write the bytes the explicit
// address stream of pre reads in an iteration or carries over in its
// register: ap is the Pre's address (sizes bound to size), consumed the
// elements the stream's loads read per iteration. Stores to other bases
// than the stream's are not considered (pointers with different names are
// taken not to alias, as everywhere in the analysis).
func storesOver(fn *ir.Func, lp *ir.Loop, loads []*ir.Instr, ap linear.Form, consumed, size int64) bool {
	bases := candidates(ap, lp.Var)
	if len(bases) == 0 {
		return false
	}
	elem, ok := ir.ElemSize(loads[0].Elem)
	if !ok {
		elem = size // 0 when unknown: every store to the base overlaps
	}
	for _, in := range fn.InstrsIn(lp) {
		if !fn.Within(in.Loop, lp.ID) || !in.Op.Info().Cat.IsStore() {
			continue
		}
		k := ptrArg(in)
		if k < 0 {
			continue
		}
		a := in.Args[k]
		sl, ok := linear.Of(bound(a.Expr, size))
		if !ok {
			if mentionsAnyWord(a.Text, bases) {
				return true
			}
			continue
		}
		if !sharesTerm(sl, bases) && !mentionsAnyWord(a.Text, bases) {
			continue // another buffer
		}
		d := sl.Add(ap, -1)
		if !d.IsConst() || elem == 0 || in.Op.Info().Cat == ir.CatScatter {
			return true
		}
		lo, hi := storeBytes(fn, in)
		lo += d.C * elem
		hi += d.C * elem
		if hi <= 0 || lo >= consumed*elem+blockBytes {
			continue // wholly before the stream's first byte, or after its carried block
		}
		return true
	}
	return false
}

// storeBytes returns the bytes a store may write relative to its address:
// a vector per source register, and for the unaligned stores also the
// partial blocks they keep and flush on either side.
func storeBytes(fn *ir.Func, in *ir.Instr) (lo, hi int64) {
	n := int64(0)
	for _, a := range in.Args {
		if a.Reg != ir.NoReg && fn.Regs[a.Reg].Class == ir.ClassVReg && (a.Role == ir.ArgR || a.Role == ir.ArgRW) {
			n++
		}
	}
	hi = max(n, 1) * ir.VectorBytes
	if c := in.Op.Info().Cat; c != ir.CatStore {
		lo, hi = -blockBytes, hi+blockBytes
	}
	return lo, hi
}

// candidates returns the symbols that may be the base pointer of an
// address: the terms with coefficient 1 other than the loop variable, in
// sorted order (root takes the first; a store is matched against all).
func candidates(l linear.Form, loopVar string) []string {
	var out []string
	for _, k := range l.Keys() {
		if l.Terms[k] == 1 && k != loopVar && isIdent(k) {
			out = append(out, k)
		}
	}
	return out
}

func sharesTerm(l linear.Form, names []string) bool {
	for _, n := range names {
		if _, ok := l.Terms[n]; ok {
			return true
		}
	}
	return false
}

func mentionsAnyWord(text string, names []string) bool {
	for _, n := range names {
		if linear.MentionsWord(text, n) {
			return true
		}
	}
	return false
}

// SecondPre decides about a LoadUnAlignPre in that touches pre's register
// in the loop besides pre and its loads (preVerdict's default case): same
// is true when in is a later Pre that re-primes the stream in place
// (exactly where the previous load ended), so that pre's stream goes on
// through it; otherwise why is the verdict's reason for pre: pre is itself
// such an in-place re-prime, or the register serves more than one stream.
func SecondPre(fn *ir.Func, touch []*ir.Instr, pre, in *ir.Instr) (same bool, why string) {
	if in.Op == ir.OpLoadUnAlignPre && in.ID > pre.ID && inPlace(fn, touch, in) {
		return true, ""
	}
	if inPlace(fn, touch, pre) {
		return false, "the Pre re-primes in place, where the previous load ended: it is redundant and can be deleted"
	}
	return false, "the register serves more than one stream"
}

// inPlace reports whether the Pre q re-primes its register exactly where
// the stream already stands: the use of the register just before q is a
// load that follows a Pre, and q's address is that load's address plus the
// vector it read (for a post-updated pointer: the same pointer, advanced by
// exactly one vector), for every element size the types may have.
func inPlace(fn *ir.Func, touch []*ir.Instr, q *ir.Instr) bool {
	at := -1
	for k, in := range touch {
		if in == q {
			at = k
		}
	}
	if at < 1 || touch[at-1].Op != ir.OpLoadUnAlign {
		return false
	}
	ld := touch[at-1]
	primed := false
	for _, in := range touch[:at-1] {
		if in.Op == ir.OpLoadUnAlignPre {
			primed = true
		}
	}
	qk, lk := ptrArg(q), ptrArg(ld)
	if !primed || qk < 0 || lk < 0 {
		return false
	}
	try := []int64{0}
	if symbolicElem(ld, q) {
		try = sizes
	}
	for _, size := range try {
		if !inPlaceAt(q.Args[qk].Expr, ld, lk, size) {
			return false
		}
	}
	return true
}

// inPlaceAt is inPlace for one element size: the Pre address qa against
// the load ld, whose address is its operand lk.
func inPlaceAt(qa *ir.Expr, ld *ir.Instr, lk int, size int64) bool {
	vl, ok := linear.Of(bound(vectorLen(ld.Elem), size))
	if !ok || !vl.IsConst() {
		return false
	}
	if p := ptrName(ld); p != "" {
		st, ok := linear.Of(bound(strideArg(ld), size))
		return qa != nil && qa.Kind == ir.ExprSym && qa.Name == p && ok && st.IsConst() && st.C == vl.C
	}
	aq, ok := linear.Of(bound(qa, size))
	al, ok2 := linear.Of(bound(ld.Args[lk].Expr, size))
	return ok && ok2 && aq.Equal(al.Add(vl, 1))
}
