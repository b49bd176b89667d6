package cppfront

import (
	"bytes"
	"slices"
	"sort"
	"time"

	sitter "github.com/tree-sitter/go-tree-sitter"
)

// Parse less.
//
// Most bytes of a kernel file are host code around the VF functions:
// tiling, queue set-up, CopyIn/CopyOut, the Process loop. Lowering walks
// none of their trees, so tree-sitter need not build them. Before the
// parse, a lexical scan (scanBlocks) finds the bodies of the functions
// defined at declaration level (in a namespace, an extern "C" block or a
// class); the body of one that lowering provably never reads is replaced
// by white space and one empty statement, keeping its braces, every
// newline and so every byte offset:
//
//	__aicore__ inline void CopyIn(int32_t i) {        // before
//	    LocalTensor<T> x = inQueue.AllocTensor<T>();
//	    DataCopy(x, xGm[i * tileLength], tileLength);
//	}
//	__aicore__ inline void CopyIn(int32_t i) {        // after
//	;
//
//	}
//
// Tree-sitter skips white space several times faster than it parses
// tokens, and a file parsed whole does not read the blanked bodies at all
// (parseTreesSkipping: included ranges). The tree is the whole parse's tree
// with these bodies holding one empty statement; the
// lowerer still reads the text of the file unblanked, so lowering that only
// looks at text (which functions are regions, where a name is called, which
// members a method writes) sees the file as it is.
//
// What lowering reads of a function definition, region or not:
//   - its header: name, class, template parameters (walkDecls, addFunc)
//     — never blanked;
//   - the tree of its body when it is a region that is lowered (a simd
//     marker before the body, a register type in its text) or holds a
//     __VEC_SCOPE__ block: kept when its header or body holds a VF marker
//     ("hot"). A SIMT function (a simt marker, no other marker, no
//     register type) is recorded from its header alone: its body is not
//     lowered (its kind is not Analysed);
//   - the tree of a caller of a region, for the values it passes
//     (callers.go): kept when its body mentions, even in a comment, a
//     name followed by "(" outside the parentheses of the header of a
//     hot block (its name) that may take such values: not a SIMT
//     function, and not one without parameters that is no template
//     (callSiteFacts and scopeCallerFacts ask its callers nothing);
//   - the tree of a constructor or an Init* method, for the members they
//     set once (members.go): kept when its header calls a name that starts
//     with Init or that follows class, struct or union somewhere in the file;
//     other methods are searched as text only;
//   - the tree of a constexpr function of one return, for the project
//     index's view of the file (constFn): kept when constexpr or consteval
//     is in its header.
//
// In the bodies kept for callers and setters, a statement that is a call
// and nothing else (DataCopy(x, y, n); pipe.InitBuffer(q, 2, len);) is
// blanked when it holds no = & ++ or --, mentions no name a hot header
// calls and calls no function the file may define: such a statement
// changes no variable or member that lowering tracks (killAssigned,
// memberValues). In a caller, so is everything after the statement that
// holds its last call: the facts of a call site come from the text before
// it and the loops around it (enclosing). Comments are blanked everywhere,
// as C++ reads them: white space. Over the corpus's VF files this leaves
// tree-sitter 4.4% fewer nodes to build (8.75 M to 8.36 M) and 34.6 MB of
// 47.1 MB to read instead of 38.4 MB.
//
// In the hot bodies, the simple statements (calls, declarations) are left
// out of the parse as well, and put back in the flat trees from the
// subtree of their shape (splice.go).
//
// Class bodies, namespaces and everything between functions are kept,
// but for the prototypes lazydecl.go finds.
// Where the scan is unsure, it keeps: a brace that follows something other
// than ")" (or const, override, final, noexcept), a header with an "="
// outside a template parameter list (a lambda), a class whose header has a
// parenthesis, a header with two names before a "(" (__mix__(1, 2) void
// f(...), which tree-sitter reads one way or another depending on the
// body), a body with a directive (an #if splitting a statement, whose
// error recovery can reshape the tree around the body). When it loses
// track of the braces (an unbalanced brace, braces across #else, a
// directive closing a block) nothing is blanked. After the parse, every
// blanked body must be the body of a function_definition that the
// declaration walk reaches, outside any ERROR node; if one is not, the
// file is parsed again whole.
//
// Not foreseen: a body that tree-sitter cannot parse for other reasons
// (garbage such as "{+}") can reshape the whole parse's tree around it.
// Code that compiles gives no such body; FuzzLazy compares both parses
// where the blanked bodies parse cleanly, TestLazyCorpus on the CANN
// operator repositories.

// parseWhole turns the lazy parse off, for tests that compare both.
var parseWhole = false

// lazyNote, when set (by a test), hears of each lazy parse: the size of
// the text, the bytes not blanked, and whether the trees held.
var lazyNote func(total, kept int, held bool)

// lazyBlock is a brace block the scan found.
type lazyBlock struct {
	hdr, open, close int      // start of the header (after the last ; { or } before it), offsets of { and }
	parent           int      // index of the enclosing block, -1 for none
	level            bool     // a function body at declaration level: a candidate for blanking
	gaps             [][2]int // of a caller's or setter's body kept: stretches lowering never reads (statementGaps)
}

// lazyPlan is the pre-passed text with the bodies lowering never reads
// blanked, and where they are.
type lazyPlan struct {
	text    []byte   // the text to parse
	bodies  [][2]int // the blanked blocks: offsets of { and }
	holes   [][2]int // the stretches blanked whole, [from, to), in order: the parse skips them (parseTreesSkipping)
	kept    int      // bytes not blanked
	splices splices  // the statements left out (splice.go)
}

// planLazy blanks the function bodies of clean that lowering never reads,
// the statements of callers and setters it never reads, and the comments
// (see above). blanks are the pre-pass's. It returns nil when it blanks
// nothing.
//
// only, when not nil, are the byte ranges of the regions the caller wants
// lowered (Options.only): a VF function outside them is blanked too, unless
// one of them calls it or it calls one of them (its values and
// instantiations reach them).
func planLazy(t *tokens, blanks []blank, only [][2]int) *lazyPlan {
	return planLazySplicing(t, blanks, only, splicing(only), time.Time{})
}

