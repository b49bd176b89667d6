package linear

import (
	"testing"

	"github.com/ascvet/ascvet/cppfront/ir"
)

func TestLinear(t *testing.T) {
	// (i * 64) / 2 is linear: every coefficient divides.
	e := ir.Bin("/", ir.Bin("*", ir.Sym("i"), ir.Const(64)), ir.Const(2))
	l, ok := Of(e)
	if c, okc := l.Coef("i"); !ok || !okc || c != 32 {
		t.Errorf("coef %d", c)
	}
	// i * stride is not linear in i with a constant coefficient.
	l, _ = Of(ir.Bin("*", ir.Sym("i"), ir.Sym("stride")))
	if _, ok := l.Coef("i"); ok {
		t.Error("i * stride reported linear")
	}
	a, _ := Of(ir.Bin("+", ir.Sym("src"), ir.Const(3)))
	b, _ := Of(ir.Bin("-", ir.Bin("+", ir.Sym("src"), ir.Const(4)), ir.Const(1)))
	if !a.Equal(b) {
		t.Errorf("%v != %v", a, b)
	}
}

func TestMentionsWord(t *testing.T) {
	for _, c := range []struct {
		s, w string
		want bool
	}{{"src + i * n", "i", true}, {"src + idx", "i", false}, {"a_i", "i", false}, {"x", "", false}, {"(sizeof(T))", "T", true}} {
		if got := MentionsWord(c.s, c.w); got != c.want {
			t.Errorf("MentionsWord(%q, %q) = %v", c.s, c.w, got)
		}
	}
}
