package cppfront

import (
	"strings"
	"testing"
)

// TestNormSpaceFastPath: normSpace's shortcut returns what the slow way
// does.
func TestNormSpaceFastPath(t *testing.T) {
	for _, s := range []string{"", " ", "a", "a b", "a  b", " a", "a ", "a\tb", "a\nb", "a\u00a0b", "a\u0085b", "const T *", "x\r", "\x85", "é"} {
		if got, want := normSpace(s), strings.Join(strings.Fields(s), " "); got != want {
			t.Errorf("normSpace(%q) = %q, want %q", s, got, want)
		}
	}
}
