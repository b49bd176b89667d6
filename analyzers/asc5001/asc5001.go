// Package asc5001 defines an Analyzer that reports a contiguous
// element-wise VF loop that fills only half of each 256-byte vector
// register: its ops run under a mask of 128 bytes (CreateMask<float,
// MaskPattern::VL32>, VL64 on 16-bit types, VL128 on 8-bit ones, VL16 on
// 64-bit ones, or MaskPattern::H) and its loads and stores step 128 bytes
// per iteration. With the full width the same body runs half as many
// iterations.
//
// The rule looks at each instantiation of the function (ir.Func.
// Instantiations) as the compiler builds it (ir.Func.Expand: helpers
// inlined, if constexpr folded), and fires on an innermost loop only when
// everything is known and element-wise:
//
//   - every mask an op of the loop runs under covers 128 bytes (a
//     CreateMask with a constant pattern, or a compare or mask op made
//     under such a mask), and every store is masked;
//   - every load and store is a LoadAlign or StoreAlign with the normal
//     distribution, and its address advances by exactly 128 bytes per
//     iteration: base + i*k with k*sizeof(T)*step = 128, base plus an
//     AddrReg the loop makes from its variable (CreateAddrReg<T>(i, k)), or
//     a post-update whose stride is 128 bytes;
//   - every op is element-wise on one element size (no Cast, Pack, UnPack,
//     Reduce, Gather, Interleave, Arange ...), and no scalar operand
//     changes from one iteration to the next;
//   - the body has no if, no break or continue, and no call of a helper
//     whose body is not known.
package asc5001

import (
	"fmt"
	"go/token"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/ascvet/ascvet/analyzers/cppir"
	"github.com/ascvet/ascvet/analyzers/simcost"
	"github.com/ascvet/ascvet/cppfront/ir"
	"github.com/ascvet/ascvet/ruleset"
)

