package cppfront

import (
	"runtime"
	"sort"
	"sync"

	sitter "github.com/tree-sitter/go-tree-sitter"

	"github.com/ascvet/ascvet/cppfront/internal/tsutil"
)

// A big file is parsed in segments, in parallel: tree-sitter parses one
// file on one thread at about 2 MB/s, which made a generated 40 MB kernel
// take half a minute in the parser alone.
//
// A cheap lexical scan (splitSegments) cuts the file between two
// declarations at namespace level: where every open brace is a namespace's
// or an extern "C" block's, and every open #if is a guard without #else.
// Each segment is parsed with tree-sitter's included ranges: the segment's
// own bytes, plus the openers (`namespace N {`, `#ifndef G`) of the blocks
// open at its start and the closers (`}`, `#endif`) of the blocks open at
// its end. So every tree holds its functions inside the same namespaces as
// the whole file's tree would, with node offsets of the whole file.
//
// Where the scan is unsure (an unbalanced brace, an #else around the
// cut, a brace that might close an initializer) it does not cut. A file
// below segmentMin bytes is parsed whole.

// segmentMin is the size from which a file is parsed in segments, and
// segmentSize the size a segment grows to before it may be cut; variables
// so that tests can cut small files.
var (
	segmentMin  = 1 << 20
	segmentSize = 256 << 10
)

// SetSegments sets the size from which a file is parsed in segments, and
// the size a segment grows to, for the whole process; it returns the
// sizes it replaced. A server that wants one file's diagnostics soon (an
// editor's) cuts small files too, so that a kernel is parsed and lowered
// on every CPU; a run over a tree keeps the defaults, its CPUs being
// busy with other files. The trees and the IR are the same either way
// (TestSegmentsCorpus).
func SetSegments(min, size int) (oldMin, oldSize int) {
	oldMin, oldSize = segmentMin, segmentSize
	segmentMin, segmentSize = min, size
	return oldMin, oldSize
}

// segment is one part of a file: the bytes [start, end) it owns, and the
// ranges its tree is parsed from (the owned bytes and the enclosing
// blocks' openers and closers), in file order.
type segment struct {
	start, end int
	ranges     [][2]int
}

// frame is an open block of the scan.
type frame struct {
	kind       byte   // 'n' namespace or extern block, '#' conditional, 'o' any other brace
	open       [2]int // the opener's bytes: `namespace N {` or the #if line
	close      [2]int // the closer's bytes, once seen; close[1] == 0 until then
	elsePart   bool   // a conditional with #else or #elif
	afterParen bool   // an 'o' brace right after ')': a function body, or a lambda's
}

// cut is a candidate segment boundary and the blocks open there.
type cut struct {
	at    int
	stack []*frame
}

