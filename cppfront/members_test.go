package cppfront

import (
	"maps"
	"slices"
	"testing"
)

// TestWrittenNames: what a statement's text writes, and not what its
// comments or strings say.
func TestWrittenNames(t *testing.T) {
	for _, c := range []struct {
		text string
		want []string
	}{
		{"x = 1; y += 2; ++z; w--; f(&v); a == b; c & d;", []string{"v", "w", "x", "y", "z"}},
		{"x = 1; // chanBase = c * hwSize\n/* n++ */ s = \"w = 3\"; ch = 'q';", []string{"ch", "s", "x"}},
		{`r = R"(k = 1)"; u8"m = 2"; t = 0;`, []string{"r", "t"}},
	} {
		got := slices.Sorted(maps.Keys(writtenNames([]byte(c.text))))
		if !slices.Equal(got, c.want) {
			t.Errorf("writtenNames(%q) = %v, want %v", c.text, got, c.want)
		}
	}
}
