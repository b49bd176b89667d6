package stream

import (
	"fmt"
	"go/token"
	"slices"
	"sort"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/ascvet/ascvet/analyzers/internal/linear"
	"github.com/ascvet/ascvet/cppfront/ir"
)

// Translation validation. The replay proves a fix on the IR of the file as
// written, with the move made in the IR. validate checks that the text the
// fix writes is that IR: it lowers the fixed text again, as the front end
// lowered the original (ir.File.Relower), and requires
//
//   - the region to parse with no error, and the same loops (the loop's
//     #pragma unroll and induction variable kept);
//   - the same instructions in the same order, but for the moved one, with
//     the same operands (a statement that landed inside another block, or
//     a different call, shows);
//   - the moved call where the IR put it: right before the loop (a Pre) or
//     right after it (a Post), in the block that holds the loop, not in a
//     braceless if's body or another branch;
//   - its address the first iteration's (a Pre): the same linear form as
//     the original address with the loop variable at its start;
//   - every name it reads resolved to the same declaration at its new place
//     as at its old.
//
// Only then is the fix offered.

// fixItem is a composed fix waiting for validation: the site it moves, the
// fix, the index of the edit that inserts the moved call, and which move.
type fixItem struct {
	s       Site
	fix     *analysis.SuggestedFix
	call    int  // index in fix.TextEdits of the insertion holding the moved call
	hoisted bool // a Pre hoisted (else a Post sunk)
}

// checked turns a composer into a fix function that validates its one fix
// on its text (HoistFix, SinkFix).
func checked(f *ir.File, compose func(*ir.File, Site) (*fixItem, string)) func(*ir.File, Site) (*analysis.SuggestedFix, string) {
	return func(f *ir.File, s Site) (*analysis.SuggestedFix, string) {
		it, why := compose(f, s)
		if it == nil {
			return nil, why
		}
		if why := validateFixes(f, []*fixItem{it})[0]; why != "" {
			return nil, why
		}
		return it.fix, ""
	}
}

// maxRounds bounds the lowerings of one file's fixes: a round drops the
// fixes that fail, and the rest are checked again without them.
const maxRounds = 4

// validateFixes validates the fixes of one file together, as -fix writes
// them: it returns, for each, why its text does not lower to what the
// replay proved, or "". The fixed file is lowered once per round.
func validateFixes(f *ir.File, items []*fixItem) []string {
	whys := make([]string, len(items))
	if len(items) == 0 || f.Relower == nil {
		return whys // IR built without a front end (tests of the IR alone)
	}
	return InRounds(len(items), func(live []int) map[int]string { return validateRound(f, items, live) })
}

// InRounds checks n fixes of one file together, as -fix writes them: round
// checks the fixes live and returns why each of them that fails does. The
// fixes that fail are dropped and the rest checked again without them, at
// most maxRounds times, so that a file is lowered a bounded number of times
// whatever its findings. It returns, for each fix, why it fails, or "".
func InRounds(n int, round func(live []int) map[int]string) []string {
	whys := make([]string, n)
	live := make([]int, n)
	for i := range live {
		live[i] = i
	}
	for r := 0; len(live) > 0; r++ {
		if r == maxRounds {
			for _, i := range live {
				whys[i] = "the fixes of this file could not be checked together"
			}
			break
		}
		failed := round(live)
		if len(failed) == 0 {
			break
		}
		var next []int
		for _, i := range live {
			if why, ok := failed[i]; ok {
				whys[i] = why
			} else {
				next = append(next, i)
			}
		}
		live = next
	}
	return whys
}

