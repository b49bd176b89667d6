package stream

import (
	"go/token"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"

	"github.com/ascvet/ascvet/cppfront/ir"
	"github.com/ascvet/ascvet/cppfront/pyfront"
)

func lowerPy(t *testing.T, src string) *ir.File {
	t.Helper()
	f, err := pyfront.ParseFile(token.NewFileSet(), "k.py", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if errs := ir.Verify(f); len(errs) > 0 {
		t.Fatal(errs)
	}
	if len(f.Funcs) != 1 {
		t.Fatalf("%d regions", len(f.Funcs))
	}
	return f
}

const pyHead = "import pypto_pro.language as pl\nfrom pypto_pro.language import Vf as vf\n\n\n@pl.vector_function\ndef k(src, dst, n):\n" +
	"    m = vf.create_mask(dtype=pl.DT_FP32)\n"

// TestPythonHoist checks when the Pre of a contiguous Python stream is
// hoisted, and what the fixed text is: the move follows Python's syntax.
func TestPythonHoist(t *testing.T) {
	cases := []struct {
		name, body, want string // want: the fixed body, "" when the fix must be withheld
	}{
		{"plain", `    u = vf.load_unalign_init()
    for i in pl.range(n):
        vf.load_unalign_pre(u, src + i * 64)  # prime
        x = vf.load_unalign(u, src + i * 64)
        vf.store_align(dst, x, m, i * 64)
`, `    u = vf.load_unalign_init()
    vf.load_unalign_pre(u, src)  # prime
    for i in pl.range(n):
        x = vf.load_unalign(u, src + i * 64)
        vf.store_align(dst, x, m, i * 64)
`},
		{"multi-line header, CRLF", "    u = vf.load_unalign_init()\r\n    for i in pl.range(\r\n            n):\r\n" +
			"        vf.load_unalign_pre(u, src + i * 64)\r\n        x = vf.load_unalign(u, src + i * 64)\r\n        vf.store_align(dst, x, m, i * 64)\r\n",
			"    u = vf.load_unalign_init()\r\n    vf.load_unalign_pre(u, src)\r\n    for i in pl.range(\r\n            n):\r\n" +
				"        x = vf.load_unalign(u, src + i * 64)\r\n        vf.store_align(dst, x, m, i * 64)\r\n"},
		{"register made in the loop", `    for i in pl.range(n):
        u = vf.load_unalign_init()
        vf.load_unalign_pre(u, src + i * 64)
        x = vf.load_unalign(u, src + i * 64)
        vf.store_align(dst, x, m, i * 64)
`, `    u = vf.load_unalign_init()
    vf.load_unalign_pre(u, src)
    for i in pl.range(n):
        x = vf.load_unalign(u, src + i * 64)
        vf.store_align(dst, x, m, i * 64)
`},
		{"semicolon", `    u = vf.load_unalign_init()
    for i in pl.range(n):
        vf.load_unalign_pre(u, src + i * 64);
        x = vf.load_unalign(u, src + i * 64)
        vf.store_align(dst, x, m, i * 64)
`, ""},
		{"continued line", `    u = vf.load_unalign_init()
    for i in pl.range(n):
        vf.load_unalign_pre(u, src + i * 64) \
            # a comment after a continuation
        x = vf.load_unalign(u, src + i * 64)
        vf.store_align(dst, x, m, i * 64)
`, ""},
		{"alone in a with block", `    u = vf.load_unalign_init()
    for i in pl.range(n):
        with pl.section_vector():
            # prime
            vf.load_unalign_pre(u, src + i * 64)
        x = vf.load_unalign(u, src + i * 64)
        vf.store_align(dst, x, m, i * 64)
`, ""},
		{"register bound again in the loop", `    u = vf.load_unalign_init()
    for i in pl.range(n):
        vf.load_unalign_pre(u, src + i * 64)
        x = vf.load_unalign(u, src + i * 64)
        vf.store_align(dst, x, m, i * 64)
        u = vf.load_unalign_init()
`, ""},
		{"register line makes two", `    for i in pl.range(n):
        u, s = vf.load_unalign_init(), vf.unalign_reg_for_store()
        vf.load_unalign_pre(u, src + i * 64)
        x = vf.load_unalign(u, src + i * 64)
        vf.store_align(dst, x, m, i * 64)
`, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := lowerPy(t, pyHead+c.body)
			sites := PreSites(f.Funcs[0])
			if len(sites) != 1 || sites[0].Verdict != Contiguous {
				t.Fatalf("sites %+v", sites)
			}
			fix, why := HoistFix(f, sites[0])
			checkPyFix(t, f, fix, why, pyHead+c.want, c.want == "")
		})
	}
}

