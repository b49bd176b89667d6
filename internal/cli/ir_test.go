package cli

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"

	"github.com/ascvet/ascvet/analyzers/cppir"
	"github.com/ascvet/ascvet/analyzers/runner"
	"github.com/ascvet/ascvet/cppfront/ir"
	"github.com/ascvet/ascvet/internal/testfs"
)

// irHeader and irKernel are an operator's header, in the include folder
// of an ancestor of the kernel, and a kernel whose loop bound and strides
// are constants of the header.
const (
	irHeader = `#ifndef TILE_CONSTS_H
#define TILE_CONSTS_H
constexpr uint32_t TILE_ELEMS = 64;
#define TILE_ROWS 8
#endif
`
	irKernel = `#include "tile_consts.h"

__simd_vf__ inline void ScaleRows(__ubuf__ float* dst, __ubuf__ float* src, float s)
{
    AscendC::Reg::RegTensor<float> v;
    AscendC::Reg::MaskReg mask = AscendC::Reg::CreateMask<float>();
    for (uint16_t i = 0; i < TILE_ROWS; ++i) {
        AscendC::Reg::LoadAlign(v, src + i * TILE_ELEMS);
        AscendC::Reg::Muls(v, v, s, mask);
        AscendC::Reg::StoreAlign(dst + i * TILE_ELEMS, v, mask);
    }
}
`
)

// TestIRUsesProjectIndex: ascvet ir prints the IR the rules see. The
// constants of a header the kernel includes (found in the include folder
// of an ancestor, as a check finds it) are folded, the output is the IR
// the cppir analyzer gives the rules, and a header edited between two runs
// is read again.
func TestIRUsesProjectIndex(t *testing.T) {
	dir := t.TempDir()
	header := testfs.Put(t, dir, "include/tile_consts.h", irHeader)
	kernel := testfs.Put(t, dir, "op_kernel/arch35/scale_rows.asc", irKernel)

	code, out, errs := ascvet(t, "ir", kernel)
	if code != exitOK || errs != "" {
		t.Fatalf("ascvet ir: exit %d, stderr %q", code, errs)
	}
	for _, want := range []string{"i < 8; step 1 trip=8", "ptr src + (i * 64)", "ptr dst + (i * 64)"} {
		if !strings.Contains(out, want) {
			t.Errorf("ascvet ir: no %q, the header's constant is not folded:\n%s", want, out)
		}
	}
	for _, line := range strings.Split(out, "\n") {
		// A header's #define expands (an expansion line names it); no
		// instruction keeps a name.
		if strings.Contains(line, "TILE_") && !strings.HasPrefix(line, "expansion ") {
			t.Errorf("ascvet ir: a constant of the header is left unfolded:\n%s", out)
		}
	}
	if rules := rulesIR(t, kernel); out != rules {
		t.Errorf("ascvet ir differs from the IR the rules see\nir:\n%s\nrules:\n%s", out, rules)
	}

	// The header changes: the next run sees it, as the next check does.
	if err := os.WriteFile(header, []byte(strings.Replace(irHeader, "= 64;", "= 128;", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, out, _ := ascvet(t, "ir", kernel); !strings.Contains(out, "ptr src + (i * 128)") {
		t.Errorf("ascvet ir after the header changed:\n%s", out)
	}
}

// rulesIR returns the IR of the file name as the cppir analyzer hands it
// to the rules in a check, printed as ascvet ir prints it.
func rulesIR(t *testing.T, name string) string {
	t.Helper()
	src, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	cppir.ProjectIndex().Refresh()
	var got bytes.Buffer
	_, err = runner.Run([]*analysis.Analyzer{cppir.Analyzer}, []runner.File{{Name: name, Src: src}}, runner.Options{Jobs: 1,
		Visit: func(_ runner.File, results map[*analysis.Analyzer]any) {
			pkg := results[cppir.Analyzer].(*ir.Package)
			for _, f := range pkg.Files {
				if err := ir.Fprint(&got, pkg.Fset, f); err != nil {
					t.Error(err)
				}
			}
		}})
	cppir.ProjectIndex().Consulted(name)
	if err != nil {
		t.Fatal(err)
	}
	return got.String()
}