// splitSegments cuts src (the pre-passed text) into segments of about
// size bytes. It returns nil when the file stays whole.
func splitSegments(t *tokens, size int) []segment {
	src := t.src
	n := len(src)
	var (
		stack   []*frame
		cuts    []cut
		last    = 0     // the last accepted cut
		parens  = 0     // ( and [ depth
		nsAt    = -1    // start of a `namespace` or `extern "C"` being read, else -1
		prev    byte    // the previous significant byte
		pending = -1    // a cut after a function body's }, kept until the next token shows it ends a declaration
		bad     = false // the scan lost track: do not split
		clean   = true  // the last token ended a declaration at namespace level
	)
	atLevel := func() bool {
		if parens != 0 {
			return false
		}
		for _, f := range stack {
			if f.kind == 'o' {
				return false
			}
		}
		return true
	}
	offer := func(at int) {
		if at < n && at-last >= size && n-at >= size/2 {
			cuts = append(cuts, cut{at: at, stack: append([]*frame(nil), stack...)})
			last = at
		}
	}
	for k := 0; k < len(t.toks) && !bad; k++ {
		tk := &t.toks[k]
		i, j := int(tk.start), int(tk.end)
		c := src[i]
		if pending >= 0 {
			// A function body's } ended a declaration when a new one
			// starts: a name, a directive or an attribute.
			if isIdentStart(c) || c == '#' || c == '[' {
				offer(pending)
				clean = true
			}
			pending = -1
		}
		if tk.kind == '#' {
			switch tk.dir {
			case 'i':
				stack = append(stack, &frame{kind: '#', open: [2]int{i, min(j+1, n)}})
			case 'e':
				if k := len(stack) - 1; k >= 0 && stack[k].kind == '#' {
					stack[k].elsePart = true
				} else {
					bad = true
				}
			case 'n':
				k := len(stack) - 1
				if k < 0 || stack[k].kind != '#' {
					bad = true
					break
				}
				stack[k].close = [2]int{i, min(j+1, n)}
				stack = stack[:k]
			}
			if clean && atLevel() {
				offer(min(j+1, n))
			}
			continue
		}
		clean = false
		switch tk.kind {
		case 'a':
			switch w := string(src[i:j]); {
			case w == "namespace" || w == "extern":
				if nsAt < 0 {
					nsAt = i
				}
			case w == "inline" || nsAt >= 0 && prev != '"' && (src[nsAt] == 'n' || w == "namespace"):
				// inline namespace, or a namespace's (qualified) name
			default:
				nsAt = -1
			}
			prev = 'a'
			continue
		case '"', '0': // a literal (a raw one starts with its prefix)
			if !(c == '"' && nsAt >= 0 && src[nsAt] == 'e') { // extern "C"
				nsAt = -1
			}
			prev = tk.kind
			continue
		}
		switch c {
		case ':':
			// a qualified namespace name keeps nsAt
		case '{':
			f := &frame{kind: 'o', afterParen: prev == ')'}
			if nsAt >= 0 && parens == 0 && atLevel() {
				f.kind, f.open, clean = 'n', [2]int{nsAt, i + 1}, true
			}
			stack = append(stack, f)
			nsAt = -1
		case '}':
			k := len(stack) - 1
			if k < 0 || stack[k].kind == '#' {
				bad = true
				break
			}
			f := stack[k]
			stack = stack[:k]
			f.close = [2]int{i, i + 1}
			switch {
			case f.kind == 'n':
				if atLevel() {
					offer(i + 1)
				}
				clean = true
			case f.afterParen && atLevel():
				pending = i + 1
			}
			nsAt = -1
		case '(', '[':
			parens++
			nsAt = -1
		case ')', ']':
			if parens--; parens < 0 {
				bad = true
			}
			nsAt = -1
		case ';':
			if atLevel() {
				offer(i + 1)
				clean = true
			}
			nsAt = -1
		default:
			nsAt = -1
		}
		prev = c
	}
	if bad || len(stack) > 0 || parens != 0 {
		return nil
	}
	// A cut is good when every block open there closed, and no
	// conditional around it has an #else.
	good := cuts[:0]
	for _, ct := range cuts {
		ok := true
		for _, f := range ct.stack {
			if f.close[1] == 0 || f.elsePart {
				ok = false
			}
		}
		if ok {
			good = append(good, ct)
		}
	}
	if len(good) == 0 {
		return nil
	}
	segs := make([]segment, 0, len(good)+1)
	from := cut{at: 0}
	for k := 0; k <= len(good); k++ {
		to := cut{at: n}
		if k < len(good) {
			to = good[k]
		}
		s := segment{start: from.at, end: to.at}
		for _, f := range from.stack {
			s.ranges = append(s.ranges, f.open)
		}
		s.ranges = append(s.ranges, [2]int{from.at, to.at})
		for j := len(to.stack) - 1; j >= 0; j-- {
			s.ranges = append(s.ranges, to.stack[j].close)
		}
		segs = append(segs, s)
		from = to
	}
	return segs
}

// trivia returns where the blank or comment that starts at src[i] ends
// (i itself when none starts there), and whether it is a newline: a
// space, tab, CR, form feed, vertical tab, a backslash-newline (with its
// newline: the line goes on), a // comment up to its newline, or a /* */
// comment.
func trivia(src []byte, i int) (next int, newline bool) {
	n, c := len(src), src[i]
	switch {
	case c == '\n':
		return i + 1, true
	case c == '\\' && i+1 < n && src[i+1] == '\n':
		return i + 2, false // a line continued: no new line
	case c == '\\' && i+2 < n && src[i+1] == '\r' && src[i+2] == '\n':
		return i + 3, false
	case c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v':
		return i + 1, false
	case c == '/' && i+1 < n && src[i+1] == '/':
		for i < n && src[i] != '\n' {
			i++
		}
		return i, false
	case c == '/' && i+1 < n && src[i+1] == '*':
		i += 2
		for i+1 < n && !(src[i] == '*' && src[i+1] == '/') {
			i++
		}
		return i + 2, false
	}
	return i, false
}

