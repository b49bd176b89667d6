package cppfront

import (
	"go/token"
	"os"
	"strings"
	"testing"

	"github.com/ascvet/ascvet/cppfront/ir"
)

// compareOnly lowers src whole, then once for each region (at most limit)
// with Options.only naming that region, and reports a region whose IR
// differs: what a fix's validation lowers must be what the rules saw.
func compareOnly(t *testing.T, name string, src []byte, limit int) (regions int) {
	t.Helper()
	fset := token.NewFileSet()
	f, err := ParseFileOptions(fset, name, src, Options{})
	if err != nil {
		return 0
	}
	for k, fn := range f.Funcs {
		if k >= limit {
			break
		}
		a, b := f.Tok.Offset(fn.Pos), f.Tok.Offset(fn.End)
		fset2 := token.NewFileSet()
		g, err := ParseFileOptions(fset2, name, src, Options{only: [][2]int{{a, b}}})
		if err != nil {
			t.Errorf("%s: %s: %v", name, fn.Name, err)
			continue
		}
		var fn2 *ir.Func
		for _, x := range g.Funcs {
			if g.Tok.Offset(x.Pos) == a && x.Kind == fn.Kind {
				fn2 = x
			}
		}
		if fn2 == nil {
			t.Errorf("%s: region %s is gone when only it is wanted", name, fn.Name)
			continue
		}
		// A __VEC_SCOPE__ region is numbered among its function's (and
		// overloads') scopes: with other bodies left empty the number may
		// change, not the region.
		want, got := fn.String(fset), strings.Replace(fn2.String(fset2), fn2.Name, fn.Name, 1)
		if want != got {
			t.Errorf("%s: region %s lowers differently when only it is wanted:\n%s", name, fn.Name, firstDiff(want, got))
		}
		regions++
	}
	return regions
}

// TestOnlyLowersTheSame: every region of the repository's test data lowers
// to the same IR when only it is wanted (the other VF bodies left empty
// but its helpers and callers) as when the whole file is.
func TestOnlyLowersTheSame(t *testing.T) {
	n := 0
	for _, p := range repoFiles(t) {
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if HasVFMarker(src) {
			n += compareOnly(t, p, src, 1<<30)
		}
	}
	if n < 200 {
		t.Errorf("only %d regions compared", n)
	}
	t.Logf("%d regions", n)
}

// TestOnlyCorpus is TestOnlyLowersTheSame over real kernels (the first
// three regions of each file), when ASCVET_CORPUS names a tree of them.
func TestOnlyCorpus(t *testing.T) {
	n := 0
	eachCorpusVF(t, func(p string, src []byte) { n += compareOnly(t, p, src, 3) })
	t.Logf("%d regions", n)
}
