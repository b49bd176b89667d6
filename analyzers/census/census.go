// Package census counts what the stream analysis of ASC1001 and ASC1002
// could see in a file: every LoadUnAlignPre and StoreUnAlignPost inside a
// loop with its verdict and the reason for it, and how the addresses (or
// post-update strides) of the unaligned stream instructions in loops fold.
// It feeds "ascvet stats", where a kernel author or an ascvet developer
// learns why a stream was not reported.
package census

import (
	"go/token"
	"sort"
	"strings"

	"github.com/ascvet/ascvet/analyzers/internal/linear"
	"github.com/ascvet/ascvet/analyzers/internal/stream"
	"github.com/ascvet/ascvet/cppfront/ir"
)

// Address classes of an unaligned stream operand.
const (
	Folded   = "folded"   // linear in known names, every coefficient an integer
	Symbolic = "symbolic" // linear only with an element size or a runtime value as a factor
	Unknown  = "unknown"  // not an expression ascvet can reason about
)

// Site is one Pre or Post in a loop.
type Site struct {
	Pos     token.Position // where the Pre or Post is
	Kind    string         // "pre" or "post"
	Verdict string         // contiguous, not contiguous, unknown
	Why     string         // the reason, empty for contiguous
}

// File is the census of one file.
type File struct {
	Sites     []Site         // in source order
	Addresses map[string]int // Folded, Symbolic, Unknown -> count
}

// Of takes the census of the analysed regions of f.
func Of(f *ir.File) File {
	c := File{Addresses: map[string]int{}}
	for _, fn := range f.Funcs {
		if !fn.Kind.Analysed() {
			continue
		}
		for _, s := range stream.PreSites(fn) {
			c.Sites = append(c.Sites, site(f, s, "pre"))
		}
		for _, s := range stream.PostSites(fn) {
			c.Sites = append(c.Sites, site(f, s, "post"))
		}
		for _, in := range fn.Instrs {
			if in.Loop == ir.NoLoop || in.Form == ir.FormRaw {
				continue
			}
			switch in.Op {
			case ir.OpLoadUnAlignPre, ir.OpLoadUnAlign, ir.OpStoreUnAlign, ir.OpStoreUnAlignPost:
				c.Addresses[classify(fn, in)]++
			}
		}
	}
	sort.SliceStable(c.Sites, func(i, j int) bool { return c.Sites[i].Pos.Offset < c.Sites[j].Pos.Offset })
	return c
}

func site(f *ir.File, s stream.Site, kind string) Site {
	return Site{Pos: f.Tok.Position(s.Instr.Pos), Kind: kind, Verdict: s.Verdict.String(), Why: s.Why}
}

// classify says how the operand that places an instruction's data folds:
// the post-update stride when the instruction advances a pointer, else its
// address, in terms of its loop's variable.
func classify(fn *ir.Func, in *ir.Instr) string {
	k := -1
	for i, a := range in.Args {
		if a.Role == ir.ArgPtr || a.Role == ir.ArgPtrRW {
			k = i
			break
		}
	}
	if k < 0 {
		return Unknown
	}
	e, stride := in.Args[k].Expr, false
	if len(in.PtrDefs) > 0 {
		for _, a := range in.Args[k+1:] {
			if a.Role == ir.ArgScalar {
				e, stride = a.Expr, true
				break
			}
		}
	}
	l, ok := linear.Of(e)
	switch {
	case !ok:
		return Unknown
	case stride && l.IsConst():
		return Folded
	case stride:
		return Symbolic
	}
	if _, ok := l.Coef(fn.Loops[in.Loop].Var); !ok {
		return Symbolic // the loop variable times a runtime value
	}
	for t := range l.Terms {
		if linear.IsAtom(t) || strings.HasPrefix(t, "sizeof(") {
			return Symbolic
		}
	}
	return Folded
}
