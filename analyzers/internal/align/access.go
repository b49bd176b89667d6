package align

import (
	"strings"

	"github.com/ascvet/ascvet/cppfront/ir"
)

// Kind says what an access moves.
type Kind uint8

const (
	KindData  Kind = iota // RegTensor data, contiguous (LoadDist/StoreDist)
	KindMask              // a MaskReg (MaskDist)
	KindBlock             // DataCopyMode::DATA_BLOCK_COPY: eight DataBlocks at a block stride
)

// Access is one aligned load or store whose operands the front end resolved.
type Access struct {
	Instr   *ir.Instr
	Store   bool   // StoreAlign (else LoadAlign)
	Kind    Kind   // what it moves
	Mode    Mode   // dist mode; Mode.Known() is false when it cannot be resolved
	Elem    string // element type T as written ("half", "T"); "" when unknown
	Data    []int  // argument indices of the data registers: a load's destinations, a store's sources
	Ptr     int    // argument index of the UB address
	Stride  int    // argument index of the post-update stride, -1 when none
	AddrReg int    // argument index of the AddrReg offset, -1 when none
}

// Called returns the name under which the access was called, for messages:
// the canonical name for the Reg spellings, the callee otherwise
// ("DataCopy", "asc_storealign_1st").
func (a *Access) Called() string {
	in := a.Instr
	if in.Form == ir.FormReg || in.Name == "" {
		return in.Op.String()
	}
	return in.Name
}

// Accesses returns the aligned loads and stores of fn (see Of).
func Accesses(fn *ir.Func) []Access {
	var as []Access
	for _, in := range fn.Instrs {
		if a, ok := Of(fn, in); ok {
			as = append(as, a)
		}
	}
	return as
}

// Of describes in when it is a LoadAlign or StoreAlign in the Reg, MicroAPI,
// legacy DataCopy or asc_* spelling whose operands sit where the API puts
// them: a load's one or two destination registers, then the address; a
// store's address, then one or two source registers. Anything else — a
// register whose type the front end could not see (a template parameter
// RegT) shifts every role — is not an access the rules can reason about,
// and ok is false.
func Of(fn *ir.Func, in *ir.Instr) (a Access, ok bool) {
	if in.Op != ir.OpLoadAlign && in.Op != ir.OpStoreAlign {
		return a, false
	}
	switch in.Form {
	case ir.FormReg, ir.FormLegacy, ir.FormCAPI:
	default:
		return a, false
	}
	a = Access{Instr: in, Store: in.Op == ir.OpStoreAlign, Ptr: -1, Stride: -1, AddrReg: -1}
	args := in.Args
	class := func(i int) ir.RegClass {
		if r := args[i].Reg; r != ir.NoReg {
			return fn.Regs[r].Class
		}
		return ir.ClassNone
	}
	isPtr := func(i int) bool { return i < len(args) && (args[i].Role == ir.ArgPtr || args[i].Role == ir.ArgPtrRW) }
	i := 0
	var dataClass ir.RegClass
	if a.Store {
		if !isPtr(0) {
			return a, false
		}
		a.Ptr = 0
		i = 1
		for ; i < len(args) && args[i].Role == ir.ArgR && len(a.Data) < 2; i++ {
			c := class(i)
			if c != ir.ClassVReg && c != ir.ClassMask || dataClass != ir.ClassNone && c != dataClass {
				return a, false
			}
			dataClass = c
			a.Data = append(a.Data, i)
		}
	} else {
		for ; i < len(args) && args[i].Role == ir.ArgW && len(a.Data) < 2; i++ {
			c := class(i)
			if c != ir.ClassVReg && c != ir.ClassMask || dataClass != ir.ClassNone && c != dataClass {
				return a, false
			}
			dataClass = c
			a.Data = append(a.Data, i)
		}
		if !isPtr(i) {
			return a, false
		}
		a.Ptr = i
		i++
	}
	if len(a.Data) == 0 || dataClass == ir.ClassMask && len(a.Data) != 1 {
		return a, false
	}
	var scalars []int
	masks := 0
	for ; i < len(args); i++ {
		switch args[i].Role {
		case ir.ArgScalar:
			if masks > 0 || a.AddrReg >= 0 {
				return a, false
			}
			scalars = append(scalars, i)
		case ir.ArgAddr:
			if a.AddrReg >= 0 || masks > 0 {
				return a, false
			}
			a.AddrReg = i
		case ir.ArgMask:
			masks++
		default:
			return a, false
		}
	}
	if masks > 1 || a.AddrReg >= 0 && len(scalars) > 0 {
		return a, false
	}
	block := anyContains(in.TArgs, "DATA_BLOCK_COPY") ||
		in.Form == ir.FormCAPI && (len(scalars) >= 2 || !a.Store && masks > 0)
	switch {
	case block:
		if dataClass != ir.ClassVReg || len(a.Data) != 1 {
			return a, false
		}
		a.Kind = KindBlock
	case dataClass == ir.ClassMask:
		if masks > 0 || len(scalars) > 1 {
			return a, false
		}
		a.Kind = KindMask
	default:
		if len(scalars) > 1 || !a.Store && masks > 0 {
			return a, false
		}
	}
	if in.Post && a.Kind != KindBlock {
		if args[a.Ptr].Role != ir.ArgPtrRW || len(scalars) != 1 {
			return a, false
		}
		a.Stride = scalars[0]
	}
	a.Elem = elemOf(fn, in, a)
	a.Mode = modeOf(in, a)
	return a, true
}

