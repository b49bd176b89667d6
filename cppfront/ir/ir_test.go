package ir

import (
	"go/token"
	"testing"
)

// TestInExpansion: the binary search agrees with a scan of every
// expansion at every offset, the bounds included (Pos in, End out), also
// for adjacent expansions and an empty one.
func TestInExpansion(t *testing.T) {
	fset := token.NewFileSet()
	tf := fset.AddFile("k.asc", -1, 100)
	f := &File{Tok: tf}
	for _, r := range [][2]int{{3, 7}, {7, 9}, {12, 12}, {20, 40}, {41, 42}, {99, 100}} {
		f.Expansions = append(f.Expansions, Expansion{Pos: tf.Pos(r[0]), End: tf.Pos(r[1])})
	}
	if errs := Verify(f); len(errs) > 0 {
		t.Fatal(errs)
	}
	for off := 0; off <= 100; off++ {
		p := tf.Pos(off)
		want := false
		for _, x := range f.Expansions {
			want = want || p >= x.Pos && p < x.End
		}
		if got := f.InExpansion(p); got != want {
			t.Errorf("InExpansion(%d) = %v, want %v", off, got, want)
		}
	}
	if (&File{}).InExpansion(1) {
		t.Error("InExpansion in a file without expansions")
	}
}

// TestFuncIndex: the index finds what File.Func finds, for exact and
// unqualified names, with duplicates (the first wins) and misses.
func TestFuncIndex(t *testing.T) {
	f := &File{}
	for _, name := range []string{"A::Run", "Run", "B::Run", "A::Step", "B::Step", "Load", "Load", "A::B::Deep", "Ns::"} {
		f.Funcs = append(f.Funcs, &Func{Name: name})
	}
	x := NewFuncIndex(f)
	for _, name := range []string{"Run", "A::Run", "B::Run", "C::Run", "Step", "A::Step", "Load", "Deep", "B::Deep", "A::B::Deep", "", "Missing", "Ns::"} {
		if got, want := x.Func(name), f.Func(name); got != want {
			t.Errorf("Func(%q) = %v, want %v", name, got, want)
		}
	}
	if x.Func("Step") != f.Funcs[3] || x.Func("Load") != f.Funcs[5] || x.Func("Missing") != nil {
		t.Error("the index does not pick the first region of a name")
	}
}
