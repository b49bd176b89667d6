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

// validate returns why the fix's text does not lower to what the replay
// proved, or "".
func validate(f *ir.File, s Site, fix *analysis.SuggestedFix, hoisted bool) string {
	if f.Relower == nil {
		return "" // IR built without a front end (tests of the IR alone)
	}
	fixed, err := applyEdits(f, fix.TextEdits)
	if err != nil {
		return "the fix's edits overlap"
	}
	g, err := f.Relower(fixed)
	if err != nil || g == nil {
		return "the fixed text does not lower: " + errText(err)
	}
	// The site may be judged on the function as the compiler builds it
	// (helpers inlined: post.go's inExpanded): the fixed function is
	// expanded alike.
	k := slices.IndexFunc(f.Funcs, func(fn *ir.Func) bool { return fn.Pos == s.Func.Pos && fn.Name == s.Func.Name })
	if k < 0 || len(g.Funcs) != len(f.Funcs) || g.Funcs[k].Name != s.Func.Name {
		return "the fixed text does not hold the same VF regions"
	}
	fn, fn2 := s.Func, g.Funcs[k]
	if f.Funcs[k] != fn {
		fn2 = fn2.Expand(fn2.SoleInstance())
	}
	if len(fn2.Errors) > len(fn.Errors) {
		return fmt.Sprintf("the fixed text does not parse at line %d", g.Tok.Line(fn2.Errors[0]))
	}
	if len(fn2.Loops) != len(fn.Loops) || len(fn2.Instrs) != len(fn.Instrs) {
		return "the fixed text lowers to other loops or instructions"
	}
	lp, lp2 := s.Loop, fn2.Loops[s.Loop.ID]
	if lp2.Unroll != lp.Unroll || lp2.Var != lp.Var || lp2.Kind != lp.Kind {
		return "the loop's #pragma unroll or header changed"
	}
	// The moved instruction is the one of the same op whose offset the
	// edits map nowhere: find it by elimination.
	moved := s.Instr
	var rest []*ir.Instr
	for _, in := range fn.Instrs {
		if in != moved {
			rest = append(rest, in)
		}
	}
	var moved2 *ir.Instr
	j := 0
	for _, in := range fn2.Instrs {
		switch {
		case j < len(rest) && sameInstr(f, g, rest[j], in, fix.TextEdits):
			j++
		case moved2 == nil && in.Op == moved.Op && in.Name == moved.Name:
			moved2 = in
		default:
			if j < len(rest) {
				return fmt.Sprintf("%s at line %d lowers differently in the fixed text", rest[j].Name, f.Tok.Line(rest[j].Pos))
			}
			return "the fixed text holds another call"
		}
	}
	if moved2 == nil || j != len(rest) {
		return "the moved call is not found in the fixed text"
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
	if hoisted && moved2.Pos > lp2.Pos || !hoisted && moved2.Pos < lp2.End {
		return "the moved call lands on the wrong side of the loop"
	}
	if hoisted {
		if why := sameStart(s, moved2); why != "" {
			return why
		}
	}
	// Every name it reads means what it meant.
	for _, n := range identsOf(callArgs(string(f.Src[f.Tok.Offset(moved.Pos):f.Tok.Offset(moved.End)]))) {
		if n == lp.Var && hoisted {
			continue // rewritten to its start
		}
		if r := fn.Regs[s.Reg]; n == r.Name && slices.Contains(lp.Decls, n) {
			continue // its declaration moved with it (movableDecl checked the clash)
		}
		d1, ok1 := declaredAt(fn, n, moved.Pos)
		d2, ok2 := declaredAt(fn2, n, moved2.Pos)
		if ok1 != ok2 || ok1 && mapOffset(f, fix.TextEdits, f.Tok.Offset(d1)) != g.Tok.Offset(d2) {
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
func sameInstr(f, g *ir.File, a, b *ir.Instr, edits []analysis.TextEdit) bool {
	if a.Op != b.Op || a.Name != b.Name || len(a.Args) != len(b.Args) {
		return false
	}
	if mapOffset(f, edits, f.Tok.Offset(a.Pos)) != g.Tok.Offset(b.Pos) {
		return false
	}
	for i := range a.Args {
		if strings.Join(strings.Fields(a.Args[i].Text), " ") != strings.Join(strings.Fields(b.Args[i].Text), " ") {
			return false
		}
	}
	return true
}

// mapOffset maps an offset of f's text to the fixed text: shifted by the
// edits before it (an offset inside a replaced range maps to -1).
func mapOffset(f *ir.File, edits []analysis.TextEdit, off int) int {
	shift := 0
	for _, e := range edits {
		a, b := f.Tok.Offset(e.Pos), f.Tok.Offset(e.End)
		switch {
		case b < off || b == off && a < b:
			shift += len(e.NewText) - (b - a)
		case a == off && a == b:
			shift += len(e.NewText) // an insertion at the offset goes before it
		case a <= off && off < b:
			return -1
		}
	}
	return off + shift
}

// applyEdits returns f's text with the edits made.
func applyEdits(f *ir.File, edits []analysis.TextEdit) ([]byte, error) {
	es := slices.Clone(edits)
	sort.SliceStable(es, func(i, j int) bool { return es[i].Pos < es[j].Pos })
	var out []byte
	last := 0
	for _, e := range es {
		a, b := f.Tok.Offset(e.Pos), f.Tok.Offset(e.End)
		if a < last || b < a || b > len(f.Src) {
			return nil, fmt.Errorf("overlapping edits")
		}
		out = append(out, f.Src[last:a]...)
		out = append(out, e.NewText...)
		last = b
	}
	return append(out, f.Src[last:]...), nil
}

func errText(err error) string {
	if err == nil {
		return "no file"
	}
	return err.Error()
}