// TestPythonSink checks when the Post of a contiguous Python stream is sunk.
func TestPythonSink(t *testing.T) {
	cases := []struct {
		name, body, want string
	}{
		{"last statement of the loop", `    s = vf.unalign_reg_for_store()
    for i in pl.range(n):
        x = vf.load_align(src, i * 64)
        vf.store_unalign(dst, x, s, 64, post_update=True)
        vf.store_unalign_post(dst, s, 0, post_update=True)
    x = vf.load_align(src, 0)
`, `    s = vf.unalign_reg_for_store()
    for i in pl.range(n):
        x = vf.load_align(src, i * 64)
        vf.store_unalign(dst, x, s, 64, post_update=True)
    vf.store_unalign_post(dst, s, 0, post_update=True)
    x = vf.load_align(src, 0)
`},
		{"loop ends in a comment", `    s = vf.unalign_reg_for_store()
    for i in pl.range(n):
        x = vf.load_align(src, i * 64)
        vf.store_unalign(dst, x, s, 64, post_update=True)
        vf.store_unalign_post(dst, s, 0, post_update=True)
        x = vf.load_align(src, 0)  # reload
`, `    s = vf.unalign_reg_for_store()
    for i in pl.range(n):
        x = vf.load_align(src, i * 64)
        vf.store_unalign(dst, x, s, 64, post_update=True)
        x = vf.load_align(src, 0)  # reload
    vf.store_unalign_post(dst, s, 0, post_update=True)
`},
		{"for-else", `    s = vf.unalign_reg_for_store()
    for i in pl.range(n):
        x = vf.load_align(src, i * 64)
        vf.store_unalign(dst, x, s, 64, post_update=True)
        vf.store_unalign_post(dst, s, 0, post_update=True)
    else:
        x = vf.load_align(dst, 0)
`, ""},
		{"alone in a with block", `    s = vf.unalign_reg_for_store()
    for i in pl.range(n):
        x = vf.load_align(src, i * 64)
        vf.store_unalign(dst, x, s, 64, post_update=True)
        with pl.section_vector():
            vf.store_unalign_post(dst, s, 0, post_update=True)
`, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := lowerPy(t, pyHead+c.body)
			sites := PostSites(f.Funcs[0])
			if len(sites) != 1 || sites[0].Verdict != Contiguous {
				t.Fatalf("sites %+v", sites)
			}
			fix, why := SinkFix(f, sites[0])
			checkPyFix(t, f, fix, why, pyHead+c.want, c.want == "")
		})
	}
}

// checkPyFix checks a fix: withheld (nil, for a textual reason: no why),
// or offered, with fixed text want that still parses as Python with the
// same regions and no parse error.
func checkPyFix(t *testing.T, f *ir.File, fix *analysis.SuggestedFix, why, want string, withheld bool) {
	t.Helper()
	if withheld {
		if fix != nil {
			t.Errorf("fix offered, want none:\n%s", apply(f, fix))
		}
		if why == "" || strings.HasPrefix(why, "the replay") {
			t.Errorf("withheld with reason %q, want a textual reason", why)
		}
		return
	}
	if fix == nil {
		t.Fatalf("no fix (replay: %q)", why)
	}
	got := apply(f, fix)
	if got != want {
		t.Errorf("fixed text:\n%s\nwant:\n%s", got, want)
	}
	g, err := pyfront.ParseFile(token.NewFileSet(), "fixed.py", []byte(got))
	if err != nil || len(g.Funcs) != 1 || len(g.Funcs[0].Errors) != 0 {
		t.Errorf("the fixed text does not parse cleanly: %v", err)
	}
}

func TestAssignTarget(t *testing.T) {
	for _, c := range []struct {
		code, target string
		ok           bool
	}{
		{"u = vf.load_unalign_init()", "u ", true},
		{"a, u = f(), g()", "a, u ", true},
		{"x += 1", "x +", true},
		{"vf.load_unalign_pre(u, src)", "", false},
		{"y = vf.load_unalign(u, src, post_update=True)", "y ", true},
		{"f(post_update=True)", "", false},
		{"if a == b:", "", false},
		{"while (n := n - 1) >= 0:", "", false},
		{"x[i] = 1", "x[i] ", true},
	} {
		got, ok := assignTarget(c.code)
		if got != c.target || ok != c.ok {
			t.Errorf("assignTarget(%q) = %q, %v, want %q, %v", c.code, got, ok, c.target, c.ok)
		}
	}
}

func TestBlockKeeps(t *testing.T) {
	src := "def k():\n    for i in r:\n        a()\n        b()\n    if c:\n        # only\n        d()\n    e()\n"
	s := source{src: []byte(src), py: true}
	at := func(code string) int { return strings.Index(src, code) - 8 }
	line := func(code string) (int, int) {
		a := at(code)
		e, _ := s.lineEnd(a)
		return a, e
	}
	a0, a1 := line("a()")
	b0, b1 := line("b()")
	d0, d1 := line("d()")
	for _, c := range []struct {
		name  string
		start int
		cuts  []int
		want  bool
	}{
		{"a leaves b", a0, []int{a0, a1}, true},
		{"b leaves a", b0, []int{b0, b1}, true},
		{"a and b leave nothing", a0, []int{a0, a1, b0, b1}, false},
		{"d leaves a comment only", d0, []int{d0, d1}, false},
	} {
		if got := s.blockKeeps(c.start, c.cuts...); got != c.want {
			t.Errorf("%s: blockKeeps = %v, want %v", c.name, got, c.want)
		}
	}
}
