package cppfront

import (
	"errors"
	"fmt"
	"go/token"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/ascvet/ascvet/cppfront/internal/tsutil"

	"github.com/ascvet/ascvet/cppfront/ir"
)

// TestDepthLimit: a kernel nested 10,000 levels deep is refused before
// parsing, with a *LimitError naming the depth; the limit is an option.
func TestDepthLimit(t *testing.T) {
	deep := "__simd_vf__ void f() " + strings.Repeat("{", 10000) + "Reg::LoadAlign(x, y);" + strings.Repeat("}", 10000)
	start := time.Now()
	f, err := ParseFile(token.NewFileSet(), "deep.asc", []byte(deep))
	var le *LimitError
	if !errors.As(err, &le) || le.Limit != "depth" || !strings.Contains(le.Msg, "10001 levels deep") {
		t.Fatalf("err %v, want a depth *LimitError", err)
	}
	if f == nil || len(f.Funcs) != 0 {
		t.Errorf("a refused file has regions: %+v", f)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("refusing took %v", d)
	}
	// 200 levels pass by default, and not with a limit of 100.
	ok := "__simd_vf__ void f() " + strings.Repeat("{", 200) + "Reg::LoadAlign(x, y);" + strings.Repeat("}", 200)
	if _, err := ParseFile(token.NewFileSet(), "ok.asc", []byte(ok)); err != nil {
		t.Errorf("200 levels: %v", err)
	}
	if _, err := ParseFileOptions(token.NewFileSet(), "ok.asc", []byte(ok), Options{MaxDepth: 100}); !errors.As(err, &le) {
		t.Errorf("200 levels with MaxDepth 100: %v", err)
	}
}

// TestTreeCut: a syntax tree deep without brackets ("a+a+...") is cut at
// the budget's depth: lowering stays bounded, the IR verifies, and the cut
// shows as a parse error of the region.
func TestTreeCut(t *testing.T) {
	src := "__simd_vf__ void f() { Reg::LoadAlign(x, y); z = a" + strings.Repeat("+a", 3000) + "; }"
	fset := token.NewFileSet()
	f, err := ParseFileOptions(fset, "chain.asc", []byte(src), Options{MaxDepth: 10}) // cut at 1040
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ir.Verify(f) {
		t.Error(e)
	}
	if len(f.Funcs) != 1 || len(f.Funcs[0].Errors) == 0 || len(f.Funcs[0].Instrs) != 1 {
		t.Fatalf("want one region with its call and a parse error at the cut: %+v", f.Funcs)
	}
	// Under the default limit the same chain is whole.
	f, err = ParseFile(token.NewFileSet(), "chain.asc", []byte(src))
	if err != nil || len(f.Funcs) != 1 || len(f.Funcs[0].Errors) != 0 {
		t.Fatalf("default limits: %v %+v", err, f.Funcs)
	}
}

// TestTimeout: a file that takes longer than Options.Timeout is refused
// with a *LimitError, whether parsing or lowering is under way; the parser
// goes back to the free list in a usable state.
func TestTimeout(t *testing.T) {
	var b strings.Builder
	b.WriteString("__simd_vf__ void f() {\n")
	for i := range 3000 {
		fmt.Fprintf(&b, "    Reg::Adds(v%d, v%d, %d);\n", i, i+1, i)
	}
	b.WriteString("}\n")
	_, err := ParseFileOptions(token.NewFileSet(), "slow.asc", []byte(b.String()), Options{Timeout: time.Nanosecond})
	var le *LimitError
	if !errors.As(err, &le) || le.Limit != "timeout" {
		t.Fatalf("err %v, want a timeout *LimitError", err)
	}
	// The lowering's clock: a budget past its deadline stops the walk.
	bud := &budget{clock: clock{deadline: time.Now().Add(-time.Second)}, cut: 100}
	func() {
		defer func() {
			if _, ok := recover().(overTime); !ok {
				t.Error("tick does not stop lowering past the deadline")
			}
		}()
		for range 1000 {
			bud.tick()
		}
	}()
	// The free list's parsers still work.
	for range 4 {
		if f, err := ParseFileOptions(token.NewFileSet(), "ok.asc", []byte(b.String()), Options{Timeout: time.Minute}); err != nil || len(f.Funcs) != 1 {
			t.Fatalf("after a timeout: %v", err)
		}
	}
}

