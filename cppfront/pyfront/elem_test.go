package pyfront

import (
	"os"
	"testing"

	"github.com/ascvet/ascvet/cppfront/ir"
)

// TestInferElems checks the element types testdata/elems.py leaves unstated:
// inferred where the evidence agrees, unknown where it disagrees or where
// there is none, and given to the instruction that defines the register only
// when that is unambiguous.
func TestInferElems(t *testing.T) {
	src, err := os.ReadFile("testdata/elems.py")
	if err != nil {
		t.Fatal(err)
	}
	_, f := parse(t, "elems.py", src)
	fns := map[string]*ir.Func{}
	for _, fn := range f.Funcs {
		fns[fn.Name] = fn
	}
	cases := []struct {
		fn, reg, elem string
	}{
		{"agree_mask", "x", "float"},
		{"agree_mask", "y", "float"},
		{"agree_dtype", "x", "int16_t"},
		{"agree_dtype", "y", "int16_t"},
		{"disagree", "a", ""},
		{"disagree", "b", ""},
		{"disagree", "c", ""},
		{"disagree", "d", ""},
		{"disagree", "e0", "float"},
		{"disagree", "e1", "half"},
		{"no_information", "p", ""},
		{"no_information", "q", ""},
		{"no_information", "r", ""},
		{"no_information", "s", "float"}, // dtype= of the cast, at lowering
		{"no_information", "v", ""},
	}
	for _, c := range cases {
		fn := fns[c.fn]
		if fn == nil {
			t.Fatalf("no region %s", c.fn)
		}
		if got := regByName(t, fn, c.reg).Elem; got != c.elem {
			t.Errorf("%s: %s has element type %q, want %q", c.fn, c.reg, got, c.elem)
		}
	}
	// The defining instructions: the load of x is float; the load of the
	// two registers e0 and e1, of different types, stays unknown.
	defOf := func(fn *ir.Func, name string) *ir.Instr {
		r := regByName(t, fn, name)
		for _, in := range fn.Instrs {
			for _, d := range in.Defs {
				if d == r.ID {
					return in
				}
			}
		}
		t.Fatalf("%s: nothing defines %s", fn.Name, name)
		return nil
	}
	if in := defOf(fns["agree_mask"], "x"); in.Op != ir.OpLoadUnAlign || in.Elem != "float" {
		t.Errorf("agree_mask: the load of x is %s elem=%q, want LoadUnAlign elem=float", in.Op, in.Elem)
	}
	if in := defOf(fns["disagree"], "e0"); in.Elem != "" || in.Dist != "DIST_DINTLV" {
		t.Errorf("disagree: the load of e0, e1 has elem=%q dist=%s, want no element type and a width-less DIST_DINTLV", in.Elem, in.Dist)
	}
	if in := defOf(fns["disagree"], "d"); in.Elem != "" {
		t.Errorf("disagree: the load of d has elem=%q, want none", in.Elem)
	}
}
