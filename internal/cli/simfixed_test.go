package cli

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/ascvet/ascvet/simcheck"
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

// TestSimFixedRewrites: the fixes that rewrite a loop rather than remove
// instructions are applied by sim -fixed too: ASC5001's halving (half the
// iterations), ASC5002's 64-bit Div done by a multiply and a shift,
// ASC5003's block stride padded. Two fixes to one loop are applied
// together, and the check's findings say what they save together: the
// saving sim -fixed shows.
func TestSimFixedRewrites(t *testing.T) {
	k := "../../testdata/kernels/best_practices.asc"
	type report struct {
		Iterations int      `json:"iterations"`
		Cycles     int      `json:"cycles"`
		Fixed      []string `json:"fixed"`
		Applied    string   `json:"fixes_applied"`
	}
	sim := func(target string) (before, after report) {
		t.Helper()
		code, out, errs := ascvet(t, "sim", "-fixed", "-f", "json", target)
		var rs []report
		if code != exitOK || errs != "" || json.Unmarshal([]byte(out), &rs) != nil || len(rs) != 2 {
			t.Fatalf("sim -fixed %s: exit %d, stderr %s\n%s", target, code, errs, out)
		}
		if rs[1].Cycles <= 0 || rs[1].Cycles >= rs[0].Cycles {
			t.Errorf("%s: cycles as written %d, fixed %d: the fixes must save", target, rs[0].Cycles, rs[1].Cycles)
		}
		return rs[0], rs[1]
	}
	for _, c := range []struct {
		line         string
		fixed, words string
	}{
		{"21", "21", "the iterations halved (each op at the full width)"},
		{"34", "36", "the 64-bit Div of line 36 done by a multiply and a shift"},
		{"45", "47", "the block stride of line 47 padded by a block"},
	} {
		before, after := sim(k + ":" + c.line)
		if strings.Join(after.Fixed, " ") != c.fixed || after.Applied != c.words {
			t.Errorf("line %s: fixed %q, %q; want %s, %q", c.line, after.Fixed, after.Applied, c.fixed, c.words)
		}
		if halved := (before.Iterations + 1) / 2; c.line == "21" && after.Iterations != halved {
			t.Errorf("the halved loop runs %d iterations of %d, want %d", after.Iterations, before.Iterations, halved)
		}
	}

	// Two 64-bit Divs in one loop.
	dir := t.TempDir()
	two := filepath.Join(dir, "twodiv.asc")
	if err := os.WriteFile(two, []byte(`#include "kernel_operator.h"
__simd_vf__ inline void TwoDivVF(__ubuf__ int64_t* dst, __ubuf__ int64_t* src, int64_t a, int64_t b, uint16_t n)
{
    AscendC::Reg::RegTensor<int64_t> x, da, db, q, r;
    AscendC::Reg::MaskReg mask = AscendC::Reg::CreateMask<int64_t>();
    AscendC::Reg::Duplicate(da, a);
    AscendC::Reg::Duplicate(db, b);
    for (uint16_t i = 0; i < n; ++i) {
        AscendC::Reg::LoadAlign(x, src + i * 32);
        AscendC::Reg::Div(q, x, da, mask);
        AscendC::Reg::Div(r, x, db, mask);
        AscendC::Reg::Add(q, q, r, mask);
        AscendC::Reg::StoreAlign(dst + i * 32, q, mask);
    }
}
`), 0o644); err != nil {
		t.Fatal(err)
	}
	before, after := sim(two + ":8")
	if strings.Join(after.Fixed, " ") != "10 11" || !strings.Contains(after.Applied, "Div of line 10") || !strings.Contains(after.Applied, "Div of line 11") {
		t.Errorf("two Divs: fixed %q, %q", after.Fixed, after.Applied)
	}
	_, out, _ := ascvet(t, "-cache", "off", two)
	re := regexp.MustCompile(`with the fix on line (\d+) as well: ~(\d+) cycles per iteration together`)
	ms := re.FindAllStringSubmatch(out, -1)
	if len(ms) != 2 || ms[0][2] != ms[1][2] {
		t.Fatalf("the two Divs' findings do not say what their fixes save together:\n%s", out)
	}
	per, _ := strconv.Atoi(ms[0][2])
	if saved := before.Cycles - after.Cycles; math.Abs(float64(per*before.Iterations-saved)) > 0.02*float64(saved) {
		t.Errorf("together: ~%d cycles per iteration over %d iterations, sim -fixed saves %d", per, before.Iterations, saved)
	}
}

