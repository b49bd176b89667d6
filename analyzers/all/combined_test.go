package all_test

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/ascvet/ascvet/analyzers/all"
	"github.com/ascvet/ascvet/analyzers/runner"
	"github.com/ascvet/ascvet/analyzers/simcost"
	"github.com/ascvet/ascvet/ruleset/i18n"
)

// combinedKernel has a Pre and a Post in one loop (ASC1001, ASC1002), the
// seed's case: the loop is store-bound, so hoisting the Pre alone saves
// less than both fixes together. The second function's loop has one fix
// only.
const combinedKernel = `#include "kernel_operator.h"
constexpr uint32_t VL = AscendC::VECTOR_REG_WIDTH / sizeof(float);
__simd_vf__ inline void ScaleRowVF(__ubuf__ float* dst, __ubuf__ float* src, float scale, uint16_t repeat)
{
    AscendC::Reg::RegTensor<float> v;
    AscendC::Reg::UnalignRegForLoad uIn;
    AscendC::Reg::UnalignRegForStore uOut;
    AscendC::Reg::MaskReg all = AscendC::Reg::CreateMask<float>();
    for (uint16_t i = 0; i < repeat; ++i) {
        AscendC::Reg::LoadUnAlignPre(uIn, src + i * VL);
        AscendC::Reg::LoadUnAlign(v, uIn, src + i * VL);
        AscendC::Reg::Muls(v, v, scale, all);
        AscendC::Reg::StoreUnAlign(dst, v, uOut, VL);
        AscendC::Reg::StoreUnAlignPost(dst, uOut, 0);
    }
}
__simd_vf__ inline void ScaleAlignedVF(__ubuf__ float* dst, __ubuf__ float* src, float scale, uint16_t repeat)
{
    AscendC::Reg::RegTensor<float> v;
    AscendC::Reg::UnalignRegForLoad uIn;
    AscendC::Reg::MaskReg all = AscendC::Reg::CreateMask<float>();
    for (uint16_t i = 0; i < repeat; ++i) {
        AscendC::Reg::LoadUnAlignPre(uIn, src + i * VL);
        AscendC::Reg::LoadUnAlign(v, uIn, src + i * VL);
        AscendC::Reg::Muls(v, v, scale, all);
        AscendC::Reg::StoreAlign(dst + i * VL, v, all);
    }
}
`

// oneFixKernel has three findings about one AddrReg (ASC1003): they price
// one fix, the CreateAddrReg removed, so none says "as well".
const oneFixKernel = `#include "kernel_operator.h"
template <typename T>
__simd_vf__ inline void RowsByAddrReg(__ubuf__ T* dst, __ubuf__ T* src, uint16_t rows, uint32_t cols)
{
    AscendC::Reg::RegTensor<T> v;
    AscendC::Reg::UnalignRegForLoad ul;
    AscendC::Reg::UnalignRegForStore us;
    AscendC::Reg::LoadUnAlignPre(ul, src);
    for (uint16_t r = 0; r < rows; ++r) {
        AscendC::Reg::AddrReg off = AscendC::Reg::CreateAddrReg<T>(r, cols);
        AscendC::Reg::LoadUnAlignPre(ul, src, off);
        AscendC::Reg::LoadUnAlign(v, ul, src, off, 0);
        AscendC::Reg::StoreUnAlign(dst, v, us, off);
    }
    AscendC::Reg::StoreUnAlignPost(dst, us, 0);
}
`

var togetherRE = regexp.MustCompile(`\(with the fix on line (\d+) as well: ~(\d+) cycles? (per iteration|over the \d+ simulated iterations) together, (\d+)% of the loop\)`)

