package ir

import (
	"go/token"
	"strings"
	"testing"
)

// goodFile builds a small well-formed file by hand.
func goodFile() *File {
	fset := token.NewFileSet()
	tf := fset.AddFile("k.asc", -1, 1000)
	p := func(off int) token.Pos { return tf.Pos(off) }
	fn := &Func{Name: "k", Kind: RegionSimdVF, Pos: p(0), End: p(900), BodyPos: p(10)}
	fn.Regs = []*Reg{{ID: 0, Name: "v", Class: ClassVReg, ArrayLen: 1, Pos: p(20), End: p(21)}}
	ld := &Instr{ID: 0, Op: OpLoadAlign, Loop: 0, Pos: p(100), End: p(120),
		Args: []Operand{{Role: ArgW, Reg: 0, Part: -1, Pos: p(110), End: p(111)}, {Role: ArgPtr, Reg: NoReg, Part: -1, Pos: p(113), End: p(116)}},
		Defs: []RegID{0}}
	loop := &Loop{ID: 0, Parent: NoLoop, Depth: 1, Pos: p(50), End: p(200), Body: &Block{Nodes: []Node{ld}}}
	fn.Instrs = []*Instr{ld}
	fn.Loops = []*Loop{loop}
	fn.Body = &Block{Nodes: []Node{loop}}
	return &File{Name: "k.asc", Tok: tf, Funcs: []*Func{fn}}
}

func TestVerifyAcceptsGood(t *testing.T) {
	if errs := Verify(goodFile()); len(errs) != 0 {
		t.Fatalf("well-formed IR rejected: %v", errs)
	}
}

// TestVerifyRejects breaks one invariant at a time and expects Verify to say so.
func TestVerifyRejects(t *testing.T) {
	cases := []struct {
		name   string
		break_ func(f *File)
		want   string
	}{
		{"dense reg IDs", func(f *File) { f.Funcs[0].Regs[0].ID = 3 }, "has ID"},
		{"instr loop", func(f *File) { f.Funcs[0].Instrs[0].Loop = NoLoop }, "has loop"},
		{"def missing", func(f *File) { f.Funcs[0].Instrs[0].Defs = nil }, "does not define"},
		{"reg out of range", func(f *File) { f.Funcs[0].Instrs[0].Uses = []RegID{7} }, "out of range"},
		{"unreached instr", func(f *File) { f.Funcs[0].Loops[0].Body.Nodes = nil }, "reaches 0 of 1 instructions"},
		{"loop depth", func(f *File) { f.Funcs[0].Loops[0].Depth = 2 }, "depth"},
		{"span outside", func(f *File) { f.Funcs[0].Instrs[0].End = f.Funcs[0].End + 50 }, "outside"},
		{"missing role", func(f *File) { f.Funcs[0].Instrs[0].Args[1].Role = ArgNone }, "no role"},
		{"simt body", func(f *File) { f.Funcs[0].Kind = RegionSimtVF }, "SIMT region has instructions"},
		{"expansions out of order", func(f *File) {
			f.Expansions = []Expansion{{Pos: f.Tok.Pos(100), End: f.Tok.Pos(120)}, {Pos: f.Tok.Pos(110), End: f.Tok.Pos(130)}}
		}, "out of order or overlapping"},
	}
	for _, c := range cases {
		f := goodFile()
		c.break_(f)
		errs := Verify(f)
		found := false
		for _, e := range errs {
			if strings.Contains(e.Error(), c.want) {
				found = true
			}
		}
		if !found {
			t.Errorf("%s: Verify = %v, want an error containing %q", c.name, errs, c.want)
		}
	}
}
