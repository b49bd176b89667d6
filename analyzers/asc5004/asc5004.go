// Package asc5004 defines an Analyzer that reports a register write that
// is overwritten before anything reads it: a dead instruction that still
// takes an issue slot each time it runs.
//
//	Duplicate(x, 0.0f, mask); // reported: the LoadAlign below replaces x
//	LoadAlign(x, src);
//
// The rule is deliberately narrow: the overwrite must follow the write in
// the same block (straight-line code, the same branch of every if, the same
// iteration of every loop), nothing in between may read or touch the
// register (not even inside a nested if or loop, nor in code the front end
// does not lower: the text in between must not name it), and the overwrite
// must replace every lane and every element: not MERGING, not an
// accumulator, not a half of a two-register tensor or an element of an
// array, not a call of a helper. The write itself must have no effect but
// its registers (no store, no post-update, no unaligned stream state). An
// if constexpr between the two is judged per instantiation.
package asc5004

import (
	"fmt"
	"go/token"
	"regexp"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/ascvet/ascvet/analyzers/cppir"
	"github.com/ascvet/ascvet/analyzers/internal/defs"
	"github.com/ascvet/ascvet/analyzers/simcost"
	"github.com/ascvet/ascvet/cppfront/ir"
	"github.com/ascvet/ascvet/ruleset"
)

// Rule is ASC5004 dead-register-write.
var Rule = ruleset.Define(&ruleset.Rule{
	ID:    "ASC5004",
	Name:  "dead-register-write",
	Title: "register written and overwritten before any read",
	Text: "An instruction whose result register is fully overwritten before anything reads it computes nothing: " +
		"Duplicate(x, 0.0f, mask) followed by LoadAlign(x, src) only spends an issue slot on the Duplicate, once per " +
		"call or once per iteration inside a loop, and keeps a vector unit busy that the dual-issue pipeline could " +
		"give to real work. Delete the dead instruction. The rule reports a write only when the overwrite follows it " +
		"in the same block with nothing in between reading the register, and the overwrite replaces every lane: a " +
		"MaskMergeMode::MERGING write, an accumulator (Axpy, MulAddDst), an instruction that reads its own " +
		"destination (Select(x, a, x, m)), a helper call that is passed the register, a write to one element of a " +
		"register array or one half of a RegTraitNumTwo tensor, a write through a reference cast, and a reference " +
		"parameter are never taken as overwrites, and a value that a loop carries to its next iteration or that " +
		"another branch of an if reads is live. The dead instruction must have no effect besides its registers: " +
		"stores, post-update loads and unaligned loads are never reported, and an instruction with two results " +
		"(AddC) only when both are dead. An if constexpr between the write and the overwrite is judged per " +
		"instantiation; a finding that holds for some instantiations names them. The fix deletes the statement when " +
		"it is the call alone on its own lines, outside a macro, with arguments free of side effects; the register's " +
		"declaration stays. Whether the compiler deletes such an instruction by itself is not documented: the price " +
		"is that of the instruction issued as written." +
		"\n\nSource: the Ascend C best practice \"Instruction Dual-Issue\" (指令双发优化): every vector instruction takes an " +
		"issue slot of the two the VF issues per cycle, so an instruction that computes nothing slows the loop it is in; " +
		"the example below is the pattern found in the column-max of pypto's softmax tile op." +
		" https://www.hiascend.com/document/detail/en/CANNCommunityEdition/900/programug/Ascendcopdevg/atlas_ascendc_best_practices_10_00024.html" +
		" https://gitcode.com/cann/asc-devkit/blob/master/docs/zh/guide/算子实践参考/SIMD算子性能优化/矢量计算/VF性能优化/指令双发优化.md" +
		" https://gitcode.com/cann/pypto/blob/master/framework/src/interface/tileop/vector/softmax.h",
	Before: `AscendC::Reg::RegTensor<float> max0, row;
AscendC::Reg::MaskReg mask = AscendC::Reg::CreateMask<float>();
AscendC::Reg::Duplicate(max0, 0.0f, mask);   // dead: the LoadAlign replaces max0
AscendC::Reg::LoadAlign(max0, src);
for (uint16_t i = 1; i < rows; ++i) {
    AscendC::Reg::LoadAlign(row, src + i * 64);
    AscendC::Reg::Max(max0, max0, row, mask);
}
AscendC::Reg::StoreAlign(dst, max0, mask);`,
	After: `AscendC::Reg::RegTensor<float> max0, row;
AscendC::Reg::MaskReg mask = AscendC::Reg::CreateMask<float>();
AscendC::Reg::LoadAlign(max0, src);
for (uint16_t i = 1; i < rows; ++i) {
    AscendC::Reg::LoadAlign(row, src + i * 64);
    AscendC::Reg::Max(max0, max0, row, mask);
}
AscendC::Reg::StoreAlign(dst, max0, mask);`,
	Severity:  ruleset.Info,
	Since:     "0.2.0",
	Tags:      []string{"performance", "registers", "best-practice"},
	Precision: "high",
	Options:   []ruleset.Option{ruleset.OptionChip, ruleset.OptionMachine, ruleset.OptionIterations},
}, &analysis.Analyzer{
	Requires:         []*analysis.Analyzer{cppir.Analyzer, simcost.Analyzer},
	RunDespiteErrors: true,
	Run:              run,
})

