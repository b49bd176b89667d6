package asc1005

import (
	"fmt"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/ascvet/ascvet/analyzers/internal/stream"
	"github.com/ascvet/ascvet/analyzers/internal/ureg"
	"github.com/ascvet/ascvet/cppfront/ir"
)

// rename is a misdirected Post's fix waiting for its check: the finding,
// the Post, the stream it should flush, and the one-token edit.
type rename struct {
	d    analysis.Diagnostic
	fn   *ir.Func
	p    *ir.Instr
	k    ureg.Key
	name string
	fix  *analysis.SuggestedFix
}

// wrongFix composes the rename of the register a misdirected Post (p,
// flushing another register than the stream k's) flushes to k's: a
// one-token change. It is composed only when the operand is the register's
// name alone, outside any macro; checkRenames then checks it on its text.
// Otherwise it returns why not.
func wrongFix(f *ir.File, fn *ir.Func, p *ir.Instr, k ureg.Key) (*rename, string) {
	a, pk, found := ureg.Operand(fn, p)
	if !found || f.Tok == nil || f.Relower == nil {
		return nil, ""
	}
	name, other := ureg.Name(fn, k), ureg.Name(fn, pk)
	if f.InExpansion(p.Pos) || f.InExpansion(a.Pos) {
		return nil, "the StoreUnAlignPost comes from a macro expansion"
	}
	from, to := f.Tok.Offset(a.Pos), f.Tok.Offset(a.End)
	if from < 0 || to > len(f.Src) || strings.TrimSpace(string(f.Src[from:to])) != other {
		return nil, "the register operand is not written as " + other
	}
	return &rename{fn: fn, p: p, k: k, name: name, fix: &analysis.SuggestedFix{
		Message:   fmt.Sprintf("flush %s, not %s", name, other),
		TextEdits: []analysis.TextEdit{{Pos: a.Pos, End: a.End, NewText: []byte(name)}},
	}}, ""
}

// checkRenames checks the renames of one file on its text, all made at
// once as -fix writes them, lowered again as the front end lowered the
// original (ir.File.Relower): the same instructions, each Post flushing its
// stream's register through the same declaration, and no stream left
// unflushed that was not already (the register a Post no longer flushes
// needed no flush). It returns why each fails, or "". A round that fails
// some drops them and lowers the rest again, at most four rounds: a file
// is lowered a bounded number of times, whatever its findings.
func checkRenames(f *ir.File, rs []*rename) []string {
	return stream.InRounds(len(rs), func(live []int) map[int]string { return renameRound(f, rs, live) })
}

func renameRound(f *ir.File, rs []*rename, live []int) map[int]string {
	failed := map[int]string{}
	failAll := func(ids []int, why string) map[int]string {
		for _, i := range ids {
			failed[i] = why
		}
		return failed
	}
	var edits []analysis.TextEdit
	for _, i := range live {
		edits = append(edits, rs[i].fix.TextEdits...)
	}
	fixed, _, err := stream.ApplyEdits(f, edits)
	if err != nil {
		return failAll(live, "the fixes' edits overlap")
	}
	mapped := stream.NewOffsetMap(f, edits).At // an offset outside the edits, in the fixed text
	var only [][2]int
	for _, i := range live {
		fn := rs[i].fn
		only = append(only, [2]int{mapped(f.Tok.Offset(fn.Pos)), mapped(f.Tok.Offset(fn.End))})
	}
	g, err := f.Relower(fixed, only)
	if err != nil || g == nil {
		return failAll(live, "the fixed text does not lower")
	}
	byFunc := map[*ir.Func][]int{}
	for _, i := range live {
		byFunc[rs[i].fn] = append(byFunc[rs[i].fn], i)
	}
	for fn, ids := range byFunc {
		at := mapped(f.Tok.Offset(fn.Pos))
		k := slices.IndexFunc(g.Funcs, func(x *ir.Func) bool { return g.Tok.Offset(x.Pos) == at && x.Kind == fn.Kind })
		if k < 0 {
			failAll(ids, "the fixed text does not hold the same VF regions")
			continue
		}
		fn2 := g.Funcs[k]
		if len(fn2.Errors) > len(fn.Errors) || len(fn2.Instrs) != len(fn.Instrs) {
			failAll(ids, "the fixed text lowers to other instructions")
			continue
		}
		renamed := map[string]bool{}
		for _, i := range ids {
			r := rs[i]
			renamed[r.name] = true
			p2 := fn2.Instrs[r.p.ID]
			if p2.Op != r.p.Op || g.Tok.Offset(p2.Pos) != mapped(f.Tok.Offset(r.p.Pos)) {
				failed[i] = "the fixed text lowers to other instructions"
				continue
			}
			_, k2, ok := ureg.Operand(fn2, p2)
			if !ok || ureg.Name(fn2, k2) != r.name || k2.Part != r.k.Part {
				failed[i] = "in the fixed text the StoreUnAlignPost does not flush " + r.name
				continue
			}
			r1, r2 := fn.Regs[r.k.Reg], fn2.Regs[k2.Reg]
			if !r1.Pos.IsValid() || !r2.Pos.IsValid() || mapped(f.Tok.Offset(r1.Pos)) != g.Tok.Offset(r2.Pos) {
				failed[i] = "in the fixed text " + r.name + " names another declaration"
			}
		}
		// No stream is left unflushed that was not already.
		before := map[string]bool{}
		keys, _ := ureg.Unflushed(fn)
		for _, key := range keys {
			before[ureg.Name(fn, key)] = true
		}
		keys2, _ := ureg.Unflushed(fn2)
		for _, key := range keys2 {
			if n := ureg.Name(fn2, key); renamed[n] || !before[n] {
				failAll(ids, "the fixed text leaves "+n+" unflushed")
				break
			}
		}
	}
	return failed
}
