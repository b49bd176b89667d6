package cli

import (
	"bytes"
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/ascvet/ascvet/internal/golden"
	"github.com/ascvet/ascvet/internal/testfs"
	"github.com/ascvet/ascvet/regalloc"
	"github.com/ascvet/ascvet/ruleset/config"
)

// ascvetConfig runs "ascvet config ARGS..." in-process.
func ascvetConfig(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = run(append([]string{"config"}, args...), &out, &errb)
	return code, out.String(), errb.String()
}

// noConfigAbove fails the test if an ascvet.toml above testdata/config
// would join the configuration the goldens show.
func noConfigAbove(t *testing.T) {
	t.Helper()
	d, err := filepath.Abs(filepath.Join("testdata", "config"))
	if err != nil {
		t.Fatal(err)
	}
	for ; ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, config.FileName)); err == nil {
			t.Fatalf("%s exists; it would join every configuration below it", filepath.Join(d, config.FileName))
		}
		if filepath.Dir(d) == d {
			return
		}
	}
}

func TestConfigPrintGolden(t *testing.T) {
	noConfigAbove(t)
	for _, tc := range []struct {
		golden string
		args   []string
	}{
		{"config/legacy.text.golden", []string{"print", "testdata/config/proj/legacy/old.cpp"}},
		{"config/legacy.json.golden", []string{"print", "-f", "json", "testdata/config/proj/legacy/old.cpp"}},
		{"config/src.text.golden", []string{"print", "testdata/config/proj/src/kern.cpp"}},
		{"config/dir.text.golden", []string{"print", "testdata/config/proj/legacy"}},
		{"config/explicit.text.golden", []string{"print", "-config", "testdata/config/proj/legacy/ascvet.toml", "testdata/config/proj/src/kern.cpp"}},
		{"config/noconfig.text.golden", []string{"print", "-no-config", "testdata/config/proj/legacy/old.cpp"}},
		{"config/noconfig.json.golden", []string{"print", "-no-config", "-f", "json", "testdata/config/proj/legacy/old.cpp"}},
	} {
		t.Run(tc.golden, func(t *testing.T) {
			code, out, errs := ascvetConfig(t, tc.args...)
			if code != exitOK || errs != "" {
				t.Fatalf("exit %d, stderr %q; want 0 and nothing", code, errs)
			}
			golden.Check(t, tc.golden, out)
		})
	}
}

// TestConfigPrintJSON checks the merged result through the JSON output, so
// that a golden accepted with -update cannot hide a wrong merge.
func TestConfigPrintJSON(t *testing.T) {
	noConfigAbove(t)
	code, out, errs := ascvetConfig(t, "print", "-f", "json", "testdata/config/proj/legacy/old.cpp")
	if code != exitOK {
		t.Fatalf("exit %d, stderr %s", code, errs)
	}
	var r configReport
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	src := filepath.Join("testdata", "config", "proj")
	if want := []string{filepath.Join(src, "ascvet.toml"), filepath.Join(src, "legacy", "ascvet.toml")}; !slices.Equal(r.Sources, want) {
		t.Errorf("sources %v; want %v", r.Sources, want)
	}
	if want := []string{filepath.Join(src, "ascvet.toml") + ":13"}; !slices.Equal(r.Overrides, want) {
		t.Errorf("overrides %v; want %v", r.Overrides, want)
	}
	var disabled []string
	sev := map[string]string{}
	for _, rule := range r.Rules {
		if !rule.Enabled {
			disabled = append(disabled, rule.ID)
		}
		sev[rule.ID] = rule.Severity.String()
	}
	// The root disables ASC3004, its override ASC1*; legacy/ascvet.toml,
	// deeper, re-enables ASC3004 and ASC1001.
	if want := []string{"ASC1002", "ASC1003", "ASC1004", "ASC1005", "ASC1006"}; !slices.Equal(disabled, want) {
		t.Errorf("disabled %v; want %v", disabled, want)
	}
	if sev["ASC4002"] != "warning" || sev["ASC1003"] != "info" {
		t.Errorf("severities ASC4002 %s, ASC1003 %s; want warning, info", sev["ASC4002"], sev["ASC1003"])
	}
	s := r.Settings
	wantBudgets := map[string]int{"vreg": 30, "mask": 6, "uload": regalloc.Ascend950[regalloc.ULoad], "ustore": regalloc.Ascend950[regalloc.UStore], "addr": regalloc.Ascend950[regalloc.Addr]}
	if s.Iterations != 8 || s.Confidence != "low" || s.Chip != "ascend950" || s.Lang != "en" ||
		s.Machine != filepath.Join(src, "models", "fast.toml") || !maps.Equal(s.Budgets, wantBudgets) {
		t.Errorf("settings %+v", s)
	}
	if want := []string{"warning", "-low-ilp-loop"}; !slices.Equal(r.Fail, want) {
		t.Errorf("fail %v; want %v", r.Fail, want)
	}
	if r.Origins["checks.ASC1001"] != filepath.Join(src, "legacy", "ascvet.toml")+":2" || r.Origins["iterations"] != filepath.Join(src, "ascvet.toml")+":18" {
		t.Errorf("origins %v", r.Origins)
	}
}

