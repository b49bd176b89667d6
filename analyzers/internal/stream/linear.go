// Package stream decides whether the unaligned loads or stores on one
// unaligned register inside a loop form one contiguous stream: iteration
// i+1 starts exactly where iteration i ended. It is shared by ASC1001
// (LoadUnAlignPre in a loop) and ASC1002 (StoreUnAlignPost in a loop), and
// it builds their fixes.
//
// The decision is made on address expressions, never on names:
//
//	for (i = 0; i < n; ++i) {                      // contiguous: the Pre re-primes
//	    LoadUnAlignPre(u, src + i * VL);           // at src + i*VL, exactly where
//	    LoadUnAlign(r, u, src + i * VL);           // the previous iteration's load
//	}                                              // (VL = 256 / sizeof(T)) ended
//
//	for (i = 0; i < n; ++i) {                      // not contiguous: rows are
//	    LoadUnAlignPre(u, src + i * rowStride);    // padded, the Pre is needed
//	    LoadUnAlign(r, u, src + i * rowStride);
//	}
//
// Element sizes that are template parameters are tried one by one (1, 2, 4
// and 8 bytes): a stream is contiguous only if it is for every size, and
// not contiguous only if it is for none; otherwise the verdict is unknown.
package stream

import (
	"github.com/ascvet/ascvet/cppfront/ir"
)

// bindSizes replaces every sizeof(X) whose X has no known size by size.
func bindSizes(e *ir.Expr, size int64) *ir.Expr {
	return e.Subst(func(k ir.ExprKind, name string) *ir.Expr {
		if k == ir.ExprSizeof {
			return ir.Const(size)
		}
		return nil
	})
}

// vectorLen returns the number of elements of type elem in one vector
// register (VRegSize / sizeof(elem)), symbolic when elem has no known size.
func vectorLen(elem string) *ir.Expr {
	if sz, ok := ir.ElemSize(elem); ok {
		return ir.Const(ir.VectorBytes / sz)
	}
	if elem == "" {
		return nil
	}
	return ir.Bin("/", ir.Const(ir.VectorBytes), &ir.Expr{Kind: ir.ExprSizeof, Name: elem})
}
