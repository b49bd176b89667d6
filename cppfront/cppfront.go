// Package cppfront lowers Ascend C sources into the VF IR (package ir) with
// tree-sitter-cpp. It is the only cgo package of ascvet: it closes every C
// object it creates, and no tree-sitter object escapes it.
//
// Lowering is cheap on purpose. The pre-pass (prepass.go) already knows the
// byte offsets of every Ascend marker, so only the functions that contain one
// (or that mention a register type) are walked; the rest of the tree is never
// visited from Go.
//
// A big file (over 1 MiB, a generated kernel) is cut between declarations
// by a lexical scan and its parts are parsed and lowered in parallel
// (segments.go); the IR is the one a whole parse gives.
package cppfront

import (
	"go/token"
	"sort"
	"sync/atomic"
	"time"

	"github.com/ascvet/ascvet/cppfront/internal/tsutil"

	sitter "github.com/tree-sitter/go-tree-sitter"
	tscpp "github.com/tree-sitter/tree-sitter-cpp/bindings/go"

	"github.com/ascvet/ascvet/cppfront/ir"
)

var language = sitter.NewLanguage(tscpp.Language())

// parsers is a free list of parsers, reused across files; a parser is not
// safe for concurrent use, so each goroutine takes its own. Not a
// sync.Pool: a pool drops its items at garbage collections, and
// go-tree-sitter sets no finalizer, so every dropped parser would leak its
// C memory (hundreds of collections in a run over an operator repository).
// A parser that does not fit in the list is closed.
var parsers = make(chan *sitter.Parser, 64)

// parsersMade counts the parsers made, for a test.
var parsersMade atomic.Int64

// getParser takes a parser from the list, or makes one.
func getParser() *sitter.Parser {
	select {
	case p := <-parsers:
		return p
	default:
	}
	parsersMade.Add(1)
	p := sitter.NewParser()
	if err := p.SetLanguage(language); err != nil {
		panic("internal error: tree-sitter-cpp language: " + err.Error())
	}
	return p
}

// putParser gives p back to the list, or closes it when the list is full.
func putParser(p *sitter.Parser) {
	select {
	case parsers <- p:
	default:
		p.Close()
	}
}

// ParseFile parses src and lowers its VF regions, with the default Options.
// The file is added to fset under name. Bad C++ never makes an error: it
// shows as Func.Errors and as OpUnknown instructions. The error result is a
// *LimitError for a file beyond the limits, or reports a parser that could
// not run.
func ParseFile(fset *token.FileSet, name string, src []byte) (*ir.File, error) {
	return ParseFileOptions(fset, name, src, Options{})
}

// ParseFileOptions is ParseFile with limits. A file beyond them returns a
// *LimitError, with the file (added to fset) but no region; a parse
// stopped by Options.Stop returns ErrStopped, with no region either.
func ParseFileOptions(fset *token.FileSet, name string, src []byte, opts Options) (f *ir.File, err error) {
	start := time.Now()
	tf := fset.AddFile(name, -1, len(src))
	tf.SetLines(tsutil.LineStarts(src))
	f = &ir.File{Name: name, Tok: tf, Src: src, Consts: map[string]int64{}, Aliases: map[string]string{}}
	f.Relower = func(other []byte, only [][2]int) (*ir.File, error) {
		o := opts
		o.only = only
		return ParseFileOptions(token.NewFileSet(), name, other, o)
	}
	if !HasVFMarker(src) {
		return f, nil
	}
	clean, blanks, toks := prepassDefs(src, opts.Index.commandDefines())
	if d := toks.nesting(); d > opts.maxDepth() {
		return f, depthError(d, opts.maxDepth())
	}
	b := &budget{clock: clock{stop: opts.Stop}, cut: treeCut(opts.maxDepth())}
	if opts.Timeout > 0 {
		b.deadline = start.Add(opts.Timeout)
	}
	for _, bl := range blanks {
		f.Quals = append(f.Quals, ir.Qualifier{Pos: tf.Pos(bl.start), Text: bl.text})
	}
	mac, late := expandFileBy(f, src, clean, toks, blanks, opts.maxDepth(), opts.Index, b.clock)
	if late {
		return noRegions(f), b.err(opts.Timeout)
	}
	if mac != nil {
		clean, blanks, toks = mac.clean, mac.blanks, mac.toks
		mac.toks = nil                 // the lowering keeps mac: not its tokens
		defer func() { f.Src = src }() // lowering reads the expanded text through f.Src
	}
	only := opts.only
	if mac != nil && only != nil {
		only = make([][2]int, len(opts.only))
		for i, r := range opts.only {
			only[i] = [2]int{mac.toExp(r[0]), mac.toExp(r[1])}
		}
	}
	if opts.RegionsOnly && only == nil && noAnalysedRegion(toks, blanks) {
		return f, nil
	}
	trees, segs, sp := parseLazy(toks, blanks, b.clock, only)
	b.splices = sp
	if trees == nil {
		if b.over() {
			return noRegions(f), b.err(opts.Timeout)
		}
		return f, errParse
	}
	defer closeTrees(trees)
	defer func() {
		if r := recover(); r != nil {
			if _, ok := r.(overTime); !ok {
				panic(r)
			}
			f, err = noRegions(f), b.err(opts.Timeout)
		}
	}()
	lw := newLowerer(f, clean, blanks, trees, segs, b)
	lw.toks = toks // clean's, as the pre-pass or the expansion lexed them
	lw.index = opts.Index
	lw.noForeign = opts.noForeign
	lw.mac = mac
	lw.run()
	snapExpansions(f)
	if opts.Index != nil && !opts.noForeign && opts.maxDepth() == DefaultMaxDepth {
		// A header analysed on its own gives the index its helpers from
		// the trees just parsed: the files that call them would have the
		// index parse it again.
		opts.Index.foreignFrom(name, src, func(fset *token.FileSet) *ir.File {
			return lowerForeignTrees(fset, name, src, clean, blanks, trees, segs, sp, mac, opts.Index, lw.flats)
		})
	}
	return f, nil
}

