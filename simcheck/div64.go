package simcheck

import (
	"fmt"
	"slices"
	"strings"

	"github.com/ascvet/ascvet/cppfront/ir"
)

// The 950 has no instruction that divides 64-bit integers: the library's
// Div on int64_t and uint64_t (asc-devkit's DivB64Impl, with DivS64Impl
// and DivU64Impl, in impl/basic_api/reg_compute/dav_3510/
// kernel_reg_compute_vec_binary_impl.h) runs a sequence on the 32-bit
// halves of each value: a float estimate of the divisor's reciprocal, two
// Newton steps in 128-bit fixed point (each a 64x64 multiply built from
// four Mull and six carry adds), the quotient as the high half of the
// dividend times the reciprocal, and two corrections of the remainder. The
// simulator runs that sequence in place of the Div, so the price of a
// 64-bit Div comes from the instructions it issues and their dependences,
// not from a constant.
//
// The programs below are that sequence written as dataflow, one line an
// instruction: "Op elem defs = uses". Names: a and b are the dividend and
// the divisor, d the quotient, m the Div's mask (each 64-bit value is one
// register of the IR, both halves); names starting with p are MaskReg,
// the others RegTensor. A name used before any line defines it is a
// constant the library broadcasts (zero, one, all ones, the float 1.0, a
// full mask): loop-invariant, so a compiler hoists it, and it is left out
// as viaTraitTwo leaves out the zero register. Each half of a 64-bit
// temporary is a name of its own (x0, x1), so independent halves issue
// apart.

// mulHigh is B128Calc: (d0, d1) becomes the high 64 bits of the product
// of (a0, a1) and (b0, b1) under mask m, from four Mull of the halves and
// six carry adds.
func mulHigh(a0, a1, b0, b1, d0, d1, m string) string {
	return strings.NewReplacer("$a0", a0, "$a1", a1, "$b0", b0, "$b1", b1, "$d0", d0, "$d1", d1, "$m", m).Replace(`
Mull u32 m0 m1 = $a0 $b0 $m
Mull u32 m2 m3 = $a0 $b1 $m
Mull u32 m4 m5 = $a1 $b0 $m
Mull u32 m6 m7 = $a1 $b1 $m
AddC u32 pc0 s0 = m1 m2 $m
AddC u32 pc1 s1 = s0 m4 $m
AddC u32 pc0 s0 = m6 m3 pc0 $m
AddC u32 pc1 $d0 = s0 m5 pc1 $m
AddC u32 pc0 s0 = zero m7 pc0 $m
AddC u32 pc0 $d1 = zero s0 pc1 $m
`)
}

// negProduct is VmulUsingU32, VnotInPlace and AddB64Impl: (h0, h1)
// becomes minus the low 64 bits of the divisor's absolute value (y0, y1)
// times (a0, a1).
func negProduct(a0, a1 string) string {
	return strings.NewReplacer("$a0", a0, "$a1", a1).Replace(`
Mull u32 h0 h1 = y0 $a0 pw
MulAddDst u32 h1 = h1 y0 $a1 pw
MulAddDst u32 h1 = h1 y1 $a0 pw
Not u32 h0 = h0 pw
Not u32 h1 = h1 pw
AddC u32 pk0 h0 = h0 one0 pw
AddC u32 pk1 h1 = h1 one1 pk0 pw
`)
}

// cmp64 is a compare of two 64-bit values on their halves (VcmpGeUsingU32
// and the library's 64-bit Compare): the high halves equal, the low and
// the high halves compared, the result picked by the first.
func cmp64(d, a0, a1, b0, b1, m string) string {
	return strings.NewReplacer("$d", d, "$a0", a0, "$a1", a1, "$b0", b0, "$b1", b1, "$m", m).Replace(`
Compare u32 pq0 = $a1 $b1 $m
Compare u32 pq1 = $a0 $b0 $m
Compare u32 pq2 = $a1 $b1 $m
MaskSelect u32 $d = pq1 pq2 pq0
`)
}