// validateRound lowers f with the fixes live applied and returns why each
// that fails does.
func validateRound(f *ir.File, items []*fixItem, live []int) map[int]string {
	failed := map[int]string{}
	failAll := func(why string) map[int]string {
		for _, i := range live {
			failed[i] = why
		}
		return failed
	}
	var edits []analysis.TextEdit
	first := map[int]int{} // item -> index of its first edit in edits
	for _, i := range live {
		first[i] = len(edits)
		edits = append(edits, items[i].fix.TextEdits...)
	}
	fixed, starts, err := ApplyEdits(f, edits)
	if err != nil {
		return failAll("the fixes' edits overlap")
	}
	om := NewOffsetMap(f, edits)
	// Only the regions with fixes are lowered (with their helpers and
	// callers): a big file's check costs what its fixed regions cost.
	var only [][2]int
	seen := map[*ir.Func]bool{}
	for _, i := range live {
		fn := items[i].s.Func
		if !seen[fn] {
			seen[fn] = true
			only = append(only, [2]int{om.At(f.Tok.Offset(fn.Pos)), om.At(f.Tok.Offset(fn.End))})
		}
	}
	g, err := f.Relower(fixed, only)
	if err != nil || g == nil {
		return failAll("the fixed text does not lower: " + errText(err))
	}
	byFunc := map[*ir.Func][]int{}
	var order []*ir.Func
	for _, i := range live {
		fn := items[i].s.Func
		if _, ok := byFunc[fn]; !ok {
			order = append(order, fn)
		}
		byFunc[fn] = append(byFunc[fn], i)
	}
	for _, fn := range order {
		its := byFunc[fn]
		inserted := map[int][2]int{} // item -> the new text's range holding its moved call
		for _, i := range its {
			e := items[i].fix.TextEdits[items[i].call]
			inserted[i] = [2]int{starts[first[i]+items[i].call], starts[first[i]+items[i].call] + len(e.NewText)}
		}
		for i, why := range validateFunc(f, g, fn, items, its, inserted, om) {
			failed[i] = why
		}
	}
	return failed
}

// validateFunc checks the fixes its of one function fn against its lowering
// in g (see the comment at the top).
func validateFunc(f, g *ir.File, fn *ir.Func, items []*fixItem, its []int, inserted map[int][2]int, om *OffsetMap) map[int]string {
	failed := map[int]string{}
	failAll := func(why string) map[int]string {
		for _, i := range its {
			failed[i] = why
		}
		return failed
	}
	// The site may be judged on the function as the compiler builds it
	// (helpers inlined: post.go's inExpanded): the fixed function is
	// expanded alike.
	k := slices.IndexFunc(f.Funcs, func(x *ir.Func) bool { return x.Pos == fn.Pos && x.Name == fn.Name })
	at := om.At(f.Tok.Offset(fn.Pos))
	k2 := slices.IndexFunc(g.Funcs, func(x *ir.Func) bool { return g.Tok.Offset(x.Pos) == at && x.Kind == fn.Kind })
	if k < 0 || k2 < 0 {
		return failAll("the fixed text does not hold the same VF regions")
	}
	fn2 := g.Funcs[k2]
	if f.Funcs[k] != fn {
		fn2 = fn2.Expand(fn2.SoleInstance())
	}
	if len(fn2.Errors) > len(fn.Errors) {
		return failAll(fmt.Sprintf("the fixed text does not parse at line %d", g.Tok.Line(fn2.Errors[0])))
	}
	if len(fn2.Loops) != len(fn.Loops) || len(fn2.Instrs) != len(fn.Instrs) {
		return failAll("the fixed text lowers to other loops or instructions")
	}
	moved := map[*ir.Instr]int{}
	for _, i := range its {
		moved[items[i].s.Instr] = i
	}
	var rest []*ir.Instr
	for _, in := range fn.Instrs {
		if _, ok := moved[in]; !ok {
			rest = append(rest, in)
		}
	}
	// The instructions that stayed are where the edits put them, in order;
	// each other one is a moved call, inside the text its fix inserted.
	moved2 := map[int]*ir.Instr{}
	j := 0
	for _, in := range fn2.Instrs {
		if j < len(rest) && sameInstr(f, g, rest[j], in, om) {
			j++
			continue
		}
		off := g.Tok.Offset(in.Pos)
		owner := -1
		for _, i := range its {
			if r := inserted[i]; off >= r[0] && off < r[1] && in.Op == items[i].s.Instr.Op && moved2[i] == nil {
				owner = i
			}
		}
		if owner < 0 {
			if j < len(rest) {
				return failAll(fmt.Sprintf("%s at line %d lowers differently in the fixed text", rest[j].Name, f.Tok.Line(rest[j].Pos)))
			}
			return failAll("the fixed text holds another call")
		}
		moved2[owner] = in
	}
	if j != len(rest) {
		return failAll("the fixed text lowers to other loops or instructions")
	}
	for _, i := range its {
		if why := validateMove(f, g, fn, fn2, items[i], moved2[i], om); why != "" {
			failed[i] = why
		}
	}
	return failed
}

