package cppfront

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestIdentOffsetsMatchesEachIdent: the scan for one name finds the
// identifiers eachIdent splits out, on every bundled kernel, and nothing
// for a name that is not one identifier.
func TestIdentOffsetsMatchesEachIdent(t *testing.T) {
	paths, _ := filepath.Glob("../testdata/kernels/*.asc")
	if len(paths) == 0 {
		t.Fatal("no bundled kernels")
	}
	for _, p := range paths {
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		want := map[string][]int{}
		eachIdent(src, func(k, e int) {
			want[string(src[k:e])] = append(want[string(src[k:e])], k)
		})
		for name, offs := range want {
			if got := identOffsets(src, name); !slices.Equal(got, offs) {
				t.Fatalf("%s: %s at %v, want %v", p, name, got, offs)
			}
		}
	}
	src := []byte("a::b(x); 1x x1 _x")
	for _, name := range []string{"", "a::b", "1x", "x(", "b(x"} {
		if got := identOffsets(src, name); got != nil {
			t.Errorf("%q at %v, want none", name, got)
		}
	}
	if got := identOffsets(src, "x"); !slices.Equal(got, []int{5}) {
		t.Errorf("x at %v, want [5]", got)
	}
}