func TestNesting(t *testing.T) {
	cases := []struct {
		src  string
		want int
	}{
		{"", 0},
		{"f(a[1]) { }", 2},
		{"{{{ }}}", 3},
		{"}}} {", 1},
		{"// (((((\n{", 1},
		{"/* {{{{ */ (", 1},
		{`s = "((((" + '(';`, 0},
		{`R"x( {{{{ )x" {`, 1},
		{"/* never closed {{{", 0},
	}
	for _, c := range cases {
		if got := lexText([]byte(c.src)).nesting(); got != c.want {
			t.Errorf("nesting(%q) = %d, want %d", c.src, got, c.want)
		}
	}
}

// crKernel is a kernel with old Mac line ends (CR only).
const crKernel = "// CR-only file\r__simd_vf__ void F(__ubuf__ float* src)\r{\r    Reg::RegTensor<float> v;\r    Reg::LoadAlign(v, src);\r}\r"

// TestLineEnds: positions are exact, to the column, with LF, CRLF and
// CR-only line ends (go/token's SetLinesForContent knows only LF).
func TestLineEnds(t *testing.T) {
	for _, c := range []struct{ name, src string }{
		{"lf", strings.ReplaceAll(crKernel, "\r", "\n")},
		{"crlf", strings.ReplaceAll(crKernel, "\r", "\r\n")},
		{"cr", crKernel},
	} {
		t.Run(c.name, func(t *testing.T) {
			fset, f := parse(t, c.name+".asc", []byte(c.src))
			if len(f.Funcs) != 1 || len(f.Funcs[0].Errors) != 0 || len(f.Funcs[0].Instrs) != 1 {
				t.Fatalf("want one clean region with one call: %+v", f.Funcs)
			}
			fn := f.Funcs[0]
			if got := fset.Position(fn.Pos); got.Line != 2 || got.Column != 1 {
				t.Errorf("region at %d:%d, want 2:1", got.Line, got.Column)
			}
			if got := fset.Position(fn.Instrs[0].Pos); got.Line != 5 || got.Column != 5 {
				t.Errorf("LoadAlign at %d:%d, want 5:5", got.Line, got.Column)
			}
			if got := fset.Position(fn.Regs[0].Pos); got.Line != 4 || got.Column != 27 {
				t.Errorf("v declared at %d:%d, want 4:27", got.Line, got.Column)
			}
		})
	}
}

func TestLineStarts(t *testing.T) {
	cases := []struct {
		src  string
		want []int
	}{
		{"", []int{0}},
		{"a", []int{0}},
		{"a\n", []int{0}},
		{"a\nb", []int{0, 2}},
		{"a\r\nb\r\n", []int{0, 3}},
		{"a\rb\rc", []int{0, 2, 4}},
		{"a\r\rb", []int{0, 2, 3}},
		{"a\n\rb\r\n\nc", []int{0, 2, 3, 6, 7}},
	}
	for _, c := range cases {
		if got := tsutil.LineStarts([]byte(c.src)); fmt.Sprint(got) != fmt.Sprint(c.want) {
			t.Errorf("tsutil.LineStarts(%q) = %v, want %v", c.src, got, c.want)
		}
	}
	// For LF-only text the table is go/token's.
	src := []byte("x\n\nabc\n  d\n")
	fset := token.NewFileSet()
	tf := fset.AddFile("a", -1, len(src))
	tf.SetLinesForContent(src)
	if got := tsutil.LineStarts(src); fmt.Sprint(got) != fmt.Sprint(tf.Lines()) {
		t.Errorf("lineStarts %v, SetLinesForContent %v", got, tf.Lines())
	}
}

// TestBOM: a UTF-8 byte order mark is not a parse error, and positions stay
// byte offsets of the file: columns on the first line count its 3 bytes.
func TestBOM(t *testing.T) {
	src := "\xEF\xBB\xBF__simd_vf__ void F(__ubuf__ float* src) { Reg::RegTensor<float> v; Reg::LoadAlign(v, src); }\n"
	fset, f := parse(t, "bom.asc", []byte(src))
	if len(f.Funcs) != 1 || len(f.Funcs[0].Errors) != 0 || len(f.Funcs[0].Instrs) != 1 {
		t.Fatalf("want one clean region with one call: %+v", f.Funcs)
	}
	if got := fset.Position(f.Funcs[0].Pos); got.Offset != 3 || got.Column != 4 {
		t.Errorf("region at offset %d column %d, want 3 and 4 (after the BOM)", got.Offset, got.Column)
	}
	at := strings.Index(src, "Reg::LoadAlign")
	if got := fset.Position(f.Funcs[0].Instrs[0].Pos); got.Offset != at || got.Column != at+1 {
		t.Errorf("LoadAlign at offset %d column %d, want %d and %d", got.Offset, got.Column, at, at+1)
	}
}

