package cli

import (
	"bytes"
	"encoding/json"
	"go/token"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"

	"github.com/ascvet/ascvet/analyzers/census"
	"github.com/ascvet/ascvet/analyzers/cppir"
	"github.com/ascvet/ascvet/analyzers/runner"
	"github.com/ascvet/ascvet/internal/golden"
	"github.com/ascvet/ascvet/internal/report"
	"github.com/ascvet/ascvet/internal/report/reporttest"
	"github.com/ascvet/ascvet/internal/source"
	"github.com/ascvet/ascvet/ruleset"
	"github.com/ascvet/ascvet/simcheck"
)

// ascvet runs the driver in-process.
func ascvet(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = run(args, &out, &errb)
	return code, out.String(), errb.String()
}

func TestText(t *testing.T) {
	code, out, errs := ascvet(t, "testdata/walk")
	if code != exitOK || errs != "" {
		t.Errorf("exit %d, stderr %q; want 0 and nothing (ASC0001 is info, below -fail-on warning)", code, errs)
	}
	golden.Check(t, "walk.text.golden", out)
}

func TestJSON(t *testing.T) {
	code, out, errs := ascvet(t, "-f", "json", "-fail-on", "info", "testdata/walk/...")
	if code != exitFindings || errs != "" {
		t.Errorf("exit %d, stderr %q; want 1 and nothing", code, errs)
	}
	golden.Check(t, "walk.json.golden", out)

	reporttest.ValidateFindingsJSON(t, out)
	_, out, _ = ascvet(t, "-f", "json", "testdata/walk/plain.cpp")
	if got := reporttest.ValidateFindingsJSON(t, out); len(got) != 0 {
		t.Errorf("no findings printed %q, want an empty list", out)
	}
}

// TestJSONEveryField checks, over the example kernels (performance findings
// with cycles, suppressed ones with -show-ignored, fixable ones), that every
// finding has every field docs/ascvet-findings.schema.json requires, null
// or empty where it does not apply, and that the output validates.
func TestJSONEveryField(t *testing.T) {
	_, out, _ := ascvet(t, "-f", "json", "-show-ignored", "../../testdata/kernels")
	findings := reporttest.ValidateFindingsJSON(t, out)
	var cycles, noCycles, suppressed, fixable, notFixable int
	for _, f := range findings {
		for _, key := range []string{"rule", "name", "severity", "message", "file", "line", "column", "end_line", "end_column", "cycles_before", "cycles_after", "fingerprint", "fixable", "suppressed"} {
			if _, ok := f[key]; !ok {
				t.Errorf("finding has no %q field: %v", key, f)
			}
		}
		if f["cycles_before"] != nil {
			cycles++
		} else {
			noCycles++
		}
		if l, _ := f["suppressed"].([]any); len(l) > 0 {
			suppressed++
		}
		if f["fixable"] == true {
			fixable++
		} else {
			notFixable++
		}
	}
	if cycles == 0 || noCycles == 0 || suppressed == 0 || fixable == 0 || notFixable == 0 {
		t.Errorf("the examples should give findings of every kind: %d with cycles, %d without, %d suppressed, %d fixable, %d not", cycles, noCycles, suppressed, fixable, notFixable)
	}
}

// TestDeterministic checks that the output does not depend on -j.
func TestDeterministic(t *testing.T) {
	_, one, _ := ascvet(t, "-j", "1", "testdata/walk", "../../testdata/kernels")
	_, four, _ := ascvet(t, "-j", "4", "../../testdata/kernels", "testdata/walk")
	if one != four {
		t.Errorf("-j 1 and -j 4 differ:\n%s\n%s", one, four)
	}
}

// TestExamples checks what the README promises about testdata/kernels.
// TestExamples runs the README's first command: every rule fires on its
// example kernel, and every *_fixed.asc / clean.asc kernel stays silent.
func TestExamples(t *testing.T) {
	code, out, errs := ascvet(t, "../../testdata/kernels")
	if code != exitFindings || errs != "" {
		t.Errorf("exit %d, stderr %q; want %d and nothing", code, errs, exitFindings)
	}
	golden.Check(t, "examples.text.golden", out)
	for _, r := range ruleset.All() {
		if !strings.Contains(out, "["+r.ID+"]") {
			t.Errorf("no example kernel shows %s firing", r.ID)
		}
	}
	for _, line := range strings.Split(out, "\n") {
		if strings.Contains(line, "_fixed.asc:") || strings.Contains(line, "clean.asc:") {
			t.Errorf("a clean example kernel has a finding: %s", line)
		}
	}
}