// Analyzer is the analyzer of Rule.
var Analyzer = Rule.Analyzer

func run(pass *analysis.Pass) (any, error) {
	pkg := pass.ResultOf[cppir.Analyzer].(*ir.Package)
	md, _ := pass.ResultOf[simcost.Analyzer].(*simcost.Model)
	for _, f := range pkg.Files {
		for _, fn := range f.Funcs {
			if fn.Kind.Analysed() && fn.Body != nil && !fn.Foreign {
				check(pass, md, f, fn)
			}
		}
	}
	return nil, nil
}

// place is where an instruction sits: its block and index there.
type place struct {
	block *ir.Block
	idx   int
}

// kill is the overwrite of one register a dead write writes.
type kill struct {
	reg ir.RegID
	by  *ir.Instr
}

func check(pass *analysis.Pass, md *simcost.Model, f *ir.File, fn *ir.Func) {
	// A local reference (auto& y = x) aliases a register under another
	// name: a read through it would not be seen.
	for _, r := range fn.Regs {
		if r.Ref && !r.Param {
			return
		}
	}
	var x *defs.Index
	var insts []ir.Bindings
	for _, w := range fn.Instrs {
		if !candidate(f, fn, w) {
			continue
		}
		if x == nil {
			x = defs.New(fn)
			insts = fn.Instantiations()
		}
		blk, i := x.Place(w)
		if blk == nil {
			continue
		}
		p := place{blk, i}
		// Dead as written (every instantiation), or in some instantiations.
		kills, ok := overwrites(f, fn, p, w, nil)
		var only []string
		if !ok {
			if len(insts) < 2 && (len(insts) == 0 || insts[0].Empty()) {
				continue
			}
			var ks []kill
			for _, b := range insts {
				if k, ok := overwrites(f, fn, p, w, &b); ok {
					only = append(only, b.String())
					if ks == nil {
						ks = k
					}
				}
			}
			if ks == nil {
				continue
			}
			kills = ks
		}
		report(pass, md, f, fn, w, kills, only, len(insts))
	}
}

// sideEffectOps write memory, scalars or special registers, or are not
// vector instructions at all.
var sideEffectOps = map[ir.Op]bool{
	ir.OpUnknown: true, ir.OpCall: true, ir.OpScalar: true, ir.OpPrint: true,
	ir.OpLocalMemBar: true, ir.OpClearSpr: true, ir.OpGetSpr: true,
	ir.OpStoreAlign: true, ir.OpStoreUnAlign: true, ir.OpStoreUnAlignPost: true,
	ir.OpStore: true, ir.OpScatter: true,
	ir.OpLoadUnAlignPre: true, ir.OpLoadUnAlign: true, ir.OpLoad: true,
	ir.OpUpdateMask: true, ir.OpCreateAddrReg: true, ir.OpHistograms: true,
}

