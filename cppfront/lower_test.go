package cppfront

import (
	"bytes"
	"flag"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"

	sitter "github.com/tree-sitter/go-tree-sitter"

	"github.com/ascvet/ascvet/cppfront/ir"
)

var update = flag.Bool("update", false, "rewrite golden files")

func parse(t *testing.T, name string, src []byte) (*token.FileSet, *ir.File) {
	t.Helper()
	fset := token.NewFileSet()
	f, err := ParseFile(fset, name, src)
	if err != nil {
		t.Fatalf("ParseFile(%s): %v", name, err)
	}
	for _, e := range ir.Verify(f) {
		t.Errorf("Verify: %v", e)
	}
	return fset, f
}

func fixtures(t *testing.T) []string {
	t.Helper()
	m, err := filepath.Glob("testdata/*.asc")
	if err != nil || len(m) == 0 {
		t.Fatalf("no fixtures: %v", err)
	}
	return m
}

// TestGolden compares the IR dump of every fixture with its .ir golden file.
// Run with -update to rewrite them after an intended change.
func TestGolden(t *testing.T) {
	for _, path := range fixtures(t) {
		t.Run(filepath.Base(path), func(t *testing.T) {
			src, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			fset, f := parse(t, filepath.Base(path), src)
			var got bytes.Buffer
			if err := ir.Fprint(&got, fset, f); err != nil {
				t.Fatal(err)
			}
			golden := strings.TrimSuffix(path, filepath.Ext(path)) + ".ir"
			if *update {
				if err := os.WriteFile(golden, got.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test ./cppfront -update)", err)
			}
			if !bytes.Equal(got.Bytes(), want) {
				t.Errorf("IR of %s differs from %s (run with -update after checking):\n%s", path, golden, lineDiff(string(want), got.String()))
			}
		})
	}
}

func lineDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	var b strings.Builder
	for i := 0; i < len(w) || i < len(g); i++ {
		var wl, gl string
		if i < len(w) {
			wl = w[i]
		}
		if i < len(g) {
			gl = g[i]
		}
		if wl != gl {
			b.WriteString("- " + wl + "\n+ " + gl + "\n")
		}
	}
	return b.String()
}

// TestSpansAreByteExact checks, for every instruction, register and operand
// of every fixture, that its span covers exactly its text in the original
// file: the pre-pass moved nothing.
func TestSpansAreByteExact(t *testing.T) {
	for _, path := range fixtures(t) {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		fset, f := parse(t, path, src)
		off := func(p token.Pos) int { return fset.Position(p).Offset }
		for _, fn := range f.Funcs {
			for _, in := range fn.Instrs {
				if f.InExpansion(in.Pos) {
					continue // spans its macro invocation: TestMacroPositions
				}
				text := string(src[off(in.Pos):off(in.End)])
				if !strings.HasPrefix(strings.ReplaceAll(text, " ", ""), strings.ReplaceAll(in.Callee, " ", "")) || !strings.HasSuffix(text, ")") {
					t.Errorf("%s: i%d %s spans %q", fn.Name, in.ID, in.Callee, text)
				}
				for k, a := range in.Args {
					if got := normSpace(string(src[off(a.Pos):off(a.End)])); got != a.Text {
						t.Errorf("%s: i%d arg %d spans %q, text %q", fn.Name, in.ID, k, got, a.Text)
					}
				}
			}
			for _, r := range fn.Regs {
				if r.Implicit || f.InExpansion(r.Pos) {
					continue
				}
				if text := string(src[off(r.Pos):off(r.End)]); !strings.Contains(text, r.Name) {
					t.Errorf("%s: reg %s spans %q", fn.Name, r.Name, text)
				}
			}
			if fn.Kind != ir.RegionVecScope {
				if head := string(src[off(fn.Pos):off(fn.BodyPos)]); !strings.Contains(head, fn.Name) && !strings.Contains(fn.Name, "::") {
					t.Errorf("region %s header %q does not name it", fn.Name, head)
				}
			}
		}
	}
}

