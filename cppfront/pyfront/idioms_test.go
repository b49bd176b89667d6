package pyfront

import (
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/ascvet/ascvet/cppfront/ir"
)

func instrsOf(fn *ir.Func, op ir.Op) []*ir.Instr {
	var out []*ir.Instr
	for _, in := range fn.Instrs {
		if in.Op == op {
			out = append(out, in)
		}
	}
	return out
}

// TestIdioms checks the constructs real pypto_pro kernels are made of, on
// testdata/idioms.py: module constants in addresses, nested pl.range,
// tuple targets, a mask loaded into a register declared by create_mask,
// unaligned store streams flushed after the loop, a block store, barriers
// and a call of another vector function.
func TestIdioms(t *testing.T) {
	src, err := os.ReadFile("testdata/idioms.py")
	if err != nil {
		t.Fatal(err)
	}
	_, f := parse(t, "idioms.py", src)
	for name, v := range map[string]int64{"ROWS": 8, "COLS": 128, "LANES": 64, "QUARTER": 2, "PAD": 65} {
		if got, ok := f.Consts[name]; !ok || got != v {
			t.Errorf("Consts[%s] = %d, %v; want %d", name, got, ok, v)
		}
	}
	if _, ok := f.Consts["NEG_BIG"]; ok {
		t.Errorf("a float constant was folded as an integer")
	}
	if len(f.Funcs) != 2 || f.Funcs[0].Name != "row_max" || f.Funcs[1].Name != "softmax_rows" {
		t.Fatalf("regions %v", names(f.Funcs))
	}
	if !slices.Contains(f.Defined, "host_kernel") || !slices.Contains(f.Defined, "test_softmax") {
		t.Errorf("Defined = %v", f.Defined)
	}

	rm := f.Funcs[0]
	if loads := instrsOf(rm, ir.OpLoadAlign); len(loads) != 2 || loads[1].Args[1].Expr.String() != "src + ((r * 128) + 64)" {
		t.Errorf("row_max loads: %v", exprs(loads, 1))
	}
	st := instrsOf(rm, ir.OpStoreUnAlign)
	post := instrsOf(rm, ir.OpStoreUnAlignPost)
	if len(st) != 1 || st[0].Loop != 0 || !st[0].Post || !slices.Equal(st[0].PtrDefs, []string{"max_out"}) {
		t.Errorf("row_max: the unaligned store is not a post-updated store in the loop")
	}
	if len(post) != 1 || post[0].Loop != ir.NoLoop || post[0].Args[2].Expr.String() != "0" {
		t.Errorf("row_max: the flush is not after the loop with stride 0")
	}

	fn := f.Funcs[1]
	if len(fn.Loops) != 2 || fn.Loops[1].Parent != 0 || fn.Loops[1].Depth != 2 || !fn.Loops[0].TripKnown || fn.Loops[0].Trip != 2 ||
		!fn.Loops[1].TripKnown || fn.Loops[1].Trip != 2 || fn.Loops[1].Var != "r" {
		t.Errorf("softmax_rows loops are not two nested counted loops of 2")
	}
	if !slices.Contains(fn.Loops[0].Assigns, "part0") || !slices.Contains(fn.Loops[1].Decls, "base") {
		t.Errorf("loop names: L0 assigns %v, L1 decls %v", fn.Loops[0].Assigns, fn.Loops[1].Decls)
	}
	keep := regByName(t, fn, "keep")
	var maskLoad *ir.Instr
	for _, in := range instrsOf(fn, ir.OpLoadAlign) {
		if len(in.Defs) == 1 && in.Defs[0] == keep.ID {
			maskLoad = in
		}
	}
	if keep.Class != ir.ClassMask || maskLoad == nil || !maskLoad.Cond || maskLoad.Dist != "DIST_DS" {
		t.Errorf("the load into keep (declared by create_mask) is not a conditional DIST_DS mask load")
	}
	var dual *ir.Instr
	for _, in := range instrsOf(fn, ir.OpLoadAlign) {
		if len(in.Defs) == 2 {
			dual = in
		}
	}
	if dual == nil || dual.Dist != "DIST_DINTLV_B32" || fn.Regs[dual.Defs[0]].Name != "x_even" || fn.Regs[dual.Defs[1]].Name != "x_odd" ||
		dual.Args[2].Expr.String() != "part0 + (r * 128)" {
		t.Errorf("the tuple-target load is not a DINTLV load of x_even, x_odd from part0 + (r * 128), the loop-local base = r * COLS folded")
	}
	if brc := instrsOf(fn, ir.OpLoadAlign)[0]; brc.Dist != "DIST_BRC_B32" || brc.Args[1].Expr.String() != "max_in + ((blk * 2) + r)" {
		t.Errorf("BRC load: dist %s address %s", brc.Dist, brc.Args[1].Expr)
	}
	if sel := instrsOf(fn, ir.OpSelect); len(sel) != 1 || sel[0].Args[3].Role != ir.ArgMask || sel[0].Args[3].Reg != keep.ID {
		t.Errorf("select is not governed by the mask keep")
	}
	if bs := instrsOf(fn, ir.OpStoreAlign); len(bs) != 1 || !bs[0].Post || bs[0].Elem != "uint16_t" ||
		!slices.Contains(bs[0].TArgs, "DataCopyMode::DATA_BLOCK_COPY") || bs[0].Args[2].Expr.String() != "65" {
		t.Errorf("the block store is not a post-updated DATA_BLOCK_COPY store of uint16_t with block stride 65")
	}
	if mb := instrsOf(fn, ir.OpLocalMemBar); len(mb) != 2 {
		t.Errorf("%d barriers, want 2", len(mb))
	}
	if c := instrsOf(fn, ir.OpCall); len(c) != 1 || c[0].Callee != "row_max" || c[0].Form != ir.FormCall {
		t.Errorf("the call of row_max is not an OpCall")
	}
	if h := regByName(t, fn, "h"); h.Elem != "uint16_t" {
		t.Errorf("or_ of two bit_casts to DT_UINT16 gives %q", h.Elem)
	}
	for _, in := range fn.Instrs {
		if in.Op == ir.OpUnknown {
			t.Errorf("unknown call %s", in.Callee)
		}
	}
}

