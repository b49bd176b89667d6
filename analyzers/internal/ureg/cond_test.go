package ureg

import (
	"testing"

	"github.com/ascvet/ascvet/cppfront/ir"
)

func TestSatisfiable(t *testing.T) {
	sizeofT := &ir.Expr{Kind: ir.ExprSizeof, Name: "T"}
	a, b, x, y, n := ir.Sym("a"), ir.Sym("b"), ir.Sym("x"), ir.Sym("y"), ir.Sym("n")
	tests := []struct {
		name string
		p, q *ir.Expr
		sat  bool
	}{
		{"sizeof one vs wider", ir.Bin("==", sizeofT, ir.Const(1)), ir.Bin(">", sizeofT, ir.Const(1)), false},
		{"sizeof flipped", ir.Bin("==", sizeofT, ir.Const(2)), ir.Bin("<", ir.Const(2), sizeofT), false},
		{"sizeof two vs four", ir.Bin("!=", sizeofT, ir.Const(2)), ir.Bin("==", sizeofT, ir.Const(4)), true},
		{"a <= b vs a > b", ir.Bin("<=", a, b), ir.Bin(">", a, b), false},
		{"a <= b vs b < a", ir.Bin("<=", a, b), ir.Bin("<", b, a), false},
		{"a < b vs b > a", ir.Bin("<", a, b), ir.Bin(">", b, a), true},
		{"!x vs x && y", ir.Unknown("!x"), ir.Bin("&&", x, y), false},
		{"!(x) vs x", ir.Unknown("! ( x )"), x, false},
		{"x vs y", x, y, true},
		{"n vs n == 0", n, ir.Bin("==", n, ir.Const(0)), false},
		{"n > 0 vs n", ir.Bin(">", n, ir.Const(0)), n, true},
		{"unknown text stays an atom", ir.Unknown("IsSame<T, half>()"), ir.Unknown("!IsSame<T, half>()"), false},
	}
	for _, tt := range tests {
		f := and(condFormula(tt.p), condFormula(tt.q))
		if got := satisfiable(f); got != tt.sat {
			t.Errorf("%s: satisfiable(%s && %s) = %v, want %v", tt.name, tt.p, tt.q, got, tt.sat)
		}
	}
}

func TestFirstTest(t *testing.T) {
	l := &ir.Loop{Var: "i", Init: ir.Const(0), Bound: ir.Sym("n"), CmpOp: "<", Step: ir.Const(1)}
	i := ir.Sym("i")
	for _, tt := range []struct {
		cond *ir.Expr
		want bool
	}{
		{ir.Bin("==", i, ir.Const(0)), true},
		{ir.Bin("==", ir.Const(0), i), true},
		{ir.Bin("==", i, ir.Bin("-", ir.Sym("n"), ir.Const(1))), false},
		{ir.Bin("<", i, ir.Const(1)), false},
	} {
		if got := firstTest(l, tt.cond); got != tt.want {
			t.Errorf("firstTest(%s) = %v, want %v", tt.cond, got, tt.want)
		}
	}
}

func TestContainsWord(t *testing.T) {
	for _, tt := range []struct {
		text, w string
		want    bool
	}{
		{"ncBase + ncPerVF >= ncTotal", "ncBase", true},
		{"ncBaseX > 0", "ncBase", false},
		{"x_ncBase", "ncBase", false},
		{"f(ncBase)", "ncBase", true},
	} {
		if got := containsWord(tt.text, tt.w); got != tt.want {
			t.Errorf("containsWord(%q, %q) = %v, want %v", tt.text, tt.w, got, tt.want)
		}
	}
}
