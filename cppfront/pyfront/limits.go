package pyfront

import (
	"fmt"
	"sync/atomic"
	"time"

	"github.com/ascvet/ascvet/cppfront"
)

// The limits are cppfront's (cppfront.Options, cppfront.LimitError):
//
//   - nesting: the brackets ( [ { of the file, outside comments and string
//     literals, nested deeper than MaxDepth refuse the file before parsing.
//   - tree depth: below treeCut levels the flat copy of the syntax tree
//     stops; the cut node is kept as a parse error, so recursion is bounded.
//   - time: with Timeout, parsing is cancelled through tree-sitter's
//     progress callback and lowering checks the clock every 256 steps.
//
// A parse stopped from outside (Options.Stop) returns cppfront.ErrStopped:
// lowering checks the flag with the clock, the parse (one tree-sitter call,
// a Python file being parsed whole) before and after it.

// maxTreeCut bounds the tree cut whatever MaxDepth says.
const maxTreeCut = 1 << 18

func depthMsg(depth, limit int) string {
	return fmt.Sprintf("brackets nested %d levels deep, deeper than the limit of %d", depth, limit)
}

func timeoutError(d time.Duration) *cppfront.LimitError {
	return &cppfront.LimitError{Limit: "timeout", Msg: fmt.Sprintf("parsing took longer than the limit of %v", d)}
}

// budget is the clock of one file; tick panics with overTime once the
// deadline has passed or the parse was stopped, and ParseFileOptions
// recovers it.
type budget struct {
	deadline time.Time    // zero: no limit
	stop     *atomic.Bool // Options.Stop; nil: none
	ticks    uint         // calls of tick
	cut      int          // tree depth below which nothing is copied
}

type overTime struct{}

// stopped reports whether the parse was stopped from outside.
func (b *budget) stopped() bool { return b.stop != nil && b.stop.Load() }

// over reports whether the work must end: stopped, or past the deadline.
func (b *budget) over() bool {
	return b.stopped() || !b.deadline.IsZero() && time.Now().After(b.deadline)
}

// err is the error of work that ended early: cppfront.ErrStopped when it
// was stopped, else the timeout's (timeout is Options.Timeout).
func (b *budget) err(timeout time.Duration) error {
	if b.stopped() {
		return cppfront.ErrStopped
	}
	return timeoutError(timeout)
}

// check panics with overTime once the clock is over.
func (b *budget) check() {
	if b.over() {
		panic(overTime{})
	}
}

func (b *budget) tick() {
	b.ticks++
	if b.ticks&255 == 0 {
		b.check()
	}
}

// nesting returns the deepest nesting of ( [ { in Python source src,
// outside comments and string literals (single, triple-quoted, with any
// prefix). Closing brackets never take it below zero.
func nesting(src []byte) int {
	depth, deepest := 0, 0
	n := len(src)
	for i := 0; i < n; {
		switch src[i] {
		case '#':
			for i < n && src[i] != '\n' && src[i] != '\r' {
				i++
			}
		case '"', '\'':
			i = skipString(src, i)
		case '(', '[', '{':
			depth++
			deepest = max(deepest, depth)
			i++
		case ')', ']', '}':
			depth = max(depth-1, 0)
			i++
		default:
			i++
		}
	}
	return deepest
}

// skipString returns the offset after the string literal opening at i
// (a prefix such as r or f before it needs no care: escapes are skipped
// either way, which at worst ends a raw string one quote late).
func skipString(src []byte, i int) int {
	q := src[i]
	n := len(src)
	if i+2 < n && src[i+1] == q && src[i+2] == q {
		for j := i + 3; j < n; j++ {
			switch {
			case src[j] == '\\':
				j++
			case src[j] == q && j+2 < n && src[j+1] == q && src[j+2] == q:
				return j + 3
			}
		}
		return n
	}
	for j := i + 1; j < n; j++ {
		switch src[j] {
		case '\\':
			j++
		case q, '\n', '\r':
			return j + 1
		}
	}
	return n
}