func TestExitCodes(t *testing.T) {
	dir := t.TempDir()
	if err := os.Symlink(filepath.Join(dir, "missing"), filepath.Join(dir, "dangling.cpp")); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args   []string
		code   int
		stderr string // substring of stderr; "" for none
	}{
		{[]string{"testdata/walk"}, exitOK, ""},
		{[]string{"-fail-on", "info", "testdata/walk"}, exitFindings, ""},
		{[]string{"-fail-on", "INFO", "testdata/walk/sub/c.hpp"}, exitFindings, ""},
		{[]string{"-fail-on", "info", "testdata/walk/sub/b.h"}, exitOK, ""},
		{[]string{"-fail-on", "error", "testdata/walk"}, exitOK, ""},
		{[]string{"-fail-on", "fatal", "testdata/walk"}, exitUsage, `unknown severity "fatal"`},
		{[]string{"-f", "xml", "testdata/walk"}, exitUsage, "invalid value \"xml\" for flag -f: want one of text, json, sarif, github, checkstyle, codequality"},
		{[]string{"-j", "0", "testdata/walk"}, exitUsage, "-j 0"},
		{[]string{"-no-such-flag"}, exitUsage, "ascvet: unknown flag -no-such-flag (ascvet -h lists the flags)\n"},
		{[]string{"-fail-on", "info", "testdata/walk", "testdata/no-such-dir"}, exitUsage, "ascvet: testdata/no-such-dir: no such file or directory\n"},
		{[]string{dir}, exitUsage, "dangling.cpp: no such file or directory"},
		{[]string{"stats", "testdata/no-such-file.cpp"}, exitUsage, "testdata/no-such-file.cpp: no such file or directory"},
		{[]string{"stats", "-j", "-1"}, exitUsage, "-j -1"},
		{[]string{"-h"}, exitOK, ""}, // the usage, on stdout (TestHelp)
	} {
		code, _, errs := ascvet(t, tc.args...)
		if code != tc.code {
			t.Errorf("ascvet %s: exit %d, want %d (stderr %q)", strings.Join(tc.args, " "), code, tc.code, errs)
		}
		if tc.stderr == "" && errs != "" || !strings.Contains(errs, tc.stderr) {
			t.Errorf("ascvet %s: stderr %q, want %q", strings.Join(tc.args, " "), errs, tc.stderr)
		}
	}
}

// TestSkippedInputStillChecked checks that a bad path does not hide the
// findings in the good ones.
func TestSkippedInputStillChecked(t *testing.T) {
	code, out, _ := ascvet(t, "testdata/no-such-dir", "testdata/walk/sub/c.hpp")
	if code != exitUsage || !strings.Contains(out, "c.hpp:7:39: info:") {
		t.Errorf("exit %d, stdout %q", code, out)
	}
}

func TestInternalError(t *testing.T) {
	boom := &analysis.Analyzer{
		Name:     "boom",
		Doc:      "panics on every file",
		Requires: []*analysis.Analyzer{cppir.Analyzer},
		Run:      func(*analysis.Pass) (any, error) { panic("boom") },
	}
	defer func(saved func() []*analysis.Analyzer) { analyzers = saved }(analyzers)
	analyzers = func() []*analysis.Analyzer { return []*analysis.Analyzer{boom} }
	code, out, errs := ascvet(t, "testdata/walk/sub/c.hpp")
	if code != exitInternal {
		t.Errorf("exit %d, want 3", code)
	}
	if want := "ascvet: testdata/walk/sub/c.hpp: internal error in analyzer boom: panic: boom (please report this bug)\n"; errs != want {
		t.Errorf("stderr %q, want %q", errs, want)
	}
	if !strings.HasSuffix(out, "no findings in 1 file\n") {
		t.Errorf("stdout %q", out)
	}
}