// validateMove checks one moved call, moved2 in fn2, against its site.
func validateMove(f, g *ir.File, fn, fn2 *ir.Func, it *fixItem, moved2 *ir.Instr, om *OffsetMap) string {
	s := it.s
	if moved2 == nil {
		return "the moved call is not found in the fixed text"
	}
	lp, lp2 := s.Loop, fn2.Loops[s.Loop.ID]
	if lp2.Unroll != lp.Unroll || lp2.Var != lp.Var || lp2.Kind != lp.Kind {
		return "the loop's #pragma unroll or header changed"
	}
	// Right before (or after) the loop, in the block that holds it.
	around := enclosing(fn2.Body, lp2.Pos)
	here := enclosing(fn2.Body, moved2.Pos)
	if len(here) != len(around)-1 || !slices.Equal(here, around[:len(around)-1]) {
		return "the moved call lands in another block than the loop's"
	}
	if moved2.Loop != lp2.Parent {
		return "the moved call lands in another loop"
	}
	if it.hoisted && moved2.Pos > lp2.Pos || !it.hoisted && moved2.Pos < lp2.End {
		return "the moved call lands on the wrong side of the loop"
	}
	if it.hoisted {
		if why := sameStart(s, moved2); why != "" {
			return why
		}
	}
	// Every name it reads means what it meant.
	moved := s.Instr
	for _, n := range identsOf(callArgs(string(f.Src[f.Tok.Offset(moved.Pos):f.Tok.Offset(moved.End)]))) {
		if n == lp.Var && it.hoisted {
			continue // rewritten to its start
		}
		if r := fn.Regs[s.Reg]; n == r.Name && slices.Contains(lp.Decls, n) {
			continue // its declaration moved with it (movableDecl checked the clash)
		}
		d1, ok1 := declaredAt(fn, n, moved.Pos)
		d2, ok2 := declaredAt(fn2, n, moved2.Pos)
		if ok1 != ok2 || ok1 && om.At(f.Tok.Offset(d1)) != g.Tok.Offset(d2) {
			return "in the fixed text " + n + " names another declaration"
		}
	}
	return ""
}

// callArgs returns the text of a call from its first parenthesis.
func callArgs(call string) string {
	if k := strings.IndexByte(call, '('); k >= 0 {
		return call[k:]
	}
	return call
}

// sameStart checks that the hoisted Pre's address is the original's at
// the first iteration.
func sameStart(s Site, moved2 *ir.Instr) string {
	pk := ptrArg(s.Instr)
	if pk < 0 || pk >= len(moved2.Args) {
		return "the hoisted Pre has no address"
	}
	orig, now := s.Instr.Args[pk].Expr, moved2.Args[pk].Expr
	if orig == nil || now == nil {
		return "" // not folded on either side: the text rewrite stands alone
	}
	if v := s.Loop.Var; v != "" && s.Loop.Init != nil {
		init := s.Loop.Init
		orig = orig.Subst(func(kind ir.ExprKind, name string) *ir.Expr {
			if name == v {
				return init
			}
			return nil
		})
	}
	a, okA := linear.Of(orig)
	b, okB := linear.Of(now)
	if okA && okB && !a.Equal(b) {
		return fmt.Sprintf("the hoisted Pre primes at %s, not at the first iteration's address", strings.Join(strings.Fields(moved2.Args[pk].Text), " "))
	}
	return ""
}