// noSplices turns splicing off, for tests that compare both.
var noSplices = false

// splicing reports whether a plan leaves statements out (splice.go): not
// for a fix's lowering of some regions (only), nor when a test says not.
func splicing(only [][2]int) bool { return only == nil && !noSplices }

// planLazySplicing is planLazy, leaving the simple statements of hot
// bodies out of the parse when leaveOut (splice.go), learning new shapes
// until the deadline (zero: none).
func planLazySplicing(t *tokens, blanks []blank, only [][2]int, leaveOut bool, deadline time.Time) *lazyPlan {
	clean := t.src
	blocks, why, hits, ok := classify(t, blanks, only)
	if !ok {
		return nil
	}
	var bodies, gaps [][2]int
	for k, b := range blocks {
		if why[k] == "" && bytes.ContainsFunc(clean[b.open+1:b.close], func(r rune) bool { return r != '\n' && r != '\r' }) {
			bodies = append(bodies, [2]int{b.open, b.close})
		}
		gaps = append(gaps, b.gaps...)
	}
	gaps = append(gaps, t.prototypes(blocks, hits)...) // lazydecl.go
	out := bytes.Clone(clean)
	p := &lazyPlan{text: out, bodies: bodies, kept: len(clean)}
	for _, b := range bodies {
		in := out[b[0]+1 : b[1]]
		fill(in)
		// An empty statement keeps the body a compound statement: empty
		// braces after a declarator can be an initializer list as well,
		// which tree-sitter takes them for when a stray ";" follows
		// (T CeilDiv(T a, T b) {...};), and the file would be parsed
		// again whole.
		semi := b[0] + 1 + bytes.IndexByte(in, ' ')
		out[semi] = ';'
		p.kept -= b[1] - b[0] - 2
		p.holes = append(p.holes, [2]int{b[0] + 1, semi}, [2]int{semi + 1, b[1]})
	}
	// In the bodies kept, the statements lowering never reads, and every
	// comment left.
	for _, g := range gaps {
		fill(out[g[0]:g[1]])
		p.kept -= g[1] - g[0]
		p.holes = append(p.holes, g)
	}
	comments := blankComments(t, out)
	p.kept -= comments
	if leaveOut {
		p.splices = t.findSplices(blocks, why, hits, blanks, t.definedNames(blocks), deadline)
		for _, sp := range p.splices {
			from := int(sp.offs[0])
			for i := from; i < int(sp.semi); i++ {
				if !isSpaceByte(out[i]) {
					out[i] = ' '
					p.kept--
				}
			}
			p.holes = append(p.holes, [2]int{from, int(sp.semi)})
		}
	}
	slices.SortFunc(p.holes, func(a, b [2]int) int { return a[0] - b[0] })
	if len(bodies) == 0 && len(gaps) == 0 && comments == 0 && len(p.splices) == 0 {
		return nil
	}
	p.holes = t.blankLineHoles(out, p.holes)
	return p
}

// minBlankHole is the least span, in bytes from the first newline of a
// run of white space to its last, that blankLineHoles leaves out; a run
// whose stretch from after its first newline to its end (the next token's
// indentation included) is minIndentHole bytes or more is left out to its
// end instead. Each hole is a range more for tree-sitter to switch to,
// which costs about what reading a few dozen blanks does: over the CANN
// repositories, leaving out every indentation (a hole a line) made the
// parse slower, from 16 bytes on it broke even, and from 32 on it took
// 4% less than blank lines alone (paired runs of a temporary test).
const (
	minBlankHole  = 8
	minIndentHole = 32
)

// blankLineHoles returns holes (in order, not overlapping) with the white
// space between t's tokens in text (the lazy text of t's, where every
// comment between them is blanked) added, merged in order: in a run of
// white space, from after its first newline to its end when that is
// minIndentHole bytes or more, else to after its last newline when the
// two newlines are minBlankHole bytes apart or more. Tree-sitter reads
// white space byte by byte; left out by included ranges it is not read
// at all: over the CANN repositories the parse of the planned files takes
// 4 to 5% less than with no white space left out (three paired runs of a
// temporary test), for the same trees (TestLazySkipsBodiesCorpus).
//
// What it leaves alone, where the tree would change: white space inside a
// token (a raw string's lines, a directive's continued lines), the run
// after a directive (tree-sitter's newline that ends one takes the blank
// lines after it too), a run after a line continuation, and a run that
// ends the text (the translation unit would end before it).
func (t *tokens) blankLineHoles(text []byte, holes [][2]int) [][2]int {
	var add [][2]int
	prev := 0
	for k := 0; k <= len(t.toks); k++ {
		end := len(text)
		if k < len(t.toks) {
			end = int(t.toks[k].start)
		}
		if k == 0 || t.toks[k-1].kind != '#' {
			add = appendBlankRuns(add, text, prev, end)
		}
		if k < len(t.toks) {
			prev = int(t.toks[k].end)
		}
	}
	if len(add) == 0 {
		return holes
	}
	all := append(slices.Clip(holes), add...)
	slices.SortFunc(all, func(a, b [2]int) int { return a[0] - b[0] })
	out := all[:0]
	for _, h := range all {
		if n := len(out); n > 0 && h[0] <= out[n-1][1] {
			out[n-1][1] = max(out[n-1][1], h[1])
			continue
		}
		out = append(out, h)
	}
	return out
}