func TestConfigBudgetKeys(t *testing.T) {
	for _, k := range config.BudgetKeys {
		c, ok := budgetClass[k]
		if !ok {
			t.Errorf("budget key %s has no register class", k)
		}
		if c.Flag() != k {
			t.Errorf("budget key %s maps to %s (%s)", k, c, c.Flag())
		}
	}
	if len(budgetClass) != int(regalloc.NumClasses) {
		t.Errorf("%d budget keys for %d register classes", len(budgetClass), regalloc.NumClasses)
	}
}

func TestConfigErrors(t *testing.T) {
	bad := filepath.Join("testdata", "config", "bad", "ascvet.toml")
	for _, tc := range []struct {
		name   string
		args   []string
		code   int
		stderr string // regexp; of stdout for exit 0 (help, which stderr never gets)
	}{
		{"bad key", []string{"print", "testdata/config/bad"}, exitUsage,
			`^ascvet: ` + regexp.QuoteMeta(bad) + `:3: unknown key budgets\.vregs \(did you mean vreg\?\)\n$`},
		{"bad key, -config", []string{"print", "-config", bad, "testdata/config/proj"}, exitUsage,
			`^ascvet: ` + regexp.QuoteMeta(bad) + `:3: unknown key budgets\.vregs`},
		{"no subcommand", nil, exitUsage, `^ascvet config: name a subcommand: print\nrun 'ascvet config -h' for usage\n$`},
		{"unknown subcommand", []string{"show"}, exitUsage, `^ascvet config: unknown subcommand "show" \(want print\)\n`},
		{"help", []string{"-h"}, exitOK, `^usage: ascvet config print`},
		{"print help", []string{"print", "-h"}, exitOK, `^usage: ascvet config print(.|\n)*-no-config`},
		{"bad format", []string{"print", "-f", "xml"}, exitUsage, `^ascvet config print: -f xml: want text or json\nrun 'ascvet config print -h' for usage\n$`},
		{"bad flag", []string{"print", "-frob"}, exitUsage, `^ascvet config print: unknown flag -frob \(ascvet config print -h lists the flags\)\n$`},
		{"two paths", []string{"print", "a", "b"}, exitUsage, `want at most one path, got a b`},
		{"missing path", []string{"print", "testdata/config/nope.cpp"}, exitUsage, `^ascvet config print: stat testdata/config/nope\.cpp: no such file or directory\n`},
		{"missing -config", []string{"print", "-config", "testdata/config/nope.toml"}, exitUsage, `^ascvet: testdata/config/nope\.toml: no such file\n`},
		{"-config and -no-config", []string{"print", "-config", bad, "-no-config"}, exitUsage, `-config and -no-config exclude each other`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errs := ascvetConfig(t, tc.args...)
			if code != tc.code {
				t.Errorf("exit %d; want %d", code, tc.code)
			}
			if code == exitOK {
				if errs != "" || !regexp.MustCompile(tc.stderr).MatchString(out) {
					t.Errorf("stderr %q, stdout %q; want stdout to match %q", errs, out, tc.stderr)
				}
				return
			}
			if !regexp.MustCompile(tc.stderr).MatchString(errs) {
				t.Errorf("stderr %q; want it to match %q", errs, tc.stderr)
			}
			if code != exitOK && out != "" {
				t.Errorf("stdout %q on failure", out)
			}
		})
	}
}

// TestConfigPrintText checks the text output's shape beyond the golden: a
// disabled rule names the line that disabled it.
func TestConfigPrintText(t *testing.T) {
	noConfigAbove(t)
	_, out, _ := ascvetConfig(t, "print", "testdata/config/proj/src/kern.cpp")
	_, after, ok := strings.Cut(out, "disabled rules (1):")
	if !ok {
		t.Fatalf("no disabled rules section with one rule:\n%s", out)
	}
	if !regexp.MustCompile(`ASC3004 +mask-demorgan +\w+ +` + regexp.QuoteMeta(filepath.Join("testdata", "config", "proj", "ascvet.toml")) + `:2\n`).MatchString(after) {
		t.Errorf("ASC3004 does not name the line that disabled it:\n%s", after)
	}
}

// TestConfigBadMachine: a configuration whose machine file exists but does
// not load leaves the files under it unchecked, says which configuration
// and which machine file, and fails the run as a configuration error.
func TestConfigBadMachine(t *testing.T) {
	dir := t.TempDir()
	testfs.Put(t, dir, "k.asc", testfs.Read(t, "../../testdata/kernels/unaligned_copy.asc"))
	testfs.Put(t, dir, "bad.toml", "name = \"x\"\n")
	cfg := testfs.Put(t, dir, "ascvet.toml", "machine = \"bad.toml\"\n")
	code, out, errs := ascvet(t, "-cache", "off", filepath.Join(dir, "k.asc"))
	if code != exitUsage || !strings.Contains(errs, cfg+": "+filepath.Join(dir, "bad.toml")+": dispatch_width must be positive") ||
		!strings.Contains(errs, "files under it are not checked until it is fixed") || strings.Contains(out, "[ASC") {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out, errs)
	}
}
