// Package fixes applies the suggested fixes of ascvet findings to a file's
// bytes, writes the result atomically, and formats the change as a unified
// diff. It knows nothing of analyzers: the runner resolves each
// analysis.SuggestedFix into a Fix of byte offsets, and the driver and the
// fixture harness hand those to Apply.
//
// The guarantees, which docs/fixes.md repeats for users:
//
//   - Every offset refers to the original bytes, and everything outside the
//     edits is kept byte for byte: line endings (CRLF stays CRLF), comments,
//     formatting. Apply never normalises; a fix is responsible for the text
//     it inserts.
//   - Fixes are taken in a deterministic order: by the offset of the finding
//     that offers them, then by rule ID, then in the order given. A fix whose
//     edits overlap an edit of a fix already taken is skipped whole, never
//     applied in part. An edit identical to one already taken (same span,
//     same text) is applied once. Insertions at one offset keep fix order.
//   - ReplaceFile writes through a temporary file in the same directory,
//     fsyncs it, renames it over the original and fsyncs the directory, so a
//     crash leaves either the old file or the new one, never half of each.
package fixes

import (
	"bytes"
	"fmt"
)

// Edit replaces the bytes [Start, End) of a file with New; Start == End
// inserts.
type Edit struct {
	Start, End int    // byte offsets into the original file, Start <= End
	New        []byte // replacement text
}

func (e Edit) String() string { return fmt.Sprintf("[%d,%d)%q", e.Start, e.End, e.New) }

// Fix is one suggested fix, resolved to byte offsets in one file.
type Fix struct {
	Pos     int    // byte offset of the finding that offers the fix; orders fixes
	Rule    string // ID of the rule that offers it; orders fixes at one Pos
	Message string // what the fix does, from analysis.SuggestedFix
	Edits   []Edit // at least one; they must not overlap each other
}

// Check reports what is wrong with a fix for a file of size bytes: no edit,
// an edit that ends before it starts or lies outside the file, or two edits
// that overlap. Identical edits are
// allowed (they count once).
func (f *Fix) Check(size int) error {
	if len(f.Edits) == 0 {
		return fmt.Errorf("fix %q has no edit", f.Message)
	}
	for _, e := range f.Edits {
		if e.Start > e.End {
			return fmt.Errorf("fix %q: edit %v ends before it starts", f.Message, e)
		}
		if e.Start < 0 || e.End > size {
			return fmt.Errorf("fix %q: edit %v is outside the file (%d bytes)", f.Message, e, size)
		}
	}
	edits := sorted(f.Edits)
	for i := 1; i < len(edits); i++ {
		if a, b := edits[i-1], edits[i]; overlap(a, b) {
			return fmt.Errorf("fix %q: edits %v and %v overlap", f.Message, a, b)
		}
	}
	return nil
}

// overlap reports whether two edits, not identical, cannot both be applied:
// their spans share a byte, or one inserts strictly inside the other's span.
// Edits that only touch (one ends where the other starts) do not overlap,
// nor do two insertions at one offset.
func overlap(a, b Edit) bool {
	if same(a, b) {
		return false
	}
	switch {
	case a.Start == a.End && b.Start == b.End:
		return false
	case a.Start == a.End:
		return b.Start < a.Start && a.Start < b.End
	case b.Start == b.End:
		return a.Start < b.Start && b.Start < a.End
	}
	return a.Start < b.End && b.Start < a.End
}

// same reports whether two edits are identical: same span, same text.
func same(a, b Edit) bool {
	return a.Start == b.Start && a.End == b.End && bytes.Equal(a.New, b.New)
}