func TestList(t *testing.T) {
	code, out, _ := ascvet(t, "-list")
	if code != exitOK {
		t.Errorf("exit %d", code)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if got := strings.Fields(lines[0]); !slices.Equal(got, []string{"ID", "NAME", "SEVERITY", "TITLE"}) {
		t.Errorf("header %q", lines[0])
	}
	rules := ruleset.All()
	if len(rules) == 0 || len(lines) != len(rules)+1 {
		t.Fatalf("%d lines for %d rules:\n%s", len(lines), len(rules), out)
	}
	for i, r := range rules {
		want := []string{r.ID, r.Name, r.Severity.String()}
		want = append(want, strings.Fields(r.Title)...)
		if got := strings.Fields(lines[i+1]); !slices.Equal(got, want) {
			t.Errorf("line %q, want %q", lines[i+1], strings.Join(want, " "))
		}
	}
}

// TestStatsStreams checks the stream census on the fixtures of the values
// the front end must see: every Pre of the firing file is contiguous, the
// clean file's are not, each with its reason.
func TestStatsStreams(t *testing.T) {
	dir := "../../analyzers/asc1001/testdata/"
	code, out, errs := ascvet(t, "stats", "-sites", dir+"values.asc", dir+"values_good.asc")
	if code != exitOK || errs != "" {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	var got stats
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	if v := got.Streams.Pre.Verdicts; v["contiguous"] != 12 || v["not contiguous"]+v["unknown"] != 13 {
		t.Errorf("pre verdicts = %v, want 12 contiguous and 13 others", v)
	}
	whys := map[string]string{}
	for _, s := range got.Streams.Sites {
		whys[s.Pos[strings.LastIndex(s.Pos, "/")+1:]] = s.Verdict + ": " + s.Why
	}
	for pos, want := range map[string]string{
		"values_good.asc:48:9":  "not contiguous: the address advances 72 elements per iteration but 64 are loaded",
		"values_good.asc:64:9":  "unknown: the Pre address is not linear in i",
		"values_good.asc:106:9": "not contiguous: the address advances 32 elements per iteration but 64 are loaded",
		"values.asc:76:9":       "contiguous: ",
		"values_good.asc:219:9": "not contiguous: the loop runs at most once",
		"values.asc:231:9":      "contiguous: ", // the element type deduced from the arguments
		"values_good.asc:239:9": "unknown: the stream is contiguous only for 8-byte elements",
	} {
		if whys[pos] != want {
			t.Errorf("%s: %q, want %q", pos, whys[pos], want)
		}
	}
	a := got.Streams.Addresses
	if a["folded"] == 0 || a["folded"]+a["symbolic"]+a["unknown"] != 52 {
		t.Errorf("addresses = %v", a)
	}
}

func TestStats(t *testing.T) {
	code, out, errs := ascvet(t, "stats", "-j", "2", "testdata/walk")
	if code != exitOK || errs != "" {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	var got stats
	dec := json.NewDecoder(strings.NewReader(out))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&got); err != nil {
		t.Fatal(err)
	}
	if got.Seconds < 0 {
		t.Errorf("seconds = %v", got.Seconds)
	}
	got.Seconds = 0
	want := stats{
		Files: 4, Bytes: size(t, "a.cpp", "sub/b.h", "sub/c.hpp", "plain.cpp"),
		VFFiles: 3, VFBytes: size(t, "a.cpp", "sub/b.h", "sub/c.hpp"),
		VFRegions:                6, // Broken, Fine, AlsoBroken; Twice, UsesHelper; Compute.vec_scope#1
		VFRegionsWithParseErrors: 3,
		SimtRegions:              1,
		Loops:                    2,
		Instructions:             20,
		Calls:                    19,
		HelperCalls:              1,
		UnknownCalls:             2,
		UnknownCallNames:         []nameCount{{"MyUnknownThing", 2}},
	}
	// No unaligned stream in testdata/walk, but every address class is
	// listed, even when none was seen.
	wantAddr := map[string]int{census.Folded: 0, census.Symbolic: 0, census.Unknown: 0}
	if st := got.Streams; !reflect.DeepEqual(st.Addresses, wantAddr) || len(st.Sites) != 0 || len(st.Pre.Verdicts)+len(st.Post.Verdicts) != 0 {
		t.Errorf("streams = %+v, want no stream and addresses %v", st, wantAddr)
	}
	got.Streams = streamStats{}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("stats:\n%+v\nwant:\n%+v", got, want)
	}
	for _, key := range []string{"files", "bytes", "vf_regions", "vf_regions_with_parse_errors", "loops", "instructions", "calls", "unknown_calls", "unknown_call_names", "simt_regions", "seconds"} {
		if !strings.Contains(out, `"`+key+`":`) {
			t.Errorf("stats has no %q field", key)
		}
	}
}

func size(t *testing.T, names ...string) int64 {
	var n int64
	for _, name := range names {
		info, err := os.Stat(filepath.Join("testdata/walk", name))
		if err != nil {
			t.Fatal(err)
		}
		n += info.Size()
	}
	return n
}

func TestTop(t *testing.T) {
	got := top(map[string]int{"b": 2, "a": 2, "c": 5, "d": 1}, 3)
	want := []nameCount{{"c", 5}, {"a", 2}, {"b", 2}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("top = %v, want %v", got, want)
	}
}

func TestExpand(t *testing.T) {
	var bad []string
	got := source.Expand([]string{"testdata/walk/...", "testdata/walk/sub/b.h", "testdata/walk/notes.txt", "testdata/nope"}, func(p string, err error) {
		bad = append(bad, p)
	})
	want := []string{
		"testdata/walk/a.cpp", "testdata/walk/plain.cpp", "testdata/walk/sub/b.h", "testdata/walk/sub/c.hpp",
		"testdata/walk/notes.txt", // named explicitly: taken whatever its extension
	}
	if !slices.Equal(got, want) {
		t.Errorf("expand = %q, want %q", got, want)
	}
	if !slices.Equal(bad, []string{"testdata/nope"}) {
		t.Errorf("bad = %q", bad)
	}
}

func TestSummary(t *testing.T) {
	finding := func(s ruleset.Severity) runner.Finding {
		a := &analysis.Analyzer{Name: "x"}
		return runner.Finding{Analyzer: a, Rule: &ruleset.Rule{ID: "ASC9999", Severity: s, Analyzer: a},
			Diagnostic: analysis.Diagnostic{Message: "m"}, Pos: token.Position{Filename: "f.cpp", Line: 1, Column: 2}}
	}
	for _, tc := range []struct {
		sev   []ruleset.Severity
		files int
		want  string
	}{
		{nil, 0, "no findings in 0 files"},
		{nil, 1, "no findings in 1 file"},
		{[]ruleset.Severity{ruleset.Warning}, 1, "1 finding (1 warning) in 1 file"},
		{[]ruleset.Severity{ruleset.Info, ruleset.Warning, ruleset.Error, ruleset.Warning}, 12, "4 findings (1 error, 2 warnings, 1 info) in 12 files"},
		{[]ruleset.Severity{ruleset.Error, ruleset.Error, ruleset.Info, ruleset.Info}, 3, "4 findings (2 errors, 2 info) in 3 files"},
	} {
		var fs []report.Issue
		for _, s := range tc.sev {
			fs = append(fs, report.Issue{Finding: finding(s), Level: s, Message: "m"})
		}
		var b bytes.Buffer
		if err := report.WriteText(&b, fs, tc.files, report.TextStyle{Lang: "en"}); err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
		if got := lines[len(lines)-1]; got != tc.want {
			t.Errorf("summary %q, want %q", got, tc.want)
		}
		if len(tc.sev) > 0 && lines[0] != "f.cpp:1:2: "+tc.sev[0].String()+": m [ASC9999]" {
			t.Errorf("finding line %q", lines[0])
		}
	}
}

// TestReadmeRules checks that the README's rules table lists every rule.
func TestReadmeRules(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range ruleset.All() {
		row := "| " + strings.Join([]string{r.ID, r.Name, r.Severity.String(), r.Title}, " | ") + " |"
		if !strings.Contains(string(readme), row) {
			t.Errorf("README.md has no row %q", row)
		}
	}
}

func TestIR(t *testing.T) {
	var out, errb bytes.Buffer
	code := run([]string{"ir", "../../testdata/kernels/clean.asc"}, &out, &errb)
	if code != exitOK {
		t.Fatalf("ir: exit %d, stderr %s", code, errb.String())
	}
	for _, want := range []string{"file ../../testdata/kernels/clean.asc", "simd_vf", "LoadAlign", "StoreAlign", "loop L0 for"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("ir output lacks %q:\n%s", want, out.String())
		}
	}
	if code := run([]string{"ir"}, &out, &errb); code != exitUsage {
		t.Errorf("ir without files: exit %d, want %d", code, exitUsage)
	}
	if code := run([]string{"ir", "does/not/exist.asc"}, &out, &errb); code != exitUsage {
		t.Errorf("ir on a missing file: exit %d, want %d", code, exitUsage)
	}
}