// appendBlankRuns appends to add the blank lines of each run of white
// space in text[from:to] (see blankLineHoles).
func appendBlankRuns(add [][2]int, text []byte, from, to int) [][2]int {
	for i := from; i < to; {
		if !isSpaceByte(text[i]) {
			i++
			continue
		}
		first, last, j := -1, -1, i
		for ; j < to && isSpaceByte(text[j]); j++ {
			if text[j] == '\n' {
				if first < 0 {
					first = j
				}
				last = j
			}
		}
		switch {
		case first < 0 || j == len(text) || i > 0 && text[i-1] == '\\':
		case j-(first+1) >= minIndentHole:
			add = append(add, [2]int{first + 1, j})
		case last-first >= minBlankHole:
			add = append(add, [2]int{first + 1, last + 1})
		}
		i = j
	}
	return add
}

// classify finds the brace blocks of clean and says for each why its
// body is parsed: "" for a body to blank, else "nested" (inside another
// block), "not a function" (no declaration-level function body, as far as
// the scan can tell), "empty", "hot" (a VF marker in the header or body),
// "constexpr", "setter" (a constructor or Init method), "caller" (it
// mentions a name a hot block's header calls).
func classify(t *tokens, blanks []blank, only [][2]int) ([]lazyBlock, []string, []int, bool) {
	clean := t.src
	blocks, classes, ok := scanBlocks(t)
	if !ok || len(blocks) == 0 {
		return nil, nil, nil, false
	}
	hits := t.vfHits(blanks)
	marked := func(b *lazyBlock) bool {
		k := sort.SearchInts(hits, b.hdr)
		return k < len(hits) && hits[k] <= b.close
	}
	hot := marked
	if only != nil {
		hot = onlyHot(t, blocks, marked, only)
	}
	// The names called in the headers of hot blocks that may be function
	// definitions (not inside a function body) and may take values from
	// their callers.
	names := map[string]bool{}
	inBody := make([]bool, len(blocks)) // a level block or inside one
	marks := make([]blockMarks, len(blocks))
	for k := range blocks {
		b := &blocks[k]
		inBody[k] = b.level || b.parent >= 0 && inBody[b.parent]
		if !hot(b) {
			continue
		}
		marks[k] = marksOf(clean, blanks, b)
		if (b.parent < 0 || !inBody[b.parent]) && marks[k].takesFacts(t, b.hdr, b.open) {
			t.callNames(b.hdr, b.open, func(n []byte) { names[string(n)] = true })
		}
	}
	why := make([]string, len(blocks))
	var defined map[string]bool // statementGaps', made on first use
	for k := range blocks {
		b := &blocks[k]
		h := clean[b.hdr:b.open]
		switch {
		case b.parent >= 0:
			why[k] = "nested"
			continue
		case !b.level:
			why[k] = "not a function"
			continue
		case b.close <= b.open+1:
			why[k] = "empty"
			continue
		case hot(b) && !marks[k].simtOnly(clean[b.hdr:b.close+1]):
			why[k] = "hot"
			continue
		case bytes.Contains(h, []byte("constexpr")) || bytes.Contains(h, []byte("consteval")):
			why[k] = "constexpr"
			continue
		}
		calls := 0
		t.callNames(b.hdr, b.open, func(n []byte) {
			calls++
			if bytes.HasPrefix(n, []byte("Init")) || classes[string(n)] {
				why[k] = "setter"
			}
		})
		switch {
		case why[k] != "":
			continue
		case calls != 1:
			// __mix__(1, 2) void f(...): tree-sitter reads such a head
			// one way or another depending on the body.
			why[k] = "odd header"
			continue
		case t.hasDirective(b.open, b.close):
			// An #if in a body often splits a statement; tree-sitter's
			// recovery from that can reshape the tree around the body.
			why[k] = "directive"
			continue
		}
		body := clean[b.open:b.close]
		last := -1
		eachIdent(body, func(i, e int) {
			if names[string(body[i:e])] {
				last = b.open + i
			}
		})
		if last >= 0 {
			why[k] = "caller"
			b.gaps = t.statementGaps(blocks, b, last, names, &defined)
		}
	}
	for k := range blocks {
		if why[k] == "setter" {
			blocks[k].gaps = t.statementGaps(blocks, &blocks[k], -1, names, &defined)
		}
	}
	return blocks, why, hits, true
}

// statementGaps returns the stretches of the body of b, a caller's (the
// last mention of one of names at offset last) or a setter's (last -1),
// that lowering never reads: the call statements that write nothing
// (callStatements), and in a caller everything after the statement that
// holds the last call (tailCut). defined is filled on first use, from
// blocks (all the file's).
func (t *tokens) statementGaps(blocks []lazyBlock, b *lazyBlock, last int, names map[string]bool, defined *map[string]bool) [][2]int {
	if *defined == nil {
		*defined = t.definedNames(blocks)
	}
	cut := b.close
	if last >= 0 {
		if c := t.tailCut(b, last); c > 0 {
			cut = c
		}
	}
	var gaps [][2]int
	t.callStatements(b, names, *defined, func(from, to int) {
		if to <= cut {
			gaps = append(gaps, [2]int{from, to})
		}
	})
	if cut < b.close && bytes.ContainsFunc(t.src[cut:b.close], func(r rune) bool { return !isSpaceByte(byte(r)) }) {
		gaps = append(gaps, [2]int{cut, b.close})
	}
	return gaps
}

