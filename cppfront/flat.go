package cppfront

import (
	"sync"
	"unsafe"

	sitter "github.com/tree-sitter/go-tree-sitter"

	"github.com/ascvet/ascvet/cppfront/internal/tsutil"
)

// Walking tree-sitter through cgo costs a call per question, so a subtree
// that will be lowered is first copied, once, into a flat Go slice: one cgo
// call for the whole subtree (tsutil.Flatten). Everything after that is
// plain Go.

// fnode is one flattened syntax node. It has the layout of tsutil.Raw, so
// that the copy tsutil.Flatten writes is the flat tree itself, without a
// conversion; and it holds no pointer, so the garbage collector does not
// scan it. Its kind and field name are looked up in the language's tables.
type fnode struct {
	sym        uint16 // node kind id (kind)
	fid        uint16 // field id in the parent (field), 0 when none
	start, end uint32 // byte offsets
	first      int32  // first child, -1 when none
	next       int32  // next sibling, -1 when none
	parent     int32  // parent, -1 for the root of the flat tree
	flags      uint32 // tsutil.RawMissing, tsutil.RawCut
}

// fnode and tsutil.Raw have the same size and field offsets.
var (
	_ [unsafe.Sizeof(fnode{}) - unsafe.Sizeof(tsutil.Raw{})]byte
	_ [unsafe.Sizeof(tsutil.Raw{}) - unsafe.Sizeof(fnode{})]byte
	_ = [1]byte{}[unsafe.Offsetof(fnode{}.fid)-unsafe.Offsetof(tsutil.Raw{}.Field)]
	_ = [1]byte{}[unsafe.Offsetof(fnode{}.start)-unsafe.Offsetof(tsutil.Raw{}.Start)]
	_ = [1]byte{}[unsafe.Offsetof(fnode{}.end)-unsafe.Offsetof(tsutil.Raw{}.End)]
	_ = [1]byte{}[unsafe.Offsetof(fnode{}.first)-unsafe.Offsetof(tsutil.Raw{}.First)]
	_ = [1]byte{}[unsafe.Offsetof(fnode{}.next)-unsafe.Offsetof(tsutil.Raw{}.Next)]
	_ = [1]byte{}[unsafe.Offsetof(fnode{}.parent)-unsafe.Offsetof(tsutil.Raw{}.Parent)]
	_ = [1]byte{}[unsafe.Offsetof(fnode{}.flags)-unsafe.Offsetof(tsutil.Raw{}.Flags)]
)

// kind returns the node kind ("call_expression"), interned from the
// language table.
func (n *fnode) kind() string { k, _ := kinds.Of(n.sym); return k }

// field returns the field name in the parent ("body"), "" when none.
func (n *fnode) field() string { return kinds.Field(n.fid) }

// named reports whether n is a named node (not punctuation).
func (n *fnode) named() bool { _, named := kinds.Of(n.sym); return named }

// bad reports whether n is an ERROR or MISSING node, or was cut.
func (n *fnode) bad() bool { return n.flags != 0 || n.kind() == "ERROR" }

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
func flatten(root *sitter.Node, src []byte, checkMissing bool, b *budget) *flat {
	raw := tsutil.Flatten(root, b.cut, checkMissing, nil)
	f := &flat{src: src, n: rawNodes(raw)}
	if len(b.splices) > 0 {
		// The statements the parse left out (splice.go). spliceHolds
		// found each where the plan left it, so the copy has them all.
		f.n, _ = spliceFlat(f.n, b.splices, b.cut)
	}
	b.ticks += uint(len(f.n))
	b.check()
	return f
}

// flatCache keeps the flat trees of a file: a region is lowered again with
// its callers' values, a caller calls several regions. Nothing changes a
// flat tree once made, so one copy serves every reader.
type flatCache struct {
	mu sync.Mutex // lowerParallel's goroutines share the cache
	m  map[flatKey]*flat
}

type flatKey struct {
	id           uintptr // the node (tree-sitter's id: its subtree)
	start        uint32  // its start, as the id alone is unique only within a tree
	checkMissing bool
}

// flatten is the package's flatten, made once per node. The clock ticks
// as if it were made each time, so that a budget runs out where it did.
func (c *flatCache) flatten(root *sitter.Node, src []byte, checkMissing bool, b *budget) *flat {
	k := flatKey{root.Id(), uint32(root.StartByte()), checkMissing}
	c.mu.Lock()
	f := c.m[k]
	c.mu.Unlock()
	if f != nil {
		b.ticks += uint(len(f.n))
		b.check()
		return f
	}
	f = flatten(root, src, checkMissing, b)
	c.mu.Lock()
	if c.m == nil {
		c.m = map[flatKey]*flat{}
	}
	c.m[k] = f
	c.mu.Unlock()
	return f
}

// ifCondition returns the expression an if statement i tests: its
// condition clause's value (if (x), if constexpr (A && B)), or -1.
func (f *flat) ifCondition(i int32) int32 {
	c := f.child(i, "condition")
	if c >= 0 && f.n[c].kind() == "condition_clause" {
		if v := f.child(c, "value"); v >= 0 {
			return v
		}
	}
	return c
}

func (f *flat) text(i int32) string {
	n := &f.n[i]
	return string(f.src[n.start:n.end])
}

// child returns the first child of i with the given field name, or -1.
func (f *flat) child(i int32, field string) int32 {
	for c := f.n[i].first; c >= 0; c = f.n[c].next {
		if f.n[c].field() == field {
			return c
		}
	}
	return -1
}

// children returns the named children of i.
func (f *flat) named(i int32) []int32 {
	var out []int32
	for c := f.n[i].first; c >= 0; c = f.n[c].next {
		if f.n[c].named() {
			out = append(out, c)
		}
	}
	return out
}

// fields returns the children of i with the given field name.
func (f *flat) fields(i int32, field string) []int32 {
	var out []int32
	for c := f.n[i].first; c >= 0; c = f.n[c].next {
		if f.n[c].field() == field {
			out = append(out, c)
		}
	}
	return out
}

// hasToken reports whether i has an anonymous child whose text is tok.
func (f *flat) hasToken(i int32, tok string) bool {
	for c := f.n[i].first; c >= 0; c = f.n[c].next {
		if !f.n[c].named() && f.text(c) == tok {
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