// TestInvalidUTF8: bytes that are not UTF-8 are parsed as they are (tree-
// sitter works on bytes); the code around them is still understood and
// positions are byte offsets.
func TestInvalidUTF8(t *testing.T) {
	src := "// caf\xe9 \xff\xfe\n__simd_vf__ void F(__ubuf__ float* src) { Reg::RegTensor<float> v; /* \xc3\x28 */ Reg::LoadAlign(v, src); }\n"
	fset, f := parse(t, "latin1.asc", []byte(src))
	if len(f.Funcs) != 1 || len(f.Funcs[0].Instrs) != 1 {
		t.Fatalf("want one region with one call: %+v", f.Funcs)
	}
	at := strings.Index(src, "Reg::LoadAlign")
	if got := fset.Position(f.Funcs[0].Instrs[0].Pos); got.Offset != at || got.Line != 2 {
		t.Errorf("LoadAlign at %v, want offset %d on line 2", got, at)
	}
}

// TestUnbalancedBraces: a region with a brace too few is lowered with its
// parse errors, or, where tree-sitter gave up on the
// function (two braces missing), kept as an empty region whose parse error
// is where the parse gave up: the gap shows (ASC0001), the IR verifies.
func TestUnbalancedBraces(t *testing.T) {
	head := "__simd_vf__ void F(__ubuf__ float* src) {\n    Reg::RegTensor<float> v;\n"
	for _, c := range []struct {
		name, src string
		instrs    int  // calls lowered
		errs      bool // parse errors in F
	}{
		{"one-missing", head + "    { Reg::LoadAlign(v, src);\n}\n", 1, true},
		{"extra", head + "    Reg::LoadAlign(v, src); }\n}\n}\n", 1, false}, // the stray braces are outside F
		{"many-missing", head + strings.Repeat("    for (int i = 0; i < 4; i++) {\n", 50) + "    Reg::LoadAlign(v, src);\n", 0, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			fset, f := parse(t, "unbalanced.asc", []byte(c.src))
			if len(f.Funcs) != 1 || f.Funcs[0].Name != "F" || (len(f.Funcs[0].Errors) > 0) != c.errs || len(f.Funcs[0].Instrs) != c.instrs {
				t.Fatalf("want region F with %d calls, parse errors %v: %+v", c.instrs, c.errs, f.Funcs)
			}
			if c.instrs == 0 {
				if got := fset.Position(f.Funcs[0].Errors[0]); got.Offset != len(strings.TrimRight(c.src, "\n")) {
					t.Errorf("parse error at %v, want the end of the last statement", got)
				}
			}
		})
	}
	// A marker on a mere declaration makes no region, nor one on a text
	// without a brace: no function body, so no function lost.
	for _, src := range []string{"__simd_vf__ void F(float* src);\nvoid G( {\n", "__simd_vf__ void F(float* src\n", "__simd_vf__ ("} {
		if _, f := parse(t, "decl.asc", []byte(src)); len(f.Funcs) != 0 {
			t.Errorf("%q: regions %+v", src, f.Funcs)
		}
	}
}

// TestParsersReused: parsers survive garbage collections. A sync.Pool
// would drop them at each one, and go-tree-sitter has no finalizer to free
// a dropped parser's C memory: a run over a big tree leaked ~100 MB.
func TestParsersReused(t *testing.T) {
	src := []byte("__simd_vf__ void F(__ubuf__ float* src) { Reg::RegTensor<float> v; Reg::LoadAlign(v, src); }")
	if _, err := ParseFile(token.NewFileSet(), "k.asc", src); err != nil {
		t.Fatal(err)
	}
	before := parsersMade.Load()
	for range 20 {
		runtime.GC()
		if _, err := ParseFile(token.NewFileSet(), "k.asc", src); err != nil {
			t.Fatal(err)
		}
	}
	if made := parsersMade.Load() - before; made != 0 {
		t.Errorf("%d parsers made for 20 files parsed one after the other, want 0", made)
	}
}
