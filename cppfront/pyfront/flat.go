package pyfront

import (
	sitter "github.com/tree-sitter/go-tree-sitter"

	"github.com/ascvet/ascvet/cppfront/internal/tsutil"
)

// Walking tree-sitter through cgo costs a call per question, so the tree is
// copied once into a flat Go slice (one cgo call) and lowered from there.

// fnode is one flattened syntax node.
type fnode struct {
	kind       string // node kind ("call"), interned from the language table
	field      string // field name in the parent ("body"), "" when none
	start, end uint32 // byte offsets
	first      int32  // first child, -1 when none
	next       int32  // next sibling, -1 when none
	parent     int32  // parent, -1 for the root
	named      bool   // a named node (not punctuation)
	bad        bool   // ERROR or MISSING node, or a node cut at the depth limit
	missing    bool   // MISSING node (zero width)
}

// flat is a flattened tree; node 0 is its root, nodes are in pre-order.
type flat struct {
	n   []fnode
	src []byte
}

var kinds = tsutil.NewKinds(language)

func kindOf(id uint16) (string, bool) { return kinds.Of(id) }

// flatten copies the tree under root, in one cgo call (tsutil.Flatten).
// checkMissing looks for MISSING nodes (only needed when the tree has an
// error). Nodes deeper than b.cut are not copied; their parent at the cut
// is marked bad.
func flatten(root *sitter.Node, src []byte, checkMissing bool, b *budget) *flat {
	raw := tsutil.Flatten(root, b.cut, checkMissing, nil)
	f := &flat{src: src, n: make([]fnode, len(raw))}
	for i, r := range raw {
		kind, named := kindOf(r.Sym)
		f.n[i] = fnode{
			kind: kind, field: kinds.Field(r.Field), named: named,
			start: r.Start, end: r.End, first: r.First, next: r.Next, parent: r.Parent,
			bad: kind == "ERROR" || r.Flags != 0, missing: r.Flags&tsutil.RawMissing != 0,
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

// named returns the named children of i, comments left out.
func (f *flat) named(i int32) []int32 {
	var out []int32
	for c := f.n[i].first; c >= 0; c = f.n[c].next {
		if f.n[c].named && f.n[c].kind != "comment" {
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

// operator returns the text of the first anonymous child of i (the operator
// of a binary_operator, comparison_operator or boolean_operator), or the
// "operator" field.
func (f *flat) operator(i int32) string {
	if c := f.child(i, "operator"); c >= 0 {
		return f.text(c)
	}
	for c := f.n[i].first; c >= 0; c = f.n[c].next {
		if !f.n[c].named {
			return f.text(c)
		}
	}
	return ""
}