func names(fns []*ir.Func) []string {
	var out []string
	for _, fn := range fns {
		out = append(out, fn.Name)
	}
	return out
}

func exprs(ins []*ir.Instr, k int) []string {
	var out []string
	for _, in := range ins {
		if k < len(in.Args) {
			out = append(out, in.Args[k].Expr.String())
		}
	}
	return out
}

// lowerOne lowers a one-region source and returns the region.
func lowerOne(t *testing.T, src string) *ir.Func {
	t.Helper()
	_, f := parse(t, "t.py", []byte(src))
	if len(f.Funcs) != 1 {
		t.Fatalf("%d regions in\n%s", len(f.Funcs), src)
	}
	return f.Funcs[0]
}

// TestLoops checks the loop headers and folded trip counts.
func TestLoops(t *testing.T) {
	cases := []struct {
		header string
		hdr    string // Var = Init; Var CmpOp Bound; step Step
		trip   int64  // -1: unknown
		once   bool
	}{
		{"for i in range(10):", "i = 0; i < 10; step 1", 10, false},
		{"for i in range(2, 10):", "i = 2; i < 10; step 1", 8, false},
		{"for i in range(0, 10, 3):", "i = 0; i < 10; step 3", 4, false},
		{"for i in range(10, 0, -2):", "i = 10; i > 0; step -2", 5, false},
		{"for i in pl.range(N // 2):", "i = 0; i < 32; step 1", 32, false},
		{"for i in pl.range(start=4, stop=N, step=N // 4):", "i = 4; i < 64; step 16", 4, false},
		{"for i in pl.range(1):", "i = 0; i < 1; step 1", 1, true},
		{"for i in range(7, 3):", "i = 7; i < 3; step 1", 0, true},
		{"for i in range(n):", "i = 0; i < n; step 1", -1, false},
		{"for i in range(flag):", "i = 0; i < flag; step 1", -1, true},
		{"for i in range(n > 0):", "i = 0; i < n > 0; step 1", -1, true},
		{"for i in range(1, n > 0):", "i = 1; i < n > 0; step 1", -1, false},
		{"for i in range(0, n, s):", "i = 0; i < n; step s", -1, false},
		{"for i, j in enumerate(xs):", "", -1, false},
		{"while n > 0:", "", -1, false},
	}
	for _, c := range cases {
		src := "import pypto_pro.language as pl\nN = 64\n\n@pl.vector_function\ndef k(src, n, s, xs, flag: bool):\n" +
			"    m = vf.create_mask()\n    " + c.header + "\n        x = vf.load_align(src, 0)\n        vf.store_align(src, x, m)\n"
		fn := lowerOne(t, src)
		if len(fn.Loops) != 1 {
			t.Errorf("%s: %d loops", c.header, len(fn.Loops))
			continue
		}
		l := fn.Loops[0]
		hdr := ""
		if l.Var != "" {
			hdr = l.Var + " = " + l.Init.String() + "; " + l.Var + " " + l.CmpOp + " " + l.Bound.String() + "; step " + l.Step.String()
		}
		trip := int64(-1)
		if l.TripKnown {
			trip = l.Trip
		}
		if hdr != c.hdr || trip != c.trip || l.AtMostOnce != c.once {
			t.Errorf("%s: header %q trip %d once %v, want %q %d %v", c.header, hdr, trip, l.AtMostOnce, c.hdr, c.trip, c.once)
		}
		if len(l.Body.Nodes) != 2 || fn.Instrs[1].Loop != l.ID {
			t.Errorf("%s: the body is not in the loop", c.header)
		}
	}
}