// candidate reports whether w could be a dead write: a known vector
// instruction whose only effect is to write vector or mask registers.
func candidate(f *ir.File, fn *ir.Func, w *ir.Instr) bool {
	if sideEffectOps[w.Op] || len(w.Defs) == 0 || w.Post || len(w.PtrDefs) > 0 || w.Origin != nil {
		return false
	}
	if f.InExpansion(w.Pos) {
		return false // the macro may do more than the lowered call
	}
	if w.Op == ir.OpSqueeze && w.Name != "" && strings.Contains(strings.Join(w.TArgs, ","), "STORE_REG") && !strings.Contains(strings.Join(w.TArgs, ","), "NO_STORE_REG") {
		return false // writes AR
	}
	for _, t := range w.TArgs {
		if strings.Contains(t, "POST") {
			return false
		}
	}
	for _, a := range w.Args {
		switch a.Role {
		case ir.ArgPtrRW, ir.ArgScalarRW:
			return false
		}
		if strings.Contains(a.Text, "POST") {
			return false // a raw intrinsic's POST_UPDATE operand
		}
		if (a.Role == ir.ArgW || a.Role == ir.ArgRW) && a.Reg == ir.NoReg {
			return false // a destination the IR does not know as a register (RegDstT& res)
		}
	}
	for _, d := range w.Defs {
		if !plain(fn.Regs[d]) {
			return false
		}
	}
	return true
}

// plain reports whether r is one whole vector or mask register of this
// region that no caller sees: not a parameter, not an array, not two
// registers.
func plain(r *ir.Reg) bool {
	return (r.Class == ir.ClassVReg || r.Class == ir.ClassMask) && !r.TwoRegs && r.ArrayLen == 1 &&
		!r.Param && !r.Ref && !r.Implicit
}

// overwrites finds, for every register w writes, the instruction later in
// w's block that replaces it whole before anything reads it. b, when not
// nil, is an instantiation: the if constexpr in between take only its
// branch. ok is false when some register has no such overwrite.
func overwrites(f *ir.File, fn *ir.Func, p place, w *ir.Instr, b *ir.Bindings) ([]kill, bool) {
	var ks []kill
	for _, d := range w.Defs {
		k := nextKill(f, fn, p, w, d, b)
		if k == nil {
			return nil, false
		}
		ks = append(ks, kill{d, k})
	}
	return ks, true
}

// nextKill returns the instruction after w in its block that overwrites d
// whole, when nothing before it touches d; nil otherwise.
func nextKill(f *ir.File, fn *ir.Func, p place, w *ir.Instr, d ir.RegID, b *ir.Bindings) *ir.Instr {
	for i := p.idx + 1; i < len(p.block.Nodes); i++ {
		switch n := p.block.Nodes[i].(type) {
		case *ir.Instr:
			if has(n.Uses, d) || mentions(n, d) && !has(n.Defs, d) {
				return nil
			}
			if !has(n.Defs, d) {
				continue
			}
			if !fullWrite(f, fn, n, d) || !quietBetween(f, w, n, fn.Regs[d].Name, untaken(p, i, b)) {
				return nil
			}
			return n
		default:
			if touches(n, d, b) {
				return nil
			}
		}
	}
	return nil
}

func has(rs []ir.RegID, r ir.RegID) bool {
	for _, x := range rs {
		if x == r {
			return true
		}
	}
	return false
}

// mentions reports whether an operand of in names d.
func mentions(in *ir.Instr, d ir.RegID) bool {
	for _, a := range in.Args {
		if a.Reg == d {
			return true
		}
	}
	return false
}

// touches reports whether node n (an if, a loop or a jump) may read or
// write d, or leave the block: a jump anywhere inside it counts. Under
// bindings b an if constexpr that folds takes only its compiled branch.
func touches(n ir.Node, d ir.RegID, b *ir.Bindings) bool {
	switch n := n.(type) {
	case *ir.Instr:
		return has(n.Uses, d) || has(n.Defs, d) || mentions(n, d)
	case *ir.Jump:
		return true
	case *ir.Loop:
		return blockTouches(n.Body, d, b)
	case *ir.If:
		if b != nil && n.Constexpr {
			if blk, ok := n.Taken(*b); ok {
				return blockTouches(blk, d, b)
			}
		}
		return blockTouches(n.Then, d, b) || blockTouches(n.Else, d, b)
	}
	return true
}

func blockTouches(blk *ir.Block, d ir.RegID, b *ir.Bindings) bool {
	if blk == nil {
		return false
	}
	for _, n := range blk.Nodes {
		if touches(n, d, b) {
			return true
		}
	}
	return false
}

// partialOps may leave lanes of their destination as they were, or their
// mode may hide in a trait: never taken as overwrites.
var partialOps = map[ir.Op]bool{
	ir.OpSqueeze: true, ir.OpUnsqueeze: true, ir.OpPack: true, ir.OpMaskPack: true,
	ir.OpReduce: true, ir.OpReduceDataBlock: true, ir.OpPairReduceElem: true,
	ir.OpGather: true, ir.OpGatherB: true, ir.OpHistograms: true,
	ir.OpMove: true, ir.OpMaskMove: true,
}

