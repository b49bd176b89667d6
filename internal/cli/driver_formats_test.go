package cli

import (
	"encoding/xml"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ascvet/ascvet/internal/report"
	"github.com/ascvet/ascvet/internal/report/reporttest"
)

// TestSARIFEndToEnd runs the driver over the example kernels, suppressed
// findings included, and checks the SARIF log against the official schema
// and against what the kernels hold: fixes, cycle costs, suppressions with
// their reason, related locations, and the exit code under -f sarif.
func TestSARIFEndToEnd(t *testing.T) {
	code, out, errs := ascvet(t, "-f", "sarif", "-show-ignored", "-sarif-category", "kernels", "../../testdata/kernels")
	if code != exitFindings || errs != "" {
		t.Errorf("exit %d, stderr %q; want 1 (SARIF fails the run like every format)", code, errs)
	}
	reporttest.ValidateSARIF(t, out)
	s := reporttest.ParseSARIF(t, out)
	reporttest.CheckSARIF(t, s, report.MaxDescription)
	run := s.Runs[0]
	var fixed, costed, suppressed, related int
	for _, r := range run.Results {
		if len(r.Fixes) > 0 {
			fixed++
		}
		if before, _ := r.Properties["cycles_before"].(float64); before > 0 {
			costed++
		}
		for _, sp := range r.Suppressions {
			if sp.Kind == "inSource" && strings.Contains(sp.Justification, "re-laid out by another core") {
				suppressed++
			}
		}
		if len(r.Related) > 0 {
			related++
		}
		if r.Partial["primaryLocationLineHash"] == "" {
			t.Errorf("%s: no primaryLocationLineHash", r.RuleID)
		}
	}
	if fixed == 0 || costed == 0 || suppressed != 1 || related == 0 {
		t.Errorf("results with fixes %d, costs %d, the directive's suppression %d, related locations %d; want some, some, 1, some", fixed, costed, suppressed, related)
	}
	if !strings.Contains(out, `"id": "kernels/"`) {
		t.Error("automationDetails.id is not the -sarif-category")
	}
}

