package ir

import "testing"

func TestFold(t *testing.T) {
	vl := Bin("/", Const(VectorBytes), Const(4))
	if v, ok := vl.Value(); !ok || v != 64 {
		t.Fatalf("256/4 = %v %v", v, ok)
	}
	if v, ok := Bin("/", Const(1), Const(0)).Value(); ok {
		t.Errorf("1/0 folded to %d", v)
	}
	if v, ok := Bin("*", Const(1<<62), Const(4)).Value(); ok {
		t.Errorf("overflow folded to %d", v)
	}
	if got := Bin("+", Sym("x"), Const(0)); got.Kind != ExprSym {
		t.Errorf("x+0 = %v", got)
	}
	if got := Bin("*", Sym("x"), Const(0)); got.Kind != ExprConst || got.Val != 0 {
		t.Errorf("x*0 = %v", got)
	}
	// sizeof(T) stays symbolic until bound.
	e := Bin("*", Sym("i"), Bin("/", Const(256), &Expr{Kind: ExprSizeof, Name: "T"}))
	if _, ok := e.Value(); ok {
		t.Error("sizeof(T) must not fold unbound")
	}
	bound := e.Subst(func(k ExprKind, name string) *Expr {
		if k == ExprSizeof && name == "T" {
			return Const(2)
		}
		return nil
	})
	base, coef, ok := bound.Linear("i")
	if !ok || coef != 128 {
		t.Errorf("i*(256/sizeof(half)): coef %d ok %v", coef, ok)
	}
	if v, ok := base.Value(); !ok || v != 0 {
		t.Errorf("base %v", base)
	}
	// src + i*64 - 1 is linear in i with coefficient 64.
	addr := Bin("-", Bin("+", Sym("src"), Bin("*", Sym("i"), Const(64))), Const(1))
	if b, c, ok := addr.Linear("i"); !ok || c != 64 || b.String() != "src - 1" {
		t.Errorf("Linear: %v %d %v", b, c, ok)
	}
	if _, _, ok := Bin("*", Sym("i"), Sym("i")).Linear("i"); ok {
		t.Error("i*i is not linear")
	}
	if _, _, ok := Bin("*", Sym("i"), Sym("stride")).Linear("i"); ok {
		t.Error("i*stride has no constant coefficient")
	}
	if !addr.Mentions("src") || addr.Mentions("dst") {
		t.Error("Mentions")
	}
}

func TestElemSize(t *testing.T) {
	for ty, want := range map[string]int64{"half": 2, "float": 4, "bfloat16_t": 2, "int8_t": 1, "uint64_t": 8, "AscendC::half": 2} {
		if got, ok := ElemSize(ty); !ok || got != want {
			t.Errorf("ElemSize(%s) = %d %v", ty, got, ok)
		}
	}
	if _, ok := ElemSize("T"); ok {
		t.Error("a template parameter has no size")
	}
}

func TestPure(t *testing.T) {
	c := &Expr{Kind: ExprConst}
	v := &Expr{Kind: ExprSym}
	for _, tc := range []struct {
		e    *Expr
		want bool
	}{
		{nil, false}, {c, true}, {&Expr{Kind: ExprSizeof}, true}, {v, false},
		{&Expr{Kind: ExprBin, X: c, Y: c}, true}, {&Expr{Kind: ExprBin, X: c, Y: v}, false},
		{&Expr{Kind: ExprNeg, X: c}, true}, {&Expr{Kind: ExprNeg, X: v}, false},
	} {
		if got := tc.e.Pure(); got != tc.want {
			t.Errorf("%+v.Pure() = %v, want %v", tc.e, got, tc.want)
		}
	}
}
