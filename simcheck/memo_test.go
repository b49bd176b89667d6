package simcheck

import (
	"go/token"
	"os"
	"path/filepath"
	"testing"

	"github.com/ascvet/ascvet/cppfront"
	"github.com/ascvet/ascvet/cppfront/ir"
)

// outcome is what RunCycles gives its callers.
type outcome struct {
	iters, per, cycles, half, computed, halfComputed, window int
}

func outcomeOf(r *Result) outcome {
	return outcome{r.Iterations, r.PerIter, r.Cycles, r.halfCycles, r.computed, r.halfComputed, r.MaxWindow}
}

// renamed is body with every register shifted by shift and every pointer
// and address renamed: the same simulation.
func renamed(body Body, shift int) Body {
	out := body
	out.Insts = make([]Inst, len(body.Insts))
	if body.Regs != nil {
		out.Regs = make([]*ir.Reg, shift, shift+len(body.Regs))
		for i := range out.Regs {
			out.Regs[i] = &ir.Reg{ID: ir.RegID(i), Name: "pad", Class: ir.ClassNone}
		}
		out.Regs = append(out.Regs, body.Regs...)
	}
	name := func(s string) string {
		if s == "" {
			return ""
		}
		return "x_" + s
	}
	regs := func(rs []ir.RegID) []ir.RegID {
		var o []ir.RegID
		for _, r := range rs {
			o = append(o, r+ir.RegID(shift))
		}
		return o
	}
	for i, in := range body.Insts {
		in.Defs, in.Uses = regs(in.Defs), regs(in.Uses)
		var ptrs []string
		for _, p := range in.Ptrs {
			ptrs = append(ptrs, name(p))
		}
		in.Ptrs, in.Addr = ptrs, name(in.Addr)
		if in.UB != nil {
			u := *in.UB
			u.Base = name(u.Base)
			in.UB = &u
		}
		out.Insts[i] = in
	}
	return out
}

// memoBodies are the loop bodies of the repository's example kernels.
func memoBodies(t *testing.T) []Body {
	t.Helper()
	var out []Body
	files, _ := filepath.Glob(filepath.Join("..", "testdata", "kernels", "*.asc"))
	more, _ := filepath.Glob(filepath.Join("testdata", "*", "*", "*.asc"))
	for _, p := range append(files, more...) {
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		f, err := cppfront.ParseFile(token.NewFileSet(), p, src)
		if err != nil {
			continue
		}
		for _, fn := range f.Funcs {
			if !fn.Kind.Analysed() {
				continue
			}
			for _, lp := range fn.Loops {
				if b := BodyOf(fn, lp, nil); len(b.Insts) > 0 {
					out = append(out, b)
				}
			}
		}
	}
	if len(out) < 20 {
		t.Fatalf("only %d loop bodies in the example kernels", len(out))
	}
	return out
}

// TestMemoAgrees: a memoized machine gives what the simulation gives, for
// every loop of the example kernels, on the first run (a miss), the second
// (a hit), and for a copy of the body under other register and pointer
// names (a hit as well: the key does not depend on names).
func TestMemoAgrees(t *testing.T) {
	m := chip(t)
	mm := m.Memoized()
	bodies := memoBodies(t)
	for i, b := range bodies {
		for _, iters := range []int{1, 3, 16} {
			want := outcomeOf(m.RunCycles(b, iters))
			if got := outcomeOf(mm.RunCycles(b, iters)); got != want {
				t.Fatalf("body %d, %d iterations: memoized %+v, simulated %+v", i, iters, got, want)
			}
			n := len(mm.memo.runs)
			if got := outcomeOf(mm.RunCycles(b, iters)); got != want {
				t.Fatalf("body %d, %d iterations, again: memoized %+v, simulated %+v", i, iters, got, want)
			}
			r := renamed(b, 7+i)
			if got := outcomeOf(m.RunCycles(r, iters)); got != want {
				t.Fatalf("body %d renamed: simulated %+v, the original %+v", i, got, want)
			}
			if got := outcomeOf(mm.RunCycles(r, iters)); got != want {
				t.Fatalf("body %d renamed, memoized: %+v, want %+v", i, got, want)
			}
			if len(mm.memo.runs) != n {
				t.Fatalf("body %d: a second run or a renamed copy was stored again (%d entries, were %d)", i, len(mm.memo.runs), n)
			}
		}
	}
	t.Logf("%d bodies, %d memo entries", len(bodies), len(mm.memo.runs))
}

// TestMemoTellsApart: bodies that differ in anything the simulation reads
// have different keys.
func TestMemoTellsApart(t *testing.T) {
	fn, lp := independentMuls(4, true)
	base := BodyOf(fn, lp, nil)
	key := bodyKey(base, 8)
	if bodyKey(base, 9) == key {
		t.Error("the iteration count is not in the key")
	}
	changes := map[string]func(b *Body){
		"element type":   func(b *Body) { b.Insts[1].Elem = "half" },
		"operation":      func(b *Body) { b.Insts[1].Op = ir.OpAdds },
		"a source":       func(b *Body) { b.Insts[3].Uses = append([]ir.RegID(nil), b.Insts[1].Defs...) },
		"a pointer":      func(b *Body) { b.Insts[2].Ptrs = []string{"other"} },
		"an address":     func(b *Body) { b.Insts[0].Addr = "src" },
		"per iteration":  func(b *Body) { b.Insts[0].Addr, b.Insts[0].Iter = "src", true },
		"an inner start": func(b *Body) { b.Insts[0].Gate = true },
		"banks":          func(b *Body) { b.Insts[0].Banks = 2 },
		"a UB place":     func(b *Body) { b.Insts[0].UB = &UBAddr{Base: "src", Elem: 4, Stride: 1} },
		"a class": func(b *Body) {
			r := *b.Regs[b.Insts[1].Defs[0]]
			r.Class = ir.ClassMask
			b.Regs = append([]*ir.Reg(nil), b.Regs...)
			b.Regs[r.ID] = &r
		},
	}
	for what, change := range changes {
		b := base
		b.Insts = append([]Inst(nil), base.Insts...)
		change(&b)
		if bodyKey(b, 8) == key {
			t.Errorf("a body with another %s has the same key", what)
		}
	}
}

// TestMemoCopy: a copy of a memoized machine, changed, does not use the
// memo of the machine it was copied from.
func TestMemoCopy(t *testing.T) {
	m := chip(t)
	mm := m.Memoized()
	fn, lp := independentMuls(8, false)
	b := BodyOf(fn, lp, nil)
	wide := outcomeOf(mm.RunCycles(b, 8))
	small := *mm
	small.Window, small.IterStride, small.WindowFrees = 4, 0, "done"
	plain := *m
	plain.Window, plain.IterStride, plain.WindowFrees = 4, 0, "done"
	want := outcomeOf(plain.RunCycles(b, 8))
	if got := outcomeOf(small.RunCycles(b, 8)); got != want || got == wide {
		t.Errorf("a changed copy: %+v, want %+v (the memoized machine's: %+v)", got, want, wide)
	}
}
