package fixes

// Apply takes the fixes one by one in a fixed order and keeps a sorted set
// of accepted edits; the new text is the original with each accepted edit
// substituted. Every offset refers to the original, so nothing is shifted
// while fixes are accepted, and the result is the same as applying the
// accepted edits from the end of the file backwards.
//
//	src:    "a BAD b BAD c"
//	fix 0:  [2,5)""    (remove the first BAD)
//	fix 1:  [1,6)"_"   (overlaps fix 0: skipped whole)
//	fix 2:  [8,11)""   (remove the second BAD)
//	result: "a  b  c", Applied [0 2], Skipped [{1, Overlap 0}]

import (
	"cmp"
	"slices"
	"sort"
)

// Result is what Apply did.
type Result struct {
	Src     []byte // the new contents; the original slice itself when no edit was applied
	Applied []int  // indexes (into the fixes given to Apply) of the fixes applied, in the order taken
	Skipped []Skip // the fixes not applied, in the order taken
	edits   []Edit // the edits applied, in file order
}

// Skip is a fix that Apply did not apply.
type Skip struct {
	Fix     int   // index of the fix in the slice given to Apply
	Overlap int   // index of the applied fix whose edit it overlaps; -1 when Err is set
	Err     error // what is wrong with the fix itself (see Fix.Check); nil for an overlap
}

// Apply applies fixes to src and returns the new contents with an account of
// what was applied. Fixes are taken by Pos, then Rule, then in the order
// given. A fix that fails Fix.Check, or that has an edit overlapping an edit
// of a fix already taken, is skipped whole. An edit identical to one already
// taken is applied once; insertions at one offset keep the order in which
// they were taken. src is not modified.
func Apply(src []byte, fixes []Fix) *Result {
	order := make([]int, len(fixes))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(i, j int) int {
		return cmp.Or(cmp.Compare(fixes[i].Pos, fixes[j].Pos), cmp.Compare(fixes[i].Rule, fixes[j].Rule))
	})

	res := &Result{Src: src}
	var owner []int // owner[k] is the fix that contributed res.edits[k]
	for _, i := range order {
		f := &fixes[i]
		if err := f.Check(len(src)); err != nil {
			res.Skipped = append(res.Skipped, Skip{Fix: i, Overlap: -1, Err: err})
			continue
		}
		var add []Edit
		conflict := -1
	edits:
		for _, e := range sorted(f.Edits) {
			if len(add) > 0 && same(add[len(add)-1], e) {
				continue // a duplicate inside the fix
			}
			// Accepted edits do not overlap, so sorted by (Start, End) their
			// End never decreases: the candidates form one run.
			k := sort.Search(len(res.edits), func(k int) bool { return res.edits[k].End >= e.Start })
			for ; k < len(res.edits) && res.edits[k].Start <= e.End; k++ {
				if same(res.edits[k], e) {
					continue edits // a duplicate of an accepted edit: applied once
				}
				if overlap(res.edits[k], e) {
					conflict = owner[k]
					break edits
				}
			}
			add = append(add, e)
		}
		if conflict >= 0 {
			res.Skipped = append(res.Skipped, Skip{Fix: i, Overlap: conflict})
			continue
		}
		for _, e := range add {
			// After every accepted edit with the same or a smaller span, so
			// that insertions at one offset keep the order they were taken in.
			k := sort.Search(len(res.edits), func(k int) bool {
				t := res.edits[k]
				return t.Start > e.Start || t.Start == e.Start && t.End > e.End
			})
			res.edits = slices.Insert(res.edits, k, e)
			owner = slices.Insert(owner, k, i)
		}
		res.Applied = append(res.Applied, i)
	}
	if len(res.edits) == 0 {
		return res
	}

	n := len(src)
	for _, e := range res.edits {
		n += len(e.New) - (e.End - e.Start)
	}
	out := make([]byte, 0, n)
	last := 0
	for _, e := range res.edits {
		out = append(out, src[last:e.Start]...)
		out = append(out, e.New...)
		last = e.End
	}
	res.Src = append(out, src[last:]...)
	return res
}

// MapOffset maps an offset of the original bytes to the new ones: text that
// no edit touched keeps its bytes and moves by what the edits before it
// added or removed (an insertion at the offset itself counts as before); an
// offset strictly inside a replaced span maps to the start of its
// replacement.
func (r *Result) MapOffset(off int) int {
	delta := 0
	for _, e := range r.edits {
		switch {
		case e.End <= off:
			delta += len(e.New) - (e.End - e.Start)
		case e.Start < off:
			return e.Start + delta
		default:
			return off + delta
		}
	}
	return off + delta
}

// sorted returns a copy of edits sorted by span, stable so that insertions
// at one offset keep their order.
func sorted(edits []Edit) []Edit {
	s := slices.Clone(edits)
	slices.SortStableFunc(s, func(a, b Edit) int {
		return cmp.Or(cmp.Compare(a.Start, b.Start), cmp.Compare(a.End, b.End))
	})
	return s
}
