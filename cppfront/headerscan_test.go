package cppfront

import (
	"regexp"
	"slices"
	"strings"
	"testing"
)

// constStartRE is the pattern matchConst stands for.
var constStartRE = regexp.MustCompile(`^(?:constexpr|const)\b[^;=(){}]*?\b([A-Za-z_]\w*)\s*(?:=\s*([^;{}]+?)|\{\s*([^;{}]+?)\s*\})\s*;`)

// TestMatchConst: matchConst answers as constStartRE does, on tricky
// statements and on every const statement scan meets in the repository's
// kernels (and in ASCVET_CORPUS, when set).
func TestMatchConst(t *testing.T) {
	stmts := []string{
		"const int X = 1;", "constexpr uint32_t N = 64 * 4;", "const int X = ;", "const int X =  ;", "const int X =;",
		"const int X{ 3 } ;", "const int X{3}x;", "const int X{};", "const int X{ };", "constexpr auto a = b{c};",
		"const int a[2] = {1,2};", "const uint32_t X = Foo<T>(3);", "constant = 4;", "const T& x = y;",
		"const char* s = \"a\";", "const int = 4;", "const 5x = 1;", "constexpr static int K = sizeof(T) / 2 ;",
		"const\tint\nY\t=\t7\n;", "constexprint X = 1;", "const int X { 1 };", "const int X = 1 }", "const X(3);",
		"const int X = a ? b : c;", "const int X =\t\n;", "const int _x = -1;", "const int* const p = q;",
		"constexpr int X = 1; int Y = 2;", "const", "const;", "constexpr = 1;", "const int X{ 2 }\t;",
	}
	check := func(stmt string) {
		t.Helper()
		want := constStartRE.FindStringSubmatch(stmt)
		if got := matchConst(stmt); !slices.Equal(got, want) {
			t.Errorf("%q: matchConst %q, the pattern %q", stmt, got, want)
		}
	}
	for _, s := range stmts {
		check(s)
	}
	n := 0
	eachSource(t, func(p string, src []byte) {
		text := stripComments(string(src))
		for k := 0; ; {
			j := strings.Index(text[k:], "const")
			if j < 0 {
				break
			}
			j += k
			k = j + len("const")
			end := strings.IndexByte(text[j:], ';')
			if end < 0 {
				break
			}
			check(text[j : j+end+1])
			n++
		}
	})
	t.Logf("%d statements compared", n)
}

// stripCommentsByByte is stripComments as it was written first, a byte at
// a time: the reference TestStripComments holds the copying one to.
func stripCommentsByByte(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		switch {
		case s[i] == '"':
			j := i + 1
			for j < len(s) && s[j] != '"' && s[j] != '\n' {
				if s[j] == '\\' {
					j++
				}
				j++
			}
			if j >= len(s) {
				j = len(s) - 1
			}
			b.WriteString(s[i : j+1])
			i = j
		case strings.HasPrefix(s[i:], "//"):
			for i < len(s) && s[i] != '\n' {
				i++
			}
			if i < len(s) {
				b.WriteByte('\n')
			}
		case strings.HasPrefix(s[i:], "/*"):
			k := strings.Index(s[i+2:], "*/")
			end := len(s)
			if k >= 0 {
				end = i + 2 + k + 2
			}
			b.WriteString(strings.Repeat("\n", strings.Count(s[i:end], "\n")))
			i = end - 1
		default:
			b.WriteByte(s[i])
		}
	}
	return b.String()
}

// TestStripComments: stripComments copies what the byte-at-a-time
// reference writes, on edge cases (an unterminated string, comment or
// escape at the end, a lone slash) and on every source file of the kernels
// (and of ASCVET_CORPUS, when set).
func TestStripComments(t *testing.T) {
	cases := []string{"", "/", "a/b", "\"", "\"\\", "\"a\\\"b\" // c", "x // c", "x // c\ny", "/* a\nb */c", "/* open\n", "a/*b*/c/", "'\"' // q\n", "\"a\nb\"", "//", "/**/", "\"\\\n\""}
	for _, c := range cases {
		if got, want := stripComments(c), stripCommentsByByte(c); got != want {
			t.Errorf("%q: %q, want %q", c, got, want)
		}
	}
	n := 0
	eachSource(t, func(p string, src []byte) {
		if got, want := stripComments(string(src)), stripCommentsByByte(string(src)); got != want {
			t.Errorf("%s: the copies differ", p)
		}
		n++
	})
	t.Logf("%d files compared", n)
}