// TestNames checks how names bind: constants bound once fold, names bound
// twice do not, a name bound again to a result writes the same register,
// and a parameter used where a register is wanted is a register parameter.
func TestNames(t *testing.T) {
	fn := lowerOne(t, `
@pl.vector_function
def k(src, dst, vin, m):
    a = 4
    b = a * 16
    c = 1
    c = 2
    x = vf.load_align(src, b + c)
    x = vf.adds(x, 1, m)
    y = vf.add(x, vin, m)
    z = y
    z = vf.muls(z, 2, m)
    vf.store_align(dst, x, m)
`)
	if fn.Locals["a"] != 4 || fn.Locals["b"] != 64 {
		t.Errorf("Locals = %v", fn.Locals)
	}
	if _, ok := fn.Locals["c"]; ok {
		t.Errorf("c is bound twice but folded")
	}
	ld := fn.Instrs[0]
	if got := ld.Args[1].Expr.String(); got != "src + (64 + c)" {
		t.Errorf("address %s", got)
	}
	x := regByName(t, fn, "x")
	if fn.Instrs[1].Defs[0] != x.ID || fn.Instrs[1].Args[1].Reg != x.ID {
		t.Errorf("x = vf.adds(x, ...) does not write and read the register x")
	}
	vin, m := regByName(t, fn, "vin"), regByName(t, fn, "m")
	if !vin.Param || vin.Class != ir.ClassVReg || !m.Param || m.Class != ir.ClassMask {
		t.Errorf("parameters vin %s param=%v, m %s param=%v", vin.Class, vin.Param, m.Class, m.Param)
	}
	if fn.Params[2].Reg != vin.ID || fn.Params[0].Reg != ir.NoReg {
		t.Errorf("params %+v", fn.Params)
	}
	// z = y aliases y's register; binding z again makes a register of its own.
	z := regByName(t, fn, "z")
	y := regByName(t, fn, "y")
	mul := fn.Instrs[3]
	if mul.Args[1].Reg != y.ID || mul.Defs[0] != z.ID || z.ID == y.ID {
		t.Errorf("z = vf.muls(z) after z = y: reads r%d writes r%d (y r%d, z r%d)", mul.Args[1].Reg, mul.Defs[0], y.ID, z.ID)
	}
}

// TestCalls checks what is an instruction and what is unknown: vf names the
// table lacks and calls of nothing known are OpUnknown; pl.* scalar
// helpers and builtins are scalar code; conversions are no instruction.
func TestCalls(t *testing.T) {
	_, f := parse(t, "t.py", []byte(`
import pypto_pro.language as pl
from helpers_elsewhere import far

def near(x):
    return x

@pl.vector_function
def k(src, n):
    m = vf.create_mask()
    a = int(n)
    b = pl.min(a, 8)
    c = max(a, b)
    d = vf.no_such_op(src, m)
    e = far(src)
    near(m)
    pl.printf("%d", n)
    q = pl.get_block_idx()
    t = math.ceil(n)
    u = obj.method(n)
`))
	fn := f.Funcs[0]
	var got []string
	for _, in := range fn.Instrs {
		got = append(got, in.Op.String()+":"+in.Callee)
	}
	want := []string{"CreateMask:vf.create_mask", "scalar:pl.min", "scalar:max", "unknown:vf.no_such_op", "unknown:far",
		"call:near", "Print:pl.printf", "scalar:pl.get_block_idx", "scalar:math.ceil", "unknown:obj.method"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("instructions\n got %v\nwant %v", got, want)
	}
	if len(f.Helpers) != 1 || f.Helpers[0].Name != "near" || f.Helpers[0].Kind != ir.RegionSimdCallee {
		t.Errorf("helpers %v", names(f.Helpers))
	}
	// The unknown vf call reads the mask; nothing is guessed about d.
	unk := fn.Instrs[3]
	if len(unk.Defs) != 0 || len(unk.Uses) != 1 || unk.Args[1].Role != ir.ArgR {
		t.Errorf("unknown call defs %v uses %v", unk.Defs, unk.Uses)
	}
}

