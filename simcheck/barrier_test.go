package simcheck

import (
	"go/token"
	"testing"

	"github.com/ascvet/ascvet/cppfront"
	"github.com/ascvet/ascvet/cppfront/ir"
)

// TestBarrierOf: the pipes a barrier waits for and holds, from each
// spelling.
func TestBarrierOf(t *testing.T) {
	src := `__simd_vf__ inline void K(__ubuf__ float* dst)
{
    AscendC::Reg::LocalMemBar<AscendC::Reg::MemType::VEC_STORE, AscendC::Reg::MemType::VEC_LOAD>();
    AscendC::Reg::LocalMemBar<AscendC::Reg::MemType::VEC_LOAD, AscendC::Reg::MemType::VEC_STORE>();
    AscendC::Reg::LocalMemBar<AscendC::Reg::MemType::VEC_ALL, AscendC::Reg::MemType::VEC_ALL>();
    AscendC::Reg::LocalMemBar<AscendC::Reg::MemType::SCALAR_STORE, AscendC::Reg::MemType::VEC_LOAD>();
    mem_bar(VST_VLD);
    mem_bar(VV_ALL);
    asc_mem_bar(VS_ALL);
    mem_bar(VLD_VST);
}
`
	f, err := cppfront.ParseFile(token.NewFileSet(), "k.asc", []byte(src))
	if err != nil || len(f.Funcs) != 1 {
		t.Fatalf("parse: %v", err)
	}
	want := []barrierKinds{
		{srcStore: true, dstLoad: true},
		{srcLoad: true, dstStore: true},
		{srcLoad: true, srcStore: true, dstLoad: true, dstStore: true},
		{dstLoad: true},
		{srcStore: true, dstLoad: true},
		{srcLoad: true, srcStore: true, dstLoad: true, dstStore: true},
		{srcLoad: true, srcStore: true},
		{srcLoad: true, dstStore: true},
	}
	var got []barrierKinds
	for _, in := range f.Funcs[0].Instrs {
		if in.Op == ir.OpLocalMemBar {
			got = append(got, barrierOf(in))
		}
	}
	if len(got) != len(want) {
		t.Fatalf("%d barriers, want %d", len(got), len(want))
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("barrier %d: %+v, want %+v", i, got[i], want[i])
		}
	}
	def := barrierKinds{srcStore: true, dstLoad: true, dstStore: true}
	if barrierOf(nil) != def {
		t.Error("a barrier of no instruction must order as before")
	}
	// Spellings it cannot read order as before, and none panics.
	for _, text := range []string{"", "_ALL", "V_ALL", "VVV_ALL", "_", "VST_", "_VLD", "mode", "VST_VLD_X", "MEM_TYPE::", "::_ALL", "XV_ALL", "VX_ALL"} {
		in := &ir.Instr{Op: ir.OpLocalMemBar, Args: []ir.Operand{{Text: text}}}
		if got := barrierOf(in); got != def {
			t.Errorf("mem_bar(%s): %+v, want the old order", text, got)
		}
	}
	for _, targs := range [][]string{{"T"}, {"MemType::VEC_ALL", "X"}, {"", ""}, {"a", "b", "c"}} {
		if got := barrierOf(&ir.Instr{Op: ir.OpLocalMemBar, TArgs: targs}); got != def {
			t.Errorf("LocalMemBar<%v>: %+v, want the old order", targs, got)
		}
	}
}