// lowerForeignTrees lowers the file name for its helpers (Options.
// noForeign) from trees already parsed, as ParseFileOptions would from
// src: nil when it runs out of time. flats are the flat trees the file's
// own lowering made of the same trees, which it reads instead of
// flattening them again: half the cost of this second lowering.
func lowerForeignTrees(fset *token.FileSet, name string, src, clean []byte, blanks []blank, trees []*sitter.Tree, segs []segment, sp splices, mac *macroMap, ix *Index, flats *flatCache) (f *ir.File) {
	tf := fset.AddFile(name, -1, len(src))
	tf.SetLines(tsutil.LineStarts(src))
	f = &ir.File{Name: name, Tok: tf, Src: src, Consts: map[string]int64{}, Aliases: map[string]string{}}
	for _, bl := range blanks {
		f.Quals = append(f.Quals, ir.Qualifier{Pos: tf.Pos(bl.start), Text: bl.text})
	}
	if mac != nil {
		for _, sp := range mac.spans {
			f.Expansions = append(f.Expansions, ir.Expansion{Pos: tf.Pos(sp.os), End: tf.Pos(sp.oe), Name: sp.name})
		}
		f.Src = mac.exp
		defer func() {
			if f != nil {
				f.Src = src
			}
		}()
	}
	// Its own clock, never stopped: the index keeps the helpers for every
	// file that calls them.
	b := &budget{clock: clock{deadline: time.Now().Add(foreignLowerTimeout)}, cut: treeCut(DefaultMaxDepth), splices: sp}
	defer func() {
		if r := recover(); r != nil {
			if _, ok := r.(overTime); !ok {
				panic(r)
			}
			f = nil
		}
	}()
	lw := newLowerer(f, clean, blanks, trees, segs, b)
	lw.flats = flats
	lw.index = ix
	lw.noForeign = true
	lw.mac = mac
	lw.run()
	snapExpansions(f)
	return f
}

// parseLazy parses the pre-passed text (toks.src, its tokens toks) with
// the bodies lowering never reads blanked (lazy.go), or whole when the
// scan is unsure or the trees do not hold what it expected. The trees have
// the offsets of the text; nil when the parser stopped (clk over).
func parseLazy(toks *tokens, blanks []blank, clk clock, only [][2]int) ([]*sitter.Tree, []segment, splices) {
	clean := toks.src
	var p *lazyPlan
	if !parseWhole {
		p = planLazySplicing(toks, blanks, only, splicing(only), clk.deadline)
	}
	if p == nil {
		trees, segs := parseTrees(clean, toks, clk)
		return trees, segs, nil
	}
	// The lazy text has tokens of its own (its cuts). Those of clean are
	// not kept through the parse: a parse again whole lexes it again.
	trees, segs := parseTreesSkipping(p.text, p.holes, clk)
	if trees == nil {
		return nil, nil, nil
	}
	held := p.holds(trees, segs)
	if held && len(p.splices) > 0 && !spliceHolds(p.splices, trees, segs) {
		// A statement left out did not leave the empty statement the
		// plan expects: plan again without leaving any out.
		closeTrees(trees)
		if p = planLazySplicing(toks, blanks, only, false, clk.deadline); p == nil {
			trees, segs := parseTrees(clean, toks, clk)
			return trees, segs, nil
		}
		if trees, segs = parseTreesSkipping(p.text, p.holes, clk); trees == nil {
			return nil, nil, nil
		}
		held = p.holds(trees, segs)
	}
	if lazyNote != nil {
		lazyNote(len(clean), p.kept, held)
	}
	if held {
		return trees, segs, p.splices
	}
	closeTrees(trees)
	trees, segs = parseTrees(clean, nil, clk)
	return trees, segs, nil
}