// TestCombinedSavings: each of two findings whose fixes apply to one loop
// gives its own saving, what it saves in one VF call (the function
// simulated whole, before and after), and the saving of both together (the
// loop simulated with both fixes applied), naming the other's line; the
// together figure is at least either alone. A loop with one fix says
// nothing more. The marks the model leaves for it are gone from the
// findings, and the message translates.
func TestCombinedSavings(t *testing.T) {
	res, err := runner.Run(all.Analyzers(), []runner.File{{Name: "combined.asc", Src: []byte(combinedKernel)}}, runner.Options{Jobs: 1})
	if err != nil {
		t.Fatal(err)
	}
	lines := map[string]int{}
	for _, f := range res.Findings {
		id := f.RuleID()
		if id != "ASC1001" && id != "ASC1002" {
			continue
		}
		msg := f.Diagnostic.Message
		lines[fmt.Sprint(id, f.Pos.Line)]++
		for _, r := range f.Diagnostic.Related {
			if strings.HasPrefix(r.Message, "ascvet:fix") {
				t.Errorf("line %d: the fix mark is left: %q", f.Pos.Line, r.Message)
			}
		}
		m := togetherRE.FindStringSubmatch(msg)
		if f.Pos.Line > 16 { // the second function: one fix
			if m != nil {
				t.Errorf("line %d, a loop with one fix: %s", f.Pos.Line, msg)
			}
			continue
		}
		if m == nil {
			t.Errorf("line %d: no combined saving: %s", f.Pos.Line, msg)
			continue
		}
		other, _ := strconv.Atoi(m[1])
		if want := map[int]int{10: 14, 14: 10}[f.Pos.Line]; other != want {
			t.Errorf("line %d names line %d, want %d", f.Pos.Line, other, want)
		}
		c, ok, _ := simcost.Extract(f.Diagnostic.Related)
		if !ok {
			t.Fatalf("line %d: no cost attached", f.Pos.Line)
		}
		// The saving in one VF call, from the function simulated whole.
		if c.CallBefore <= 0 || c.CallAfter >= c.CallBefore || !strings.Contains(msg, fmt.Sprintf("(a VF call: ~%d cycles of %d, ", c.CallBefore-c.CallAfter, c.CallBefore)) {
			t.Errorf("line %d: VF call %d -> %d cycles, message: %s", f.Pos.Line, c.CallBefore, c.CallAfter, msg)
		}
		_, own := c.Saving()
		joint, _ := strconv.Atoi(m[4])
		if joint < own || joint == 0 {
			t.Errorf("line %d: together %d%%, alone %d%%: together must save at least as much", f.Pos.Line, joint, own)
		}
		if zh := i18n.Message("zh", f.RuleID(), msg); !strings.Contains(zh, "连同第") {
			t.Errorf("line %d: the message does not translate: %q", f.Pos.Line, zh)
		}
	}
	if lines["ASC100110"] != 1 || lines["ASC100214"] != 1 || lines["ASC100123"] != 1 {
		t.Errorf("findings %v, want ASC1001 on lines 10 and 23 and ASC1002 on line 14", lines)
	}

	res, err = runner.Run(all.Analyzers(), []runner.File{{Name: "onefix.asc", Src: []byte(oneFixKernel)}}, runner.Options{Jobs: 1})
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, f := range res.Findings {
		if f.RuleID() != "ASC1003" {
			continue
		}
		n++
		if strings.Contains(f.Diagnostic.Message, "as well") {
			t.Errorf("line %d, one fix priced by three findings: %s", f.Pos.Line, f.Diagnostic.Message)
		}
	}
	if n != 3 {
		t.Errorf("%d ASC1003 findings, want 3", n)
	}
}

// TestMalformedBarrier: a loop that a rule prices, holding barriers whose
// mode ascvet cannot read, runs every analyzer without an error and is
// still priced (mem_bar(_ALL) made the simulator panic once).
func TestMalformedBarrier(t *testing.T) {
	// combinedKernel's loops, each with barriers around its Muls.
	src := strings.ReplaceAll(combinedKernel, "        AscendC::Reg::Muls(v, v, scale, all);\n",
		"        mem_bar(_ALL);\n        AscendC::Reg::Muls(v, v, scale, all);\n        mem_bar(V_ALL);\n        AscendC::Reg::LocalMemBar<T, U>();\n")
	if !strings.Contains(src, "mem_bar(_ALL)") {
		t.Fatal("combinedKernel has no Muls line to put barriers around")
	}
	res, err := runner.Run(all.Analyzers(), []runner.File{{Name: "k.asc", Src: []byte(src)}}, runner.Options{Jobs: 1})
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range res.Errors {
		t.Errorf("analyzer failed: %v", e.Error())
	}
	priced := false
	for _, fd := range res.Findings {
		if fd.RuleID() == "ASC1001" && strings.Contains(fd.Diagnostic.Message, "cycle") {
			priced = true
		}
	}
	if !priced {
		t.Errorf("no priced ASC1001 for the Pre in the loop: %d findings", len(res.Findings))
	}
}