// div64Core is the part common to both signs: from the divisor's absolute
// value (y0, y1) and the dividend's (x0, x1), under mask pw (neither zero
// nor one), the quotient of the absolute values in h0, h1.
var div64Core = `
Interleave u32 t0 t1 = y0 y1
Cast f32 f0 = t0 pall
Cast f32 f1 = t1 pall
DeInterleave f32 f2 f3 = f0 f1
Div f32 r0 = fone f2 pw
Adds u32 r1 = r0 pw
Interleave f32 g0 g1 = r1 r1
Cast s64 g2 = g0 pall
Cast s64 g3 = g1 pall
DeInterleave u32 e0 e1 = g2 g3
` + negProduct("e0", "e1") + mulHigh("e0", "e1", "h0", "h1", "h0", "h1", "pw") + `
AddC u32 pk0 w0 = e0 h0 pw
AddC u32 pk1 w1 = e1 h1 pk0 pw
` + negProduct("w0", "w1") + mulHigh("w0", "w1", "h0", "h1", "h0", "h1", "pw") + `
AddC u32 pk0 h0 = w0 h0 pw
AddC u32 pk1 h1 = w1 h1 pk0 pw
` + mulHigh("x0", "x1", "h0", "h1", "h0", "h1", "pw") + `
Mull u32 w0 w1 = h0 y0 pw
MulAddDst u32 w1 = w1 h0 y1 pw
MulAddDst u32 w1 = w1 h1 y0 pw
SubC u32 pk0 w0 = x0 w0 pw
SubC u32 pk1 w1 = x1 w1 pk0 pw
` + cmp64("pge", "w0", "w1", "y0", "y1", "pw") + `
SubC u32 pk0 v0 = w0 y0 pw
SubC u32 pk1 v1 = w1 y1 pk0 pw
AddC u32 pk0 n0 = h0 one0 pge
AddC u32 pk1 n1 = h1 one1 pk0 pge
Select u32 w0 = v0 w0 pge
Select u32 w1 = v1 w1 pge
Select u32 h0 = n0 h0 pge
Select u32 h1 = n1 h1 pge
` + cmp64("pge", "w0", "w1", "y0", "y1", "pw") + `
AddC u32 pk0 n0 = h0 one0 pge
AddC u32 pk1 n1 = h1 one1 pk0 pge
Select u32 h0 = n0 h0 pge
Select u32 h1 = n1 h1 pge
Select u32 h0 = x0 h0 pone
Select u32 h1 = x1 h1 pone
`

// absOf is AbsUsingS32: (d0, d1) becomes the absolute value of v, the
// mask p saying where it was negative.
func absOf(v, d0, d1, p string) string {
	return strings.NewReplacer("$v", v, "$d0", d0, "$d1", d1, "$p1", p+"1", "$p2", p+"2", "$p", p).Replace(`
Compare s32 $p = $v zero m
SubC u32 $p1 $d0 = zero $v $p
SubC u32 $p2 $d1 = zero $v $p1 $p
Select u32 $d0 = $d0 $v $p
Select u32 $d1 = $d1 $v $p
`)
}

// div64Signed is DivS64Impl: absolute values, the masks of a zero and a
// one divisor, the core, then the sign and the zero divisor's result.
var div64Signed = absOf("a", "x0", "x1", "pa") + absOf("b", "y0", "y1", "pb") + `
Compare u32 pz0 = b zero m
Compare u32 pz1 = b zero m
MaskAnd u32 pz = pz0 pz1 m
MaskNot u32 pnz = pz m
Compare u32 po0 = y0 one0 pnz
Compare u32 po1 = y1 one1 pnz
MaskAnd u32 pone = po0 po1 pnz
MaskNot u32 pno = pone pnz
MaskAnd u32 pw = pno pnz pnz
` + div64Core + `
Compare s32 ps0 = a zero pnz
Compare s32 ps1 = b zero pnz
MaskXor u32 ps = ps0 ps1 pnz
MaskNot u32 ps = ps pnz
SubC u32 pk0 v0 = zero h0 pall
SubC u32 pk1 v1 = zero h1 pk0 pall
Select u32 h0 = h0 v0 ps
Select u32 h1 = h1 v1 ps
Select u32 d = ones h0 pz
Select u32 d = ones h1 pz
`

// div64Unsigned is DivU64Impl: no absolute values, but a divisor above
// INT64_MAX gives a quotient of 0 or 1, found by compares first.
var div64Unsigned = `
Compare u32 pz0 = b zero m
Compare u32 pz1 = b zero m
MaskAnd u32 pz = pz0 pz1 m
MaskNot u32 pnz = pz m
Move u32 y0 = b
Move u32 y1 = b
Move u32 x0 = a
Move u32 x1 = a
` + cmp64("pbig", "b", "b", "max", "max", "m") + cmp64("pge", "a", "a", "b", "b", "pnz") + `
MaskAnd u32 pc = pge pbig pnz
Select u32 q0 = one0 zero pc
Select u32 q1 = one1 zero pc
MaskNot u32 psm = pbig pnz
Compare u32 po0 = y0 one0 psm
Compare u32 po1 = y1 one1 psm
MaskAnd u32 pone = po0 po1 psm
MaskNot u32 pno = pone psm
MaskAnd u32 pw = pno pnz psm
` + div64Core + `
Select u32 h0 = q0 h0 pbig
Select u32 h1 = q1 h1 pbig
Select u32 d = ones h0 pz
Select u32 d = ones h1 pz
`

