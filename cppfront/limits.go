package cppfront

import (
	"errors"
	"fmt"
	"sync/atomic"
	"time"
)

// Hostile input must never crash or hang the front end. Three limits bound
// the work on one file:
//
//   - nesting: before parsing, the brackets ( [ { of the file (outside
//     comments and literals) are counted; a file nested deeper than
//     Options.MaxDepth is refused with a *LimitError. Tree-sitter itself
//     copes with deep nesting (10,000 braces parse in ~20 ms), but lowering
//     walks the tree recursively and C++ compilers stop far earlier
//     (the standard asks for 256 levels of each kind).
//   - tree depth: a syntax tree can be deep without brackets ("a+a+...+a"
//     nests one node per operator). Below depth treeCut(MaxDepth), flatten
//     and the declaration walk do not descend: the cut node is kept as a
//     parse error, so ASC0001 shows the gap, and no recursion is unbounded.
//   - time: with Options.Timeout, parsing is cancelled through tree-sitter's
//     progress callback, and lowering checks the clock every few hundred
//     nodes; a file over time is refused with a *LimitError.
//
// Besides the limits, a caller can stop a parse from outside (Options.Stop:
// the language server, when a newer edit made the analysis useless). Every
// pass that watches the deadline asks one clock, which knows both, so that
// a pass cannot watch one and forget the other.

// DefaultMaxDepth is the bracket nesting ParseFile accepts.
const DefaultMaxDepth = 1000

// maxTreeCut bounds treeCut whatever MaxDepth says: recursion over a tree
// this deep stays far below Go's stack limit (about 250 MB of stack at the
// very worst, measured at ~1 KB per level).
const maxTreeCut = 1 << 18

// Options are the limits of ParseFileOptions. The zero value means the
// defaults: DefaultMaxDepth, no time limit.
type Options struct {
	MaxDepth int           // deepest bracket nesting accepted; <= 0 for DefaultMaxDepth
	Timeout  time.Duration // time to parse and lower the file; <= 0 for none
	Index    *Index        // the project index to consult for names the file does not define; nil for none

	// Stop, when not nil, stops the parse once it is set: the passes that
	// watch the deadline watch it too, and the parse returns ErrStopped
	// and no region. The work the project index keeps for other files
	// (headers it reads and lowers) never stops half done: it does not
	// watch the flag. The command line never sets it.
	Stop *atomic.Bool

	// RegionsOnly, when set, leaves a file that can hold no region the
	// rules analyse unparsed (noAnalysedRegion): no VF marker, or only
	// SIMT functions, whose bodies no rule reads. Its IR then has no
	// function at all, not even the SIMT ones, and no Defined names: a
	// check sets it, ascvet stats, which counts both, does not.
	RegionsOnly bool

	noForeign bool // do not link calls to helpers of other headers (a header lowered for its helpers)

	// only, when not nil, are the byte ranges of the regions wanted: the
	// other VF functions are parsed as empty bodies unless they call or
	// are called by one of them (planLazy). A fix lowers its text so.
	only [][2]int
}

func (o Options) maxDepth() int {
	if o.MaxDepth <= 0 {
		return DefaultMaxDepth
	}
	return o.MaxDepth
}

// treeCut is the syntax-tree depth below which the front end does not
// descend: a bracket level costs at most a few tree levels (a braced
// statement is a compound_statement in a for_statement, a parenthesis a
// parenthesized_expression in its operator).
func treeCut(maxDepth int) int {
	return min(4*maxDepth+1000, maxTreeCut)
}

// LimitError reports a file that exceeds a limit of Options. The file was
// not analysed; nothing is wrong with ascvet.
type LimitError struct {
	Limit string // "depth" or "timeout"
	Msg   string // what was found, lowercase, for "file: msg"
}

func (e *LimitError) Error() string { return e.Msg }

func depthError(depth, limit int) *LimitError {
	return &LimitError{Limit: "depth", Msg: fmt.Sprintf("brackets nested %d levels deep, deeper than the limit of %d", depth, limit)}
}

func timeoutError(d time.Duration) *LimitError {
	return &LimitError{Limit: "timeout", Msg: fmt.Sprintf("parsing took longer than the limit of %v", d)}
}

// ErrStopped is the error of a parse stopped by Options.Stop. Nothing is
// wrong with the file or with ascvet: whoever set the flag no longer wants
// the result.
var ErrStopped = errors.New("parse stopped")

// clock says when the work on one file must end: at its deadline
// (Options.Timeout), or as soon as its stop flag (Options.Stop) is set.
// The long passes (macro expansion, parsing, lowering) ask it.
type clock struct {
	deadline time.Time    // zero: no limit
	stop     *atomic.Bool // nil: none
}

// stopped reports whether the work was stopped from outside.
func (c clock) stopped() bool { return c.stop != nil && c.stop.Load() }

// over reports whether the work must end: stopped, or past the deadline.
func (c clock) over() bool {
	return c.stopped() || !c.deadline.IsZero() && time.Now().After(c.deadline)
}

// err is the error of work that ended early: ErrStopped when it was
// stopped, else the timeout's *LimitError (timeout is Options.Timeout).
func (c clock) err(timeout time.Duration) error {
	if c.stopped() {
		return ErrStopped
	}
	return timeoutError(timeout)
}

// budget is the clock of one file's lowering: lowering calls tick on its
// way, and tick panics with overTime once the clock is over; ParseFile
// recovers it.
type budget struct {
	clock
	ticks uint // calls of tick
	cut   int  // tree depth below which nothing is walked (treeCut)

	// splices are the statements the parse of the file left out
	// (splice.go); flatten puts them back in every flat tree.
	splices splices
}

// overTime is the panic value of tick and check: the clock is over.
type overTime struct{}

func (b *budget) tick() {
	b.ticks++
	if b.ticks&255 == 0 {
		b.check()
	}
}

// check panics with overTime once the clock is over (the deadline passed,
// or the parse was stopped). Lowering calls it directly where one step may
// be long (a call copies its operands' text).
func (b *budget) check() {
	if b.over() {
		panic(overTime{})
	}
}
