package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ascvet/ascvet/internal/report"
)

// TestSameOverrunOnce: two kernels of a folder inline a helper of their
// header that keeps ten masks live: the overrun is reported once, at the
// first kernel's call, the second kernel's finding listed with
// -show-ignored as the same overrun; a run on the second kernel alone
// reports it there.
func TestSameOverrunOnce(t *testing.T) {
	dir := t.TempDir()
	src, err := os.ReadFile("../../analyzers/asc3002/testdata/sibling_common.h")
	if err != nil {
		t.Fatal(err)
	}
	kernel, err := os.ReadFile("../../analyzers/asc3002/testdata/sibling_kernel.asc")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "sibling_common.h"), src, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"a_kernel.asc", "b_kernel.asc"} {
		if err := os.WriteFile(filepath.Join(dir, name), kernel, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	findings := func(args ...string) []report.JSONFinding {
		t.Helper()
		return asc3002Findings(t, args...)
	}
	got := findings(dir)
	if len(got) != 1 || filepath.Base(got[0].File) != "a_kernel.asc" || !strings.Contains(got[0].Message, "NineSelects keeps 10 MaskReg") {
		t.Fatalf("want one finding, at a_kernel.asc; got %+v", got)
	}
	all := findings("-show-ignored", dir)
	if len(all) != 2 || filepath.Base(all[1].File) != "b_kernel.asc" || len(all[1].Suppressed) != 1 ||
		!strings.Contains(all[1].Suppressed[0].Justification, "the same overrun as") {
		t.Fatalf("want b_kernel.asc's finding suppressed as the same overrun; got %+v", all)
	}
	alone := findings(filepath.Join(dir, "b_kernel.asc"))
	if len(alone) != 1 || filepath.Base(alone[0].File) != "b_kernel.asc" {
		t.Fatalf("b_kernel.asc alone: want its finding; got %+v", alone)
	}
	// A kernel that keeps one more mask across the call is the one
	// reported, with its count.
	more := strings.Replace(string(kernel), "AscendC::Reg::Select(y, y, l, keep);",
		"AscendC::Reg::Select(y, y, l, keep);\n        AscendC::Reg::Select(y, y, x, keep2);", 1)
	more = strings.Replace(more, "AscendC::Reg::MaskReg keep;", "AscendC::Reg::MaskReg keep, keep2;", 1)
	more = strings.Replace(more, "AscendC::Reg::LoadAlign(x, src + i * 64);",
		"AscendC::Reg::LoadAlign(x, src + i * 64);\n        AscendC::Reg::Compares<float, CMPMODE::LT>(keep2, l, 0.25f, all);", 1)
	if err := os.WriteFile(filepath.Join(dir, "b_kernel.asc"), []byte(more), 0o644); err != nil {
		t.Fatal(err)
	}
	got = findings(dir)
	if len(got) != 1 || filepath.Base(got[0].File) != "b_kernel.asc" || !strings.Contains(got[0].Message, "NineSelects keeps 11 MaskReg") {
		t.Fatalf("want one finding, at b_kernel.asc with 11 live; got %+v", got)
	}
}

// TestOverrunInHelperFileOnce: a helper of a header in another folder
// keeps ten masks live on its own. The header's analysis reports the
// overrun where it happens; a kernel that inlines the helper sees the same
// overrun at its call. One run over both reports it once, in the header,
// the kernel's finding listed with -show-ignored as the same overrun; a
// run on the kernel alone reports it there.
func TestOverrunInHelperFileOnce(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "impl"), 0o755); err != nil {
		t.Fatal(err)
	}
	var cmp, sel strings.Builder
	for i := range 10 {
		fmt.Fprintf(&cmp, "    AscendC::Reg::Compares<float, CMPMODE::GT>(m%d, x, %d.0f, all);\n", i, i)
		fmt.Fprintf(&sel, "    AscendC::Reg::Select(y, x, y, m%d);\n", i)
	}
	header := `#ifndef TEN_MASKS_H
#define TEN_MASKS_H
#include "kernel_operator.h"

__simd_callee__ inline void TenMasks(AscendC::Reg::RegTensor<float>& y, AscendC::Reg::RegTensor<float>& x, AscendC::Reg::MaskReg& all)
{
    AscendC::Reg::MaskReg m0, m1, m2, m3, m4, m5, m6, m7, m8, m9;
` + cmp.String() + sel.String() + `}
#endif
`
	kernel := `#include "impl/ten_masks.h"

__simd_vf__ inline void TenKernel(__ubuf__ float* dst, __ubuf__ float* src, uint16_t n)
{
    AscendC::Reg::RegTensor<float> x, y;
    AscendC::Reg::MaskReg all = AscendC::Reg::CreateMask<float>();
    for (uint16_t i = 0; i < n; i++) {
        AscendC::Reg::LoadAlign(x, src + i * 64);
        TenMasks(y, x, all);
        AscendC::Reg::StoreAlign(dst + i * 64, y, all);
    }
}
`
	if err := os.WriteFile(filepath.Join(dir, "impl", "ten_masks.h"), []byte(header), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "ten_kernel.asc"), []byte(kernel), 0o644); err != nil {
		t.Fatal(err)
	}
	findings := func(args ...string) []report.JSONFinding {
		t.Helper()
		return asc3002Findings(t, args...)
	}
	got := findings(dir)
	if len(got) != 1 || filepath.Base(got[0].File) != "ten_masks.h" || !strings.Contains(got[0].Message, "TenMasks keeps") {
		t.Fatalf("want one finding, in impl/ten_masks.h; got %+v", got)
	}
	all := findings("-show-ignored", dir)
	var kernelFinding *report.JSONFinding
	for i := range all {
		if filepath.Base(all[i].File) == "ten_kernel.asc" {
			kernelFinding = &all[i]
		}
	}
	if len(all) != 2 || kernelFinding == nil || len(kernelFinding.Suppressed) != 1 ||
		!strings.Contains(kernelFinding.Suppressed[0].Justification, "the same overrun as") {
		t.Fatalf("want ten_kernel.asc's finding suppressed as the same overrun; got %+v", all)
	}
	alone := findings(filepath.Join(dir, "ten_kernel.asc"))
	if len(alone) != 1 || filepath.Base(alone[0].File) != "ten_kernel.asc" {
		t.Fatalf("ten_kernel.asc alone: want its finding; got %+v", alone)
	}
}

// asc3002Findings runs ascvet's ASC3002 alone with args, the cache off,
// and returns its findings.
func asc3002Findings(t *testing.T, args ...string) []report.JSONFinding {
	t.Helper()
	_, out, errs := ascvet(t, append([]string{"-f", "json", "-fail", "none", "-cache", "off", "-checks", "ASC3002"}, args...)...)
	var rep report.JSONReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("%v\n%s\n%s", err, out, errs)
	}
	return rep.Findings
}