// declaredAt returns the position of the declaration of n that is visible
// at pos in fn: the last parameter, register or declared name of that name
// before pos whose enclosing loops and ifs all hold pos.
func declaredAt(fn *ir.Func, n string, pos token.Pos) (token.Pos, bool) {
	best, found := token.Pos(0), false
	consider := func(at token.Pos) {
		if at >= pos || at < best {
			return
		}
		for _, e := range enclosing(fn.Body, at) {
			if a, b := e.Span(); pos < a || pos >= b {
				return
			}
		}
		best, found = at, true
	}
	for _, p := range fn.Params {
		if p.Name == n {
			consider(p.Pos)
		}
	}
	for _, r := range fn.Regs {
		if r.Name == n && !r.Implicit && r.Pos.IsValid() {
			consider(r.Pos)
		}
	}
	for _, d := range fn.Names {
		if d.Decl && d.Name == n {
			consider(d.Pos)
		}
	}
	return best, found
}

// sameInstr reports whether b (of the fixed file g) is a (of f) where the
// edits put it: the same op, the same operands, at a's offset mapped.
func sameInstr(f, g *ir.File, a, b *ir.Instr, om *OffsetMap) bool {
	if a.Op != b.Op || a.Name != b.Name || len(a.Args) != len(b.Args) {
		return false
	}
	if om.At(f.Tok.Offset(a.Pos)) != g.Tok.Offset(b.Pos) {
		return false
	}
	for i := range a.Args {
		if strings.Join(strings.Fields(a.Args[i].Text), " ") != strings.Join(strings.Fields(b.Args[i].Text), " ") {
			return false
		}
	}
	return true
}

// OffsetMap maps offsets of f's text to the fixed text: shifted by the
// edits before them (an offset inside a replaced range maps to -1). Built
// once per round, it answers in O(log edits).
type OffsetMap struct {
	starts, ends []int // the edits' ranges, sorted by start (then by end)
	after        []int // the shift after edits[0..i]
}

// NewOffsetMap maps offsets of f's text through edits.
func NewOffsetMap(f *ir.File, edits []analysis.TextEdit) *OffsetMap {
	type span struct{ a, b, d int }
	spans := make([]span, len(edits))
	for i, e := range edits {
		a, b := f.Tok.Offset(e.Pos), f.Tok.Offset(e.End)
		spans[i] = span{a, b, len(e.NewText) - (b - a)}
	}
	sort.SliceStable(spans, func(i, j int) bool {
		if spans[i].a != spans[j].a {
			return spans[i].a < spans[j].a
		}
		return spans[i].b < spans[j].b
	})
	om := &OffsetMap{}
	shift := 0
	for _, sp := range spans {
		shift += sp.d
		om.starts = append(om.starts, sp.a)
		om.ends = append(om.ends, sp.b)
		om.after = append(om.after, shift)
	}
	return om
}

// At maps off. An edit counts before off when it ends before it, ends at
// it after replacing something, or inserts at it (the insertion goes
// before the byte at off).
func (om *OffsetMap) At(off int) int {
	// The edits starting at or before off.
	n := sort.SearchInts(om.starts, off+1)
	shift := 0
	for k := n - 1; k >= 0; k-- {
		a, b := om.starts[k], om.ends[k]
		if a <= off && off < b && a < b {
			return -1
		}
		if b <= off {
			shift = om.after[k]
			break
		}
	}
	return off + shift
}

// ApplyEdits returns f's text with the edits made, and where each edit's
// new text starts in it (in the edits' order).
func ApplyEdits(f *ir.File, edits []analysis.TextEdit) ([]byte, []int, error) {
	order := make([]int, len(edits))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(i, j int) bool { return edits[order[i]].Pos < edits[order[j]].Pos })
	starts := make([]int, len(edits))
	var out []byte
	last := 0
	for _, k := range order {
		e := edits[k]
		a, b := f.Tok.Offset(e.Pos), f.Tok.Offset(e.End)
		if a < last || b < a || b > len(f.Src) {
			return nil, nil, fmt.Errorf("overlapping edits")
		}
		out = append(out, f.Src[last:a]...)
		starts[k] = len(out)
		out = append(out, e.NewText...)
		last = b
	}
	return append(out, f.Src[last:]...), starts, nil
}

func errText(err error) string {
	if err == nil {
		return "no file"
	}
	return err.Error()
}