// traitOps take a trait (a constexpr struct) among their template
// arguments, which may hold the merge mode or a lane layout.
var traitOps = map[ir.Op]bool{ir.OpCast: true, ir.OpTruncate: true, ir.OpMulsCast: true}

// fullWrite reports whether in replaces every lane of register d without
// reading it.
func fullWrite(f *ir.File, fn *ir.Func, in *ir.Instr, d ir.RegID) bool {
	if notKills[in.Op] || partialOps[in.Op] || in.Op.Info().Acc || in.Merging || in.Origin != nil {
		return false
	}
	if f.InExpansion(in.Pos) {
		return false
	}
	for _, t := range in.TArgs {
		if strings.Contains(t, "MERGING") || traitOps[in.Op] && !simpleTArg(fn, t) {
			return false
		}
	}
	n := 0
	for _, a := range in.Args {
		if strings.Contains(a.Text, "MERGING") {
			return false // a raw intrinsic's MODE_MERGING operand
		}
		if a.Reg != d {
			continue
		}
		n++
		if a.Role != ir.ArgW || a.Part >= 0 || isCast(a.Text) {
			return false
		}
	}
	if n == 0 {
		// Written by assignment: m = CreateMask<T>().
		return in.Assign == fn.Regs[d].Name && in.Op.Info().Shape == ir.ShapeRet
	}
	return n == 1 && (in.Assign == "" || in.Assign == fn.Regs[d].Name)
}

// notKills are never taken as overwrites: their effect on registers is
// not known, or they write none.
var notKills = map[ir.Op]bool{
	ir.OpUnknown: true, ir.OpCall: true, ir.OpScalar: true, ir.OpPrint: true,
	ir.OpLocalMemBar: true, ir.OpClearSpr: true, ir.OpGetSpr: true,
	ir.OpStoreAlign: true, ir.OpStoreUnAlign: true, ir.OpStoreUnAlignPost: true,
	ir.OpStore: true, ir.OpScatter: true, ir.OpCreateAddrReg: true,
}

// isCast reports whether an operand reaches its register through a cast
// ((RegTensor<uint32_t>&)x, reinterpret_cast<...>(x)) or a member.
func isCast(text string) bool {
	return strings.ContainsAny(text, "()&*.[-")
}

var typeArg = regexp.MustCompile(`^(?:(?:unsigned |signed )?(?:half|float|double|bfloat16_t|int|bool|char|short|long|u?int(?:8|16|32|64)_t|hifloat8_t|fp8_e[0-9]m[0-9]_t|fp4x2_e[0-9]m[0-9]_t|int4x2_t)|typename .*|[A-Za-z_]\w*::(?:Round|RoundMode|SatMode|SaturationMode)::\w+|(?:AscendC::)?(?:Reg::|MicroAPI::)?(?:RoundMode|SatMode)::\w+|[0-9]+)$`)

// simpleTArg reports whether a template argument of a cast is plainly an
// element type, a rounding mode or a number, or a template type parameter:
// not a trait, which could select MERGING or a lane layout.
func simpleTArg(fn *ir.Func, t string) bool {
	if typeArg.MatchString(t) {
		return true
	}
	for _, p := range fn.TParams {
		if p == t && len(t) <= 2 {
			return true // T, U: element types by convention
		}
	}
	return false
}

// quietBetween reports whether the source text between w and k says
// nothing the IR may have missed: it does not name the register (a copy
// y = x, a lambda, a macro), holds no jump and no preprocessor directive
// (#if A / #else alternatives would look like one straight line).
func quietBetween(f *ir.File, w, k *ir.Instr, name string, skip [][2]token.Pos) bool {
	if f.Tok == nil || w.End > k.Pos {
		return false
	}
	from, to := f.Tok.Offset(w.End), f.Tok.Offset(k.Pos)
	if from < 0 || to > len(f.Src) || from > to {
		return false
	}
	gap := []byte(stripComments(f.Src[from:to], f.Lang))
	for _, sp := range skip {
		for o := max(f.Tok.Offset(sp[0]), from); o < min(f.Tok.Offset(sp[1]), to); o++ {
			if gap[o-from] != '\n' {
				gap[o-from] = ' '
			}
		}
	}
	// The statement of k up to the call (m = ..., x = ...) is in the gap too.
	text := string(gap)
	if i := strings.LastIndexByte(text, '\n'); i >= 0 && assignHead.MatchString(text[i+1:]) {
		text = text[:i+1] // k's own assignment target (x = vf.load_align(...))
	}
	for _, line := range strings.Split(text, "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "#") {
			return false
		}
	}
	for _, word := range identRe.FindAllString(text, -1) {
		switch word {
		case name, "return", "break", "continue", "goto", "throw", "raise", "asm", "__asm__", "case", "default":
			return false
		}
	}
	return true
}