// Rule is ASC5001 half-width-vector.
var Rule = ruleset.Define(&ruleset.Rule{
	ID:    "ASC5001",
	Name:  "half-width-vector",
	Title: "loop uses half of each 256-byte vector register",
	Text: "A vector register holds 256 bytes: 64 float, 128 half or 256 int8_t lanes. A loop whose ops run under a " +
		"mask of 128 bytes (CreateMask<float, MaskPattern::VL32>, MaskPattern::VL64 on half or int16_t, VL128 on " +
		"int8_t, VL16 on 64-bit types, or MaskPattern::H) and whose loads and stores step 128 bytes per iteration " +
		"(xAddr + i * oneRepeatSize with oneRepeatSize * sizeof(T) == 128, an AddrReg CreateAddrReg<T>(i, " +
		"oneRepeatSize), or a post-update of 128 bytes) does the " +
		"work of each iteration in instructions that could do twice as much: every instruction costs the same " +
		"whatever its mask covers, so the full width runs the same body half as many times. asc-devkit's Gelu " +
		"element-wise best practice measures it on the Ascend 950PR: its case 0 (VL32 on float, a 128-byte step) takes " +
		"244.299 μs of vector time, about 3149 cycles per VF call, and its case 1, the same loop at 256 bytes, 125.203 " +
		"μs, about 1614 cycles (48.7% less). The rule fires only when everything is known and element-wise: each mask " +
		"of the loop is a constant 128-byte pattern (or a compare made under one), every load and store is a LoadAlign " +
		"or StoreAlign with the normal distribution whose address advances by 128 bytes per iteration, all ops work " +
		"on one element size, no scalar operand changes from one iteration to the next, and the body has no if and " +
		"no call whose body is unknown. A half mask that serves type conversion (a Cast from half to float, a load " +
		"with DIST_UNPACK_B16 or a store that packs) is the natural layout and is not reported; neither is a " +
		"full-width loop that ends with a tail under a partial mask, a strided access whose 128-byte step skips the " +
		"other half of each row, nor a loop whose mask or step is a runtime value. The price is simulated: the loop " +
		"as written for its trip count (the -iterations setting when it does not fold), against the same body run " +
		"for half the iterations, rounded up; for a template, the instantiations the finding holds for are named. " +
		"To fix it, use the full width: a full mask, or UpdateMask<T>(count) over the remaining count so that the " +
		"last iteration takes the tail, a step of 256 bytes (GetVecLen() / sizeof(T) elements) and half the " +
		"iterations. There is no automatic fix: the mask, the step and the trip count change together, and the trip " +
		"count (loopNum, oneRepeatSize) usually comes from the host's tiling." +
		"\n\nSource: the Ascend C example \"Gelu+Element-wise high-performance optimization\" (Gelu+Element-wise高性能优化样例) of asc-devkit, case 0 against case 1 (the parallelism raised from 128 to 256 bytes)." +
		" https://gitcode.com/cann/asc-devkit/blob/master/examples/01_simd_cpp_api/05_best_practices/02_reg_compute/gelu_eltwise_high_performance/README.md" +
		" https://gitcode.com/cann/asc-devkit/blob/master/examples/01_simd_cpp_api/05_best_practices/02_reg_compute/gelu_eltwise_high_performance/README_en.md",
	Before: `AscendC::Reg::RegTensor<float> xReg, yReg;
AscendC::Reg::MaskReg mask = AscendC::Reg::CreateMask<float, AscendC::Reg::MaskPattern::VL32>();  // 32 floats: 128 bytes
for (uint16_t i = 0; i < repeatTimes; ++i) {  // repeatTimes = DivCeil(count, 32)
    AscendC::Reg::LoadAlign(xReg, srcAddr + i * 32);
    AscendC::Reg::Mul(yReg, xReg, xReg, mask);
    AscendC::Reg::Exp(yReg, yReg, mask);
    AscendC::Reg::StoreAlign(dstAddr + i * 32, yReg, mask);
}`,
	After: `AscendC::Reg::RegTensor<float> xReg, yReg;
uint32_t left = count;
for (uint16_t i = 0; i < repeatTimes; ++i) {  // repeatTimes = DivCeil(count, 64): half the iterations
    AscendC::Reg::MaskReg mask = AscendC::Reg::UpdateMask<float>(left);  // the whole register, then the tail
    AscendC::Reg::LoadAlign(xReg, srcAddr + i * 64);
    AscendC::Reg::Mul(yReg, xReg, xReg, mask);
    AscendC::Reg::Exp(yReg, yReg, mask);
    AscendC::Reg::StoreAlign(dstAddr + i * 64, yReg, mask);
}`,
	Severity:  ruleset.Warning,
	Since:     "0.2.0",
	Tags:      []string{"performance", "masks", "best-practice"},
	Precision: "high",
	Options:   []ruleset.Option{ruleset.OptionChip, ruleset.OptionMachine, ruleset.OptionIterations},
}, &analysis.Analyzer{
	Requires:         []*analysis.Analyzer{cppir.Analyzer, simcost.Analyzer},
	RunDespiteErrors: true,
	Run:              run,
})

// Analyzer is the analyzer of Rule.
var Analyzer = Rule.Analyzer

// half is the byte width the rule looks for: half of ir.VectorBytes.
const half = ir.VectorBytes / 2

func run(pass *analysis.Pass) (any, error) {
	pkg := pass.ResultOf[cppir.Analyzer].(*ir.Package)
	md, _ := pass.ResultOf[simcost.Analyzer].(*simcost.Model)
	for _, f := range pkg.Files {
		for _, fn := range f.Funcs {
			if fn.Kind.Analysed() && makesNarrowMask(fn) {
				check(pass, md, fn)
			}
		}
	}
	return nil, nil
}

// makesNarrowMask reports whether fn creates a mask whose pattern is half
// a register for some element type (H, VL16 to VL128): the only functions
// the rule needs to build.
func makesNarrowMask(fn *ir.Func) bool {
	for _, in := range fn.Instrs {
		if in.Op == ir.OpCreateMask {
			switch pattern(in) {
			case "H", "VL16", "VL32", "VL64", "VL128":
				return true
			}
		}
	}
	return false
}

// hit is one instantiation in which a loop fills half of each register.
type hit struct {
	b     ir.Bindings
	mask  *ir.Instr // the CreateMask of the 128-byte mask
	store *ir.Instr // the first store
	elem  string    // the element type the mask is created for
}