// TestPriceAsSim: a fix's price times its loop as ascvet sim does, with
// the loop's #pragma unroll applied: the cycles a finding records as
// written are sim's for the loop, less the loop's entry, and its saving is
// sim -fixed's. Before, the price ran the rolled body (299 cycles here
// against sim's 294).
func TestPriceAsSim(t *testing.T) {
	m, err := simcheck.Chip("ascend950")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for name, src := range map[string]string{
		// A dead Duplicate (ASC5004) in a chain of Exps, unrolled by 4.
		"chain.asc": `#include "kernel_operator.h"
__simd_vf__ inline void ChainU(__ubuf__ float* dst, __ubuf__ float* src)
{
    AscendC::Reg::RegTensor<float> x, y;
    AscendC::Reg::MaskReg mask = AscendC::Reg::CreateMask<float>();
#pragma unroll 4
    for (uint16_t i = 0; i < 32; ++i) {
        AscendC::Reg::LoadAlign(x, src + i * 64);
        AscendC::Reg::Duplicate(y, 0.0f, mask);
        AscendC::Reg::Exp(y, x, mask);
        AscendC::Reg::Exp(y, y, mask);
        AscendC::Reg::Exp(y, y, mask);
        AscendC::Reg::Exp(y, y, mask);
        AscendC::Reg::StoreAlign(dst + i * 64, y, mask);
    }
}
`,
		// A block-strided store (ASC5003), unrolled by 4.
		"column.asc": `#include "kernel_operator.h"
__simd_vf__ inline void ColumnCopyU(__ubuf__ float* dst, __ubuf__ float* src)
{
    AscendC::Reg::RegTensor<float> reg;
    AscendC::Reg::MaskReg mask = AscendC::Reg::CreateMask<float>();
#pragma unroll 4
    for (uint16_t i = 0; i < 16; ++i) {
        AscendC::Reg::LoadAlign(reg, src + i * 64);
        AscendC::Reg::Adds(reg, reg, 1.0f, mask);
        AscendC::Reg::StoreAlign<float, AscendC::Reg::DataCopyMode::DATA_BLOCK_COPY>(dst + i * 8, reg, 8, mask);
    }
}
`,
	} {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		_, out, _ := ascvet(t, "-cache", "off", "-f", "json", p)
		var doc struct {
			Findings []struct {
				Rule   string `json:"rule"`
				Before int    `json:"cycles_before"`
				After  int    `json:"cycles_after"`
			} `json:"findings"`
		}
		if err := json.Unmarshal([]byte(out), &doc); err != nil || len(doc.Findings) != 1 || doc.Findings[0].Before <= 0 {
			t.Fatalf("%s: %v\n%s", name, err, out)
		}
		d := doc.Findings[0]
		_, out, _ = ascvet(t, "sim", "-fixed", "-f", "json", p+":7")
		var rs []struct {
			Cycles int `json:"cycles"`
		}
		if err := json.Unmarshal([]byte(out), &rs); err != nil || len(rs) != 2 {
			t.Fatalf("%s: sim -fixed: %v\n%s", name, err, out)
		}
		if d.Before != rs[0].Cycles-m.LoopEntry || d.Before-d.After != rs[0].Cycles-rs[1].Cycles {
			t.Errorf("%s (%s): priced %d -> %d, sim %d -> %d (loop entry %d)", name, d.Rule, d.Before, d.After, rs[0].Cycles, rs[1].Cycles, m.LoopEntry)
		}
	}
}