// untaken returns the text spans, between the write at p and the node at
// index k of its block, that instantiation b does not compile: the
// branches an if constexpr there does not take.
func untaken(p place, k int, b *ir.Bindings) [][2]token.Pos {
	if b == nil {
		return nil
	}
	var out [][2]token.Pos
	for i := p.idx + 1; i < k; i++ {
		s, ok := p.block.Nodes[i].(*ir.If)
		if !ok || !s.Constexpr {
			continue
		}
		blk, ok := s.Taken(*b)
		if !ok {
			continue
		}
		if blk == nil || len(blk.Nodes) == 0 {
			out = append(out, [2]token.Pos{s.Pos, s.End})
			continue
		}
		first, _ := blk.Nodes[0].Span()
		_, last := blk.Nodes[len(blk.Nodes)-1].Span()
		out = append(out, [2]token.Pos{s.Pos, first}, [2]token.Pos{last, s.End})
	}
	return out
}

var (
	identRe    = regexp.MustCompile(`[A-Za-z_]\w*`)
	assignHead = regexp.MustCompile(`^\s*[A-Za-z_]\w*(?:\s*,\s*[A-Za-z_]\w*)*\s*=\s*$`)
)

// stripComments blanks comments and string literals of src, keeping its
// length and its line breaks.
func stripComments(src []byte, lang ir.Lang) string {
	out := []byte(string(src))
	blank := func(from, to int) {
		for k := from; k < to && k < len(out); k++ {
			if out[k] != '\n' {
				out[k] = ' '
			}
		}
	}
	for i := 0; i < len(src); i++ {
		c := src[i]
		switch {
		case lang == ir.Python && c == '#', lang != ir.Python && c == '/' && i+1 < len(src) && src[i+1] == '/':
			j := i
			for j < len(src) && src[j] != '\n' {
				j++
			}
			blank(i, j)
			i = j
		case lang != ir.Python && c == '/' && i+1 < len(src) && src[i+1] == '*':
			j := i + 2
			for j+1 < len(src) && !(src[j] == '*' && src[j+1] == '/') {
				j++
			}
			blank(i, j+2)
			i = j + 1
		case c == '"' || c == '\'':
			j := i + 1
			for j < len(src) && src[j] != c && src[j] != '\n' {
				if src[j] == '\\' {
					j++
				}
				j++
			}
			blank(i, j+1)
			i = j
		}
	}
	return string(out)
}

func report(pass *analysis.Pass, md *simcost.Model, f *ir.File, fn *ir.Func, w *ir.Instr, kills []kill, only []string, ninst int) {
	op := w.Name
	if op == "" {
		op = w.Op.String()
	}
	line := func(in *ir.Instr) int { return f.Tok.Line(in.Pos) }
	var msg string
	if len(kills) == 1 {
		k := kills[0]
		msg = fmt.Sprintf("%s writes %s, but %s on line %d overwrites it before any read: the %s is dead; delete it",
			op, fn.Regs[k.reg].Name, kname(k.by), line(k.by), op)
	} else {
		var names, list []string
		for _, k := range kills {
			names = append(names, fn.Regs[k.reg].Name)
			list = append(list, fmt.Sprintf("%s on line %d", fn.Regs[k.reg].Name, line(k.by)))
		}
		msg = fmt.Sprintf("%s writes %s, and each is overwritten before any read (%s): the %s is dead; delete it",
			op, strings.Join(names, " and "), strings.Join(list, ", "), op)
	}
	if len(only) > 0 {
		msg += fmt.Sprintf(" (instantiated with %s)", strings.Join(only, "; "))
	}
	diag := analysis.Diagnostic{Pos: w.Pos, End: w.End}
	for _, k := range kills {
		diag.Related = append(diag.Related, analysis.RelatedInformation{Pos: k.by.Pos, End: k.by.End,
			Message: fmt.Sprintf("overwrites %s", fn.Regs[k.reg].Name)})
	}
	if md != nil {
		cost := md.At(fn, w, func(x *ir.Instr) bool { return x == w })
		msg += ": " + cost.Phrase()
		simcost.Attach(&diag, cost)
	}
	fix, why := deleteFix(f, w)
	if len(only) > 0 && len(only) < ninst && why == "" {
		why = "the write is live in the other instantiations: guard it with if constexpr"
	}
	if why != "" {
		msg += "; no automatic fix: " + why
	} else {
		diag.SuggestedFixes = []analysis.SuggestedFix{*fix}
	}
	diag.Message = msg
	pass.Report(diag)
}