// TestSeveralOutputs: -f/-o pairs write each format once, files atomically,
// and misuse is a usage error.
func TestSeveralOutputs(t *testing.T) {
	dir := t.TempDir()
	sarif, xmlOut := filepath.Join(dir, "out.sarif"), filepath.Join(dir, "out.xml")
	code, out, errs := ascvet(t, "-f", "sarif", "-o", sarif, "-f", "text", "-f", "checkstyle", "-o", xmlOut, "../../testdata/kernels/unaligned_copy.asc")
	if code != exitFindings || errs != "" || !strings.Contains(out, "[ASC1001]") || strings.Contains(out, "<?xml") {
		t.Errorf("exit %d, stderr %q, stdout %q; want 1 and the text findings only", code, errs, out)
	}
	data, err := os.ReadFile(sarif)
	if err != nil {
		t.Fatal(err)
	}
	reporttest.ValidateSARIF(t, string(data))
	data, err = os.ReadFile(xmlOut)
	if err != nil {
		t.Fatal(err)
	}
	var cs struct {
		Files []struct {
			Name   string `xml:"name,attr"`
			Errors []struct {
				Source string `xml:"source,attr"`
			} `xml:"error"`
		} `xml:"file"`
	}
	if err := xml.Unmarshal(data, &cs); err != nil || len(cs.Files) != 1 || len(cs.Files[0].Errors) != 2 {
		t.Errorf("checkstyle %+v, %v; want one file with two errors", cs, err)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 2 {
		t.Errorf("%d files in the output directory, want 2 (no temporary file left)", len(entries))
	}
	for _, args := range [][]string{
		{"-f", "json", "-f", "text", "x.asc"},
		{"-f", "json", "-o", sarif, "-f", "sarif", "-o", sarif, "x.asc"},
		{"-o", sarif, "-o", xmlOut, "x.asc"},
	} {
		if code, _, _ := ascvet(t, args...); code != exitUsage {
			t.Errorf("ascvet %s: exit %d, want %d", strings.Join(args, " "), code, exitUsage)
		}
	}
}

// TestFailAndExitZero: -fail chooses what fails, by severity or rule, the
// same in every format; -exit-zero never fails on findings.
func TestFailAndExitZero(t *testing.T) {
	k := "../../testdata/kernels/masks.asc" // a warning (ASC3002) and two infos (ASC3004, ASC3005)
	for _, tc := range []struct {
		args []string
		code int
	}{
		{nil, exitFindings},
		{[]string{"-fail", "error"}, exitOK},
		{[]string{"-fail", "none"}, exitOK},
		{[]string{"-fail", "ASC3004"}, exitFindings},
		{[]string{"-fail", "mask-demorgan"}, exitFindings},
		{[]string{"-fail", "ASC1*"}, exitOK},
		{[]string{"-checks", "all,-ASC3002"}, exitOK},
		// the infos left measure no saving: reported, not failing, unless asked
		{[]string{"-checks", "all,-ASC3002", "-fail", "info"}, exitOK},
		{[]string{"-checks", "all,-ASC3002", "-fail", "info", "-fail-no-saving"}, exitFindings},
		{[]string{"-exit-zero"}, exitOK},
		{[]string{"-exit-zero", "-fail", "info"}, exitOK},
		{[]string{"-f", "sarif", "-fail", "error"}, exitOK},
		{[]string{"-f", "sarif"}, exitFindings},
		{[]string{"-f", "github", "-fail", "ASC3005"}, exitFindings},
		{[]string{"-fail", "ASC9*"}, exitUsage},
		{[]string{"-checks", "nosuchrule"}, exitUsage},
	} {
		args := append(append([]string{}, tc.args...), k)
		if code, _, errs := ascvet(t, args...); code != tc.code {
			t.Errorf("ascvet %s: exit %d, want %d (stderr %q)", strings.Join(args, " "), code, tc.code, errs)
		}
	}
}

// TestLangZh: -lang zh, or a zh locale, gives Chinese messages; -lang en
// wins over the locale.
func TestLangZh(t *testing.T) {
	k := "../../testdata/kernels/unaligned_copy.asc"
	_, out, _ := ascvet(t, "-lang", "zh", k)
	if !strings.Contains(out, "[ASC1001]") || !hasCJK(out) {
		t.Errorf("-lang zh: %s", out)
	}
	t.Setenv("LANG", "zh_CN.UTF-8")
	if _, out, _ := ascvet(t, k); !hasCJK(out) {
		t.Errorf("LANG=zh_CN: %s", out)
	}
	if _, out, _ := ascvet(t, "-lang", "en", k); hasCJK(out) {
		t.Errorf("-lang en under LANG=zh_CN: %s", out)
	}
}

func hasCJK(s string) bool {
	for _, r := range s {
		if r >= 0x4e00 && r <= 0x9fff {
			return true
		}
	}
	return false
}

// TestBaselineEndToEnd: -write-baseline records today's findings; with
// -baseline they are suppressed even after the code moves, a new finding
// is reported, and entries whose finding is gone are listed as stale.
func TestBaselineEndToEnd(t *testing.T) {
	dir := t.TempDir()
	k := filepath.Join(dir, "copy.asc")
	src, err := os.ReadFile("../../testdata/kernels/unaligned_copy.asc")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(k, src, 0o644); err != nil {
		t.Fatal(err)
	}
	copyFile(t, "../../testdata/kernels/masks.asc", filepath.Join(dir, "masks.asc"))
	base := filepath.Join(dir, "baseline.json")
	if code, _, errs := ascvet(t, "-write-baseline", base, dir); code != exitOK || !strings.Contains(errs, "wrote 5 findings") {
		t.Fatalf("-write-baseline: exit %d, stderr %q", code, errs)
	}
	if code, out, errs := ascvet(t, "-baseline", base, dir); code != exitOK || errs != "" || !strings.HasPrefix(out, "no findings") {
		t.Errorf("-baseline right after: exit %d, stderr %q\n%s", code, errs, out)
	}
	// Move the code down five lines: still covered.
	moved := append([]byte("// a\n// b\n// c\n// d\n// e\n"), src...)
	if err := os.WriteFile(k, moved, 0o644); err != nil {
		t.Fatal(err)
	}
	if code, out, _ := ascvet(t, "-baseline", base, dir); code != exitOK || !strings.HasPrefix(out, "no findings") {
		t.Errorf("-baseline after moving code: exit %d\n%s", code, out)
	}
	// A new bad kernel is reported; suppressed ones show with -show-ignored.
	copyFile(t, "../../testdata/kernels/unaligned_bugs.asc", filepath.Join(dir, "bugs.asc"))
	code, out, _ := ascvet(t, "-baseline", base, "-show-ignored", dir)
	if code != exitFindings || !strings.Contains(out, "bugs.asc") || !strings.Contains(out, "ignored: ") || !strings.Contains(out, "in baseline") {
		t.Errorf("-baseline with a new kernel: exit %d\n%s", code, out)
	}
	// Removing the old kernel leaves its entries stale.
	if err := os.Remove(filepath.Join(dir, "masks.asc")); err != nil {
		t.Fatal(err)
	}
	_, _, errs := ascvet(t, "-baseline", base, dir)
	if !strings.Contains(errs, "3 entries no longer found") || !strings.Contains(errs, "ASC3002") {
		t.Errorf("stale entries: stderr %q", errs)
	}
	if code, _, errs := ascvet(t, "-baseline", filepath.Join(dir, "none.json"), dir); code != exitUsage || !strings.Contains(errs, "none.json") {
		t.Errorf("missing baseline: exit %d, stderr %q", code, errs)
	}
}

// TestFixLeavesSuppressed: -fix never applies the fix of a suppressed
// finding, nor of a rule the config or -checks turned off.
func TestFixLeavesSuppressed(t *testing.T) {
	dir := t.TempDir()
	k := filepath.Join(dir, "k.asc")
	copyFile(t, "../../testdata/kernels/directives_fixed.asc", k)
	before, _ := os.ReadFile(k)
	if code, _, errs := ascvet(t, "-fix", k); code != exitOK || errs != "" {
		t.Errorf("-fix on a suppressed finding: exit %d, stderr %q", code, errs)
	}
	if after, _ := os.ReadFile(k); string(after) != string(before) {
		t.Error("-fix changed a file whose only finding is suppressed")
	}
	c := filepath.Join(dir, "copy.asc")
	copyFile(t, "../../testdata/kernels/unaligned_copy.asc", c)
	before, _ = os.ReadFile(c)
	if code, _, _ := ascvet(t, "-fix", "-checks", "-ASC1001,-ASC1002", c); code != exitOK {
		t.Errorf("-fix with the rules off: exit %d", code)
	}
	if after, _ := os.ReadFile(c); string(after) != string(before) {
		t.Error("-fix applied the fix of a rule -checks turned off")
	}
	if code, _, errs := ascvet(t, "-fix", c); code != exitOK || !strings.Contains(errs, "fixed 2 findings") {
		t.Errorf("-fix: exit %d, stderr %q", code, errs)
	}
}

// TestBadConfigDriver: a bad ascvet.toml above a file is a usage error
// (exit 2) that names the file, line and key, said once for all the files
// under it, which are not checked.
func TestBadConfigDriver(t *testing.T) {
	dir := t.TempDir()
	copyFile(t, "../../testdata/kernels/masks.asc", filepath.Join(dir, "sub", "a.asc"))
	copyFile(t, "../../testdata/kernels/masks.asc", filepath.Join(dir, "sub", "b.asc"))
	if err := os.WriteFile(filepath.Join(dir, "sub", "ascvet.toml"), []byte("checks = [\"all\"]\nbudgetz = 3\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errs := ascvet(t, dir)
	if code != exitUsage || strings.Count(errs, "ascvet.toml:2: unknown key budgetz") != 1 || strings.Contains(out, "[ASC") {
		t.Errorf("exit %d, stderr %q, stdout %q; want 2, the key named once, nothing checked", code, errs, out)
	}
}

// TestPythonDriver: .py files holding @pl.vector_function are checked like
// C++ (other Python files are only scanned); # directives, the config and
// every format apply; -fix writes valid Python.
func TestPythonDriver(t *testing.T) {
	dir := t.TempDir()
	k := filepath.Join(dir, "dsl", "scale.py")
	copyFile(t, "../../testdata/kernels/scale_rows.py", k)
	if err := os.WriteFile(filepath.Join(dir, "host.py"), []byte("import torch\nprint('RegTensor')\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errs := ascvet(t, dir)
	if code != exitFindings || errs != "" || !strings.Contains(out, "scale.py:22:9: warning: vf.store_unalign_post on store_ureg") || !strings.Contains(out, "in 2 files") {
		t.Fatalf("exit %d, stderr %q\n%s", code, errs, out)
	}
	code, out, _ = ascvet(t, "-f", "sarif", dir)
	if code != exitFindings {
		t.Errorf("-f sarif: exit %d", code)
	}
	reporttest.ValidateSARIF(t, out)

	// A # directive with its reason suppresses the finding.
	src, _ := os.ReadFile(k)
	ignored := strings.Replace(string(src), "vf.store_unalign_post(dst_tile, store_ureg, 0, post_update=True)",
		"vf.store_unalign_post(dst_tile, store_ureg, 0, post_update=True)  # ascvet:ignore ASC1002 each row goes to another core", 1)
	if err := os.WriteFile(k, []byte(ignored), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, out, _ := ascvet(t, "-show-ignored", dir); !strings.Contains(out, "ignored: vf.store_unalign_post") || !strings.Contains(out, "each row goes to another core") {
		t.Errorf("# ascvet:ignore did not suppress:\n%s", out)
	}

	// The config applies by path.
	if err := os.WriteFile(k, src, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "ascvet.toml"), []byte("[[overrides]]\npaths = [\"dsl/**\"]\nchecks = [\"-ASC1*\"]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, out, _ := ascvet(t, dir); code != exitOK || strings.Contains(out, "ASC100") {
		t.Errorf("override for dsl/**: exit %d\n%s", code, out)
	}
	if err := os.Remove(filepath.Join(dir, "ascvet.toml")); err != nil {
		t.Fatal(err)
	}

	// -fix hoists the pre and sinks the post at the loop's indentation; the
	// result is clean.
	if code, _, errs := ascvet(t, "-fix", k); code != exitOK || !strings.Contains(errs, "fixed 2 findings") {
		t.Errorf("-fix: exit %d, stderr %q", code, errs)
	}
	fixed, _ := os.ReadFile(k)
	if !strings.Contains(string(fixed), "\n    vf.store_unalign_post(dst_tile, store_ureg, 0, post_update=True)\n") ||
		!strings.Contains(string(fixed), "\n    vf.load_unalign_pre(ureg, src_tile)\n    for i in pl.range(repeat):\n") {
		t.Errorf("fixed file:\n%s", fixed)
	}
}

// TestPythonDirectives: in Python, # directives without a reason or for an
// unknown rule are ASC0002, and one that suppresses nothing is ASC0003.
func TestPythonDirectives(t *testing.T) {
	dir := t.TempDir()
	k := filepath.Join(dir, "k.py")
	copyFile(t, "../../testdata/kernels/scale_rows_fixed.py", k)
	src, _ := os.ReadFile(k)
	s := strings.Replace(string(src), "reg = vf.muls(reg, scale, preg)", "reg = vf.muls(reg, scale, preg)  # ascvet:ignore ASC1001", 1)
	s = strings.Replace(s, "    vf.load_unalign_pre(ureg, src_tile)\n", "    vf.load_unalign_pre(ureg, src_tile)  # ascvet:ignore ASC1002 rows are padded\n", 1)
	s = strings.Replace(s, "import pypto_pro.language as pl\n", "import pypto_pro.language as pl  # ascvet:file-ignore ASC9999 no such rule\n", 1)
	if err := os.WriteFile(k, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
	_, out, _ := ascvet(t, "-fail", "info", k)
	for _, want := range []string{"ascvet:ignore ASC1001 has no reason", "ascvet:ignore ASC1002 suppressed no finding", "ASC9999"} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in:\n%s", want, out)
		}
	}
	if strings.Count(out, "[ASC0002]") != 2 || strings.Count(out, "[ASC0003]") != 1 {
		t.Errorf("want 2 ASC0002 and 1 ASC0003:\n%s", out)
	}
}

// TestDSLNames: messages about Python kernels name the vf.* calls and the
// DSL's keywords, in English and in Chinese.
func TestDSLNames(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"asc1003", "asc2003"} {
		copyFile(t, "../../analyzers/"+name+"/testdata/bad.py", filepath.Join(dir, name+".py"))
	}
	_, en, _ := ascvet(t, "-lang", "en", dir)
	_, zh, _ := ascvet(t, "-lang", "zh", dir)
	for _, want := range []string{
		"used as the offset of vf.load_unalign; pass the offset as a stride with post_update=True (dst = vf.load_unalign(u, src, stride, post_update=True))",
		"vf.store_unalign with a stride but without post_update=True is the POST_MODE_NORMAL form",
	} {
		if !strings.Contains(en, want) {
			t.Errorf("no %q in:\n%s", want, en)
		}
	}
	for _, want := range []string{"请把偏移量作为步长传入并设 post_update=True", "vf.store_unalign 带步长却未设 post_update=True"} {
		if !strings.Contains(zh, want) {
			t.Errorf("no %q in:\n%s", want, zh)
		}
	}
	for _, out := range []string{en, zh} {
		for _, cxx := range []string{"LoadUnAlign(", "StoreUnAlign(", "POST_MODE_UPDATE", "uint32_t"} {
			if strings.Contains(out, cxx) {
				t.Errorf("C++ spelling %q left in a Python message:\n%s", cxx, out)
			}
		}
	}
}

// TestConfigLang: the config's lang sets the output language unless -lang
// is given.
func TestConfigLang(t *testing.T) {
	dir := t.TempDir()
	copyFile(t, "../../testdata/kernels/unaligned_copy.asc", filepath.Join(dir, "k.asc"))
	cfg := filepath.Join(dir, "ascvet.toml")
	if err := os.WriteFile(cfg, []byte("lang = \"zh\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("LANG", "C")
	if _, out, _ := ascvet(t, "-config", cfg, dir); !hasCJK(out) {
		t.Errorf("config lang zh: %s", out)
	}
	if _, out, _ := ascvet(t, "-config", cfg, "-lang", "en", dir); hasCJK(out) {
		t.Errorf("-lang en over the config: %s", out)
	}
}