// onlyHot narrows marked to the blocks Options.only wants: those inside
// its ranges, the marked blocks whose name their text names (helpers they
// call), and the marked blocks whose text names one of theirs (callers).
func onlyHot(t *tokens, blocks []lazyBlock, marked func(*lazyBlock) bool, only [][2]int) func(*lazyBlock) bool {
	clean := t.src
	// A wanted block is a function body inside a range, or around one (the
	// function holding a __VEC_SCOPE__ region); a namespace or class body
	// around a range is not (it would want the whole file).
	inside := func(b *lazyBlock) bool {
		if !b.level {
			return false
		}
		for _, r := range only {
			if r[0] <= b.open && b.close < r[1] || b.open <= r[0] && r[1] <= b.close+1 {
				return true
			}
		}
		return false
	}
	keep := make(map[int]bool, len(blocks))
	var candidates []int // marked function bodies not wanted
	for k := range blocks {
		b := &blocks[k]
		switch {
		case !marked(b):
		case inside(b) || !b.level:
			// A namespace or class body is never blanked: it stays as
			// marked as it is.
			keep[b.hdr] = true
		default:
			candidates = append(candidates, k)
		}
	}
	// The helpers the wanted blocks call, and the helpers those call, and
	// so on: their bodies make the calls' effects.
	named := map[string]bool{}
	addText := func(b *lazyBlock) {
		text := clean[b.hdr : b.close+1]
		eachIdent(text, func(i, e int) { named[string(text[i:e])] = true })
	}
	for _, r := range only { // the wanted regions' own text
		a, e := max(r[0], 0), min(r[1], len(clean))
		if a < e {
			text := clean[a:e]
			eachIdent(text, func(i, e int) { named[string(text[i:e])] = true })
		}
	}
	for changed := true; changed; {
		changed = false
		for _, k := range candidates {
			b := &blocks[k]
			if keep[b.hdr] {
				continue
			}
			t.callNames(b.hdr, b.open, func(n []byte) {
				if named[string(n)] && !keep[b.hdr] {
					keep[b.hdr], changed = true, true
					addText(b)
				}
			})
		}
	}
	// The callers of the wanted blocks, and their callers: their call
	// sites give the wanted blocks values and instantiations. (Not the
	// helpers of callers: they do not reach the wanted blocks.)
	own := map[string]bool{}
	callers := map[int]bool{}
	around := func(b *lazyBlock) bool { // b is or holds a wanted region
		for _, r := range only {
			if r[0] <= b.open && b.close < r[1] || b.open <= r[0] && r[1] <= b.close+1 {
				return true
			}
		}
		return false
	}
	for k := range blocks {
		if b := &blocks[k]; around(b) {
			t.callNames(b.hdr, b.open, func(n []byte) { own[string(n)] = true })
		}
	}
	for changed := true; changed; {
		changed = false
		for _, k := range candidates {
			b := &blocks[k]
			if callers[k] {
				continue
			}
			body := clean[b.open:b.close]
			eachIdent(body, func(i, e int) {
				if own[string(body[i:e])] && !callers[k] {
					callers[k], changed = true, true
					keep[b.hdr] = true
					t.callNames(b.hdr, b.open, func(n []byte) { own[string(n)] = true })
				}
			})
		}
	}
	return func(b *lazyBlock) bool { return keep[b.hdr] }
}

// blockMarks are the region markers of a hot block (vfHits).
type blockMarks struct {
	simdHead, simtHead bool // a __simd_* or __simt_* marker in the header
	scope              bool // a __VEC_SCOPE__ in the body
	bodyMarker         bool // any region marker in the body
}

func marksOf(clean []byte, blanks []blank, b *lazyBlock) blockMarks {
	var m blockMarks
	k := sort.Search(len(blanks), func(i int) bool { return blanks[i].start >= b.hdr })
	for _, bl := range blanks[k:] {
		if bl.start > b.close {
			break
		}
		if _, ok := markerKinds[bl.text]; !ok {
			continue
		}
		if bl.start > b.open {
			m.bodyMarker = true
			m.scope = m.scope || bl.text == "__VEC_SCOPE__"
			continue
		}
		switch bl.text {
		case "__simd_vf__", "__simd_callee__", "__simd_caller__":
			m.simdHead = true
		case "__simt_vf__", "__simt_callee__":
			m.simtHead = true
		}
	}
	return m
}

// simtOnly reports whether the block, whose text from its header to its
// closing brace is text, is a SIMT function and nothing else that lowering
// reads: a region that is recorded but not lowered (its kind is not
// Analysed), with no other marker and no register type. Its body may be
// blanked unless another reason keeps it (a caller, a setter).
func (m blockMarks) simtOnly(text []byte) bool {
	return m.simtHead && !m.simdHead && !m.bodyMarker && !hasRegType(text)
}

// takesFacts reports whether the function whose header is the text
// [from, to) of t may take values from its call sites: an analysed region
// (not a SIMT one) with a parameter or a template parameter
// (callSiteFacts), or a function holding __VEC_SCOPE__ blocks with one,
// whose blocks see what its callers pass (scopeCallerFacts) and its
// instances (scopeInstances). Where it is unsure, it says yes.
func (m blockMarks) takesFacts(t *tokens, from, to int) bool {
	if m.simtHead && !m.simdHead {
		return false
	}
	return !t.noParams(from, to)
}

// noParams reports whether the header [from, to) of t declares a function
// that is not a template and takes no parameter: one name before a
// parenthesis, whose parentheses hold nothing or void, and no template
// keyword.
func (t *tokens) noParams(from, to int) bool {
	name, n := -1, 0
	t.callNameTokens(from, to, func(k int) { name, n = k, n+1 })
	if n != 1 {
		return false
	}
	toks := t.toks
	for k := t.at(from); k < len(toks) && int(toks[k].start) < to; k++ {
		if toks[k].kind == 'a' && string(t.src[toks[k].start:toks[k].end]) == "template" {
			return false
		}
	}
	// The name's ( is next (a specialisation's <arguments> are not).
	k := name + 2
	if k < len(toks) && t.punct(k, ')') {
		return true
	}
	return k+1 < len(toks) && toks[k].kind == 'a' && string(t.src[toks[k].start:toks[k].end]) == "void" && t.punct(k+1, ')')
}