func kname(in *ir.Instr) string {
	if in.Name != "" {
		return in.Name
	}
	return in.Op.String()
}

// deleteFix deletes the statement of w: its lines, when they hold that
// call alone. why says why there is none.
func deleteFix(f *ir.File, w *ir.Instr) (*analysis.SuggestedFix, string) {
	if f.Tok == nil {
		return nil, "the file's text is not known"
	}
	if w.Assign != "" && (f.Lang != ir.Python || len(w.Defs) != 1) {
		return nil, "the call's value is assigned"
	}
	for _, a := range w.Args {
		if !pureArg(a.Text) {
			return nil, "an argument may have side effects"
		}
	}
	src := f.Src
	from, to := f.Tok.Offset(w.Pos), f.Tok.Offset(w.End)
	start := from
	for start > 0 && (src[start-1] == ' ' || src[start-1] == '\t') {
		start--
	}
	if f.Lang == ir.Python && w.Assign != "" {
		// name = vf.op(...): the assignment is the statement.
		ls := start
		for ls > 0 && src[ls-1] != '\n' {
			ls--
		}
		m := pyAssign.FindSubmatch(src[ls:start])
		if m == nil || string(m[1]) != w.Assign {
			return nil, "the statement shares its line with other code"
		}
		start = ls
	}
	if start > 0 && src[start-1] != '\n' {
		return nil, "the statement shares its line with other code"
	}
	end := to
	for end < len(src) && (src[end] == ' ' || src[end] == '\t') {
		end++
	}
	if f.Lang != ir.Python {
		if end >= len(src) || src[end] != ';' {
			return nil, "the statement shares its line with other code"
		}
		end++
		for end < len(src) && (src[end] == ' ' || src[end] == '\t') {
			end++
		}
	}
	// A comment after the statement goes with it.
	if end+1 < len(src) && (f.Lang != ir.Python && src[end] == '/' && src[end+1] == '/' || f.Lang == ir.Python && src[end] == '#') {
		for end < len(src) && src[end] != '\n' && src[end] != '\r' {
			end++
		}
	}
	switch {
	case end == len(src):
	case src[end] == '\n':
		end++
	case src[end] == '\r' && end+1 < len(src) && src[end+1] == '\n':
		end += 2
	default:
		return nil, "the statement shares its line with other code"
	}
	return &analysis.SuggestedFix{
		Message:   "delete the dead " + kname(w),
		TextEdits: []analysis.TextEdit{{Pos: f.Tok.Pos(start), End: f.Tok.Pos(end)}},
	}, ""
}

var pyAssign = regexp.MustCompile(`^[ \t]*([A-Za-z_]\w*)[ \t]*=[ \t]*$`)

var callRe = regexp.MustCompile(`([A-Za-z_]\w*)\s*(?:<[^()]*>)?\s*\(`)

// pureArg reports whether an argument's text has no side effect: no
// increment, no assignment, no call but a cast.
func pureArg(t string) bool {
	if strings.Contains(t, "++") || strings.Contains(t, "--") {
		return false
	}
	for i := 0; i < len(t); i++ {
		if t[i] != '=' {
			continue
		}
		prev, next := byte(0), byte(0)
		if i > 0 {
			prev = t[i-1]
		}
		if i+1 < len(t) {
			next = t[i+1]
		}
		if next == '=' {
			i++
			continue
		}
		if prev != '=' && prev != '!' && prev != '<' && prev != '>' {
			return false
		}
	}
	for _, m := range callRe.FindAllStringSubmatch(t, -1) {
		switch m[1] {
		case "static_cast", "reinterpret_cast", "const_cast", "sizeof", "alignof", "decltype":
		default:
			return false
		}
	}
	return true
}
