package cppfront

import (
	"cmp"
	"go/token"
	"slices"
	"sort"

	"github.com/ascvet/ascvet/cppfront/ir"
)

// When tree-sitter gives up on a stretch of a file (two closing braces
// missing, say), it wraps the stretch in one ERROR node and the function
// definitions inside it are lost: their markers would be silently ignored.
//
//	__simd_vf__ void F(float* src) {     // region F, empty, with its parse
//	    for (int i = 0; i < n; i++) {    // error at the end of the stretch
//	        Reg::LoadAlign(v, src);      // tree-sitter could not place
//	// (end of file: two '}' missing)
//
// A region marker that no lowered region covers and that lies in such a
// stretch still makes a region, empty, whose parse error is where the stretch
// ends, so that ASC0001 shows the gap. A marker in a text without a brace,
// or that the lexical scan places outside every brace block (scanBlocks)
// when it keeps track of the braces, is on a declaration (a prototype, say)
// or on garbage: no function is lost there, and it makes no region however
// tree-sitter reads it, as noAnalysedRegion, which leaves such a text
// unparsed, assumes.

// markerKinds are the markers that make a region, with its kind.
var markerKinds = map[string]ir.RegionKind{
	"__simd_vf__": ir.RegionSimdVF, "__simd_callee__": ir.RegionSimdCallee, "__simd_caller__": ir.RegionSimdCaller,
	"__VEC_SCOPE__": ir.RegionVecScope, "__simt_vf__": ir.RegionSimtVF, "__simt_callee__": ir.RegionSimtCallee,
}

// lowerOrphans adds a region for each marker lost in an ERROR node.
func (lw *lowerer) lowerOrphans() {
	if !lw.hasError() {
		return
	}
	blockOf, scanned := lw.tokens().bodyBlocks()
	covered := lw.coverage()
	orphanEnd := token.NoPos // the furthest end of the regions made here (the markers come in order)
	for _, b := range lw.blanks {
		kind, ok := markerKinds[b.text]
		if !ok || scanned && blockOf(b.start) < 0 {
			continue // a marker on a declaration or garbage: no function lost there
		}
		pos := lw.pos(uint32(b.start))
		if pos <= orphanEnd || covered(pos) {
			continue
		}
		k := skipSpace(lw.src, b.end) // the marker is blank now: start at the token after it
		if k >= len(lw.src) {
			continue
		}
		n := lw.rootAt(k).DescendantForByteRange(uint(k), uint(k+1))
		for n != nil && !n.IsError() {
			n = n.Parent()
		}
		if n == nil {
			continue // not in a stretch tree-sitter gave up on: a declaration, say
		}
		e := int(n.EndByte())
		for e > b.end && isSpaceByte(lw.f.Src[e-1]) {
			e-- // report after the last token, not after the white space that follows
		}
		if e < b.start {
			continue
		}
		end := lw.pos(uint32(e))
		fn := &ir.Func{Name: lw.orphanName(b, uint(e)), Kind: kind, Pos: pos, End: end, BodyPos: pos,
			Body: &ir.Block{}, Errors: []token.Pos{end}, Locals: map[string]int64{}}
		lw.f.Funcs = append(lw.f.Funcs, fn)
		orphanEnd = max(orphanEnd, end)
	}
}

// coverage returns whether a region lowered so far spans a position: by a
// binary search of the regions by start, with the furthest end among them
// and those before (regions nest: a vec scope in its function), so that a
// file of many regions and many markers is not looked at once per pair.
func (lw *lowerer) coverage() func(token.Pos) bool {
	type span struct{ pos, end token.Pos }
	spans := make([]span, len(lw.f.Funcs))
	for i, fn := range lw.f.Funcs {
		spans[i] = span{fn.Pos, fn.End}
	}
	slices.SortFunc(spans, func(a, b span) int { return cmp.Compare(a.pos, b.pos) })
	for i := 1; i < len(spans); i++ {
		spans[i].end = max(spans[i].end, spans[i-1].end) // the furthest end so far
	}
	return func(pos token.Pos) bool {
		i := sort.Search(len(spans), func(i int) bool { return spans[i].pos > pos }) - 1
		return i >= 0 && spans[i].end >= pos
	}
}

// orphanName names a lost region: the identifier before the first '(' after
// a function marker, "vec_scope" for a block, "?" when there is none.
func (lw *lowerer) orphanName(b blank, limit uint) string {
	if b.text == "__VEC_SCOPE__" {
		return "vec_scope"
	}
	src := lw.src[:min(int(limit), len(lw.src), b.end+512)]
	for k := b.end; k < len(src); k++ {
		switch src[k] {
		case '(':
			e := k
			for e > b.end && isSpaceByte(src[e-1]) {
				e--
			}
			s := e
			for s > b.end && (isIdentChar(src[s-1]) || src[s-1] == ':') {
				s--
			}
			if s < e {
				return string(src[s:e])
			}
			return "?"
		case '{', ';', '}':
			return "?"
		}
	}
	return "?"
}