// TestDefines: -D NAME=VALUE defines a build macro every file sees first:
// a constant that reads it folds, and an if constexpr on the constant
// takes one branch (ascvet ir shows it, ascvet sim times it, and the check
// reports only what that build compiles). Runs with different -D values
// never share a cached result; a bad -D is refused.
func TestDefines(t *testing.T) {
	t.Setenv("ASCVET_CACHE", t.TempDir())
	p := filepath.Join(t.TempDir(), "mode.asc")
	if err := os.WriteFile(p, []byte(modeKernel), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		def, cond string
		div       bool
	}{
		{"BUILD_MODE=0", "if constexpr (1)", true},
		{"BUILD_MODE=1", "if constexpr (0)", false},
		{"BUILD_MODE=0", "if constexpr (1)", true}, // from the cache
		{"BUILD_MODE", "if constexpr (0)", false},  // 1, as a compiler's -D NAME
		{"", "if constexpr (kMode == 0)", true},    // not given: the costlier branch
	} {
		var args []string
		if c.def != "" {
			args = []string{"-D", c.def}
		}
		_, out, errs := ascvet(t, append(append([]string{"ir"}, args...), p)...)
		if !strings.Contains(out, c.cond) {
			t.Errorf("-D %s: ir shows no %q\n%s%s", c.def, c.cond, out, errs)
		}
		_, out, errs = ascvet(t, append(append([]string{"-fail", "none"}, args...), p)...)
		if got := strings.Contains(out, "ASC5002"); got != c.div {
			t.Errorf("-D %s: ASC5002 reported %v, want %v\n%s%s", c.def, got, c.div, out, errs)
		}
	}
	sim := func(def string) int {
		_, out, errs := ascvet(t, "sim", "-f", "json", "-D", def, p+":8")
		var r struct {
			Cycles int `json:"cycles"`
		}
		if err := json.Unmarshal([]byte(out), &r); err != nil || r.Cycles <= 0 {
			t.Fatalf("sim -D %s: %v\n%s%s", def, err, out, errs)
		}
		return r.Cycles
	}
	if with, without := sim("BUILD_MODE=0"), sim("BUILD_MODE=1"); with <= without {
		t.Errorf("sim: the Div's build takes %d cycles, the other %d", with, without)
	}
	// An #if chain: the build -D names is the one read; without it every
	// group stays (the Div's among them), as before.
	q := filepath.Join(filepath.Dir(p), "cond.asc")
	if err := os.WriteFile(q, []byte(`#include "kernel_operator.h"
__simd_vf__ inline void CondVF(__ubuf__ uint64_t* dst, __ubuf__ uint64_t* src, uint64_t b, uint16_t n)
{
    AscendC::Reg::RegTensor<uint64_t> x, d;
    AscendC::Reg::MaskReg m = AscendC::Reg::CreateMask<uint64_t>();
    AscendC::Reg::Duplicate(d, b);
    for (uint16_t i = 0; i < n; ++i) {
        AscendC::Reg::LoadAlign(x, src + i * 32);
#if BUILD_MODE == 0
        AscendC::Reg::Div(x, x, d, m);
#elif BUILD_MODE == 1
        AscendC::Reg::Mul(x, x, d, m);
#endif
#if 0
        AscendC::Reg::Div(x, x, d, m); // never built
#endif
        AscendC::Reg::StoreAlign(dst + i * 32, x, m);
    }
}
`), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		def      string
		div, mul int
	}{
		{"BUILD_MODE=0", 1, 0},
		{"BUILD_MODE=1", 0, 1},
		{"BUILD_MODE=2", 0, 0},
		{"", 1, 1},
	} {
		args := []string{"ir"}
		if c.def != "" {
			args = append(args, "-D", c.def)
		}
		_, out, errs := ascvet(t, append(args, q)...)
		if div, mul := strings.Count(out, " Div elem="), strings.Count(out, " Mul elem="); div != c.div || mul != c.mul {
			t.Errorf("-D %s: ir shows %d Div and %d Mul, want %d and %d\n%s%s", c.def, div, mul, c.div, c.mul, out, errs)
		}
	}
	// A header's chain, under -D: the constant the build defines folds
	// the loop's trip count; without -D its two definitions leave it
	// unknown.
	hdr := filepath.Join(filepath.Dir(p), "lanes.h")
	if err := os.WriteFile(hdr, []byte(`#ifndef LANES_H
#define LANES_H
#if BUILD_MODE == 1
constexpr uint32_t kLanes = 64;
#else
constexpr uint32_t kLanes = 32;
#endif
#endif
`), 0o644); err != nil {
		t.Fatal(err)
	}
	k := filepath.Join(filepath.Dir(p), "lanes.asc")
	if err := os.WriteFile(k, []byte(`#include "kernel_operator.h"
#include "lanes.h"
__simd_vf__ inline void LanesVF(__ubuf__ float* dst, __ubuf__ float* src)
{
    AscendC::Reg::RegTensor<float> x;
    AscendC::Reg::MaskReg m = AscendC::Reg::CreateMask<float>();
    for (uint16_t i = 0; i < kLanes; ++i) {
        AscendC::Reg::LoadAlign(x, src + i * 64);
        AscendC::Reg::StoreAlign(dst + i * 64, x, m);
    }
}
`), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ def, trip string }{
		{"BUILD_MODE=1", "trip=64"},
		{"BUILD_MODE=2", "trip=32"},
		{"", "trip=?"},
	} {
		args := []string{"ir"}
		if c.def != "" {
			args = append(args, "-D", c.def)
		}
		_, out, errs := ascvet(t, append(args, k)...)
		if !strings.Contains(out, c.trip) {
			t.Errorf("-D %s: the loop has no %s\n%s%s", c.def, c.trip, out, errs)
		}
	}
	for _, bad := range []string{"1X=2", "A=1;B=2", "=3"} {
		if code, _, errs := ascvet(t, "-D", bad, p); code != exitUsage || errs == "" {
			t.Errorf("-D %s: exit %d, stderr %q", bad, code, errs)
		}
	}
}