func check(pass *analysis.Pass, md *simcost.Model, fn *ir.Func) {
	insts := fn.Instantiations()
	hits := map[token.Pos][]hit{}
	for _, b := range insts {
		efn := fn.Expand(b)
		for _, el := range efn.Loops {
			if h, ok := analyse(efn, el, b); ok {
				hits[el.Pos] = append(hits[el.Pos], h)
			}
		}
	}
	for _, lp := range fn.Loops {
		hs := hits[lp.Pos]
		if len(hs) == 0 {
			continue
		}
		report(pass, md, fn, lp, hs, len(insts))
	}
}

func report(pass *analysis.Pass, md *simcost.Model, fn *ir.Func, lp *ir.Loop, hs []hit, all int) {
	h := hs[0]
	var note string
	if len(hs) < all {
		var parts []string
		for _, x := range hs {
			parts = append(parts, x.b.String())
		}
		note = " (instantiated with " + strings.Join(parts, "; ") + ")"
	}
	pat := pattern(h.mask)
	msg := fmt.Sprintf("loop fills only %d of the %d bytes of each vector register: its ops run under MaskPattern::%s on %s "+
		"and its loads and stores step %d bytes per iteration; with the full width (a full mask, or UpdateMask over the remaining count) "+
		"and a %d-byte step it needs half the iterations%s",
		half, ir.VectorBytes, pat, h.elem, half, ir.VectorBytes, note)
	d := analysis.Diagnostic{
		Pos: lp.Pos, End: lp.Pos,
		Related: []analysis.RelatedInformation{
			{Pos: h.mask.Pos, End: h.mask.End, Message: fmt.Sprintf("the %d-byte mask: MaskPattern::%s on %s", half, pat, h.elem)},
			{Pos: h.store.Pos, End: h.store.End, Message: fmt.Sprintf("stores %d bytes and steps %d bytes per iteration", half, half)},
		},
	}
	if md != nil {
		bs := make([]ir.Bindings, len(hs))
		for i, x := range hs {
			bs[i] = x.b
		}
		cost := md.HalfWidth(fn, lp, bs)
		msg += ": " + cost.HalvedPhrase() + cost.CallPhrase()
		simcost.Attach(&d, cost)
	}
	d.Message = msg
	pass.Report(d)
}

// analyse reports whether loop el of efn (a function as instantiation b
// builds it) fills half of each register, contiguously and element-wise.
func analyse(efn *ir.Func, el *ir.Loop, b ir.Bindings) (hit, bool) {
	var h hit
	if el.AtMostOnce || !simcost.Innermost(efn, el) || el.Body == nil {
		return h, false
	}
	var body []*ir.Instr
	for _, n := range el.Body.Nodes {
		in, ok := n.(*ir.Instr)
		if !ok {
			return h, false // an if, an inner loop, a break or continue: not one straight element-wise body
		}
		body = append(body, in)
	}
	// The names whose value changes from one iteration to the next.
	varying := map[string]bool{}
	if el.Var != "" {
		varying[el.Var] = true
	}
	for _, s := range el.Decls {
		varying[s] = true
	}
	for _, s := range el.Assigns {
		varying[s] = true
	}
	posted := map[string]int{} // post-updated pointer -> the instructions that advance it
	for _, in := range body {
		for _, p := range in.PtrDefs {
			varying[p] = true
			posted[p]++
		}
	}
	masks := &maskWidths{fn: efn, body: body, b: b}
	var size int64
	sameSize := func(in *ir.Instr) bool {
		s, ok := ir.ElemSize(b.Type(in.Elem))
		if !ok || size != 0 && s != size {
			return false
		}
		size = s
		return true
	}
	for _, in := range body {
		switch {
		case in.Op == ir.OpCreateMask || in.Op == ir.OpUpdateMask || in.Op == ir.OpCreateAddrReg || in.Op.Info().Cat == ir.CatScalar || in.Op.Info().Cat == ir.CatDebug:
			continue // a mask or an AddrReg is judged where it is used
		case in.Op == ir.OpLoadAlign || in.Op == ir.OpStoreAlign:
			if !normalDist(in.Dist) || !sameSize(in) || !steps(efn, body, in, el, b, size, varying, posted) {
				return h, false
			}
			if in.Op == ir.OpStoreAlign {
				if maskOf(in) == ir.NoReg {
					return h, false // an unmasked store writes the whole register
				}
				if h.store == nil {
					h.store = in
				}
			}
		case in.Op.Info().Cat == ir.CatMaskOp && elementWise(in.Op):
			// A mask op has no element type of its own.
		case elementWise(in.Op):
			if !sameSize(in) || variesScalar(in, b, varying) {
				return h, false
			}
		default:
			return h, false // a conversion, reduction, shuffle, gather, unknown call...
		}
		for _, a := range in.Args {
			if a.Role != ir.ArgMask {
				continue
			}
			if a.Reg == ir.NoReg {
				return h, false
			}
			w, mk := masks.width(a.Reg, 0)
			if w != half {
				return h, false
			}
			if h.mask == nil {
				h.mask = mk
			}
		}
	}
	if h.store == nil || h.mask == nil {
		return h, false
	}
	h.b, h.elem = b, b.Type(h.mask.Elem)
	return h, true
}