func findFunc(t *testing.T, f *ir.File, name string) *ir.Func {
	t.Helper()
	for _, fn := range f.Funcs {
		if fn.Name == name {
			return fn
		}
	}
	t.Fatalf("no region %s", name)
	return nil
}

func lc(fset *token.FileSet, p token.Pos) [2]int {
	ps := fset.Position(p)
	return [2]int{ps.Line, ps.Column}
}

// TestConstructs checks each construct of the issue against the fixture,
// with positions to the column.
func TestConstructs(t *testing.T) {
	src, err := os.ReadFile("testdata/constructs.asc")
	if err != nil {
		t.Fatal(err)
	}
	fset, f := parse(t, "constructs.asc", src)

	kinds := map[string]ir.RegionKind{}
	for _, fn := range f.Funcs {
		kinds[fn.Name] = fn.Kind
	}
	wantKinds := map[string]ir.RegionKind{
		"Helper": ir.RegionSimdCallee, "Spellings": ir.RegionSimdVF, "Legacy": ir.RegionSimdVF, "CApi": ir.RegionSimdVF,
		"Loops": ir.RegionSimdVF, "Unmarked": ir.RegionAicoreRegs, "Process.vec_scope#1": ir.RegionVecScope, "SimtPart": ir.RegionSimtVF,
	}
	for name, k := range wantKinds {
		if got, ok := kinds[name]; !ok || got != k {
			t.Errorf("region %s: kind %v (found %v), want %v", name, got, ok, k)
		}
	}
	if _, ok := kinds["kernel_entry"]; ok {
		t.Errorf("kernel_entry declares no register and must not be a region")
	}
	if _, ok := kinds["KernelOp::Process"]; ok {
		t.Errorf("Process holds a __VEC_SCOPE__ block; only the block is a region")
	}

	// Region span starts at the first qualifier, byte-exact.
	sp := findFunc(t, f, "Spellings")
	if got := lc(fset, sp.Pos); got != [2]int{18, 1} {
		t.Errorf("Spellings starts at %v, want 18:1", got)
	}
	if !sp.Template {
		t.Errorf("Spellings is a template")
	}

	// Several names in one declaration, arrays, element types.
	byName := map[string]*ir.Reg{}
	for _, r := range sp.Regs {
		byName[r.Name] = r
	}
	if a, b := byName["a"], byName["b"]; a == nil || b == nil || a.Class != ir.ClassVReg || a.Elem != "float" || lc(fset, b.Pos) != [2]int{21, 39} {
		t.Errorf("a, b: %+v %+v", a, b)
	}
	if c := byName["c"]; c == nil || c.ArrayLen != 2 {
		t.Errorf("c[2]: %+v", c)
	}

	// Every namespace spelling resolves; positions to the column.
	wantOps := []struct {
		op  ir.Op
		pos [2]int
	}{
		{ir.OpCreateMask, [2]int{23, 22}}, {ir.OpLoadAlign, [2]int{25, 9}}, {ir.OpLoadAlign, [2]int{26, 9}},
		{ir.OpAdd, [2]int{27, 9}}, {ir.OpMul, [2]int{28, 9}}, {ir.OpMax, [2]int{29, 9}}, {ir.OpStoreAlign, [2]int{30, 9}},
		{ir.OpCall, [2]int{32, 5}},
	}
	if len(sp.Instrs) != len(wantOps) {
		t.Fatalf("Spellings has %d instructions, want %d", len(sp.Instrs), len(wantOps))
	}
	for i, w := range wantOps {
		in := sp.Instrs[i]
		if in.Op != w.op || lc(fset, in.Pos) != w.pos {
			t.Errorf("i%d: %v at %v, want %v at %v", i, in.Op, lc(fset, in.Pos), w.op, w.pos)
		}
	}
	// The cast (Reg::RegTensor<T>&)a reaches a; c[0] reaches c with part 0.
	if st := sp.Instrs[6]; st.Args[1].Reg != byName["a"].ID || st.Args[0].Role != ir.ArgPtr {
		t.Errorf("StoreAlign args: %+v", st.Args)
	}
	if mul := sp.Instrs[4]; mul.Args[0].Reg != byName["c"].ID || mul.Args[0].Part != 0 || mul.Args[0].Role != ir.ArgW {
		t.Errorf("Mul dst: %+v", mul.Args[0])
	}
	// Loop header and folded trip count: TILE / (VECTOR_REG_WIDTH / sizeof(float)) = 2048 / 64.
	if l := sp.Loops[0]; l.Var != "i" || l.VarType != "uint16_t" || !l.TripKnown || l.Trip != 32 || l.CmpOp != "<" {
		t.Errorf("loop: %+v", l)
	}
	if v, ok := sp.Locals["VL"]; !ok || v != 64 {
		t.Errorf("VL folded to %d (%v), want 64", v, ok)
	}

	// Reference parameters are registers.
	h := findFunc(t, f, "Helper")
	if len(h.Params) != 2 || h.Params[0].Reg == ir.NoReg || !h.Regs[h.Params[0].Reg].Ref || !h.Regs[h.Params[0].Reg].Param {
		t.Errorf("Helper params: %+v", h.Params)
	}

	// Legacy spellings and inferred unaligned roles.
	lg := findFunc(t, f, "Legacy")
	wantLegacy := []ir.Op{ir.OpCreateMask, ir.OpLoadUnAlignPre, ir.OpLoadUnAlign, ir.OpStoreUnAlign, ir.OpStoreUnAlignPost,
		ir.OpLoadAlign, ir.OpStoreAlign, ir.OpMaskAnd, ir.OpMaskNot, ir.OpMaskAnd}
	for i, w := range wantLegacy {
		if i >= len(lg.Instrs) || lg.Instrs[i].Op != w {
			t.Errorf("Legacy i%d: want %v, got %v", i, w, lg.Instrs[i].Op)
		}
	}
	for _, r := range lg.Regs {
		switch r.Name {
		case "ul":
			if r.Role != ir.RoleLoad {
				t.Errorf("ul role %v", r.Role)
			}
		case "us":
			if r.Role != ir.RoleStore {
				t.Errorf("us role %v", r.Role)
			}
		}
	}
	// LoadUnAlign: the unaligned register carries state (read and written),
	// the post-updated pointer is read and written.
	lu := lg.Instrs[2]
	if lu.Args[1].Role != ir.ArgRW || lu.Args[2].Role != ir.ArgPtrRW || len(lu.PtrDefs) != 1 || lu.PtrDefs[0] != "src" {
		t.Errorf("LoadUnAlign roles: %+v %v", lu.Args, lu.PtrDefs)
	}

	// asc_* order: asc_storeunalign_postupdate(dst, ureg, src, n) has the
	// unaligned register before the data register.
	ca := findFunc(t, f, "CApi")
	su := ca.Instrs[3]
	if su.Op != ir.OpStoreUnAlign || su.Form != ir.FormCAPI || su.Args[1].Role != ir.ArgRW || su.Args[2].Role != ir.ArgR || su.Args[0].Role != ir.ArgPtrRW {
		t.Errorf("asc_storeunalign_postupdate: %v %+v", su.Op, su.Args)
	}

	// Nested loops, steps, while/do, conditional branches.
	lp := findFunc(t, f, "Loops")
	if len(lp.Loops) != 4 {
		t.Fatalf("Loops has %d loops, want 4", len(lp.Loops))
	}
	l0, l1 := lp.Loops[0], lp.Loops[1]
	if !l0.TripKnown || l0.Trip != 4 || l1.Parent != l0.ID || l1.Depth != 2 || !l1.TripKnown || l1.Trip != 4 {
		t.Errorf("nested loops: %+v %+v", l0, l1)
	}
	if lp.Loops[2].Kind != ir.LoopWhile || lp.Loops[3].Kind != ir.LoopDo || lp.Loops[2].TripKnown {
		t.Errorf("while/do: %+v %+v", lp.Loops[2], lp.Loops[3])
	}
	var sawIf bool
	for _, n := range lp.Body.Nodes {
		if s, ok := n.(*ir.If); ok {
			sawIf = true
			if s.Else == nil || len(s.Then.Nodes) != 1 || len(s.Else.Nodes) != 1 {
				t.Errorf("if keeps both branches: %+v", s)
			}
		}
	}
	if !sawIf {
		t.Errorf("no if in Loops")
	}
	for _, in := range lp.Instrs {
		switch in.Op {
		case ir.OpAbs, ir.OpNeg:
			if !in.Cond {
				t.Errorf("%v under if must be marked conditional", in.Op)
			}
		case ir.OpUpdateMask:
			if in.Args[0].Role != ir.ArgScalarRW || in.Loop != l1.ID {
				t.Errorf("UpdateMask: %+v", in)
			}
		}
	}
	// RegTraitNumTwo takes two registers; a 64-bit RegTraitNumOne tensor one.
	for _, r := range lp.Regs {
		if (r.Name == "pair") != r.TwoRegs {
			t.Errorf("reg %s TwoRegs=%v", r.Name, r.TwoRegs)
		}
	}
	// pair.reg[0] and reinterpret_cast reach their registers.
	mv1, mv2 := lp.Instrs[len(lp.Instrs)-2], lp.Instrs[len(lp.Instrs)-1]
	if lp.Regs[mv1.Args[0].Reg].Name != "pair" || mv1.Args[0].Part != 0 || lp.Regs[mv2.Args[0].Reg].Name != "wide" {
		t.Errorf("x.reg[0] / reinterpret_cast: %+v %+v", mv1.Args[0], mv2.Args[0])
	}

	// Bare names after a using-directive inside an __aicore__ function.
	um := findFunc(t, f, "Unmarked")
	if len(um.Instrs) != 1 || um.Instrs[0].Op != ir.OpLoadAlign {
		t.Errorf("Unmarked: %+v", um.Instrs)
	}
	// SIMT regions are recorded, not analysed.
	if st := findFunc(t, f, "SimtPart"); st.Body != nil || len(st.Instrs) != 0 {
		t.Errorf("SIMT region was analysed")
	}
	if len(f.Quals) == 0 || f.Quals[0].Text != "__simd_callee__" {
		t.Errorf("qualifiers not recorded: %+v", f.Quals)
	}
}