// parseTrees parses the pre-passed text: whole, or in segments when it is big
// (segments.go), cut from its tokens (toks; nil: lexed here when needed).
// It returns nil trees when the parser stopped.
//
// tsutil.Parse watches the deadline from C, not the stop flag: the flag is
// checked before a parse and between segments (parseSegments). A segment
// is small (12 to 256 KB: milliseconds), and a text parsed whole is under
// segmentMin, so a stopped parse ends within a fraction of a second.
func parseTrees(clean []byte, toks *tokens, clk clock) ([]*sitter.Tree, []segment) {
	if clk.stopped() {
		return nil, nil
	}
	if len(clean) >= segmentMin {
		if toks == nil {
			toks = lexText(clean)
		}
		if segs := splitSegments(toks, segmentSize); segs != nil {
			if trees := parseSegments(clean, segs, clk); trees != nil {
				return trees, segs
			}
			if clk.over() {
				return nil, nil // out of time, or stopped: a whole parse would be too
			}
		}
	}
	p := getParser()
	defer putParser(p)
	tree := tsutil.Parse(p, clean, clk.deadline)
	if tree == nil {
		p.Reset()
		return nil, nil
	}
	return []*sitter.Tree{tree}, nil
}

// parseTreesSkipping is parseTrees for lazy text. A file parsed whole is
// parsed with tree-sitter's included ranges leaving out the holes (the
// inside of each blanked body but its empty statement, and the statements
// and prototypes blanked whole), so the parser does not even read the
// white space there: the tree is the same (every blanked body an empty
// compound statement from its { to its }), and the parse of the corpus's
// planned files takes 11% less. A big file goes to the segments as before.
func parseTreesSkipping(text []byte, holes [][2]int, clk clock) ([]*sitter.Tree, []segment) {
	if len(text) >= segmentMin || len(holes) == 0 {
		return parseTrees(text, nil, clk)
	}
	if clk.stopped() {
		return nil, nil
	}
	rs := make([]sitter.Range, 0, len(holes)+1)
	starts := tsutil.LineStarts(text)
	prev := 0
	for _, h := range holes { // in order, not overlapping
		if h[0] > prev {
			rs = append(rs, byteRange(starts, prev, h[0]))
		}
		prev = max(prev, h[1])
	}
	if prev < len(text) {
		rs = append(rs, byteRange(starts, prev, len(text)))
	}
	p := getParser()
	defer func() {
		_ = p.SetIncludedRanges(nil)
		putParser(p)
	}()
	if p.SetIncludedRanges(rs) != nil {
		return parseTrees(text, nil, clk)
	}
	tree := tsutil.Parse(p, text, clk.deadline)
	if tree == nil {
		p.Reset()
		return nil, nil
	}
	return []*sitter.Tree{tree}, nil
}

// byteRange is tree-sitter's range of the bytes from to to, in a text
// whose lines start at starts.
func byteRange(starts []int, from, to int) sitter.Range {
	point := func(off int) sitter.Point {
		row := sort.SearchInts(starts, off+1) - 1
		return sitter.Point{Row: uint(row), Column: uint(off - starts[row])}
	}
	return sitter.Range{StartByte: uint(from), EndByte: uint(to), StartPoint: point(from), EndPoint: point(to)}
}

// noRegions drops what lowering found in a file it could not finish.
func noRegions(f *ir.File) *ir.File {
	f.Funcs, f.Quals, f.Defined = nil, nil, nil
	return f
}

type parseError string

func (e parseError) Error() string { return string(e) }

const errParse = parseError("tree-sitter returned no tree")
