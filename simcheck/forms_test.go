package simcheck_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ascvet/ascvet/simcheck"
)

// TestDuplicateForms: Duplicate of a scalar is VBR, on either compute
// unit with forwarding 2; Duplicate of a register's lane is VDUP, on EXU0
// only with forwarding 8. The same op, two classes.
func TestDuplicateForms(t *testing.T) {
	m := chip950(t)
	src := `__simd_vf__ inline void K(__ubuf__ float* dst, __ubuf__ float* src)
{
    AscendC::Reg::RegTensor<float> a, b, c;
    AscendC::Reg::MaskReg m = AscendC::Reg::CreateMask<float>();
    for (uint16_t i = 0; i < 16; ++i) {
        AscendC::Reg::LoadAlign(a, src + i * 64);
        AscendC::Reg::Duplicate(b, 1.5f, m);
        AscendC::Reg::Duplicate(c, a, m);
        AscendC::Reg::Add(b, b, c, m);
        AscendC::Reg::StoreAlign(dst + i * 64, b, m);
    }
}
`
	fn := vfFunc(t, src)
	body := simcheck.BodyOf(fn, fn.Loops[0], nil)
	var got []string
	for i := range body.Insts {
		in := &body.Insts[i]
		if in.Op.String() != "Duplicate" {
			continue
		}
		tm, ok := m.InstTiming(in)
		if !ok {
			t.Fatalf("%s: no timing", in.Text)
		}
		got = append(got, fmt.Sprintf("%s %v dep %d", tm.Class.Name, tm.Class.Ports, tm.Dep))
	}
	want := []string{"broadcast [EXU0 EXU1] dep 2", "dup [EXU0] dep 8"}
	if strings.Join(got, "; ") != strings.Join(want, "; ") {
		t.Errorf("Duplicate classes: %q, want %q", got, want)
	}
}

// TestOpForms: a class may name an op's form ("Duplicate/scalar"), and
// only a form the op has.
func TestOpForms(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("machines", "ascend950.toml"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := simcheck.Parse("m.toml", data); err != nil {
		t.Fatalf("the shipped machine: %v", err)
	}
	for _, bad := range []string{"Duplicate/lane", "Adds/scalar", "NoSuchOp/scalar"} {
		text := strings.Replace(string(data), `ops = ["Duplicate/scalar"]`, `ops = ["`+bad+`"]`, 1)
		if text == string(data) {
			t.Fatal("the machine file names no Duplicate/scalar class")
		}
		if _, err := simcheck.Parse("m.toml", []byte(text)); err == nil {
			t.Errorf("%s: accepted", bad)
		}
	}
}
