package cppfront

import (
	"sync"

	sitter "github.com/tree-sitter/go-tree-sitter"

	"github.com/ascvet/ascvet/cppfront/internal/tsutil"
)

// Walking tree-sitter through cgo costs a call per question, so a subtree
// that will be lowered is first copied, once, into a flat Go slice: one cgo
// call for the whole subtree (tsutil.Flatten). Everything after that is
// plain Go.

// fnode is one flattened syntax node.
type fnode struct {
	kind       string // node kind ("call_expression"); interned from the language table
	field      string // field name in the parent ("body"), "" when none
	start, end uint32 // byte offsets
	first      int32  // first child, -1 when none
	next       int32  // next sibling, -1 when none
	parent     int32  // parent, -1 for the root of the flat tree
	named      bool   // a named node (not punctuation)
	bad        bool   // ERROR or MISSING node
}

// flat is a flattened subtree; node 0 is its root.
type flat struct {
	n   []fnode
	src []byte // the blanked source the tree was parsed from
}

var kinds = tsutil.NewKinds(language)

func kindOf(id uint16) (string, bool) { return kinds.Of(id) }

// flatten copies the subtree rooted at root. checkMissing enables the extra
// per-node cgo call that finds MISSING nodes; it is only needed when the
// subtree has an error. Nodes deeper than b.cut are not copied: their
// parent at the cut stays a leaf marked bad, so the recursive lowering
// over the flat tree is bounded and the gap shows as a parse error.
// rawBufs holds the buffers flatten copies the tree into before
// converting it.
var rawBufs = sync.Pool{New: func() any { return new([]tsutil.Raw) }}

func flatten(root *sitter.Node, src []byte, checkMissing bool, b *budget) *flat {
	bufp := rawBufs.Get().(*[]tsutil.Raw)
	raw := tsutil.Flatten(root, b.cut, checkMissing, *bufp)
	defer func() {
		if cap(raw) <= 1<<20 { // a huge file's buffer is not kept
			*bufp = raw[:0]
			rawBufs.Put(bufp)
		}
	}()
	f := &flat{src: src, n: make([]fnode, len(raw))}
	for i, r := range raw {
		kind, named := kindOf(r.Sym)
		f.n[i] = fnode{
			kind: kind, field: kinds.Field(r.Field), named: named,
			start: r.Start, end: r.End, first: r.First, next: r.Next, parent: r.Parent,
			bad: kind == "ERROR" || r.Flags != 0,
		}
	}
	b.ticks += uint(len(raw))
	b.check()
	return f
}

func (f *flat) text(i int32) string {
	n := &f.n[i]
	return string(f.src[n.start:n.end])
}

// child returns the first child of i with the given field name, or -1.
func (f *flat) child(i int32, field string) int32 {
	for c := f.n[i].first; c >= 0; c = f.n[c].next {
		if f.n[c].field == field {
			return c
		}
	}
	return -1
}

// children returns the named children of i.
func (f *flat) named(i int32) []int32 {
	var out []int32
	for c := f.n[i].first; c >= 0; c = f.n[c].next {
		if f.n[c].named {
			out = append(out, c)
		}
	}
	return out
}

// fields returns the children of i with the given field name.
func (f *flat) fields(i int32, field string) []int32 {
	var out []int32
	for c := f.n[i].first; c >= 0; c = f.n[c].next {
		if f.n[c].field == field {
			out = append(out, c)
		}
	}
	return out
}

// hasToken reports whether i has an anonymous child whose text is tok.
func (f *flat) hasToken(i int32, tok string) bool {
	for c := f.n[i].first; c >= 0; c = f.n[c].next {
		if !f.n[c].named && f.text(c) == tok {
			return true
		}
	}
	return false
}

// operator returns the text of the "operator" field of i, or "".
func (f *flat) operator(i int32) string {
	if c := f.child(i, "operator"); c >= 0 {
		return f.text(c)
	}
	return ""
}
