package stream

import (
	"sort"

	"github.com/ascvet/ascvet/cppfront/ir"
)

// fromMacro reports whether a fix for s would edit text that a macro
// expansion made: the Pre or Post, or the loop, came from an expansion, so
// its position is that of the whole invocation and its own text is not in
// the file. Such a site is still reported, never fixed.
func fromMacro(f *ir.File, s Site) bool {
	if len(f.Expansions) == 0 {
		return false
	}
	if f.InExpansion(s.Instr.Pos) || s.Loop != nil && (f.InExpansion(s.Loop.Pos) || f.InExpansion(s.Loop.End-1)) {
		return true
	}
	return false
}

// overlapsMacro reports whether the byte range [a, b) of f holds part of a
// macro invocation.
func overlapsMacro(f *ir.File, a, b int) bool {
	// Expansions are sorted and disjoint: the first that ends after a is
	// the only one that can start before b.
	k := sort.Search(len(f.Expansions), func(i int) bool { return f.Tok.Offset(f.Expansions[i].End) > a })
	return k < len(f.Expansions) && f.Tok.Offset(f.Expansions[k].Pos) < b
}
