package fixes

import (
	"fmt"
	"strings"
	"testing"
)

// ed is an edit, for short.
func ed(start, end int, text string) Edit { return Edit{Start: start, End: end, New: []byte(text)} }

// fix is a fix of rule at pos with the given edits.
func fix(pos int, rule string, edits ...Edit) Fix {
	return Fix{Pos: pos, Rule: rule, Message: fmt.Sprintf("%s@%d", rule, pos), Edits: edits}
}

// account formats what Apply did: "applied [..] skipped [i/j ...]", where j is
// the fix overlapped or "bad".
func account(r *Result) string {
	var skips []string
	for _, s := range r.Skipped {
		if s.Err != nil {
			skips = append(skips, fmt.Sprintf("%d/bad", s.Fix))
		} else {
			skips = append(skips, fmt.Sprintf("%d/%d", s.Fix, s.Overlap))
		}
	}
	return fmt.Sprintf("applied %v skipped [%s]", r.Applied, strings.Join(skips, " "))
}

func TestApply(t *testing.T) {
	for _, tc := range []struct {
		name  string
		src   string
		fixes []Fix
		want  string // new text
		acct  string // account
	}{
		{"no fixes", "a\r\nb\n", nil, "a\r\nb\n", "applied [] skipped []"},
		{
			"backwards safe", "a BAD b BAD c",
			[]Fix{fix(8, "R", ed(8, 11, "")), fix(2, "R", ed(2, 5, "GOOD"))},
			"a GOOD b  c", "applied [1 0] skipped []",
		},
		{
			"overlap with an accepted fix skips the whole fix", "a BAD b BAD c",
			[]Fix{fix(2, "R", ed(2, 5, "")), fix(3, "R", ed(12, 13, "Z"), ed(1, 6, "_")), fix(8, "R", ed(8, 11, ""))},
			"a  b  c", "applied [0 2] skipped [1/0]",
		},
		{
			"order is position then rule, not the order given", "0123456789",
			[]Fix{fix(5, "B", ed(4, 6, "b")), fix(5, "A", ed(5, 7, "a"))},
			"01234a789", "applied [1] skipped [0/1]",
		},
		{
			"an insertion strictly inside a replaced span overlaps", "0123456789",
			[]Fix{fix(0, "A", ed(2, 6, "")), fix(1, "A", ed(4, 4, "x"))},
			"016789", "applied [0] skipped [1/0]",
		},
		{
			"edits that touch do not overlap", "0123456789",
			[]Fix{fix(0, "A", ed(2, 4, "ab")), fix(1, "A", ed(4, 6, "cd")), fix(2, "A", ed(2, 2, "<")), fix(3, "A", ed(6, 6, ">"))},
			"01<abcd>6789", "applied [0 1 2 3] skipped []",
		},
		{
			"identical edits of two findings apply once", "int x;\n",
			[]Fix{fix(0, "A", ed(0, 0, "// note\n")), fix(4, "B", ed(0, 0, "// note\n"), ed(4, 5, "y"))},
			"// note\nint y;\n", "applied [0 1] skipped []",
		},
		{
			"identical edits inside one fix apply once", "abc",
			[]Fix{fix(0, "A", ed(1, 2, "X"), ed(1, 2, "X"))},
			"aXc", "applied [0] skipped []",
		},
		{
			"insertions at one offset keep finding order", "ab",
			[]Fix{fix(0, "A", ed(1, 1, "1")), fix(0, "A", ed(1, 1, "2")), fix(1, "A", ed(1, 1, "3"))},
			"a123b", "applied [0 1 2] skipped []",
		},
		{
			"an insertion at a replaced span's start goes before it", "abc",
			[]Fix{fix(0, "A", ed(1, 2, "X")), fix(1, "A", ed(1, 1, "<"))},
			"a<Xc", "applied [0 1] skipped []",
		},
		{
			"edits of one fix that overlap skip it", "abcdef",
			[]Fix{fix(0, "A", ed(1, 3, ""), ed(2, 4, "")), fix(1, "A", ed(5, 6, "F"))},
			"abcdeF", "applied [1] skipped [0/bad]",
		},
		{
			"an edit outside the file skips its fix", "abc",
			[]Fix{fix(0, "A", ed(2, 4, "")), fix(0, "B", ed(-1, 0, "")), fix(0, "C", ed(2, 1, "")), fix(0, "D"), fix(0, "E", ed(3, 3, "!"))},
			"abc!", "applied [4] skipped [0/bad 1/bad 2/bad 3/bad]",
		},
		{
			"CRLF, comments and spacing are kept", "a;\r\n  // BAD here\r\n\tBAD;  \r\n",
			[]Fix{fix(20, "R", ed(20, 23, "good")), fix(9, "R", ed(9, 12, "ok"))},
			"a;\r\n  // ok here\r\n\tgood;  \r\n", "applied [1 0] skipped []",
		},
		{
			"the whole file", "abc",
			[]Fix{fix(0, "A", ed(0, 3, "xyz"))},
			"xyz", "applied [0] skipped []",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := []byte(tc.src)
			r := Apply(src, tc.fixes)
			if got := string(r.Src); got != tc.want {
				t.Errorf("Apply = %q, want %q", got, tc.want)
			}
			if got := account(r); got != tc.acct {
				t.Errorf("%s, want %s", got, tc.acct)
			}
			if string(src) != tc.src {
				t.Errorf("Apply modified its input: %q", src)
			}
		})
	}
}