// TestParseErrorsShow checks that a region with broken syntax records the
// error inside it, and that parsing goes on with the next region.
func TestParseErrorsShow(t *testing.T) {
	src := []byte(`__simd_vf__ void Broken(__ubuf__ float* x)
{
    Reg::RegTensor<float> v;
    Reg::LoadAlign(v, x;
}

__simd_vf__ void Fine(__ubuf__ float* x)
{
    Reg::RegTensor<float> v;
    Reg::LoadAlign(v, x);
}
`)
	fset, f := parse(t, "broken.asc", src)
	if len(f.Funcs) != 2 {
		t.Fatalf("want 2 regions, got %d", len(f.Funcs))
	}
	var broken, fine *ir.Func
	for _, fn := range f.Funcs {
		switch fn.Name {
		case "Broken":
			broken = fn
		case "Fine":
			fine = fn
		}
	}
	if broken == nil || fine == nil {
		t.Fatalf("regions: %+v", f.Funcs)
	}
	if len(broken.Errors) == 0 || fset.Position(broken.Errors[0]).Line != 4 {
		t.Errorf("Broken: errors %v, want one on line 4", broken.Errors)
	}
	if len(fine.Errors) != 0 || len(fine.Instrs) != 1 || fine.Instrs[0].Op != ir.OpLoadAlign {
		t.Errorf("Fine: %+v", fine)
	}
}