// literal returns where the string, character or number literal that
// starts at src[i] ends (i itself when none starts there), and the class the
// scans give what they saw last: '"' for a quoted literal, '0' for a number.
// A number is a preprocessing number: a digit, or a . and a digit, then
// identifier characters, digits, dots, digit separators and the sign of an
// exponent (1e+5, 0x1p-3, .5f).
func literal(src []byte, i int) (next int, class byte) {
	switch c := src[i]; {
	case c == '"' || c == '\'':
		return skipQuoted(src, i, c), '"'
	case c >= '0' && c <= '9' || c == '.' && i+1 < len(src) && src[i+1] >= '0' && src[i+1] <= '9':
		j := i + 1
		for j < len(src) && (isIdentChar(src[j]) || src[j] == '.' || src[j] == '\'' ||
			(src[j] == '+' || src[j] == '-') && (src[j-1] == 'e' || src[j-1] == 'E' || src[j-1] == 'p' || src[j-1] == 'P')) {
			j++
		}
		return j, '0'
	}
	return i, 0
}

// directive returns the name of the directive whose text (after #) is d.
func directive(d []byte) string {
	i := 0
	for i < len(d) && (d[i] == ' ' || d[i] == '\t') {
		i++
	}
	j := i
	for j < len(d) && isIdentChar(d[j]) {
		j++
	}
	return string(d[i:j])
}

// parseSegments parses src in segs, at most GOMAXPROCS at a time, and
// returns their trees in order; nil when a parse stops (time limit, the
// stop flag, checked before each segment, or a parser that would not take
// the ranges), after closing the trees made.
func parseSegments(src []byte, segs []segment, clk clock) []*sitter.Tree {
	starts := tsutil.LineStarts(src)
	trees := make([]*sitter.Tree, len(segs))
	inParallel(len(segs), func(next <-chan int) {
		p := getParser()
		defer func() {
			_ = p.SetIncludedRanges(nil)
			p.Reset()
			putParser(p)
		}()
		for k := range next {
			if clk.stopped() {
				return
			}
			rs := make([]sitter.Range, 0, len(segs[k].ranges))
			for _, r := range segs[k].ranges {
				rs = append(rs, byteRange(starts, r[0], r[1]))
			}
			if p.SetIncludedRanges(rs) != nil {
				return
			}
			trees[k] = tsutil.Parse(p, src, clk.deadline)
			if segmentParsed != nil {
				segmentParsed()
			}
			if trees[k] == nil {
				p.Reset()
				return
			}
		}
	})
	for _, t := range trees {
		if t == nil {
			for _, t := range trees {
				if t != nil {
					t.Close()
				}
			}
			return nil
		}
	}
	return trees
}

// segmentParsed, when set (a test), is called after each segment's parse,
// from the goroutines that parse.
var segmentParsed func()

// closeTrees frees the trees, a big file's on GOMAXPROCS goroutines:
// freeing a 40 MB file's trees takes a second on one.
func closeTrees(trees []*sitter.Tree) {
	if len(trees) == 1 {
		tsutil.Free(trees[0])
		return
	}
	inParallel(len(trees), func(next <-chan int) {
		for k := range next {
			tsutil.Free(trees[k])
		}
	})
}

// inParallel runs worker on GOMAXPROCS goroutines (at most n), each taking
// the indexes 0..n-1 from next until it is empty, and waits for them. A
// worker keeps its own state (a parser, a lowerer) across the indexes it
// takes.
func inParallel(n int, worker func(next <-chan int)) {
	next := make(chan int, n)
	for k := range n {
		next <- k
	}
	close(next)
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), n) {
		wg.Go(func() { worker(next) })
	}
	wg.Wait()
}

// segmentOf returns the index, in the trees parsed in segments segs (one
// tree when there are none), of the tree that holds the offset off.
func segmentOf(segs []segment, off int) int {
	if len(segs) == 0 {
		return 0
	}
	return min(sort.Search(len(segs), func(k int) bool { return segs[k].end > off }), len(segs)-1)
}