// div64Fast is the remedy of the integer fast-division practice for a
// divisor the loop does not change: with magic (mg0, mg1) and shift
// computed once before the loop, the quotient is the high 64 bits of the
// dividend times magic, plus the dividend, shifted right (asc-devkit
// simd_simt_integer_fast_div, widened to 64 bits: the 64x64 multiply is
// four Mull and six carry adds, the 64-bit shift four ops on the halves).
var div64Fast = `
Move u32 x0 = a
Move u32 x1 = a
` + div64FastCore

// div64FastCore is div64Fast on the dividend's halves (x0, x1).
var div64FastCore = mulHigh("x0", "x1", "mg0", "mg1", "h0", "h1", "m") + `
AddC u32 pk0 h0 = h0 x0 m
AddC u32 pk1 h1 = h1 x1 pk0 m
ShiftRight u32 d0 = h0 sh m
ShiftLeft u32 d1 = h1 shl m
Or u32 d = d0 d1 m
ShiftRight u32 d = h1 sh m
`

// div64FastSigned is div64Fast on the dividend's absolute value, and the
// sign put back.
var div64FastSigned = absOf("a", "x0", "x1", "pa") + div64FastCore + `
SubC u32 pk0 v0 = zero d pa
SubC u32 pk1 v1 = zero d pk0 pa
Select u32 d = v0 d pa
Select u32 d = v1 d pa
`

// div64Step is one instruction of a program: its op and element type, and
// the names it writes and reads.
type div64Step struct {
	op         ir.Op
	elem       string
	defs, uses []string
}

var (
	div64SignedSteps       = parseDiv64(div64Signed)
	div64UnsignedSteps     = parseDiv64(div64Unsigned)
	div64FastSignedSteps   = parseDiv64(div64FastSigned)
	div64FastUnsignedSteps = parseDiv64(div64Fast)
)

// Div64Remedy is a rewrite of a 64-bit integer Div that BodyWithDiv64
// prices.
type Div64Remedy uint8

const (
	// Div64FastDiv: the divisor is loop-invariant; a precomputed magic
	// number and shift replace the Div (div64Fast).
	Div64FastDiv Div64Remedy = iota + 1
	// Div64To32: the values fit 32 bits; one Div on 32-bit integers.
	Div64To32
)

// BodyWithDiv64 is BodyOfInstance with the 64-bit integer Div div
// rewritten as remedy says: the loop the fix builds.
func BodyWithDiv64(fn *ir.Func, bind ir.Bindings, lp *ir.Loop, div *ir.Instr, remedy Div64Remedy) Body {
	return BodyWithFixes(fn, bind, lp, nil, map[*ir.Instr]Div64Remedy{div: remedy})
}

// BodyWithFixes is BodyOfInstance with the instructions skip says
// dropped and the 64-bit integer Divs of divs rewritten as their remedies
// say: the loop several fixes build together.
func BodyWithFixes(fn *ir.Func, bind ir.Bindings, lp *ir.Loop, skip func(*ir.Instr) bool, divs map[*ir.Instr]Div64Remedy) Body {
	b := newBuilder(fn, bind, skip)
	if len(divs) > 0 {
		b.div64Alt = divs
	}
	b.loopVar = lp.Var
	b.block(lp.Body)
	return b.body()
}

var div64Elems = map[string]string{"u32": "uint32_t", "s32": "int32_t", "f32": "float", "s64": "int64_t"}

// parseDiv64 reads a program; a malformed one is a bug of this file.
func parseDiv64(prog string) []div64Step {
	var steps []div64Step
	for line := range strings.SplitSeq(strings.TrimSpace(prog), "\n") {
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		eq := -1
		for i, w := range f {
			if w == "=" {
				eq = i
			}
		}
		op, ok := ir.OpByName(f[0])
		elem, eok := div64Elems[f[1]]
		if !ok || !eok || eq < 3 {
			panic(fmt.Sprintf("simcheck: bad div64 line %q", line))
		}
		steps = append(steps, div64Step{op: op, elem: elem, defs: f[2:eq], uses: f[eq+1:]})
	}
	return steps
}

// Div64Insts is how many instructions a 64-bit integer Div issues, signed
// and unsigned (for documentation and the rule that reports it).
func Div64Insts(signed bool) int {
	if signed {
		return len(div64SignedSteps)
	}
	return len(div64UnsignedSteps)
}

// intDiv64 reports whether in is a Div on 64-bit integers.
func intDiv64(in *ir.Instr, elem string) bool {
	if in == nil || in.Op != ir.OpDiv {
		return false
	}
	_, ok := Int64Elem(elem)
	return ok
}