// TestNoMarkerNoParse checks the cheap byte scan.
func TestNoMarkerNoParse(t *testing.T) {
	if HasVFMarker([]byte("int main() { return 0; }")) {
		t.Error("plain C++ has no VF marker")
	}
	if !HasVFMarker([]byte("AscendC::Reg::RegTensor<float> x;")) || !HasVFMarker([]byte("__VEC_SCOPE__ {}")) {
		t.Error("VF markers not seen")
	}
}

// TestQualifiersParse: every Ascend qualifier, LAUNCH_BOUND/__launch_bounds__,
// "if ASC_IS_AIV {" and obj.template F(x) parse without an error, and the
// regions they mark are found with their kinds.
func TestQualifiersParse(t *testing.T) {
	src, err := os.ReadFile("testdata/qualifiers.asc")
	if err != nil {
		t.Fatal(err)
	}
	fset, f := parse(t, "qualifiers.asc", src)
	want := map[string]ir.RegionKind{
		"Callee": ir.RegionSimdCallee, "Caller": ir.RegionSimdCaller, "Vf": ir.RegionSimdVF,
		"SimtCallee": ir.RegionSimtCallee, "Entry2.vec_scope#1": ir.RegionVecScope,
	}
	got := map[string]ir.RegionKind{}
	for _, fn := range f.Funcs {
		got[fn.Name] = fn.Kind
		for _, e := range fn.Errors {
			t.Errorf("%s: parse error at %s", fn.Name, fset.Position(e))
		}
	}
	for name, k := range want {
		if g, ok := got[name]; !ok || g != k {
			t.Errorf("region %s: got %v (%v), want %v", name, g, ok, k)
		}
	}
	if len(got) != len(want) {
		t.Errorf("regions %v, want %v", got, want)
	}
	// Caller calls the same-file helper Callee: a call, not an unknown.
	for _, fn := range f.Funcs {
		if fn.Name == "Caller" {
			if len(fn.Instrs) != 1 || fn.Instrs[0].Op != ir.OpCall || f.Func("Callee") == nil {
				t.Errorf("Caller: %+v", fn.Instrs)
			}
		}
	}
	// The whole file, outside the regions too, parses without errors.
	clean, _ := prepass(src)
	p := sitter.NewParser()
	defer p.Close()
	if err := p.SetLanguage(language); err != nil {
		t.Fatal(err)
	}
	tree := p.Parse(clean, nil)
	defer tree.Close()
	if tree.RootNode().HasError() {
		t.Errorf("the pre-passed file does not parse:\n%s", tree.RootNode().ToSexp())
	}
}