// holds reports whether every blanked body is, in the trees parsed from
// p.text (one per segment, or one), the body of a function definition.
func (p *lazyPlan) holds(trees []*sitter.Tree, segs []segment) bool {
	for _, b := range p.bodies {
		n := trees[segmentOf(segs, b[0])].RootNode().DescendantForByteRange(uint(b[0]), uint(b[1]+1))
		if n == nil || n.StartByte() != uint(b[0]) || n.EndByte() != uint(b[1]+1) {
			return false
		}
		if kind, _ := kindOf(n.KindId()); kind != "compound_statement" {
			return false
		}
		def := n.Parent()
		if def == nil {
			return false
		}
		if kind, _ := kindOf(def.KindId()); kind != "function_definition" {
			return false
		}
		if body := def.ChildByFieldName("body"); body == nil || body.Id() != n.Id() {
			return false
		}
		// The definition must be one the declaration walk reaches (not one
		// inside another function's body, which lowering may read), and
		// not in a stretch tree-sitter could not place, which it may place
		// otherwise when the body is there.
		for a := def.Parent(); a != nil; a = a.Parent() {
			if kind, _ := kindOf(a.KindId()); a.IsError() || !declLevel[kind] {
				return false
			}
		}
	}
	return true
}

// declLevel are the node kinds a function definition the declaration
// walk finds can be in (containers, and template declarations).
var declLevel = map[string]bool{
	"translation_unit": true, "namespace_definition": true, "declaration_list": true, "linkage_specification": true,
	"class_specifier": true, "struct_specifier": true, "union_specifier": true, "field_declaration_list": true,
	"template_declaration": true, "preproc_if": true, "preproc_ifdef": true, "preproc_else": true, "preproc_elif": true,
	"preproc_elifdef": true, "export_declaration": true,
}

// vfHits is vfHits of t's text, found once for t and blanks:
// noAnalysedRegion and classify both ask. The offsets are shared, read
// only.
func (t *tokens) vfHits(blanks []blank) []int {
	if h := t.hits; h != nil && len(h.blanks) == len(blanks) && (len(blanks) == 0 || &h.blanks[0] == &blanks[0]) {
		return h.at
	}
	t.hits = &textHits{blanks: blanks, at: vfHits(t.src, blanks)}
	return t.hits.at
}

// vfHits returns, sorted, the offsets in clean of what makes a function
// a region or holds a region: a register type as a whole word (hasRegType,
// in code, comments or strings alike), and a pre-pass blank of a region
// marker (markerKinds: __simd_vf__, __VEC_SCOPE__, ...).
func vfHits(clean []byte, blanks []blank) []int {
	var hits []int
	for _, m := range regTypeMarkers {
		for off := 0; ; {
			k := bytes.Index(clean[off:], m)
			if k < 0 {
				break
			}
			k += off
			e := k + len(m)
			if (k == 0 || !isIdentChar(clean[k-1])) && (e == len(clean) || !isIdentChar(clean[e])) {
				hits = append(hits, k)
			}
			off = e
		}
	}
	for _, b := range blanks {
		if _, ok := markerKinds[b.text]; ok {
			hits = append(hits, b.start)
		}
	}
	sort.Ints(hits)
	return hits
}

// notCalls are words followed by a parenthesis that name no function.
var notCalls = map[string]bool{
	"if": true, "for": true, "while": true, "switch": true, "return": true, "sizeof": true, "decltype": true,
	"alignas": true, "alignof": true, "noexcept": true, "static_assert": true, "operator": true, "defined": true,
	"catch": true, "throw": true, "new": true, "delete": true, "typeid": true, "static_cast": true,
	"dynamic_cast": true, "reinterpret_cast": true, "const_cast": true, "requires": true,
}

// callNames calls f with each identifier of the header [from, to) of t
// outside parentheses and followed by "(" or by "<...>(": the declared
// name of a function, and the other words a header can hold before a "("
// (a macro, an attribute). Calls in default arguments are inside the
// parentheses. Directives are passed over: a header runs from the last ;
// { or } before its block, which may be inside a #define (#define STEP(a)
// Add(a); Mul(a)), and the names those lines call are not the function's.
func (t *tokens) callNames(from, to int, f func(name []byte)) {
	t.callNameTokens(from, to, func(k int) { f(t.src[t.toks[k].start:t.toks[k].end]) })
}

// callNameTokens is callNames with the index of each name's token.
func (t *tokens) callNameTokens(from, to int, f func(k int)) {
	toks := t.toks
	depth := 0
	for k := t.at(from); k < len(toks) && int(toks[k].start) < to; k++ {
		switch tk := toks[k]; tk.kind {
		case 'p':
			switch t.src[tk.start] {
			case '(', '[':
				depth++
			case ')', ']':
				depth--
			}
		case 'a':
			if depth != 0 {
				continue
			}
			j := k + 1
			if j < len(toks) && int(toks[j].start) < to && t.punct(j, '<') {
				if a := t.matchAngle(j, to); a > j {
					j = a + 1
				}
			}
			if j < len(toks) && int(toks[j].start) < to && t.punct(j, '(') && !notCalls[string(t.src[tk.start:tk.end])] {
				f(k)
			}
		}
	}
}

// punct reports whether toks[k] is the punctuator c.
func (t *tokens) punct(k int, c byte) bool {
	return t.toks[k].kind == 'p' && t.src[t.toks[k].start] == c
}

// matchAngle returns the index of the token > that closes the < of
// toks[j], or -1 when a ; { or } or the offset to comes first.
func (t *tokens) matchAngle(j, to int) int {
	return angleEnd(j, t.at(to), func(k int) byte {
		if t.toks[k].kind != 'p' {
			return 0
		}
		return t.src[t.toks[k].start]
	})
}

// hasDirective reports whether a directive stands in the text [from, to)
// of t.
func (t *tokens) hasDirective(from, to int) bool {
	for k := t.at(from); k < len(t.toks) && int(t.toks[k].start) < to; k++ {
		if t.toks[k].kind == '#' {
			return true
		}
	}
	return false
}

// scanBlocks finds the brace blocks of src (pre-passed text) with their
// headers, and the identifiers of class heads (after class, struct or
// union, up to the first : , > = ; or {). ok is false when it loses track
// of the braces, as splitSegments does. The scan is made once for t
// (noAnalysedRegion, then classify, read the same text); each caller has
// its own copy of the blocks, whose gaps classify sets. The classes are
// shared: no caller changes them.
func scanBlocks(t *tokens) (blocks []lazyBlock, classes map[string]bool, ok bool) {
	if t.scan == nil {
		b, c, ok := scanBlocksOnce(t)
		t.scan = &blockScan{b, c, ok}
	}
	return slices.Clone(t.scan.blocks), t.scan.classes, t.scan.ok
}