// maskOf returns the mask register an instruction runs under, or NoReg.
func maskOf(in *ir.Instr) ir.RegID {
	for _, a := range in.Args {
		if a.Role == ir.ArgMask {
			return a.Reg
		}
	}
	return ir.NoReg
}

// elementWise reports whether op works lane by lane on one element size:
// what doubling the width leaves correct.
func elementWise(op ir.Op) bool {
	switch op {
	case ir.OpMulsCast, ir.OpArange, ir.OpMaskInterleave, ir.OpMaskDeInterleave, ir.OpMaskPack, ir.OpMaskUnPack,
		ir.OpAddCarry, ir.OpSubCarry, ir.OpAddC, ir.OpSubC, ir.OpMull:
		return false
	}
	switch op.Info().Cat {
	case ir.CatArith, ir.CatArithScalar, ir.CatSFU, ir.CatCompare, ir.CatSelect, ir.CatMove, ir.CatMaskOp:
		return true
	}
	return op == ir.OpDuplicate
}

// normalDist reports whether a load or store distribution mode moves the
// lanes as they are: none given, or DIST_NORM (with its width).
func normalDist(d string) bool {
	if i := strings.LastIndex(d, "::"); i >= 0 {
		d = d[i+2:]
	}
	return d == "" || d == "DIST_NORM" || strings.HasPrefix(d, "DIST_NORM_B")
}

// steps reports whether the address of load or store in advances by
// exactly half a register per iteration of el: base + i*k with a constant
// k, or a post-update by a constant stride of the only instruction that
// advances its pointer.
func steps(efn *ir.Func, body []*ir.Instr, in *ir.Instr, el *ir.Loop, b ir.Bindings, size int64, varying map[string]bool, posted map[string]int) bool {
	var ptr, areg *ir.Operand
	var scalars []ir.Operand
	for i := range in.Args {
		switch a := &in.Args[i]; a.Role {
		case ir.ArgPtr, ir.ArgPtrRW:
			if ptr != nil {
				return false
			}
			ptr = a
		case ir.ArgScalar:
			scalars = append(scalars, *a)
		case ir.ArgAddr:
			if areg != nil || a.Reg == ir.NoReg {
				return false
			}
			areg = a
		}
	}
	if ptr == nil || ptr.Expr == nil || strings.Contains(ptr.Text, "*)") || strings.Contains(ptr.Text, "_cast") {
		return false // a cast pointer: its arithmetic is not in the op's elements
	}
	for _, name := range symbols(ptr.Expr) {
		if t, ok := pointee(efn, name); ok {
			if s, ok := ir.ElemSize(b.Type(t)); !ok || s != size {
				return false // a pointer to another type: its step is not in the op's elements
			}
		}
	}
	if areg != nil {
		// base + an AddrReg the loop makes from its variable.
		if ptr.Role != ir.ArgPtr || len(scalars) != 0 || el.Var == "" {
			return false
		}
		for name := range varying {
			if mentions(b.Subst(ptr.Expr), name) {
				return false
			}
		}
		per, ok := addrStep(body, areg.Reg, el, b, size, varying)
		return ok && abs(per*size) == half
	}
	if ptr.Role == ir.ArgPtrRW {
		// Post-update: the pointer advances by the stride each time.
		if len(scalars) != 1 || ptr.Expr.Kind != ir.ExprSym || posted[ptr.Expr.Name] != 1 || slices.Contains(el.Assigns, ptr.Expr.Name) {
			return false
		}
		stride, ok := b.Subst(scalars[0].Expr).Value()
		return ok && abs(stride*size) == half
	}
	if len(scalars) != 0 || el.Var == "" {
		return false // a stride or a repeat count: not one contiguous register
	}
	step, ok := b.Subst(el.Step).Value()
	if !ok {
		return false
	}
	base, k, ok := b.Subst(ptr.Expr).Linear(el.Var)
	if !ok || k == 0 || abs(k*step*size) != half {
		return false
	}
	for name := range varying {
		if name != el.Var && mentions(base, name) {
			return false // the base moves as well
		}
	}
	return true
}

