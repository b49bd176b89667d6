// Package ureg holds what the unaligned-register rules (ASC1003–ASC1006)
// share: how an unaligned register is named and keyed (an element of a
// register array is its own register), which operand of an unaligned op is
// its register, which registers leave the region's sight through a call, and
// the path-tagged fact propagation of flow.go.
//
// Everything works on canonical ops (ir.OpLoadUnAlignPre, ir.OpLoadUnAlign,
// ir.OpStoreUnAlign, ir.OpStoreUnAlignPost), never on spellings, so the Reg,
// MicroAPI, legacy DataCopyUnAlign*, asc_* and raw-builtin forms are one.
package ureg

import (
	"fmt"
	"strings"

	"github.com/ascvet/ascvet/cppfront/ir"
)

// Key names one unaligned register: a scalar register, or one element of a
// register array.
type Key struct {
	Reg  ir.RegID // the register
	Part int      // array element, -1 for a scalar register
}

// Name returns the register as the user wrote it: "u0", "u[1]".
func Name(fn *ir.Func, k Key) string {
	name := fn.Regs[k.Reg].Name
	if k.Part >= 0 {
		name += fmt.Sprintf("[%d]", k.Part)
	}
	return name
}

// Role is the side of the stream an op works on.
type Role uint8

const (
	RoleNone  Role = iota // not an unaligned-stream op
	RoleLoad              // LoadUnAlignPre, LoadUnAlign
	RoleStore             // StoreUnAlign, StoreUnAlignPost
)

func (r Role) String() string { return [...]string{"none", "load", "store"}[r] }

// RoleOf returns the stream side of op.
func RoleOf(op ir.Op) Role {
	switch op {
	case ir.OpLoadUnAlignPre, ir.OpLoadUnAlign:
		return RoleLoad
	case ir.OpStoreUnAlign, ir.OpStoreUnAlignPost:
		return RoleStore
	}
	return RoleNone
}

// Operand returns the unaligned-register operand of in and its key. found
// is false when in has no operand the front end resolved to an unaligned
// register (an expression it did not understand). An element of a register
// array whose index is not a constant yields the array's Key with Part -1;
// such registers are Untracked.
func Operand(fn *ir.Func, in *ir.Instr) (a ir.Operand, k Key, found bool) {
	for _, a := range in.Args {
		if a.Reg == ir.NoReg || !fn.Regs[a.Reg].Class.IsUnalign() {
			continue
		}
		k, _ := keyOf(fn, a)
		return a, k, true
	}
	return ir.Operand{}, Key{}, false
}

// keyOf keys operand a, whose register is unaligned.
func keyOf(fn *ir.Func, a ir.Operand) (Key, bool) {
	r := fn.Regs[a.Reg]
	if r.ArrayLen == 1 {
		return Key{Reg: a.Reg, Part: -1}, true
	}
	if a.Part < 0 {
		return Key{Reg: a.Reg, Part: -1}, false // the whole array, or an unknown element
	}
	return Key{Reg: a.Reg, Part: a.Part}, true
}

// Passed returns the unaligned registers that in hands to code the region
// does not show: the arguments of a call of a same-file helper (OpCall) or of
// an unknown function (OpUnknown). Such a register may be primed, written or
// flushed there, so the rules stop reasoning about it. An array passed whole
// (or through an unknown index) yields its Key with Part -1; see Covers.
func Passed(fn *ir.Func, in *ir.Instr) []Key {
	if in.Op != ir.OpCall && in.Op != ir.OpUnknown {
		return nil
	}
	var ks []Key
	for _, a := range in.Args {
		if a.Reg == ir.NoReg || !fn.Regs[a.Reg].Class.IsUnalign() {
			continue
		}
		k, _ := keyOf(fn, a)
		ks = append(ks, k)
	}
	return ks
}

// Covers reports whether a call that passed p (from Passed) reaches k.
func Covers(p, k Key) bool { return p.Reg == k.Reg && (p.Part < 0 || p.Part == k.Part) }

// Exempt reports whether the region cannot see the whole life of r: a
// parameter (its caller primes, writes or flushes it) or a reference, which
// may alias a register the region does not declare.
func Exempt(r *ir.Reg) bool { return r.Param || r.Ref }

// Untracked returns, per register ID, whether some operand reaches the
// register through an array index that is not a constant. The rules do not
// reason about such registers at all: any element may be the one touched.
func Untracked(fn *ir.Func) []bool {
	u := make([]bool, len(fn.Regs))
	for _, in := range fn.Instrs {
		for _, a := range in.Args {
			if a.Reg == ir.NoReg || !fn.Regs[a.Reg].Class.IsUnalign() {
				continue
			}
			if _, ok := keyOf(fn, a); !ok {
				u[a.Reg] = true
			}
		}
	}
	return u
}

// Spelling is how the fix in a message is written: in the family of the
// call being reported, so a legacy or C-API kernel gets advice it can paste.
// The arguments are placeholders the messages substitute.
type Spelling struct {
	Pre   string // primes a load register: "LoadUnAlignPre"
	Load  string // a post-update load: "LoadUnAlign(dst, u, src, stride)"
	Store string // a post-update store: "StoreUnAlign(dst, src, u, stride)"
	Post  string // flushes a store register: "StoreUnAlignPost"
}

var (
	regSpelling    = Spelling{"LoadUnAlignPre", "LoadUnAlign(dst, u, src, stride)", "StoreUnAlign(dst, src, u, stride)", "StoreUnAlignPost"}
	legacySpelling = Spelling{"DataCopyUnAlignPre", "DataCopyUnAlign(dst, u, src, stride)", "DataCopyUnAlign(dst, src, u, stride)", "DataCopyUnAlignPost"}
	capiSpelling   = Spelling{"asc_loadunalign_pre", "asc_loadunalign_postupdate(dst, u, src, n)", "asc_storeunalign_postupdate(dst, u, src, n)", "asc_storeunalign_post"}
)

// SpellingOf returns the spelling family of in. Raw builtins get the Reg
// names: their argument order is not the API's. Pre and Post take the same
// arguments in every family: Pre(u, src) and Post(dst, u, offset).
func SpellingOf(in *ir.Instr) Spelling {
	switch in.Form {
	case ir.FormLegacy:
		return legacySpelling
	case ir.FormCAPI:
		return capiSpelling
	}
	return regSpelling
}

// Called returns the name under which in was called, for messages: the
// canonical op name for the Reg spellings, the callee's last component
// otherwise ("DataCopyUnAlign", "asc_loadunalign_postupdate", "vldus").
func Called(in *ir.Instr) string {
	if in.Form == ir.FormReg || in.Name == "" {
		return in.Op.String()
	}
	return in.Name
}

// Pointer returns the source text of in's UB address operand, "" when it
// has none or when in is a raw builtin, whose arguments follow another order.
func Pointer(in *ir.Instr) string {
	if in.Form == ir.FormRaw {
		return ""
	}
	for _, a := range in.Args {
		if a.Role == ir.ArgPtr || a.Role == ir.ArgPtrRW {
			return strings.Join(strings.Fields(a.Text), " ")
		}
	}
	return ""
}
