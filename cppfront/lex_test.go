package cppfront

import (
	"strings"
	"testing"
)

// TestLexText: what the scans see of a text: blanks and comments skipped,
// a # that starts a line a directive to the end of its logical line (of
// its class), elsewhere a punctuator; raw literals with their prefix,
// quoted and character literals, numbers with digit separators, one-byte
// punctuators.
func TestLexText(t *testing.T) {
	src := "#include \"k.h\" // c\n" +
		"  # if defined(X) \\\n && Y\n" +
		"int a = 1'000 + 0x1F; /* { */ char c = '}';\n" +
		"#else\n" +
		"auto s = u8R\"d(\n) \" )d\"; x # y\n" +
		"#endif\n" +
		"#pragma once\n"
	toks := lexText([]byte(src)).toks
	var got []string
	for _, tk := range toks {
		s := src[tk.start:tk.end]
		if tk.kind == '#' {
			got = append(got, string(tk.dir)+":"+strings.TrimSpace(s[:strings.IndexAny(s+"\n", "\\\n")]))
			continue
		}
		got = append(got, string(tk.kind)+":"+s)
	}
	want := []string{
		`o:#include "k.h" // c`,
		`i:# if defined(X)`,
		"a:int", "a:a", "p:=", "0:1'000", "p:+", "0:0x1F", "p:;",
		"a:char", "a:c", "p:=", `":'}'`, "p:;",
		"e:#else",
		"a:auto", "a:s", "p:=", `":u8R"d(` + "\n" + `) " )d"`, "p:;", "a:x", "p:#", "a:y",
		"n:#endif",
		"o:#pragma once",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("tokens:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// The continued #if line is one token, up to the end of its logical line.
	if d := toks[1]; !strings.HasSuffix(src[d.start:d.end], "&& Y") {
		t.Errorf("the continued directive ends at %q", src[d.start:d.end])
	}
}

// TestLexNesting: the depth counts brackets of code and of directives,
// not those in comments and literals; closers never take it below zero.
func TestLexNesting(t *testing.T) {
	for _, c := range []struct {
		src  string
		want int
	}{
		{"f(a[b{c}]);", 3},
		{"/* ((( */ x = \"{{{\" + '('; // [[[", 0},
		{"#define M(x) ((x))\nM(1);", 2},
		{")))(", 1},
		{`R"x({{{)x" (`, 1},
	} {
		if got := lexText([]byte(c.src)).nesting(); got != c.want {
			t.Errorf("nesting(%q) = %d, want %d", c.src, got, c.want)
		}
	}
}