// addrStep returns by how many elements of size bytes the AddrReg r
// advances per iteration of el: r must be made in the body, before it is
// read, by the one CreateAddrReg<T>(i0, s0, ...) that writes it there,
// each index linear in the loop variable and each stride a constant.
func addrStep(body []*ir.Instr, r ir.RegID, el *ir.Loop, b ir.Bindings, size int64, varying map[string]bool) (int64, bool) {
	var mk *ir.Instr
	for _, in := range body {
		if slices.Contains(in.Defs, r) {
			if mk != nil || in.Op != ir.OpCreateAddrReg {
				return 0, false
			}
			mk = in
		} else if mk == nil && slices.Contains(in.Uses, r) {
			return 0, false // read before it is made: the previous iteration's
		}
	}
	if mk == nil {
		return 0, false // made outside the loop: the same offset each time
	}
	if s, ok := ir.ElemSize(b.Type(mk.Elem)); !ok || s != size {
		return 0, false
	}
	var args []*ir.Expr
	for _, a := range mk.Args {
		if a.Role == ir.ArgScalar {
			args = append(args, b.Subst(a.Expr))
		}
	}
	step, ok := b.Subst(el.Step).Value()
	if !ok || len(args) == 0 || len(args)%2 != 0 {
		return 0, false
	}
	var per int64
	for k := 0; k < len(args); k += 2 {
		base, coef, ok := args[k].Linear(el.Var)
		stride, sok := args[k+1].Value()
		if !ok || !sok {
			return 0, false
		}
		for name := range varying {
			if name != el.Var && mentions(base, name) {
				return 0, false
			}
		}
		per += coef * step * stride
	}
	return per, per != 0
}

// symbols returns the names e is built from.
func symbols(e *ir.Expr) []string {
	if e == nil {
		return nil
	}
	switch e.Kind {
	case ir.ExprSym:
		return []string{e.Name}
	case ir.ExprBin:
		return append(symbols(e.X), symbols(e.Y)...)
	case ir.ExprNeg:
		return symbols(e.X)
	}
	return nil
}

// pointee returns the element type of the pointer name: a pointer
// parameter of fn, or a pointer fn declares; ok is false when it is
// neither, or its type is not written.
func pointee(fn *ir.Func, name string) (string, bool) {
	for _, p := range fn.Params {
		if p.Name == name && p.Ptr && p.Type != "" {
			return p.Type, true
		}
	}
	for _, d := range fn.Names {
		if d.Name == name && d.Decl && d.Ptr && d.Type != "" {
			t := strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(d.Type), "*"))
			return t, true
		}
	}
	return "", false
}

// variesScalar reports whether a scalar operand of in changes from one
// iteration to the next: a broadcast or a scale per row, which doubling
// the width would break.
func variesScalar(in *ir.Instr, b ir.Bindings, varying map[string]bool) bool {
	for _, a := range in.Args {
		if a.Role != ir.ArgScalar && a.Role != ir.ArgScalarRW {
			continue
		}
		e := b.Subst(a.Expr)
		for name := range varying {
			if e != nil && mentions(e, name) || e == nil && slices.Contains(idents(a.Text), name) {
				return true
			}
		}
	}
	return false
}

