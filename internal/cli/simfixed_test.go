package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSimFixed: sim -fixed on a loop reports the loop as written and the
// loop with every fix its findings offer applied (the Pre and the Post of
// unaligned_copy.asc removed), which costs fewer cycles, with the lines it
// removed; on a loop no finding offers such a fix for, it says so and
// reports the loop as written; on a line that is no loop, it refuses.
func TestSimFixed(t *testing.T) {
	k := "../../testdata/kernels/unaligned_copy.asc"
	code, out, errs := ascvet(t, "sim", "-fixed", "-f", "json", k+":16")
	if code != exitOK || errs != "" {
		t.Fatalf("sim -fixed: exit %d, stderr %s", code, errs)
	}
	var rs []struct {
		Name   string   `json:"name"`
		Cycles int      `json:"cycles"`
		Fixed  []string `json:"fixed"`
		Notes  []string `json:"notes"`
	}
	if err := json.Unmarshal([]byte(out), &rs); err != nil {
		t.Fatalf("json: %v\n%s", err, out)
	}
	if len(rs) != 2 {
		t.Fatalf("%d reports, want 2 (as written, fixed)", len(rs))
	}
	if len(rs[0].Fixed) != 0 || strings.Join(rs[1].Fixed, " ") != "17 21" {
		t.Errorf("fixed lines %q, %q; want none, then 17 21", rs[0].Fixed, rs[1].Fixed)
	}
	if rs[1].Cycles <= 0 || rs[1].Cycles >= rs[0].Cycles {
		t.Errorf("cycles as written %d, fixed %d: the fixes must save", rs[0].Cycles, rs[1].Cycles)
	}
	if !strings.Contains(strings.Join(rs[1].Notes, "\n"), "the fixes (the instructions of lines 17, 21 removed from the loop) save") {
		t.Errorf("no saving note: %q", rs[1].Notes)
	}
	code, out, _ = ascvet(t, "sim", "-fixed", k+":16")
	if code != exitOK || !strings.Contains(out, "Fixes applied:     the instructions of lines 17, 21 removed") {
		t.Errorf("text: exit %d\n%s", code, out)
	}

	// A loop without such a finding: one report, and a word why.
	dir := t.TempDir()
	clean := filepath.Join(dir, "clean.asc")
	if err := os.WriteFile(clean, []byte(`#include "kernel_operator.h"
__simd_vf__ inline void Copy(__ubuf__ float* dst, __ubuf__ float* src, uint16_t n)
{
    AscendC::Reg::RegTensor<float> v;
    AscendC::Reg::MaskReg all = AscendC::Reg::CreateMask<float>();
    for (uint16_t i = 0; i < n; ++i) {
        AscendC::Reg::LoadAlign(v, src + i * 64);
        AscendC::Reg::StoreAlign(dst + i * 64, v, all);
    }
}
`), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errs = ascvet(t, "sim", "-fixed", "-f", "json", clean+":6")
	var one struct {
		Cycles int `json:"cycles"`
	}
	if code != exitOK || json.Unmarshal([]byte(out), &one) != nil || one.Cycles <= 0 || !strings.Contains(errs, "no finding offers a fix") {
		t.Errorf("clean loop: exit %d, stderr %q\n%s", code, errs, out)
	}
	if code, _, errs := ascvet(t, "sim", "-fixed", k+":10"); code != exitUsage || !strings.Contains(errs, "name the line of a loop") {
		t.Errorf("not a loop: exit %d, stderr %q", code, errs)
	}
}
