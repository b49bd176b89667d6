package stream

// Bounds of a runtime offset.
//
// A store beside a load stream is often placed at an offset the analysis
// cannot fold, but whose sign is known: the difference between the store's
// address and the Pre's is a sum of unsigned parameters and the loop's
// index, each with its coefficient:
//
//	for (uint16_t i = 0; i < padVLNum; i++) {           // padVLNum, inOff, padBL: unsigned
//	    Pre(u, src + first + inOff + padBL + i * VL);    // P
//	    Load(v, u, src + first + inOff + padBL + i * VL);
//	    StoreAlign(src + first - (padVLNum - i) * VL, v, m);
//	}                                                    // store - P = -VL*padVLNum - inOff - padBL <= 0
//
// upper and lower bound such a difference from the facts the code states:
// a variable declared unsigned (uint8_t ... uint64_t, unsigned, size_t) and
// not a pointer, in every declaration of its name the region records, is
// >= 0; the index of a counted loop around the stream (plain variable, a
// constant start, a positive constant step, not assigned in the body) lies
// in [start, bound) for i < bound, [start, bound] for i <= bound. Names of
// which nothing is known (members, globals, atoms) leave the bound unknown.

import (
	"slices"
	"strings"

	"github.com/ascvet/ascvet/analyzers/internal/linear"
	"github.com/ascvet/ascvet/cppfront/ir"
)

// signs is what is known about the names of one region, around one loop.
type signs struct {
	fn    *ir.Func
	loops []*ir.Loop // lp and the loops around it
	size  int64      // the element size sizeof(T) is bound to (0: none)
}

func newSigns(fn *ir.Func, lp *ir.Loop, size int64) signs {
	s := signs{fn: fn, size: size}
	for l := lp; l != nil; {
		s.loops = append(s.loops, l)
		if l.Parent == ir.NoLoop {
			break
		}
		l = fn.Loops[l.Parent]
	}
	return s
}

// unsignedTypes are the declared types whose values are never negative.
var unsignedTypes = []string{
	"uint8_t", "uint16_t", "uint32_t", "uint64_t", "size_t", "unsigned",
	"unsigned char", "unsigned short", "unsigned int", "unsigned long", "unsigned long long",
}

// isUnsigned reports whether a declared type, qualifiers and a reference
// left out, is an unsigned integer type.
func isUnsigned(t string) bool {
	t = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(t), "&"))
	f := strings.Fields(t)
	f = slices.DeleteFunc(f, func(w string) bool {
		return w == "const" || w == "constexpr" || w == "static" || w == "volatile" || w == "inline"
	})
	t = strings.Join(f, " ")
	t = strings.TrimPrefix(t, "std::")
	return slices.Contains(unsignedTypes, t)
}

// nonNegative reports whether every declaration of name in the region (its
// parameters, the names it and the function around a __VEC_SCOPE__ block
// declare, the loops' variables) is of an unsigned type and not a pointer,
// and there is one.
func (s signs) nonNegative(name string) bool {
	seen := false
	for _, p := range s.fn.Params {
		if p.Name == name {
			if p.Ptr || p.Reg != ir.NoReg || !isUnsigned(p.Type) {
				return false
			}
			seen = true
		}
	}
	for _, d := range s.fn.Names {
		if d.Name == name && d.Decl {
			if d.Ptr || !isUnsigned(d.Type) {
				return false
			}
			seen = true
		}
	}
	for _, l := range s.fn.Loops {
		if l.Var == name && l.VarType != "" {
			if !isUnsigned(l.VarType) {
				return false
			}
			seen = true
		}
	}
	return seen
}

// loopRange returns the range of the index of a loop around the stream:
// start <= v, and v <= end, end being the bound minus one for <.
func (s signs) loopRange(v string) (start int64, end linear.Form, ok bool) {
	for _, l := range s.loops {
		if l.Var != v {
			continue
		}
		if contains(l.Assigns, v) {
			return 0, linear.Form{}, false
		}
		c0, ok1 := l.Init.Value()
		st, ok2 := l.Step.Value()
		b, ok3 := linear.Of(bound(l.Bound, s.size))
		if !ok1 || !ok2 || !ok3 || st <= 0 {
			return 0, linear.Form{}, false
		}
		if _, in := b.Terms[v]; in {
			return 0, linear.Form{}, false
		}
		switch l.CmpOp {
		case "<":
			return c0, b.Add(linear.Const(1), -1), true
		case "<=":
			return c0, b, true
		}
		return 0, linear.Form{}, false
	}
	return 0, linear.Form{}, false
}

// upper returns a bound d <= it, or false.
func (s signs) upper(d linear.Form) (int64, bool) {
	// The loops' indices first: their bounds may bring in names that
	// cancel others (i <= n - 1 in n - i).
	for _, l := range s.loops {
		v := l.Var
		a := d.Terms[v]
		if v == "" || a == 0 {
			continue
		}
		start, end, ok := s.loopRange(v)
		if !ok {
			continue // left to the sign of v below
		}
		d = d.Without(v)
		if a > 0 {
			d = d.Add(end.Scale(a), 1)
		} else {
			d = d.Add(linear.Const(a*start), 1)
		}
	}
	for _, k := range d.Keys() {
		if a := d.Terms[k]; a > 0 || linear.IsAtom(k) || !s.nonNegative(k) {
			return 0, false
		}
	}
	return d.C, true
}

// lower returns a bound d >= it, or false.
func (s signs) lower(d linear.Form) (int64, bool) {
	u, ok := s.upper(d.Scale(-1))
	return -u, ok
}
