package stream

// Stores beside a load stream, and a stream re-primed in the middle of an
// iteration.
//
// A store in the loop breaks a hoisted Pre only when it may write bytes the
// stream takes from its unaligned register at another time than the Pre in
// the loop would read them. Everything a load reads from memory it reads at
// the same moment in both versions; only the first partial block of an
// iteration differs: hoisted, the register holds it from the previous
// iteration's last load (or from the Pre before the loop); in the loop, the
// Pre reads it again. Of that block the stream uses only bytes at or after
// the iteration's start P (a load reads [P, P+256)), so the bytes that
// matter are [P, P+32), and only writes to them between the previous
// iteration's last load and this iteration's Pre:
//
//   - a store after the stream's last load in program order, as seen from
//     its own iteration: the next iteration's first block, the bytes
//     [P+consumed, P+consumed+32) from its Pre address P, where consumed is
//     what the iteration's loads read;
//   - a store before the Pre: its own iteration's first block, [P, P+32)
//     (the first iteration's too: a hoisted Pre runs before the loop);
//   - a store between the Pre and the last load writes the block after the
//     register read it in both versions (the Pre, or the previous
//     iteration's last load, ran before it), and before the last load reads
//     the next block in both: it never matters.
//
// A store whose address is P plus an offset D (the same base) and whose
// bytes miss its window for every value D may take cannot touch them in any
// iteration: D a constant, or a sum of unsigned names and loop indices of
// known sign and range (sign.go). Any other store to the stream's base
// before the Pre or after the last load is assumed to overlap:
//
//	LoadUnAlignPre(u, buf + i*64 + 67);      // reads  [P, P+256), carries [P+256, P+288)
//	LoadUnAlign(v, u, buf + i*64 + 67);
//	StoreAlign(buf + i*64, v, m);            // writes [P-268, P-12): no overlap
//
//	LoadUnAlignPre(u, x + i*64 + 1);         // x[i] = x[i+1] - x[i], in place:
//	LoadUnAlign(v, u, x + i*64 + 1);
//	StoreAlign(x + i*64, w, m);              // writes [P-4, P+252), bytes the
//	                                         // iteration already read: no overlap
//
//	StoreAlign(buf + i*64 + 64, v, m);       // writes [P+244, P+500): the Pre stays
//
// A second Pre on the register that primes exactly where the previous load
// of the iteration ended re-primes the stream in place: the register
// already holds that block, so the two Pres are one stream, contiguous when
// the first Pre is, and hoisting the first leaves the second redundant.
// The second is redundant in any case when nothing between the load and it
// may write memory (redundantAfter: no store, no call whose body is not
// seen): the block it would read is the one the register holds. ASC1001
// reports it then, to delete, without an automatic fix, when the text
// between holds nothing else and a replay without it loads the same data
// (deletable).
//
//	LoadUnAlignPre(u, src + 2*i*64);         // the stream's Pre: hoistable
//	LoadUnAlign(a, u, src + 2*i*64);
//	LoadUnAlignPre(u, src + (2*i+1)*64);     // in place: redundant, delete it
//	LoadUnAlign(b, u, src + (2*i+1)*64);

import (
	"slices"

	"github.com/ascvet/ascvet/analyzers/internal/linear"
	"github.com/ascvet/ascvet/cppfront/ir"
)

// blockBytes is the size of the aligned block an unaligned register holds.
const blockBytes = 32

// storesOver reports whether a store in lp may write the bytes of the
// explicit address stream of pre that its register carries from one
// iteration into the next (see the comment at the top of the file): ap is
// the Pre's address (sizes bound to size), consumed the elements the
// stream's loads read per iteration. Stores to other bases than the
// stream's are not considered (pointers with different names are taken not
// to alias, as everywhere in the analysis).
func storesOver(fn *ir.Func, lp *ir.Loop, pre *ir.Instr, loads []*ir.Instr, ap linear.Form, consumed, size int64) bool {
	bases := candidates(ap, lp.Var)
	if len(bases) == 0 {
		return false
	}
	elem, ok := ir.ElemSize(loads[0].Elem)
	if !ok {
		elem = size // 0 when unknown: every store to the base overlaps
	}
	last := loads[len(loads)-1].ID
	sg := newSigns(fn, lp, size)
	for _, in := range fn.InstrsIn(lp) {
		if !fn.Within(in.Loop, lp.ID) || !in.Op.Info().Cat.IsStore() {
			continue
		}
		// The window of bytes from P the store must miss.
		var from int64
		switch {
		case in.ID < pre.ID:
			from = 0 // this iteration's first block
		case in.ID > last:
			from = consumed * elem // the next iteration's first block
		default:
			continue // between the Pre and the last load: never matters
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
		if elem == 0 || in.Op.Info().Cat == ir.CatScatter {
			return true
		}
		// The store's bytes [lo, hi) from P + d: wholly before the
		// window, or after it, for every d the offset may take (sign.go).
		d := sl.Add(ap, -1)
		lo, hi := storeBytes(fn, in)
		if u, ok := sg.upper(d); ok && hi+u*elem <= from {
			continue
		}
		if l, ok := sg.lower(d); ok && lo+l*elem >= from+blockBytes {
			continue
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
		return false, redundantWhy
	}
	return false, "the register serves more than one stream"
}

// redundantWhy is the reason of a Pre that re-primes in place (SecondPre).
const redundantWhy = "the Pre re-primes in place, where the previous load ended: it is redundant and can be deleted"

// redundantAfter returns the load after which the Pre q, which re-primes
// in place (SecondPre), may be deleted: the use of the register just
// before q, when nothing between that load and q may write memory (a
// store, or a call whose body is not seen), which the Pre would read fresh
// and the register, holding the block from before, would not. ok is false
// otherwise.
func redundantAfter(fn *ir.Func, touch []*ir.Instr, q *ir.Instr) (*ir.Instr, bool) {
	at := slices.Index(touch, q)
	if at < 1 || touch[at-1].Op != ir.OpLoadUnAlign {
		return nil, false
	}
	ld := touch[at-1]
	for _, in := range fn.Instrs {
		if in.ID <= ld.ID || in.ID >= q.ID {
			continue
		}
		if in.Op.Info().Cat.IsStore() || in.Op == ir.OpCall || in.Op == ir.OpUnknown && len(in.PtrDefs)+len(in.Args) > 0 {
			return nil, false
		}
	}
	return ld, true
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
