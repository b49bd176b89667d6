package simcheck

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestReadyHeap: the issue stage's heap gives its entries back earliest
// first, whatever order they came in.
func TestReadyHeap(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for range 200 {
		var h readyHeap
		var want []int
		for k := range r.IntN(60) {
			at := r.IntN(40)
			h.push(waitEntry{at, k})
			want = append(want, at)
		}
		slices.Sort(want)
		ats := map[int]int{} // entry -> its cycle
		for _, e := range h {
			ats[e.k] = e.at
		}
		var got []int
		for len(h) > 0 {
			got = append(got, ats[h.pop()])
		}
		if !slices.Equal(got, want) {
			t.Fatalf("popped cycles %v, want %v", got, want)
		}
	}
}

// TestMergeSorted: the candidates stay in program order when entries join
// them, in any order, and none is lost or doubled.
func TestMergeSorted(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	var buf []int
	for range 500 {
		perm := r.Perm(80)
		n := r.IntN(40)
		cand := slices.Clone(perm[:n])
		slices.Sort(cand)
		adds := slices.Clone(perm[n : n+1+r.IntN(40)])
		want := append(slices.Clone(cand), adds...)
		slices.Sort(want)
		got := mergeSorted(cand, adds, &buf)
		if !slices.Equal(got, want) {
			t.Fatalf("merged %v, want %v", got, want)
		}
		if len(buf) != 0 {
			t.Fatalf("the scratch is handed back with %d entries", len(buf))
		}
	}
}