func TestApplyNothingKeepsBytes(t *testing.T) {
	src := []byte("x\r\ny")
	for _, fixes := range [][]Fix{nil, {}, {fix(0, "A", ed(9, 9, "!"))}} {
		r := Apply(src, fixes)
		if &r.Src[0] != &src[0] || len(r.Src) != len(src) {
			t.Errorf("Apply(%v) returned new bytes %q", fixes, r.Src)
		}
	}
}

func TestMapOffset(t *testing.T) {
	// "0123456789" with [2,4)->"ab__", insert "<" at 6, delete [7,9)
	r := Apply([]byte("0123456789"), []Fix{fix(0, "A", ed(2, 4, "ab__"), ed(6, 6, "<"), ed(7, 9, ""))})
	if got := string(r.Src); got != "01ab__45<69" {
		t.Fatalf("Apply = %q", got)
	}
	for off, want := range map[int]int{0: 0, 1: 1, 2: 2, 3: 2, 4: 6, 5: 7, 6: 9, 7: 10, 8: 10, 9: 10, 10: 11} {
		if got := r.MapOffset(off); got != want {
			t.Errorf("MapOffset(%d) = %d, want %d", off, got, want)
		}
	}
}

func TestCheck(t *testing.T) {
	for _, tc := range []struct {
		fix  Fix
		want string // "" when valid
	}{
		{fix(0, "A", ed(0, 1, "")), ""},
		{fix(0, "A", ed(3, 3, "")), ""},
		{fix(0, "A", ed(1, 1, "x"), ed(1, 1, "y"), ed(1, 2, "")), ""},
		{fix(0, "A"), `fix "A@0" has no edit`},
		{fix(0, "A", ed(0, 4, "")), `fix "A@0": edit [0,4)"" is outside the file (3 bytes)`},
		{fix(0, "A", ed(0, 2, ""), ed(1, 1, "x")), `fix "A@0": edits [0,2)"" and [1,1)"x" overlap`},
		{fix(0, "A", ed(2, 1, "")), `fix "A@0": edit [2,1)"" ends before it starts`},
	} {
		err := tc.fix.Check(3)
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != tc.want {
			t.Errorf("Check(%v) = %q, want %q", tc.fix.Edits, got, tc.want)
		}
	}
}
