package cli

import (
	"encoding/json"
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
		_, out, errs := ascvet(t, append([]string{"-f", "json", "-fail", "none", "-cache", "off", "-checks", "ASC3002"}, args...)...)
		var rep report.JSONReport
		if err := json.Unmarshal([]byte(out), &rep); err != nil {
			t.Fatalf("%v\n%s\n%s", err, out, errs)
		}
		return rep.Findings
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