// TestRegionKinds checks the decorator spellings and the SIMT mode.
func TestRegionKinds(t *testing.T) {
	_, f := parse(t, "t.py", []byte(`
import pypto_pro.language as lang
from pypto_pro.language import vector_function as vfn
from pypto_pro.language import Vf as W

@lang.vector_function
def a(x):
    m = W.create_mask()

@vfn
def b(x):
    m = lang.vf.create_mask()

@lang.vector_function(mode="simt")
def c(x):
    m = W.create_mask()

@other.vector_function
def d(x):
    pass

@lang.jit
def e(x):
    a(x)
`))
	var got []string
	for _, fn := range f.Funcs {
		got = append(got, fn.Name+":"+fn.Kind.String())
		if fn.Kind.Analysed() && (len(fn.Instrs) != 1 || fn.Instrs[0].Op != ir.OpCreateMask) {
			t.Errorf("%s: the vf call through the alias was not resolved", fn.Name)
		}
		if !fn.Kind.Analysed() && (len(fn.Instrs) != 0 || fn.Body != nil) {
			t.Errorf("%s: a SIMT region is recorded, not lowered", fn.Name)
		}
	}
	if strings.Join(got, " ") != "a:simd_vf b:simd_vf c:simt_vf" {
		t.Errorf("regions %v", got)
	}
}

// TestParseErrors checks that broken code shows as Func.Errors, and that a
// file without the marker is not parsed.
func TestParseErrors(t *testing.T) {
	fn := lowerOne(t, "@pl.vector_function\ndef k(src):\n    x = vf.load_align(src, 0\n    vf.store_align(src, x)\n")
	if len(fn.Errors) == 0 {
		t.Errorf("no parse error recorded")
	}
	_, f := parse(t, "t.py", []byte("def f(:\n    pass\n"))
	if len(f.Funcs) != 0 {
		t.Errorf("a file without the marker has regions")
	}
}

// TestPositions checks byte-exact positions through a byte order mark and
// CR LF line ends.
func TestPositions(t *testing.T) {
	src := "\xEF\xBB\xBF@pl.vector_function\r\ndef k(src):\r\n    x = vf.load_align(src, 8)\r\n"
	fset, f := parse(t, "t.py", []byte(src))
	fn := f.Funcs[0]
	in := fn.Instrs[0]
	if got := src[f.Tok.Offset(in.Pos):f.Tok.Offset(in.End)]; got != "vf.load_align(src, 8)" {
		t.Errorf("instruction spans %q", got)
	}
	if p := fset.Position(in.Pos); p.Line != 3 || p.Column != 9 {
		t.Errorf("instruction at %v, want line 3 column 9", p)
	}
	if f.Tok.Offset(fn.Pos) != 3 {
		t.Errorf("region starts at offset %d, want 3 (after the BOM)", f.Tok.Offset(fn.Pos))
	}
}

func TestHasVFMarker(t *testing.T) {
	for src, want := range map[string]bool{
		"@pl.vector_function\ndef f(): pass\n": true,
		"from x import vector_function\n":      true,
		"@pl.jit\ndef f(): pass\n":             false,
		"":                                     false,
	} {
		if got := HasVFMarker([]byte(src)); got != want {
			t.Errorf("HasVFMarker(%q) = %v", src, got)
		}
	}
}

// TestFolding checks Python's integer semantics in constant folding.
func TestFolding(t *testing.T) {
	_, f := parse(t, "t.py", []byte(`
A = -7 // 2
B = -7 % 3
C = 2 ** 10
D = 0 ** 3
E = 3 ** 40
F = 0x_ff + 0o17 + 0b101 + 1_000
G = 7 / 2
H = 8 / 2
I = (1 if A < 0 else 2) + int(4) + max(3, 9) + min(3, 9)
J = ~5 << 2 | 1
@pl.vector_function
def k(): pass
`))
	want := map[string]int64{"A": -4, "B": 2, "C": 1024, "D": 0, "F": 255 + 15 + 5 + 1000, "H": 4, "I": 1 + 4 + 9 + 3, "J": (^5 << 2) | 1}
	for name, v := range want {
		if got, ok := f.Consts[name]; !ok || got != v {
			t.Errorf("%s = %d, %v; want %d", name, got, ok, v)
		}
	}
	for _, name := range []string{"E", "G"} {
		if v, ok := f.Consts[name]; ok {
			t.Errorf("%s folded to %d: an overflow and a float are not integer constants", name, v)
		}
	}
}