// mentions reports whether name occurs in e, in a symbol or in the text
// of a part that did not parse.
func mentions(e *ir.Expr, name string) bool {
	if e == nil {
		return false
	}
	switch e.Kind {
	case ir.ExprUnknown:
		return slices.Contains(idents(e.Text), name)
	case ir.ExprBin:
		return mentions(e.X, name) || mentions(e.Y, name)
	case ir.ExprNeg:
		return mentions(e.X, name)
	}
	return e.Mentions(name)
}

// idents returns the identifiers of a C++ text.
func idents(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool {
		return !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9')
	})
}

func abs(x int64) int64 {
	if x < 0 {
		return -x
	}
	return x
}

// pattern returns the MaskPattern a CreateMask names, without its
// qualification ("VL32", "H", "ALL"), "ALL" when it names none, and ""
// when it names one that is not a constant pattern.
func pattern(in *ir.Instr) string {
	if len(in.TArgs) < 2 {
		return "ALL"
	}
	p := in.TArgs[1]
	if i := strings.LastIndex(p, "::"); i >= 0 {
		p = p[i+2:]
	}
	p = strings.TrimPrefix(p, "PAT_")
	switch {
	case p == "ALL", p == "ALLF", p == "H", p == "Q", p == "M3", p == "M4":
		return p
	case strings.HasPrefix(p, "VL"):
		if _, err := strconv.Atoi(p[2:]); err == nil {
			return p
		}
	}
	return ""
}

// patternBytes returns how many bytes of a register a CreateMask for
// elements of size bytes with pattern p enables, 0 when not known.
func patternBytes(p string, size int64) int64 {
	switch {
	case p == "ALL" || p == "ALLF":
		return ir.VectorBytes
	case p == "H":
		return ir.VectorBytes / 2
	case p == "Q":
		return ir.VectorBytes / 4
	case strings.HasPrefix(p, "VL") && size > 0:
		n, err := strconv.Atoi(p[2:])
		if err != nil {
			return 0
		}
		return min(int64(n)*size, ir.VectorBytes)
	}
	return 0
}

// maskWidths finds how many bytes the masks a loop's ops run under
// enable.
type maskWidths struct {
	fn   *ir.Func
	body []*ir.Instr // the loop's
	b    ir.Bindings
}

// width returns the bytes mask register r enables where the loop reads
// it, 0 when it is not known, and the CreateMask that made it. The writes
// of r that reach the loop are those in its body when the body writes r
// before it reads it, else every write of r in the function: all must
// agree. A compare enables at most what its predicate does, and is taken
// to enable that; what a mask op (MaskAnd, MaskNot ...) enables is not
// known.
func (m *maskWidths) width(r ir.RegID, depth int) (int64, *ir.Instr) {
	if depth > 8 || int(r) >= len(m.fn.Regs) || m.fn.Regs[r].Param {
		return 0, nil
	}
	var writers []*ir.Instr
	usedFirst := false
	for _, in := range m.body {
		if len(writers) == 0 && slices.Contains(in.Uses, r) {
			usedFirst = true
		}
		if slices.Contains(in.Defs, r) {
			writers = append(writers, in)
		}
	}
	if usedFirst || len(writers) == 0 {
		writers = writers[:0]
		for _, in := range m.fn.Instrs {
			if slices.Contains(in.Defs, r) {
				writers = append(writers, in)
			}
		}
	}
	if len(writers) == 0 {
		return 0, nil
	}
	var bytes int64 = -1
	var made *ir.Instr
	for _, w := range writers {
		var n int64
		var mk *ir.Instr
		switch w.Op {
		case ir.OpCreateMask:
			s, ok := ir.ElemSize(m.b.Type(w.Elem))
			if p := pattern(w); ok || p == "H" || p == "ALL" || p == "ALLF" {
				n, mk = patternBytes(p, s), w
			}
		case ir.OpCompare, ir.OpCompares:
			if p := maskOf(w); p != ir.NoReg && p != r {
				n, mk = m.width(p, depth+1)
			}
		}
		if n == 0 || bytes >= 0 && n != bytes {
			return 0, nil
		}
		bytes = n
		if made == nil {
			made = mk
		}
	}
	return bytes, made
}