// nestedStride is a kernel whose inner loop loads rows 16 blocks apart in
// DataBlock mode (ASC5003), inside an outer loop; %s is the inner load's
// block stride.
const nestedStride = `#include "kernel_operator.h"
using namespace AscendC;
using namespace AscendC::Reg;
constexpr uint32_t kLeaf = 128;
constexpr uint32_t kLanes = 8;
constexpr uint32_t kBlocks = kLeaf / kLanes;
constexpr uint32_t kGroups = 2;
constexpr uint32_t kStride = 16;
__simd_vf__ inline void LeafSums(__ubuf__ float* data)
{
    uint32_t n64 = 64;
    uint32_t n8 = 8;
    MaskReg full = UpdateMask<float>(n64);
    MaskReg low = UpdateMask<float>(n8);
    RegTensor<float> acc;
    RegTensor<float> cur;
#pragma unroll
    for (uint32_t g = 0; g < kGroups; g++) {
        __ubuf__ float* base = data + g * 8 * kLeaf;
        LoadAlign<float, DataCopyMode::DATA_BLOCK_COPY>(acc, base, kStride, full);
#pragma unroll
        for (uint32_t b = 1; b < kBlocks; b++) {
            LoadAlign<float, DataCopyMode::DATA_BLOCK_COPY>(cur, base + b * kLanes, %s, full);
            Add(acc, acc, cur, full);
        }
        StoreAlign(data + g * 8, acc, low);
    }
}
`