// elemOf returns the element type T: the first template argument (T is the
// first template parameter of every LoadAlign and StoreAlign), or the
// element type of the data register, which must be the same type; the one
// whose size is known wins. A register operand that is cast has another
// element type and is not read.
func elemOf(fn *ir.Func, in *ir.Instr, a Access) string {
	reg := fn.Regs[in.Args[a.Data[0]].Reg].Elem
	for _, k := range a.Data {
		if strings.ContainsAny(in.Args[k].Text, "()<") {
			reg = ""
		}
	}
	if len(in.TArgs) == 0 || in.Form == ir.FormCAPI {
		return reg
	}
	t := in.TArgs[0]
	if _, ok := ir.ElemSize(t); ok {
		return t
	}
	if _, ok := ir.ElemSize(reg); ok {
		return reg
	}
	return t
}

// modeOf resolves the dist mode of an access.
func modeOf(in *ir.Instr, a Access) Mode {
	if a.Kind == KindBlock {
		return Mode{Name: "DATA_BLOCK_COPY", Family: FamBlock}
	}
	if in.Form == ir.FormCAPI {
		tab := capiLoad
		if a.Store {
			tab = capiStore
		}
		f := tab[in.Name]
		if a.Kind == KindMask {
			f = capiMask[f]
		}
		return Mode{Name: in.Name, Family: f}
	}
	if in.Dist != "" {
		if a.Kind == KindMask {
			return parseMaskDist(in.Dist, a.Store)
		}
		return parseDist(in.Dist, a.Store)
	}
	// No enumerator among the template arguments: the default, DIST_NORM,
	// unless some other argument may name the mode (a template parameter).
	for k, t := range in.TArgs {
		if k == 0 || strings.Contains(t, "POST_MODE_") {
			continue // T, and the PostLiteral
		}
		return Mode{Name: t}
	}
	if a.Kind == KindMask {
		return Mode{Name: "DIST_NORM", Family: FamMaskNorm}
	}
	if len(a.Data) > 1 {
		return Mode{} // a dual access has no default mode
	}
	return Mode{Name: "DIST_NORM", Family: FamNorm}
}

func anyContains(ss []string, sub string) bool {
	for _, s := range ss {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}

// Sizes returns the element sizes, in bytes, that T may have: its size when
// the type is known, else the width a width-specific mode fixes, else 1, 2,
// 4 and 8 (a template parameter).
func (a *Access) Sizes() []int64 {
	if sz, ok := ir.ElemSize(a.Elem); ok {
		return []int64{sz}
	}
	if a.Mode.Width > 0 {
		return []int64{a.Mode.Width}
	}
	return []int64{1, 2, 4, 8}
}

// Size returns the size of T and whether it is known.
func (a *Access) Size() (int64, bool) { return ir.ElemSize(a.Elem) }
