package pyfront

import (
	"testing"

	"github.com/ascvet/ascvet/cppfront/ir"
)

// TestTupleOfCalls checks that a, b = f(...), g(...) binds each call's
// registers to its own target, as two assignments would.
func TestTupleOfCalls(t *testing.T) {
	fn := lowerOne(t, `import pypto_pro.language as pl
from pypto_pro.language import Vf as vf


@pl.vector_function
def k(src, dst):
    u, s = vf.load_unalign_init(), vf.unalign_reg_for_store()
    m, n = vf.create_mask(dtype=pl.DT_FP32), 3
    vf.load_unalign_pre(u, src)
    x = vf.load_unalign(u, src)
    vf.store_unalign(dst, x, s, n, post_update=True)
    vf.store_unalign_post(dst, s, 0, post_update=True)
`)
	for name, c := range map[string]ir.RegClass{"u": ir.ClassUnalignLoad, "s": ir.ClassUnalignStore, "m": ir.ClassMask} {
		if r := regByName(t, fn, name); r.Class != c {
			t.Errorf("%s is %s, want %s", name, r.Class, c)
		}
	}
	if v, ok := fn.Locals["n"]; !ok || v != 3 {
		t.Errorf("n = %d (%v), want the constant 3", v, ok)
	}
	pre := instrsOf(fn, ir.OpLoadUnAlignPre)
	if len(pre) != 1 || pre[0].Args[0].Reg == ir.NoReg || fn.Regs[pre[0].Args[0].Reg].Name != "u" {
		t.Errorf("the Pre does not prime u: %v", pre)
	}
}

// TestDeclaredAgain checks that binding a name to vf.load_unalign_init()
// again declares a new register (pypto emits a new declaration), so that the
// load after it does not read the register the Pre primed.
func TestDeclaredAgain(t *testing.T) {
	fn := lowerOne(t, `import pypto_pro.language as pl
from pypto_pro.language import Vf as vf


@pl.vector_function
def k(src, dst, n):
    u = vf.load_unalign_init()
    vf.load_unalign_pre(u, src)
    for i in pl.range(n):
        u = vf.load_unalign_init()
        x = vf.load_unalign(u, src, 64, post_update=True)
        vf.store_align(dst, x, vf.create_mask(), i * 64)
`)
	pre, ld := instrsOf(fn, ir.OpLoadUnAlignPre), instrsOf(fn, ir.OpLoadUnAlign)
	if len(pre) != 1 || len(ld) != 1 {
		t.Fatalf("%d Pre, %d loads", len(pre), len(ld))
	}
	p, l := pre[0].Args[0].Reg, ld[0].Args[1].Reg
	if p == ir.NoReg || l == ir.NoReg || p == l || fn.Regs[l].Name != "u" || fn.Regs[l].Class != ir.ClassUnalignLoad {
		t.Errorf("the Pre primes r%d, the load reads r%d: want two registers named u", p, l)
	}
	if lp := fn.Loops[0]; len(lp.Assigns) != 1 || lp.Assigns[0] != "u" || len(lp.Decls) != 2 {
		t.Errorf("loop names: decls %v assigns %v, want decls [i x] and assigns [u]", lp.Decls, lp.Assigns)
	}
}
