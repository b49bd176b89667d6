package cppfront

import (
	"os"
	"path/filepath"
	"testing"

	sitter "github.com/tree-sitter/go-tree-sitter"

	"github.com/ascvet/ascvet/cppfront/internal/tsutil"
)

// goFlatten is the reference for flatten: the same copy made node by node
// through go-tree-sitter's cursor.
func goFlatten(root *sitter.Node, cut int, checkMissing bool) []fnode {
	var out []fnode
	c := root.Walk()
	defer c.Close()
	var stack, last []int32
	for {
		n := c.Node()
		fn := fnode{sym: n.KindId(), fid: c.FieldId(), start: uint32(n.StartByte()), end: uint32(n.EndByte()), first: -1, next: -1, parent: -1}
		if checkMissing && n.IsMissing() {
			fn.flags = tsutil.RawMissing
		}
		idx := int32(len(out))
		if len(stack) > 0 {
			p := stack[len(stack)-1]
			fn.parent = p
			if lc := last[len(last)-1]; lc >= 0 {
				out[lc].next = idx
			} else {
				out[p].first = idx
			}
			last[len(last)-1] = idx
		}
		out = append(out, fn)
		if len(stack) >= cut && n.ChildCount() > 0 {
			out[idx].flags |= tsutil.RawCut
		} else if c.GotoFirstChild() {
			stack, last = append(stack, idx), append(last, -1)
			continue
		}
		for !c.GotoNextSibling() {
			if len(stack) == 0 || !c.GotoParent() {
				return out
			}
			stack, last = stack[:len(stack)-1], last[:len(last)-1]
			if len(stack) == 0 {
				return out
			}
		}
	}
}

// TestFlattenMatchesCursorWalk: the one-call copy (tsutil.Flatten) equals
// the node-by-node walk on every bundled kernel, on a subtree, with a
// shallow cut, and on broken code with MISSING nodes.
func TestFlattenMatchesCursorWalk(t *testing.T) {
	paths, _ := filepath.Glob("../testdata/kernels/*.asc")
	srcs := [][]byte{[]byte("void f() { int a = (1 + ; for (;;) { x[ = 2 } }"), []byte("")}
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		srcs = append(srcs, b)
	}
	if len(srcs) < 4 {
		t.Fatal("no bundled kernels")
	}
	p := sitter.NewParser()
	defer p.Close()
	if err := p.SetLanguage(language); err != nil {
		t.Fatal(err)
	}
	for i, src := range srcs {
		tree := p.Parse(src, nil)
		roots := []*sitter.Node{tree.RootNode()}
		if c := tree.RootNode().NamedChild(0); c != nil {
			roots = append(roots, c)
		}
		for _, root := range roots {
			for _, cut := range []int{2, 7, 5000} {
				want := goFlatten(root, cut, true)
				got := flatten(root, src, true, &budget{cut: cut})
				if len(got.n) != len(want) {
					t.Fatalf("source %d cut %d: %d nodes, want %d", i, cut, len(got.n), len(want))
				}
				for k := range want {
					if got.n[k] != want[k] {
						t.Fatalf("source %d cut %d node %d: %+v, want %+v", i, cut, k, got.n[k], want[k])
					}
				}
			}
		}
		tree.Close()
	}
}

// TestPathMatchesParents: tsutil.Path gives the ancestors Parent walks to,
// at every 97th byte of every bundled kernel.
func TestPathMatchesParents(t *testing.T) {
	paths, _ := filepath.Glob("../testdata/kernels/*.asc")
	if len(paths) == 0 {
		t.Fatal("no bundled kernels")
	}
	p := sitter.NewParser()
	defer p.Close()
	if err := p.SetLanguage(language); err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, path := range paths {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		tree := p.Parse(src, nil)
		root := tree.RootNode()
		for off := uint(0); off+3 < uint(len(src)); off += 97 {
			var want []uintptr
			for n := root.DescendantForByteRange(off, off+3); n != nil; n = n.Parent() {
				want = append(want, n.Id())
			}
			got := tsutil.Path(root, off, off+3)
			if len(got) != len(want) {
				t.Fatalf("%s@%d: %d ancestors, want %d", path, off, len(got), len(want))
			}
			for k := range got {
				if got[k].Id() != want[len(want)-1-k] {
					t.Fatalf("%s@%d: ancestor %d differs", path, off, k)
				}
			}
			checked++
		}
		tree.Close()
	}
	if checked < 100 {
		t.Fatalf("only %d offsets checked", checked)
	}
}
