package stream

import "github.com/ascvet/ascvet/cppfront/ir"

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
	for _, x := range f.Expansions {
		if f.Tok.Offset(x.Pos) < b && f.Tok.Offset(x.End) > a {
			return true
		}
	}
	return false
}