// TestLoopFacts: constexpr values that depend on sizeof(T) stay symbolic
// (and expand where used), a 0/1 bound makes a loop run at most once, and
// loops record what they assign.
func TestLoopFacts(t *testing.T) {
	src, err := os.ReadFile("testdata/streams.asc")
	if err != nil {
		t.Fatal(err)
	}
	_, f := parse(t, "streams.asc", src)
	fn := findFunc(t, f, "Symbolic")
	pre, ld := fn.Instrs[0], fn.Instrs[1]
	want := "src + (i * (256 / sizeof(T)))"
	if got := pre.Args[1].Expr.String(); got != want {
		t.Errorf("VL does not expand: %s, want %s", got, want)
	}
	if got := ld.Args[2].Expr.String(); got != want {
		t.Errorf("Tiling<T>::VL does not expand: %s, want %s", got, want)
	}
	// Bound to T = half, the stride folds to 128 elements.
	half := ld.Args[2].Expr.Subst(func(k ir.ExprKind, name string) *ir.Expr {
		if k == ir.ExprSizeof && name == "T" {
			return ir.Const(2)
		}
		return nil
	})
	if _, coef, ok := half.Linear("i"); !ok || coef != 128 {
		t.Errorf("coef %d ok %v", coef, ok)
	}
	l0, l1 := fn.Loops[0], fn.Loops[1]
	if l0.AtMostOnce || !l1.AtMostOnce {
		t.Errorf("AtMostOnce: L0 %v, L1 %v", l0.AtMostOnce, l1.AtMostOnce)
	}
	if len(l0.Assigns) != 0 || len(l1.Assigns) != 1 || l1.Assigns[0] != "src" {
		t.Errorf("Assigns: %v %v", l0.Assigns, l1.Assigns)
	}
	if len(l1.Decls) != 2 || l1.Decls[0] != "j" || l1.Decls[1] != "p" {
		t.Errorf("Decls: %v", l1.Decls)
	}
}