// scanBlocksOnce is scanBlocks, made anew.
func scanBlocksOnce(t *tokens) (blocks []lazyBlock, classes map[string]bool, ok bool) {
	src := t.src
	type lframe struct {
		kind  byte // 'n' namespace or extern block, 'c' class body, '#' conditional, 'o' other brace
		block int  // index in blocks, for 'o'
	}
	n := len(src)
	var (
		stack     []lframe
		parens    = 0    // ( and [ depth
		nsAt      = -1   // start of a `namespace` or `extern "C"` being read, else -1
		prev      byte   // the previous significant byte ('a' an identifier, '0' a number, '"' a literal)
		word      []byte // the identifier, when prev is 'a'
		hdr       = 0    // start of the current header
		eq        bool   // the header has an "=" outside parentheses
		classKw   bool   // the header has class, struct or union outside parentheses
		paren     bool   // the header has a "(" outside parentheses
		naming    bool   // reading a class head's names
		tmpl      = 0    // depth of < > in a template parameter list, whose = ( and class do not count
		tmplAt    = 0    // the parenthesis depth of that list
		afterTmpl bool   // the last word was template: a < opens its list
	)
	classes = map[string]bool{}
	atLevel := func() bool {
		for _, f := range stack {
			if f.kind == 'o' {
				return false
			}
		}
		return true
	}
	newHeader := func(at int) {
		hdr, eq, classKw, paren, naming, tmpl, afterTmpl = at, false, false, false, false, 0, false
	}
	parent := func() int {
		for k := len(stack) - 1; k >= 0; k-- {
			if stack[k].kind == 'o' {
				return stack[k].block
			}
		}
		return -1
	}
	for k := range t.toks {
		tk := &t.toks[k]
		i, j := int(tk.start), int(tk.end)
		c := src[i]
		if tk.kind == '#' {
			switch tk.dir {
			case 'i':
				stack = append(stack, lframe{kind: '#'})
			case 'e':
				if k := len(stack) - 1; k < 0 || stack[k].kind != '#' {
					return nil, nil, false
				}
			case 'n':
				k := len(stack) - 1
				if k < 0 || stack[k].kind != '#' {
					return nil, nil, false
				}
				stack = stack[:k]
			}
			continue
		}
		switch tk.kind {
		case 'a':
			w := src[i:j]
			switch s := string(w); {
			case s == "namespace" || s == "extern":
				if nsAt < 0 {
					nsAt = i
				}
			case s == "inline" || nsAt >= 0 && prev != '"' && (src[nsAt] == 'n' || s == "namespace"):
			default:
				nsAt = -1
			}
			afterTmpl = string(w) == "template"
			if parens == 0 && tmpl == 0 {
				switch string(w) {
				case "class", "struct", "union":
					classKw, naming = true, true
				default:
					if naming {
						classes[string(w)] = true
					}
				}
			}
			prev, word = 'a', w
			continue
		case '"', '0': // a literal (a raw one starts with its prefix)
			if !(c == '"' && nsAt >= 0 && src[nsAt] == 'e') { // extern "C"
				nsAt = -1
			}
			prev = tk.kind
			continue
		}
		if tmpl > 0 || afterTmpl && c == '<' {
			afterTmpl = false
			switch {
			case c == '<' && tmpl == 0:
				tmpl, tmplAt = 1, parens
			case c == '<' && parens == tmplAt:
				tmpl++
			case c == '>' && parens == tmplAt:
				tmpl--
			case c == '(' || c == '[':
				parens++
			case c == ')' || c == ']':
				if parens--; parens < tmplAt {
					return nil, nil, false
				}
			case c == '{' || c == '}' || c == ';':
				tmpl = 0 // not a template parameter list after all
			}
			if tmpl > 0 || c == '>' {
				prev = c
				continue
			}
		}
		afterTmpl = false
		switch c {
		case ':':
			if parens == 0 && !(i+1 < n && src[i+1] == ':') && !(i > 0 && src[i-1] == ':') {
				naming = false
			}
		case '{':
			switch {
			case nsAt >= 0 && parens == 0 && atLevel():
				stack = append(stack, lframe{kind: 'n'})
			case classKw && !eq && !paren && parens == 0 && prev != ')' && atLevel():
				stack = append(stack, lframe{kind: 'c'})
			default:
				level := parens == 0 && !eq && !classKw && atLevel() && (prev == ')' || prev == 'a' && bodyAfter[string(word)])
				blocks = append(blocks, lazyBlock{hdr: hdr, open: i, close: -1, parent: parent(), level: level})
				stack = append(stack, lframe{kind: 'o', block: len(blocks) - 1})
			}
			nsAt = -1
			newHeader(i + 1)
		case '}':
			k := len(stack) - 1
			if k < 0 || stack[k].kind == '#' {
				return nil, nil, false
			}
			if stack[k].kind == 'o' {
				blocks[stack[k].block].close = i
			}
			stack = stack[:k]
			nsAt = -1
			newHeader(i + 1)
		case '(', '[':
			if parens == 0 && c == '(' {
				paren = true
			}
			parens++
			nsAt = -1
		case ')', ']':
			if parens--; parens < 0 {
				return nil, nil, false
			}
			nsAt = -1
		case ';':
			if parens == 0 {
				newHeader(i + 1)
			}
			nsAt = -1
		case '=':
			if parens == 0 {
				eq, naming = true, false
			}
			nsAt = -1
		case ',', '>':
			if parens == 0 {
				naming = false
			}
			nsAt = -1
		default:
			nsAt = -1
		}
		prev = c
	}
	if len(stack) > 0 || parens != 0 {
		return nil, nil, false
	}
	return blocks, classes, true
}

// bodyAfter are the words that may end a function header before its body.
var bodyAfter = map[string]bool{"const": true, "override": true, "final": true, "noexcept": true, "volatile": true}