// Int64Elem reports whether elem (a bound element type) is a 64-bit
// integer type, and whether it is signed.
func Int64Elem(elem string) (signed, ok bool) {
	switch strings.TrimPrefix(strings.TrimSpace(elem), "std::") {
	case "int64_t", "long", "long long", "int64", "s64":
		return true, true
	case "uint64_t", "unsigned long", "unsigned long long", "uint64", "u64", "size_t":
		return false, true
	}
	return false, false
}

// div64 appends, for Div instruction in (its sources, mask and
// destination as op holds them after any split to RegTraitNumTwo), the
// library's sequence in place of the one op.
func (b *builder) div64(op Inst) {
	signed, _ := Int64Elem(op.Elem)
	steps := div64UnsignedSteps
	switch alt := b.div64Alt[op.Instr]; {
	case alt == Div64To32:
		op.Elem = "int32_t"
		b.insts = append(b.insts, op)
		return
	case alt == Div64FastDiv && signed:
		steps = div64FastSignedSteps
	case alt == Div64FastDiv:
		steps = div64FastUnsignedSteps
	case signed:
		steps = div64SignedSteps
	}
	named := map[string]ir.RegID{}
	var vecs []ir.RegID
	for _, id := range op.Uses {
		r := b.reg(id)
		switch {
		case r != nil && r.Class == ir.ClassMask:
			named["m"] = id
		case r != nil && r.Class == ir.ClassVReg:
			vecs = append(vecs, id)
		}
	}
	if len(vecs) > 0 {
		named["a"] = vecs[0]
	}
	if len(vecs) > 1 {
		named["b"] = vecs[1]
	}
	if len(op.Defs) > 0 {
		named["d"] = op.Defs[0]
	}
	defined := map[string]bool{"a": true, "b": true, "m": true}
	reg := func(name string, def bool) (ir.RegID, bool) {
		if id, ok := named[name]; ok && (def || defined[name]) {
			return id, true
		}
		if !def {
			return 0, false // a broadcast constant: hoisted
		}
		class := ir.ClassVReg
		if strings.HasPrefix(name, "p") {
			class = ir.ClassMask
		}
		id := b.hidden(class)
		named[name] = id
		return id, true
	}
	text := op.Text + " (64-bit Div sequence)"
	for _, s := range steps {
		in := Inst{Instr: op.Instr, Via: op.Via, Op: s.op, Elem: s.elem, Text: text, Div64: true}
		for _, n := range s.uses {
			if id, ok := reg(n, false); ok {
				in.Uses = append(in.Uses, id)
			}
		}
		for _, n := range s.defs {
			id, _ := reg(n, true)
			defined[n] = true
			in.Defs = append(in.Defs, id)
		}
		b.insts = append(b.insts, in)
	}
}

// Divides64 reports whether b runs a 64-bit integer Div's sequence.
func (b Body) Divides64() bool {
	return slices.ContainsFunc(b.Insts, func(in Inst) bool { return in.Div64 })
}

// A Div on 16- or 32-bit integers is no instruction of the 950 either:
// the compiler expands vdiv on those types into a software sequence (the
// 950's published throughput table lists Div for half and float only,
// "software-emulated types excluded", and the API's list of emulated
// types names int16/uint16/int32/uint32 Div). Unlike the 64-bit Div's,
// the sequence is in no public source, so the simulator times the Div as
// the float Div it is not, and says so: the body's Opaque names it
// ("Div on int32_t"), and a price built on it says the loop costs more on
// hardware. asc-devkit's FloorMod best practice (simd_simt_high_performance,
// case 1) measures about 51 cycles an iteration for a loop of one int32
// Div and 13 other instructions, where the float Div's timing gives 8.

// softOpName is the Opaque entry of an instruction the compiler expands
// into a sequence that is not published (a Div on 16- or 32-bit
// integers), or "".
func softOpName(op ir.Op, elem string) string {
	if op != ir.OpDiv {
		return ""
	}
	switch e := strings.TrimPrefix(elem, "AscendC::"); e {
	case "int16_t", "uint16_t", "int32_t", "uint32_t":
		return softPrefix + e
	}
	return ""
}

// softPrefix starts the Opaque entries of softOpName: no helper's name
// holds a space.
const softPrefix = "Div on "

// SoftDiv reports whether an Opaque entry of a Body is an integer Div the
// compiler expands into an unpublished software sequence (softOpName),
// not a helper whose body is unknown, and its element type.
func SoftDiv(name string) (elem string, ok bool) {
	return strings.CutPrefix(name, softPrefix)
}
