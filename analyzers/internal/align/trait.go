package align

import (
	"strings"

	"github.com/ascvet/ascvet/cppfront/ir"
)

// TraitTwo reports whether r is declared RegTensor<T, RegTraitNumTwo>.
//
// ir.Reg.TwoRegs is set both for RegTraitNumTwo and for a 64-bit element
// type, and a RegTensor<int64_t> (RegTraitNumOne) supports every interface.
// TwoRegs on an element that is not 64-bit (complex32, a template parameter)
// can only come from the trait; for a 64-bit element the declaration's own
// text decides. A type alias hides the trait from that text, and then the
// answer is no: the rules stay silent rather than guess.
func TraitTwo(f *ir.File, r *ir.Reg) bool {
	if r.Class != ir.ClassVReg || !r.TwoRegs {
		return false
	}
	if sz, ok := ir.ElemSize(r.Elem); !ok || sz != 8 {
		return true
	}
	decl := declType(f, r)
	return strings.Contains(decl, "RegTensor") && strings.Contains(decl, "RegTraitNumTwo")
}

// declType returns the type text of the declaration of r: the source before
// the declarator back to the start of the statement or parameter, skipping
// earlier declarators of the same statement (RegTensor<T, Trait> a, b).
func declType(f *ir.File, r *ir.Reg) string {
	if f.Tok == nil || !r.Pos.IsValid() {
		return ""
	}
	end := f.Tok.Offset(r.Pos)
	src := f.Src
	if end > len(src) {
		return ""
	}
	depth := 0
	start := 0
	var cuts []int // depth-0 commas, right to left
scan:
	for i := end - 1; i >= 0; i-- {
		switch src[i] {
		case '>', ')', ']':
			depth++
		case '<', '[':
			depth--
		case '(':
			if depth == 0 {
				start = i + 1
				break scan
			}
			depth--
		case ';', '{', '}':
			if depth == 0 {
				start = i + 1
				break scan
			}
		case ',':
			if depth == 0 {
				cuts = append(cuts, i)
			}
		}
	}
	// Segments between depth-0 commas, nearest first: the type is in the
	// nearest one that names a type (RegTensor), which for a parameter is
	// its own and for a multi-declarator statement is the first.
	hi := end
	for _, c := range cuts {
		if seg := string(src[c+1 : hi]); strings.Contains(seg, "RegTensor") {
			return seg
		}
		hi = c
	}
	return string(src[start:hi])
}
