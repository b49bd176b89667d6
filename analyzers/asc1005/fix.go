package asc1005

import (
	"fmt"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/ascvet/ascvet/analyzers/internal/ureg"
	"github.com/ascvet/ascvet/cppfront/ir"
)

// wrongFix renames the register a misdirected Post flushes (p, flushing
// another register than the stream k's) to k's: a one-token change. It is
// offered only when the operand is the register's name alone, outside any
// macro, and when the fixed text, lowered again as the front end lowered
// the original (ir.File.Relower), holds the same instructions, the Post
// flushing k's register (the same declaration), and no stream left
// unflushed that was flushed before: the register it flushed no longer is,
// so it must have needed no flush (a load register, or one no store
// wrote). Otherwise it returns why not.
func wrongFix(f *ir.File, fn *ir.Func, p *ir.Instr, k ureg.Key) (*analysis.SuggestedFix, string) {
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
	fix := &analysis.SuggestedFix{
		Message:   fmt.Sprintf("flush %s, not %s", name, other),
		TextEdits: []analysis.TextEdit{{Pos: a.Pos, End: a.End, NewText: []byte(name)}},
	}
	if why := checkRename(f, fn, p, k, name); why != "" {
		return nil, why
	}
	return fix, ""
}

// checkRename lowers the text with p's register operand renamed to name
// and checks it (see wrongFix).
func checkRename(f *ir.File, fn *ir.Func, p *ir.Instr, k ureg.Key, name string) string {
	a, _, _ := ureg.Operand(fn, p)
	from, to := f.Tok.Offset(a.Pos), f.Tok.Offset(a.End)
	fixed := append(append(append([]byte(nil), f.Src[:from]...), name...), f.Src[to:]...)
	g, err := f.Relower(fixed)
	if err != nil || g == nil {
		return "the fixed text does not lower"
	}
	i := slices.Index(f.Funcs, fn)
	if i < 0 || len(g.Funcs) != len(f.Funcs) || g.Funcs[i].Name != fn.Name {
		return "the fixed text does not hold the same VF regions"
	}
	fn2 := g.Funcs[i]
	if len(fn2.Errors) > len(fn.Errors) || len(fn2.Instrs) != len(fn.Instrs) {
		return "the fixed text lowers to other instructions"
	}
	shift := len(name) - (to - from)
	p2 := fn2.Instrs[p.ID]
	if p2.Op != p.Op || g.Tok.Offset(p2.Pos) != f.Tok.Offset(p.Pos) {
		return "the fixed text lowers to other instructions"
	}
	_, k2, ok := ureg.Operand(fn2, p2)
	if !ok || ureg.Name(fn2, k2) != name || k2.Part != k.Part {
		return "in the fixed text the StoreUnAlignPost does not flush " + name
	}
	declared := func(r *ir.Reg, tf, ff int) int { // the declaration's offset in the fixed text
		off := ff
		if off > tf {
			off += shift
		}
		return off
	}
	r1, r2 := fn.Regs[k.Reg], fn2.Regs[k2.Reg]
	if !r1.Pos.IsValid() || !r2.Pos.IsValid() || declared(r1, from, f.Tok.Offset(r1.Pos)) != g.Tok.Offset(r2.Pos) {
		return "in the fixed text " + name + " names another declaration"
	}
	// No stream is left unflushed that was not already: the old register
	// needed no flush.
	before := map[string]bool{}
	keys, _ := ureg.Unflushed(fn)
	for _, key := range keys {
		before[ureg.Name(fn, key)] = true
	}
	keys2, _ := ureg.Unflushed(fn2)
	for _, key := range keys2 {
		if n := ureg.Name(fn2, key); n == name || !before[n] {
			return "the fixed text leaves " + n + " unflushed"
		}
	}
	return ""
}