// noAnalysedRegion reports whether the pre-passed text clean can hold no
// region the rules analyse, from a scan alone. A region is a function
// definition with a __simd_* marker in its header or a register type in
// its text, or a __VEC_SCOPE__ block in a function's body: every one lies
// in a brace block the scan finds (scanBlocks: function bodies, not
// namespaces or class bodies), from the block's header to its closing
// brace. So the text holds none when every VF marker (a register type
// word, a __simd_*, __simt_* or __VEC_SCOPE__ marker: vfHits) lies outside
// every such block, in a declaration (a prototype, an alias, a member
// declared in a class body), or is a __simt_* marker in the header of a
// function at declaration level that is SIMT only (no other marker, no
// register type: simtOnly), which the lowering records but no rule reads.
// A header of declarations only, such as the C API's, names register types
// and __simd_callee__ in every prototype; a header of tiling code names
// RegTensor only in a comment's look-alike or a using-declaration. A text
// without a brace holds no region either. When the scan loses track of the
// braces it says no; lowerOrphans, which turns a marker in a stretch
// tree-sitter gave up on into a region, leaves the markers such a scan
// puts outside every block, as this does.
func noAnalysedRegion(t *tokens, blanks []blank) bool {
	hits := t.vfHits(blanks)
	if len(hits) == 0 {
		return true
	}
	blockOf, ok := t.bodyBlocks()
	if !ok {
		return false
	}
	clean := t.src
	simtOnly := -1 // the last block found SIMT only: hits are in order, and its others need no second look
	for _, h := range hits {
		k := blockOf(h)
		if k < 0 {
			continue // in a declaration
		}
		if !isSimtMarker(blanks, h) {
			return false
		}
		if k == simtOnly {
			continue
		}
		b := &t.scan.blocks[k] // read only
		if !b.level || !marksOf(clean, blanks, b).simtOnly(clean[b.hdr:b.close+1]) {
			return false
		}
		simtOnly = k
	}
	return true
}

// bodyBlocks returns which brace block of t (scanBlocks, as t.scan holds
// it) spans an offset, from the block's header to its closing brace, of
// those no other block holds: -1 for an offset in none, where no region
// can be (a declaration). ok is false when the scan lost track of the
// braces. A text without a brace has no block, whatever else the scan
// makes of it (unbalanced parentheses): no function body.
func (t *tokens) bodyBlocks() (blockOf func(at int) int, ok bool) {
	if !slices.ContainsFunc(t.toks, func(k tok) bool { return k.kind == 'p' && t.src[k.start] == '{' }) {
		return func(int) int { return -1 }, true
	}
	if _, _, ok := scanBlocks(t); !ok {
		return nil, false
	}
	blocks := t.scan.blocks
	var top []int // the blocks no other holds, in order: their spans are disjoint
	for k := range blocks {
		if blocks[k].parent < 0 {
			top = append(top, k)
		}
	}
	return func(at int) int {
		i := sort.Search(len(top), func(i int) bool { return blocks[top[i]].close >= at })
		if i < len(top) && blocks[top[i]].hdr <= at {
			return top[i]
		}
		return -1
	}, true
}

// isSimtMarker reports whether a __simt_* marker was blanked at offset at.
func isSimtMarker(blanks []blank, at int) bool {
	k := sort.Search(len(blanks), func(i int) bool { return blanks[i].start >= at })
	return k < len(blanks) && blanks[k].start == at && (blanks[k].text == "__simt_vf__" || blanks[k].text == "__simt_callee__")
}

// hasWord reports whether w is an identifier of h.
func hasWord(h []byte, w string) bool {
	found := false
	eachIdent(h, func(i, e int) { found = found || string(h[i:e]) == w })
	return found
}

// tailCut returns the offset from which the body of block b (a caller's)
// can be blanked: the end of the statement of the body that holds the
// last mention of a name (at offset last), or -1 when nothing follows it.
// What a call site's facts read of its caller is the text before the call
// and the loops around it (enclosing), so the statements after the one
// holding the last call are never read. A statement ends at a ; or a }
// at the body's own level that no else, while (of a do) or catch
// continues, and that no ; , ) or operator follows (a lambda or braced
// initializer inside a declaration).
func (t *tokens) tailCut(b *lazyBlock, last int) int {
	depth := 0
	k := t.at(b.open)
	end := t.at(b.close)
	for ; k < end; k++ {
		tk := t.toks[k]
		if tk.kind == '#' {
			return -1
		}
		if tk.kind != 'p' {
			continue
		}
		switch t.src[tk.start] {
		case '(', '[', '{':
			depth++
			continue
		case ')', ']', '}':
			depth--
			if depth < 1 {
				return -1
			}
			if t.src[tk.start] != '}' {
				continue
			}
		case ';':
		default:
			continue
		}
		if depth != 1 || int(tk.start) < last {
			continue
		}
		next := k + 1
		if next >= end {
			return -1
		}
		nt := t.toks[next]
		switch nt.kind {
		case 'a':
			switch string(t.src[nt.start:nt.end]) {
			case "else", "while", "catch":
				continue
			}
		case 'p':
			switch t.src[nt.start] {
			case '{', '}':
			default:
				continue
			}
		default:
			continue
		}
		return int(tk.end)
	}
	return -1
}

// callStatements calls f with the start and end (after its ;) of each
// statement of the body of b that is a call and nothing else
// (a.b->c<T>(x).d(y);), at any depth of braces but outside parentheses,
// after a ; { or } (so no if, else, label or case owns it alone), that
// holds no = & ++ or --, mentions none of keep, and calls no name in
// defined. Such a statement writes no variable and no member that
// lowering sees written: only an assignment, ++, --, a unary & or a call
// of a function defined in the file (killAssigned, memberValues) does.
func (t *tokens) callStatements(b *lazyBlock, keep, defined map[string]bool, f func(from, to int)) {
	first, end := t.at(b.open)+1, t.at(b.close)
	paren := 0
	for k := first; k < end; k++ {
		tk := t.toks[k]
		if tk.kind == 'p' {
			switch t.src[tk.start] {
			case '(', '[':
				paren++
			case ')', ']':
				paren--
			}
			continue
		}
		if tk.kind != 'a' || paren != 0 || !t.punct(k-1, ';') && !t.punct(k-1, '{') && !t.punct(k-1, '}') {
			continue
		}
		if e := t.callStatement(k, end, keep, defined); e > k {
			f(int(tk.start), int(t.toks[e].end))
			k = e
		}
	}
}