// TestConfidence: a stream whose stride does not fold is reported only at
// -confidence=low, and a bad value is a usage error.
func TestConfidence(t *testing.T) {
	k := filepath.Join(t.TempDir(), "rows.asc")
	src := `__simd_vf__ inline void Rows(__ubuf__ float* dst, __ubuf__ float* src, uint16_t rows, uint32_t rowStride)
{
    Reg::RegTensor<float> v;
    Reg::UnalignRegForLoad u;
    for (uint16_t i = 0; i < rows; ++i) {
        Reg::LoadUnAlignPre(u, src + i * rowStride);
        Reg::LoadUnAlign(v, u, src + i * rowStride);
        Reg::StoreAlign(dst + i * 64, v, Reg::CreateMask<float>());
    }
}
`
	if err := os.WriteFile(k, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, out, _ := ascvet(t, k); code != exitOK || strings.Contains(out, "ASC1001") {
		t.Errorf("default confidence: exit %d\n%s", code, out)
	}
	code, out, _ := ascvet(t, "-confidence", "low", k)
	if code != exitFindings || !strings.Contains(out, "may re-initialise a contiguous stream each iteration (not proven") {
		t.Errorf("-confidence low: exit %d\n%s", code, out)
	}
	if code, _, _ := ascvet(t, "-confidence", "medium", k); code != exitUsage {
		t.Errorf("-confidence medium: exit %d, want %d", code, exitUsage)
	}
	// The flag does not stick to the next run.
	if code, out, _ := ascvet(t, k); code != exitOK || strings.Contains(out, "ASC1001") {
		t.Errorf("default after low: exit %d\n%s", code, out)
	}
}

func TestRegs(t *testing.T) {
	k := "../../testdata/kernels/register_pressure.asc"
	code, out, errs := ascvet(t, "regs", k)
	if code != exitOK || errs != "" {
		t.Fatalf("regs: exit %d, stderr %s", code, errs)
	}
	for _, want := range []string{"AccumulateRowsVF (simd_vf)", "RegTensor", "OVER", "live at the peak"} {
		if !strings.Contains(out, want) {
			t.Errorf("regs output lacks %q:\n%s", want, out)
		}
	}
	code, out, _ = ascvet(t, "regs", "-f", "json", k+":1")
	if code != exitOK || strings.TrimSpace(out) != "[]" {
		t.Errorf("line 1 holds no region: exit %d, %s", code, out)
	}
	code, out, _ = ascvet(t, "regs", "-f", "json", k)
	var regions []regsRegion
	if err := json.Unmarshal([]byte(out), &regions); err != nil || code != exitOK || len(regions) != 1 {
		t.Fatalf("json: exit %d, err %v, %s", code, err, out)
	}
	vreg := regions[0].Classes[0]
	if vreg.Class != "RegTensor" || !vreg.Over || vreg.Peak <= vreg.Budget || vreg.PeakLine == 0 || len(vreg.Live) == 0 {
		t.Errorf("RegTensor class: %+v", vreg)
	}
	if code, _, _ := ascvet(t, "regs"); code != exitUsage {
		t.Errorf("regs without a path: exit %d", code)
	}
}

// TestSim: the llvm-mca-style report of one loop (text golden, JSON), and
// the one-line-per-loop summary.
func TestSim(t *testing.T) {
	k := "../../testdata/kernels/unaligned_copy.asc"
	code, out, errs := ascvet(t, "sim", k+":16")
	if code != exitOK || errs != "" {
		t.Fatalf("sim: exit %d, stderr %s", code, errs)
	}
	golden.Check(t, "sim.text.golden", out)
	text := out
	code, out, _ = ascvet(t, "sim", "-f", "json", "-timeline", "1", k+":16")
	var r struct {
		Iterations int     `json:"iterations"`
		Cycles     int     `json:"cycles"`
		IPC        float64 `json:"ipc"`
		Timeline   []struct {
			Issue int `json:"issue"`
		} `json:"timeline"`
		Critical []struct{} `json:"critical_chain"`
		Bound    string     `json:"bound"`
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil || code != exitOK {
		t.Fatalf("json: exit %d, %v\n%s", code, err, out)
	}
	if r.Iterations != 16 || r.Cycles <= 0 || r.IPC <= 0 || len(r.Timeline) != 5 || len(r.Critical) == 0 || !strings.HasPrefix(r.Bound, "bound by ") {
		t.Errorf("json report: %+v", r)
	}
	if !strings.Contains(text, "Bottleneck:        "+strings.TrimPrefix(r.Bound, "bound by ")) {
		t.Errorf("the text report names no bottleneck, or not the JSON's %q", r.Bound)
	}
	code, out, _ = ascvet(t, "sim", "../../testdata/kernels")
	if code != exitOK || !strings.Contains(out, "unaligned_copy.asc:16") || !strings.Contains(out, "long_chain.asc:") {
		t.Errorf("summary: exit %d\n%s", code, out)
	}
	if code, _, _ := ascvet(t, "sim", k+":1"); code != exitUsage {
		t.Errorf("no loop on line 1: exit %d", code)
	}
	if code, _, _ := ascvet(t, "sim", "-chip", "nope", k+":16"); code != exitUsage {
		t.Errorf("unknown chip: exit %d", code)
	}
}

// TestSimLevels: a VF function's cycles are its loops' plus the VF start
// and drain; each loop's part equals the loop simulated alone, less the
// drain the next part overlaps; a trip count
// that does not fold takes -iterations (raising it too); every cap and
// #pragma unroll shows in the report.
func TestSimLevels(t *testing.T) {
	k := "testdata/sim_levels.asc"
	type part struct {
		Line, Iterations, Unroll, Cycles, Overlap int
		Kind                                      string
	}
	type report struct {
		Iterations int      `json:"iterations"`
		Cycles     int      `json:"cycles"`
		Parts      []part   `json:"parts"`
		Notes      []string `json:"notes"`
	}
	sim := func(args ...string) report {
		t.Helper()
		code, out, errs := ascvet(t, append([]string{"sim", "-f", "json"}, args...)...)
		var r report
		if err := json.Unmarshal([]byte(out), &r); err != nil || code != exitOK {
			t.Fatalf("sim %v: exit %d, %v, stderr %s\n%s", args, code, err, errs, out)
		}
		return r
	}
	m, err := simcheck.Chip("ascend950")
	if err != nil {
		t.Fatal(err)
	}
	fn := sim(k + ":9")
	sum := m.VFStart + m.VFDrain
	loops := 0
	for _, p := range fn.Parts {
		sum += p.Cycles
		if p.Kind != "loop" {
			continue
		}
		loops++
		// In the function, a loop's drain overlaps the next part: alone,
		// it is paid.
		lp := sim(k + ":" + strconv.Itoa(p.Line))
		if lp.Cycles != p.Cycles+p.Overlap || lp.Iterations != p.Iterations {
			t.Errorf("loop on line %d: %d cycles, %d iterations alone; %d (+%d overlapped), %d in the function", p.Line, lp.Cycles, lp.Iterations, p.Cycles, p.Overlap, p.Iterations)
		}
	}
	if loops != 3 || fn.Cycles != sum {
		t.Errorf("function: %d cycles over %d loops; start + parts + drain = %d\n%+v", fn.Cycles, loops, sum, fn.Parts)
	}
	want := map[int]part{12: {Iterations: 16, Unroll: 1}, 17: {Iterations: 4, Unroll: 1}, 25: {Iterations: 64, Unroll: 4}}
	for _, p := range fn.Parts {
		if w, ok := want[p.Line]; ok && (p.Iterations != w.Iterations || p.Unroll != w.Unroll) {
			t.Errorf("loop on line %d: %d iterations, unroll %d; want %d, %d", p.Line, p.Iterations, p.Unroll, w.Iterations, w.Unroll)
		}
	}
	notes := strings.Join(fn.Notes, "\n")
	if !strings.Contains(notes, "does not fold: simulated for 16 iterations") || !strings.Contains(notes, "the body was cut at 8192 instructions") {
		t.Errorf("notes:\n%s", notes)
	}
	more := sim("-iterations", "100", k+":9")
	for _, p := range more.Parts {
		if p.Line == 12 && p.Iterations != 100 {
			t.Errorf("-iterations 100: the loop with no folded trip count ran %d iterations", p.Iterations)
		}
	}
	if more.Cycles <= fn.Cycles {
		t.Errorf("-iterations 100 (%d cycles) should cost more than 16 (%d)", more.Cycles, fn.Cycles)
	}
	if lp := sim(k + ":25"); len(lp.Parts) != 1 || lp.Parts[0].Unroll != 4 {
		t.Errorf("the #pragma unroll 4 loop alone: %+v", lp.Parts)
	}
	code, out, _ := ascvet(t, "sim", k+":9")
	if code != exitOK || !strings.Contains(out, "Note: ") || !strings.Contains(out, "unroll 4") {
		t.Errorf("text report: exit %d\n%s", code, out)
	}
}