// TestNestedRewriteCall: the saving in one VF call of a rewrite in a loop
// nested in another (ASC5003's padding) is what ascvet sim gives for the
// function as written and for a copy padded by hand.
func TestNestedRewriteCall(t *testing.T) {
	dir := t.TempDir()
	orig, padded := filepath.Join(dir, "orig.asc"), filepath.Join(dir, "padded.asc")
	for p, stride := range map[string]string{orig: "kStride", padded: "kStride + 1"} {
		if err := os.WriteFile(p, fmt.Appendf(nil, nestedStride, stride), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	_, out, errs := ascvet(t, "-f", "json", "-fail", "none", "-checks", "ASC5003", orig)
	var res struct {
		Findings []struct {
			Line    int    `json:"line"`
			Message string `json:"message"`
		} `json:"findings"`
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("%v\n%s%s", err, out, errs)
	}
	sim := func(p string) int {
		_, out, errs := ascvet(t, "sim", "-f", "json", p+":9")
		var r struct {
			Cycles int `json:"cycles"`
		}
		if err := json.Unmarshal([]byte(out), &r); err != nil || r.Cycles <= 0 {
			t.Fatalf("sim %s: %v\n%s%s", p, err, out, errs)
		}
		return r.Cycles
	}
	before, after := sim(orig), sim(padded)
	if after >= before {
		t.Fatalf("sim: padded by hand %d cycles, as written %d", after, before)
	}
	found := false
	for _, f := range res.Findings {
		if f.Line != 23 {
			continue
		}
		found = true
		var saved, of int
		k := strings.Index(f.Message, "(a VF call: ~")
		if k < 0 {
			t.Fatalf("the inner load's finding gives no VF call's saving: %s", f.Message)
		}
		if _, err := fmt.Sscanf(f.Message[k:], "(a VF call: ~%d cycles of %d", &saved, &of); err != nil {
			t.Fatalf("%v: %s", err, f.Message[k:])
		}
		if of != before || saved < before-after-1 || saved > before-after+1 {
			t.Errorf("finding: ~%d cycles of %d a call; sim: %d as written, %d padded by hand (%d saved)", saved, of, before, after, before-after)
		}
	}
	if !found {
		t.Fatalf("no ASC5003 finding on line 23:\n%s", out)
	}
}

// TestConfigDefines: the build macros of the configuration of the working
// directory (defines in ascvet.toml) are the run's, as -D gives them; -D
// wins over them; ascvet ir reads them as a check does; a file whose own
// configuration sets others is analysed with the run's, and the run says
// so once.
func TestConfigDefines(t *testing.T) {
	t.Setenv("ASCVET_CACHE", t.TempDir())
	root := t.TempDir()
	for name, text := range map[string]string{
		".git/HEAD":        "ref: refs/heads/main\n",
		"ascvet.toml":      "defines = [\"BUILD_MODE=1\"]\n",
		"mode.asc":         modeKernel,
		"sub/ascvet.toml":  "defines = [\"BUILD_MODE=0\"]\n",
		"sub/mode_sub.asc": modeKernel,
	} {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(root)
	div := func(out string) (top, sub bool) {
		for _, l := range strings.Split(out, "\n") {
			if strings.Contains(l, "ASC5002") {
				top = top || strings.HasPrefix(l, "mode.asc")
				sub = sub || strings.HasPrefix(l, filepath.FromSlash("sub/mode_sub.asc"))
			}
		}
		return top, sub
	}
	_, out, errs := ascvet(t, "-fail", "none", ".")
	if top, sub := div(out); top || sub {
		t.Errorf("BUILD_MODE=1 from ascvet.toml: the Div is reported (mode.asc %v, sub %v)\n%s%s", top, sub, out, errs)
	}
	if !strings.Contains(errs, filepath.Join(root, "sub", "ascvet.toml")+": its defines (BUILD_MODE=0) are not this run's") ||
		strings.Count(errs, "are not this run's") != 1 {
		t.Errorf("no single note of sub/ascvet.toml's other defines:\n%s", errs)
	}
	_, out, errs = ascvet(t, "-fail", "none", "-D", "BUILD_MODE=0", ".")
	if top, sub := div(out); !top || !sub {
		t.Errorf("-D BUILD_MODE=0 over the configuration: the Div is not reported (mode.asc %v, sub %v)\n%s%s", top, sub, out, errs)
	}
	if _, out, errs = ascvet(t, "ir", "mode.asc"); !strings.Contains(out, "if constexpr (0)") {
		t.Errorf("ir does not read the configuration's BUILD_MODE=1:\n%s%s", out, errs)
	}
	// The first path's configuration gives the run's: sub named from the
	// root, or sub the working directory.
	_, out, errs = ascvet(t, "-fail", "none", "sub")
	if !strings.Contains(out, "ASC5002") || strings.Contains(errs, "are not this run's") {
		t.Errorf("ascvet sub: its BUILD_MODE=0 is not the run's\n%s%s", out, errs)
	}
	t.Chdir(filepath.Join(root, "sub"))
	_, out, errs = ascvet(t, "-fail", "none", ".")
	if !strings.Contains(out, "ASC5002") || strings.Contains(errs, "are not this run's") {
		t.Errorf("run from sub/: its BUILD_MODE=0 is not the run's\n%s%s", out, errs)
	}
	if _, out, errs = ascvet(t, "sim", "-f", "json", filepath.Join(root, "mode.asc")+":3"); !strings.Contains(out, `"cycles"`) || strings.Contains(out, "Div") {
		t.Errorf("sim of ../mode.asc does not read its configuration's BUILD_MODE=1:\n%s%s", out, errs)
	}
}

// modeKernel is a kernel whose loop divides 64-bit integers (ASC5002) only
// when BUILD_MODE is 0.
const modeKernel = `#include "kernel_operator.h"
constexpr uint32_t kMode = BUILD_MODE;
__simd_vf__ inline void ModeVF(__ubuf__ uint64_t* dst, __ubuf__ uint64_t* src, uint64_t b, uint16_t n)
{
    AscendC::Reg::RegTensor<uint64_t> x, d;
    AscendC::Reg::MaskReg m = AscendC::Reg::CreateMask<uint64_t>();
    AscendC::Reg::Duplicate(d, b);
    for (uint16_t i = 0; i < n; ++i) {
        AscendC::Reg::LoadAlign(x, src + i * 32);
        if constexpr (kMode == 0) {
            AscendC::Reg::Div(x, x, d, m);
        }
        AscendC::Reg::StoreAlign(dst + i * 32, x, m);
    }
}
`