// callStatement returns the index of the ; that ends the call statement
// starting at toks[k] (see callStatements), or -1 when it is not one.
func (t *tokens) callStatement(k, end int, keep, defined map[string]bool) int {
	calls := 0
	want := 'a' // 'a': an identifier; 'o': what follows one or a call's )
	for ; k < end; k++ {
		tk := t.toks[k]
		switch want {
		case 'a':
			if tk.kind != 'a' || keep[string(t.src[tk.start:tk.end])] {
				return -1
			}
			want = 'o'
			continue
		}
		if tk.kind != 'p' {
			return -1
		}
		switch c := t.src[tk.start]; {
		case c == ';':
			if calls == 0 {
				return -1
			}
			return k
		case c == '.':
			want = 'a'
		case c == ':' && k+1 < end && t.punct(k+1, ':'):
			k++
			want = 'a'
		case c == '-' && k+1 < end && t.punct(k+1, '>'):
			k++
			want = 'a'
		case c == '<':
			j := t.matchAngle(k, int(t.toks[end].start))
			if j < 0 {
				return -1
			}
			for i := k + 1; i < j; i++ {
				if !t.plainTok(i, keep, defined) {
					return -1
				}
			}
			k = j
		case c == '(':
			if t.toks[k-1].kind == 'a' && defined[string(t.src[t.toks[k-1].start:t.toks[k-1].end])] {
				return -1
			}
			if t.toks[k-1].kind == 'p' && t.src[t.toks[k-1].start] == '>' {
				// Foo<T>(...): the name before the <.
				if n := t.angleName(k - 1); n < 0 || defined[string(t.src[t.toks[n].start:t.toks[n].end])] {
					return -1
				}
			}
			depth := 0
			j := k
			for ; j < end; j++ {
				if t.toks[j].kind == 'p' {
					switch t.src[t.toks[j].start] {
					case '(', '[', '{':
						depth++
					case ')', ']', '}':
						depth--
					}
				}
				if depth == 0 {
					break
				}
				if !t.plainTok(j, keep, defined) {
					return -1
				}
			}
			if j >= end {
				return -1
			}
			calls++
			k = j
		default:
			return -1
		}
	}
	return -1
}

// plainTok reports whether toks[i] neither writes (= & + - as parts of an
// assignment, ++, -- or a unary &: any = or &, a doubled + or -) nor is a
// name in keep or defined, nor a directive.
func (t *tokens) plainTok(i int, keep, defined map[string]bool) bool {
	tk := t.toks[i]
	switch tk.kind {
	case '#':
		return false
	case 'a':
		return !keep[string(t.src[tk.start:tk.end])] && !defined[string(t.src[tk.start:tk.end])]
	case 'p':
		switch c := t.src[tk.start]; c {
		case '=', '&':
			return false
		case '+', '-':
			return !(i+1 < len(t.toks) && t.punct(i+1, c) && t.toks[i+1].start == tk.end)
		}
	}
	return true
}

// angleName returns the index of the identifier before the < that the >
// at toks[j] closes, or -1.
func (t *tokens) angleName(j int) int {
	depth := 0
	for i := j; i > 0; i-- {
		if t.toks[i].kind != 'p' {
			continue
		}
		switch t.src[t.toks[i].start] {
		case '>':
			depth++
		case '<':
			if depth--; depth == 0 {
				if t.toks[i-1].kind == 'a' {
					return i - 1
				}
				return -1
			}
		case ';', '{', '}':
			return -1
		}
	}
	return -1
}

// definedNames returns the names a function defined in t's text may have
// (lowerer.defined): every name called in the header of a brace block, and
// the name of every function-like macro it defines.
func (t *tokens) definedNames(blocks []lazyBlock) map[string]bool {
	out := map[string]bool{}
	for k := range blocks {
		t.callNames(blocks[k].hdr, blocks[k].open, func(n []byte) { out[string(n)] = true })
	}
	for _, tk := range t.toks {
		if tk.kind != '#' {
			continue
		}
		d := bytes.TrimLeft(t.src[tk.start+1:tk.end], " \t")
		if !bytes.HasPrefix(d, []byte("define")) {
			continue
		}
		d = bytes.TrimLeft(d[len("define"):], " \t")
		e := 0
		for e < len(d) && isIdentChar(d[e]) {
			e++
		}
		if e > 0 && e < len(d) && d[e] == '(' {
			out[string(d[:e])] = true
		}
	}
	return out
}

// blankComments blanks in text (t's text, or a copy) the comments between
// t's tokens, as C++ reads a comment: white space. Tree-sitter would lex
// each and make it a node that lowering passes over (a comment node is one
// in 23 of the corpus's VF files' nodes). Between two tokens there is
// nothing but comments, white space and line continuations, which C++
// reads as white space all (a continuation joins lines before comments
// are seen). It returns the bytes blanked.
func blankComments(t *tokens, text []byte) int {
	blanked := 0
	prev := 0
	for k := 0; k <= len(t.toks); k++ {
		end := len(text)
		if k < len(t.toks) {
			end = int(t.toks[k].start)
		}
		if s := text[prev:end]; bytes.IndexByte(s, '/') >= 0 {
			for i, c := range s {
				if !isSpaceByte(c) {
					s[i] = ' '
					blanked++
				}
			}
		}
		if k < len(t.toks) {
			prev = int(t.toks[k].end)
		}
	}
	return blanked
}
