package ureg

import (
	"fmt"
	"math/rand/v2"
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

// TestSatisfiableLiterals: on conjunctions of literals the direct decision
// agrees with the enumeration of valuations, over random conjunctions of
// atoms, comparisons (on one variable, on sizeof, on a name that is also an
// atom), their negations and constants, the maxValuations bound included.
func TestSatisfiableLiterals(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	leaf := func() *formula {
		switch rng.IntN(6) {
		case 0:
			return atom([]string{"x", "y", "n"}[rng.IntN(3)])
		case 1:
			return []*formula{fTrue, fFalse}[rng.IntN(2)]
		case 2:
			return &formula{op: 'c', atom: "sizeof(T)", cmp: []string{"==", "!=", ">", "<="}[rng.IntN(4)], val: int64(1 << rng.IntN(4))}
		}
		return &formula{op: 'c', atom: []string{"K", "n"}[rng.IntN(2)], cmp: []string{"<", "<=", ">", ">=", "==", "!="}[rng.IntN(6)], val: int64(rng.IntN(7) - 1)}
	}
	for range 20000 {
		f := leaf()
		if rng.IntN(2) == 0 {
			f = not(f)
		}
		for range rng.IntN(12) {
			g := leaf()
			if rng.IntN(2) == 0 {
				g = not(g)
			}
			f = and(f, g)
		}
		got, ok := satisfiableLiterals(f)
		if !ok {
			t.Fatalf("%v: a conjunction of literals not decided", f)
		}
		if want := enumerate(f); got != want {
			t.Errorf("satisfiableLiterals = %v, enumerate = %v", got, want)
		}
	}
	if _, ok := satisfiableLiterals(&formula{op: '|', x: atom("x"), y: atom("y")}); ok {
		t.Error("a disjunction decided as a conjunction of literals")
	}
	// Over the bound: assumed satisfiable, as enumerate assumes it.
	f := atom("a0")
	for i := 1; i <= 13; i++ {
		f = and(f, atom(fmt.Sprintf("a%d", i)))
	}
	f = and(f, not(atom("a0")))
	if got, _ := satisfiableLiterals(f); !got || !enumerate(f) {
		t.Errorf("a formula over 2^14 valuations: %v, enumerate %v; want both true", got, enumerate(f))
	}
}
