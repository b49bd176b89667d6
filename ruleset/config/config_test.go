package config

import (
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"

	"golang.org/x/tools/go/analysis"

	"github.com/ascvet/ascvet/ruleset"
)

// The rules the tests name: a few of ascvet's own, defined here because
// this package must not import the analyzers.
func init() {
	for _, r := range []struct {
		id, name string
		sev      ruleset.Severity
	}{
		{"ASC0001", "vf-parse-error", ruleset.Info},
		{"ASC1001", "unalign-pre-in-loop", ruleset.Warning},
		{"ASC1002", "unalign-post-in-loop", ruleset.Warning},
		{"ASC1003", "addrreg-unaligned", ruleset.Warning},
		{"ASC3001", "vreg-pressure", ruleset.Error},
		{"ASC3004", "mask-demorgan", ruleset.Info},
		{"ASC4002", "low-ilp-loop", ruleset.Info},
	} {
		ruleset.Define(&ruleset.Rule{ID: r.id, Name: r.name, Title: "a title", Text: "a text", Severity: r.sev, Since: "0.1.0"},
			&analysis.Analyzer{Run: func(*analysis.Pass) (any, error) { return nil, nil }})
	}
}

var allIDs = []string{"ASC0001", "ASC1001", "ASC1002", "ASC1003", "ASC3001", "ASC3004", "ASC4002"}

// writeTree writes files (slash paths relative to root, contents).
func writeTree(t *testing.T, root string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// tempRoot returns a temporary directory above which no ascvet.toml
// exists (else discovery would find it too, and the tests would lie).
func tempRoot(t *testing.T) string {
	t.Helper()
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for d := root; ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, FileName)); err == nil {
			t.Fatalf("%s exists above the test directory; discovery would find it", filepath.Join(d, FileName))
		}
		if filepath.Dir(d) == d {
			return root
		}
	}
}

// disabled lists the rules e does not run.
func disabled(e *Effective) []string {
	var out []string
	for _, id := range slices.Sorted(maps.Keys(e.Enabled)) {
		if !e.Enabled[id] {
			out = append(out, id)
		}
	}
	return out
}

const rootConfig = `# root
checks = ["all", "-ASC3004"]
fail = ["warning"]
chip = "ascend950"

[severity]
ASC4002 = "warning"

[budgets]
vreg = 28

[[overrides]]
paths = ["legacy/**"]
checks = ["-ASC1*"]
severity = { ASC1003 = "info" }
budgets = { vreg = 30 }
iterations = 8
`

var tree = map[string]string{
	"ascvet.toml":                rootConfig,
	"src/kern.cpp":               "",
	"child/ascvet.toml":          "checks = [\"inherit\", \"ASC3004\"]\nconfidence = \"low\"\n[budgets]\nmask = 6\n",
	"legacy/old.cpp":             "",
	"legacy/sub/ascvet.toml":     "checks = [\"inherit\", \"unalign-pre-in-loop\"]\n",
	"only/ascvet.toml":           "checks = [\"ASC1001\", \"low-ilp-loop\"]\n",
	"rm/ascvet.toml":             "checks = [\"-ASC1001\"]\nfail = [\"-ASC3001\"]\n",
	"models/ascvet.toml":         "machine = \"../m/x.toml\"\nlang = \"zh\"\n",
	"m/x.toml":                   "",
	"glob/ascvet.toml":           "[severity]\nASC1002 = \"error\"\n\"ASC1*\" = \"info\"\n\"*-loop\" = \"error\"\n",
	"ov/ascvet.toml":             "[[overrides]]\npaths = [\"a/*.h\"]\niterations = 3\n[[overrides]]\npaths = [\"**/*.h\"]\niterations = 5\nfail = [\"ASC0001\"]\n",
	"inheritfail/ascvet.toml":    "fail = [\"inherit\", \"ASC0001\"]\n",
	"inheritfail/in/ascvet.toml": "fail = [\"error\"]\n",
}

func TestDiscoveryAndMerge(t *testing.T) {
	root := tempRoot(t)
	writeTree(t, root, tree)
	l, err := NewLoader(Options{})
	if err != nil {
		t.Fatal(err)
	}
	type want struct {
		sources   []string // relative to root
		disabled  []string
		severity  map[string]ruleset.Severity // only those that differ from the rule's default
		settings  Settings
		fail      []string
		overrides []string // relative "FILE:LINE"
	}
	defaults := map[string]ruleset.Severity{"ASC4002": ruleset.Warning}
	for _, tc := range []struct {
		file string
		want want
	}{
		{"src/kern.cpp", want{
			sources: []string{"ascvet.toml"}, disabled: []string{"ASC3004"}, severity: defaults,
			settings: Settings{Chip: "ascend950", Budgets: map[string]int{"vreg": 28}}, fail: []string{"warning"},
		}},
		{"kern.cpp", want{
			sources: []string{"ascvet.toml"}, disabled: []string{"ASC3004"}, severity: defaults,
			settings: Settings{Chip: "ascend950", Budgets: map[string]int{"vreg": 28}}, fail: []string{"warning"},
		}},
		{"child/k.cpp", want{ // inherit re-enables ASC3004; settings merge key by key
			sources: []string{"ascvet.toml", "child/ascvet.toml"}, severity: defaults,
			settings: Settings{Chip: "ascend950", Confidence: "low", Budgets: map[string]int{"vreg": 28, "mask": 6}}, fail: []string{"warning"},
		}},
		{"legacy/old.cpp", want{ // the override applies on top of the file's list
			sources: []string{"ascvet.toml"}, disabled: []string{"ASC1001", "ASC1002", "ASC1003", "ASC3004"},
			severity: map[string]ruleset.Severity{"ASC4002": ruleset.Warning, "ASC1003": ruleset.Info},
			settings: Settings{Chip: "ascend950", Iterations: 8, Budgets: map[string]int{"vreg": 30}}, fail: []string{"warning"},
			overrides: []string{"ascvet.toml:12"},
		}},
		{"legacy/sub/deep/x.h", want{ // a deeper file wins over a shallower file's override
			sources: []string{"ascvet.toml", "legacy/sub/ascvet.toml"}, disabled: []string{"ASC1002", "ASC1003", "ASC3004"},
			severity: map[string]ruleset.Severity{"ASC4002": ruleset.Warning, "ASC1003": ruleset.Info},
			settings: Settings{Chip: "ascend950", Iterations: 8, Budgets: map[string]int{"vreg": 30}}, fail: []string{"warning"},
			overrides: []string{"ascvet.toml:12"},
		}},
		{"only/k.cpp", want{ // a list that does not begin with inherit or a removal replaces
			sources: []string{"ascvet.toml", "only/ascvet.toml"}, disabled: []string{"ASC0001", "ASC1002", "ASC1003", "ASC3001", "ASC3004"},
			severity: defaults, settings: Settings{Chip: "ascend950", Budgets: map[string]int{"vreg": 28}}, fail: []string{"warning"},
		}},
		{"rm/k.cpp", want{ // a leading removal inherits
			sources: []string{"ascvet.toml", "rm/ascvet.toml"}, disabled: []string{"ASC1001", "ASC3004"},
			severity: defaults, settings: Settings{Chip: "ascend950", Budgets: map[string]int{"vreg": 28}}, fail: []string{"warning", "-ASC3001"},
		}},
		{"models/k.cpp", want{ // machine is relative to its file
			sources: []string{"ascvet.toml", "models/ascvet.toml"}, disabled: []string{"ASC3004"}, severity: defaults,
			settings: Settings{Chip: "ascend950", Machine: filepath.Join(root, "m", "x.toml"), Lang: "zh", Budgets: map[string]int{"vreg": 28}},
			fail:     []string{"warning"},
		}},
		{"glob/k.cpp", want{ // exact IDs win over globs whatever the order; globs match names too
			sources: []string{"ascvet.toml", "glob/ascvet.toml"}, disabled: []string{"ASC3004"},
			severity: map[string]ruleset.Severity{"ASC1001": ruleset.Error, "ASC1002": ruleset.Error, "ASC1003": ruleset.Info, "ASC4002": ruleset.Error},
			settings: Settings{Chip: "ascend950", Budgets: map[string]int{"vreg": 28}}, fail: []string{"warning"},
		}},
		{"ov/a/k.h", want{ // later overrides win
			sources: []string{"ascvet.toml", "ov/ascvet.toml"}, disabled: []string{"ASC3004"}, severity: defaults,
			settings: Settings{Chip: "ascend950", Iterations: 5, Budgets: map[string]int{"vreg": 28}}, fail: []string{"warning", "ASC0001"},
			overrides: []string{"ov/ascvet.toml:1", "ov/ascvet.toml:4"},
		}},
		{"ov/a/k.cpp", want{
			sources: []string{"ascvet.toml", "ov/ascvet.toml"}, disabled: []string{"ASC3004"}, severity: defaults,
			settings: Settings{Chip: "ascend950", Budgets: map[string]int{"vreg": 28}}, fail: []string{"warning"},
		}},
		{"inheritfail/in/k.cpp", want{
			sources: []string{"ascvet.toml", "inheritfail/ascvet.toml", "inheritfail/in/ascvet.toml"}, disabled: []string{"ASC3004"}, severity: defaults,
			settings: Settings{Chip: "ascend950", Budgets: map[string]int{"vreg": 28}}, fail: []string{"error"},
		}},
		{"inheritfail/k.cpp", want{
			sources: []string{"ascvet.toml", "inheritfail/ascvet.toml"}, disabled: []string{"ASC3004"}, severity: defaults,
			settings: Settings{Chip: "ascend950", Budgets: map[string]int{"vreg": 28}}, fail: []string{"warning", "ASC0001"},
		}},
	} {
		t.Run(tc.file, func(t *testing.T) {
			e, err := l.For(filepath.Join(root, filepath.FromSlash(tc.file)))
			if err != nil {
				t.Fatal(err)
			}
			var sources []string
			for _, s := range e.Sources {
				sources = append(sources, rel(t, root, s))
			}
			var overrides []string
			for _, o := range e.Overrides {
				overrides = append(overrides, rel(t, root, o))
			}
			sev := map[string]ruleset.Severity{}
			for id, s := range e.Severity {
				if r, _ := ruleset.Lookup(id); r.Severity != s {
					sev[id] = s
				}
			}
			got := want{sources, disabled(e), sev, e.Settings, e.Fail, overrides}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got  %+v\nwant %+v", got, tc.want)
			}
			if len(e.Enabled) != len(allIDs) || len(e.Severity) != len(allIDs) {
				t.Errorf("Enabled has %d rules, Severity %d; want every rule (%d)", len(e.Enabled), len(e.Severity), len(allIDs))
			}
		})
	}
}

// rel makes a path (or "PATH:LINE") under root relative and slashed.
func rel(t *testing.T, root, p string) string {
	t.Helper()
	r, err := filepath.Rel(root, p)
	if err != nil || strings.HasPrefix(r, "..") {
		t.Fatalf("%s is not under %s", p, root)
	}
	return filepath.ToSlash(r)
}

func TestOrigins(t *testing.T) {
	root := tempRoot(t)
	writeTree(t, root, tree)
	l, _ := NewLoader(Options{})
	e, err := l.For(filepath.Join(root, "legacy", "sub", "x.cpp"))
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for k, v := range e.Origins {
		got[k] = rel(t, root, v)
	}
	want := map[string]string{
		"checks.ASC0001":   "ascvet.toml:2", // "all"
		"checks.ASC3001":   "ascvet.toml:2",
		"checks.ASC4002":   "ascvet.toml:2",
		"checks.ASC3004":   "ascvet.toml:2", // "-ASC3004"
		"checks.ASC1001":   "legacy/sub/ascvet.toml:1",
		"checks.ASC1002":   "ascvet.toml:14", // the override's "-ASC1*"
		"checks.ASC1003":   "ascvet.toml:14",
		"severity.ASC4002": "ascvet.toml:7",
		"severity.ASC1003": "ascvet.toml:15",
		"fail":             "ascvet.toml:3",
		"chip":             "ascvet.toml:4",
		"budgets.vreg":     "ascvet.toml:16",
		"iterations":       "ascvet.toml:17",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("origins:\ngot  %v\nwant %v", got, want)
	}
}

func TestForDir(t *testing.T) {
	root := tempRoot(t)
	writeTree(t, root, tree)
	l, _ := NewLoader(Options{})
	for dir, wantOverrides := range map[string]int{"legacy": 1, "legacy/x": 1, "ov/a": 0, ".": 0, "src": 0} {
		e, err := l.ForDir(filepath.Join(root, dir))
		if err != nil {
			t.Fatal(err)
		}
		if len(e.Overrides) != wantOverrides {
			t.Errorf("ForDir(%s): overrides %v; want %d", dir, e.Overrides, wantOverrides)
		}
		if err := os.MkdirAll(filepath.Join(root, dir), 0o755); err != nil {
			t.Fatal(err)
		}
		if f, err := l.For(filepath.Join(root, dir)); err != nil || !reflect.DeepEqual(f, e) {
			t.Errorf("For(%s), a directory, differs from ForDir: %+v, %v", dir, f, err)
		}
	}
}

func TestConfigFileAndNoConfig(t *testing.T) {
	root := tempRoot(t)
	writeTree(t, root, tree)
	writeTree(t, root, map[string]string{"other/my.toml": "checks = [\"-ASC4002\"]\n[[overrides]]\npaths = [\"gen\"]\nchecks = [\"-all\"]\n"})

	l, err := NewLoader(Options{File: filepath.Join(root, "other", "my.toml")})
	if err != nil {
		t.Fatal(err)
	}
	e, err := l.For(filepath.Join(root, "child", "k.cpp")) // child/ascvet.toml is not read
	if err != nil {
		t.Fatal(err)
	}
	if got := disabled(e); !slices.Equal(got, []string{"ASC4002"}) || len(e.Sources) != 1 {
		t.Errorf("-config: disabled %v, sources %v", got, e.Sources)
	}
	e, _ = l.For(filepath.Join(root, "other", "gen", "k.cpp"))
	if got := disabled(e); len(got) != len(allIDs) {
		t.Errorf("-config: override relative to the file's directory: disabled %v", got)
	}

	l, err = NewLoader(Options{NoConfig: true})
	if err != nil {
		t.Fatal(err)
	}
	e, err = l.For(filepath.Join(root, "legacy", "x.cpp"))
	if err != nil || len(disabled(e)) != 0 || e.Sources != nil || e.Fail != nil || len(e.Origins) != 0 {
		t.Errorf("-no-config: %+v, %v", e, err)
	}
	if !e.Fails("ASC1001", ruleset.Warning) || e.Fails("ASC1001", ruleset.Info) {
		t.Error("-no-config: Fails does not follow DefaultFail")
	}

	if _, err := NewLoader(Options{File: filepath.Join(root, "nope.toml")}); err == nil {
		t.Error("-config of a missing file succeeded")
	}
	if _, err := NewLoader(Options{File: "x", NoConfig: true}); err == nil {
		t.Error("-config with -no-config succeeded")
	}
}

func TestErrors(t *testing.T) {
	for _, tc := range []struct {
		name  string
		files map[string]string
		opts  Options
		want  []string // FILE:LINE: ... with FILE relative to the root
	}{
		{"syntax", map[string]string{"ascvet.toml": "checks = [\"all\"]\nchip = \n"},
			Options{}, []string{"ascvet.toml:2: syntax error: expected value but found '\\n' instead"}},
		{"unknown rule in a multi-line list", map[string]string{"ascvet.toml": "checks = [\n  \"all\",\n  \"-ASC1011\",\n]\n"},
			Options{}, []string{"ascvet.toml:3: checks: unknown rule ASC1011 (did you mean ASC1001?)"}},
		{"glob matching nothing", map[string]string{"ascvet.toml": "checks = [\"all\", \"-ASC9*\"]\n"},
			Options{}, []string{"ascvet.toml:1: checks: ASC9* matches no rule"}},
		{"bad glob", map[string]string{"ascvet.toml": "checks = [\"ASC[1\"]\n"},
			Options{}, []string{"ascvet.toml:1: checks: bad glob ASC[1: syntax error in pattern"}},
		{"-inherit", map[string]string{"ascvet.toml": "checks = [\"-inherit\"]\n"},
			Options{}, []string{"ascvet.toml:1: checks: -inherit means nothing; write inherit and remove rules after it"}},
		{"element type", map[string]string{"ascvet.toml": "checks = [\"all\",\n 3]\n"},
			Options{}, []string{"ascvet.toml:2: checks: want strings, not an integer"}},
		{"severity of an unknown rule", map[string]string{"ascvet.toml": "[severity]\nunalign-pre-in-lop = \"info\"\n"},
			Options{}, []string{"ascvet.toml:2: severity.unalign-pre-in-lop: unknown rule unalign-pre-in-lop (did you mean unalign-pre-in-loop?)"}},
		{"fail severity case", map[string]string{"ascvet.toml": "fail = [\"Warning\"]\n"},
			Options{}, []string{"ascvet.toml:1: fail: severity Warning: write it in lowercase, warning"}},
		{"fail severity in the plural", map[string]string{"ascvet.toml": "fail = [\"errors\"]\n"},
			Options{}, []string{"ascvet.toml:1: fail: unknown rule errors; did you mean the severity error?"}},
		{"checks take no severity", map[string]string{"ascvet.toml": "checks = [\"errors\"]\n"},
			Options{}, []string{"ascvet.toml:1: checks: unknown rule errors"}},
		{"unknown chip", map[string]string{"ascvet.toml": "chip = \"ascend910\"\n"},
			Options{Chips: []string{"ascend950"}}, []string{"ascvet.toml:1: chip: unknown chip \"ascend910\" (want ascend950) (did you mean ascend950?)"}},
		{"missing machine", map[string]string{"ascvet.toml": "\nmachine = \"m.toml\"\n"},
			Options{}, []string{"ascvet.toml:2: machine: machine model m.toml: no such file or directory"}},
		{"unknown key in a quoted table", map[string]string{"ascvet.toml": "[severity]\nASC1001 = \"info\"\n[\"budgets\"]\n\"v reg\" = 3\n"},
			Options{}, []string{"ascvet.toml:4: unknown key budgets.\"v reg\" (did you mean vreg?)"}},
		{"defines", map[string]string{"ascvet.toml": "defines = [\"1X\", \"A=1;2\", 3]\n[[overrides]]\npaths = [\"x\"]\ndefines = [\"B\"]\n"},
			Options{}, []string{
				"ascvet.toml:1: defines: item 1: \"1X\": want NAME or NAME=VALUE, NAME a C identifier",
				"ascvet.toml:1: defines: item 2: A: a value holds no ';' and no line break",
				"ascvet.toml:1: defines: item 3: want a string \"NAME\" or \"NAME=VALUE\", not an integer",
				"ascvet.toml:4: overrides.defines: build macros apply to a whole run (one set per run, from the configuration of the first path checked): set defines at the top level",
			}},
		{"too many defines", map[string]string{"ascvet.toml": "defines = [" + strings.Repeat("\"A\", ", 1025) + "]\n"},
			Options{}, []string{"ascvet.toml:1: defines: 1025 build macros: at most 1024"}},
		{"every error, root first", map[string]string{
			"ascvet.toml":     "iterations = 0\nlang = \"de\"\n",
			"a/ascvet.toml":   "[budgets]\naddr = 0\n",
			"a/b/ascvet.toml": "[[overrides]]\npaths = [\"x\"]\n[[overrides]]\npaths = [\"y\"]\nbudget = {}\n"},
			Options{}, []string{
				"ascvet.toml:1: iterations: 0: want at least 1",
				"ascvet.toml:2: lang: \"de\": want en or zh",
				"a/ascvet.toml:2: budgets.addr: 0: want at least 1",
				"a/b/ascvet.toml:5: unknown key overrides.budget (did you mean budgets?)",
			}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := tempRoot(t)
			writeTree(t, root, tc.files)
			l, err := NewLoader(tc.opts)
			if err != nil {
				t.Fatal(err)
			}
			for range 2 { // the second time from the cache
				_, err = l.For(filepath.Join(root, "a", "b", "k.cpp"))
				var list ErrorList
				if !errors.As(err, &list) {
					t.Fatalf("error %v (%T); want an ErrorList", err, err)
				}
				var got []string
				for _, e := range list {
					got = append(got, e.Format(rel(t, root, e.File)))
				}
				if !slices.Equal(got, tc.want) {
					t.Errorf("errors:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
				}
			}
		})
	}
}

func TestConcurrentFor(t *testing.T) {
	root := tempRoot(t)
	writeTree(t, root, tree)
	var files []string
	for name := range tree {
		for _, leaf := range []string{"a.cpp", "x/y/b.h"} {
			files = append(files, filepath.Join(root, filepath.Dir(filepath.FromSlash(name)), leaf))
		}
	}
	// The answers of a fresh loader per file are the reference.
	want := map[string]*Effective{}
	for _, f := range files {
		l, _ := NewLoader(Options{})
		e, err := l.For(f)
		if err != nil {
			t.Fatal(err)
		}
		want[f] = e
	}
	l, _ := NewLoader(Options{})
	var wg sync.WaitGroup
	errs := make(chan string, 64)
	for g := range 16 {
		wg.Go(func() {
			for i := range 20 * len(files) {
				f := files[(i+g)%len(files)]
				e, err := l.For(f)
				if err != nil || !reflect.DeepEqual(e, want[f]) {
					select {
					case errs <- fmt.Sprintf("%s: %v", f, err):
					default:
					}
					return
				}
				e.Enabled["ASC0001"] = !e.Enabled["ASC0001"] // callers own their result
			}
		})
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Errorf("concurrent For differs from a fresh loader: %s", e)
	}
	configs := 0
	for name := range tree {
		if strings.HasSuffix(name, FileName) {
			configs++
		}
	}
	if n := l.parsed.Load(); n != int64(configs) {
		t.Errorf("parsed %d configuration files; want each of the %d once", n, configs)
	}
}

func TestSelect(t *testing.T) {
	some := map[string]bool{"ASC0001": true, "ASC1001": true}
	for _, tc := range []struct {
		list []string
		base map[string]bool
		want []string // enabled
		err  string
	}{
		{SplitList("all, -ASC1*"), nil, []string{"ASC0001", "ASC3001", "ASC3004", "ASC4002"}, ""},
		{SplitList("*,-unalign-*,-asc3004"), nil, []string{"ASC0001", "ASC1003", "ASC3001", "ASC4002"}, ""},
		{[]string{"ASC1001"}, nil, []string{"ASC1001"}, ""},
		{[]string{"-ASC1001"}, some, []string{"ASC0001"}, ""},
		{[]string{"inherit", "mask-demorgan"}, some, []string{"ASC0001", "ASC1001", "ASC3004"}, ""},
		{[]string{"asc100?"}, some, []string{"ASC1001", "ASC1002", "ASC1003"}, ""},
		{[]string{"-all", "ASC3001"}, some, []string{"ASC3001"}, ""},
		{[]string{}, some, nil, ""},
		{[]string{"ASC7777"}, nil, nil, "ASC7777: unknown rule ASC7777"},
		{[]string{"all", "-"}, nil, nil, "-: empty rule selector"},
	} {
		got, err := Select(tc.list, tc.base)
		if tc.err != "" {
			if err == nil || err.Error() != tc.err {
				t.Errorf("Select(%q): error %v; want %q", tc.list, err, tc.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("Select(%q): %v", tc.list, err)
			continue
		}
		var enabled []string
		for _, id := range allIDs {
			if _, ok := got[id]; !ok {
				t.Errorf("Select(%q): no key %s", tc.list, id)
			}
			if got[id] {
				enabled = append(enabled, id)
			}
		}
		if !slices.Equal(enabled, tc.want) {
			t.Errorf("Select(%q) enables %v; want %v", tc.list, enabled, tc.want)
		}
	}
}

func TestFailPolicy(t *testing.T) {
	p, err := ParseFail([]string{"warning", "-low-ilp-loop", "ASC0001"})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		id   string
		sev  ruleset.Severity
		want bool
	}{
		{"ASC1001", ruleset.Warning, true},
		{"ASC1001", ruleset.Error, true},
		{"ASC1001", ruleset.Info, false},
		{"ASC4002", ruleset.Error, false},
		{"ASC0001", ruleset.Info, true},
	} {
		if got := p.Fails(tc.id, tc.sev); got != tc.want {
			t.Errorf("Fails(%s, %s) = %v; want %v", tc.id, tc.sev, got, tc.want)
		}
	}
	if p, _ := ParseFail([]string{"inherit", "-ASC1001"}); p.Fails("ASC1001", ruleset.Error) || !p.Fails("ASC1002", ruleset.Warning) {
		t.Error("inherit does not splice DefaultFail")
	}
	if p, _ := ParseFail([]string{"error", "none", "ASC0001"}); p.Fails("ASC3001", ruleset.Error) || !p.Fails("ASC0001", ruleset.Info) {
		t.Error("none does not clear the list")
	}
	if _, err := Select([]string{"none"}, AllRules()); err == nil {
		t.Error("none is accepted in a check list")
	}
	if _, err := ParseFail([]string{"fatal"}); err == nil {
		t.Error("ParseFail(fatal) succeeded")
	}
	// An entry that names no rule but misspells a severity or none says
	// which it most likely means.
	for entry, want := range map[string]string{"errors": "error", "warnings": "warning", "warn": "warning", "infos": "info", "err": "error", "nonee": "none", "ASC1001": "", "xyzzy": "", "-errors": "", "ASC100": ""} {
		_, err := ParseFail([]string{"ASC1001", entry})
		var typo *SeverityTypo
		if errors.As(err, &typo) != (want != "") || want != "" && (typo.Want != want || typo.Entry != entry) {
			t.Errorf("ParseFail(ASC1001, %s): %v; want a SeverityTypo for %q", entry, err, want)
		}
	}
}

func TestPathGlob(t *testing.T) {
	for _, tc := range []struct {
		pat, rel string
		want     bool
	}{
		{"legacy/**", "legacy/a.cpp", true},
		{"legacy/**", "legacy/x/y/a.cpp", true},
		{"legacy/**", "legacy", true},
		{"legacy/**", "legacyx/a.cpp", false},
		{"legacy", "legacy/x/a.cpp", true},
		{"./legacy/", "legacy/a.cpp", true},
		{"third_party/*.h", "third_party/a.h", true},
		{"third_party/*.h", "third_party/x/a.h", false},
		{"third_party/*.h", "third_party/a.cpp", false},
		{"**/gen_*.cpp", "gen_a.cpp", true},
		{"**/gen_*.cpp", "a/b/gen_a.cpp", true},
		{"a/**/b/*.cpp", "a/b/k.cpp", true},
		{"a/**/b/*.cpp", "a/x/y/b/k.cpp", true},
		{"a/**/b/*.cpp", "a/x/y/c/k.cpp", false},
		{"*.cpp", "sub/k.cpp", false},
		{"**", "", true},
		{".", "x/y.cpp", true},
	} {
		g, err := parsePathGlob(tc.pat)
		if err != nil {
			t.Errorf("parsePathGlob(%q): %v", tc.pat, err)
			continue
		}
		if got := g.match(tc.rel); got != tc.want {
			t.Errorf("%q matches %q = %v; want %v", tc.pat, tc.rel, got, tc.want)
		}
	}
	for _, bad := range []string{"", "/abs/**", "../x", "a/../../b", `a\b`, "a/[", "C:/x"} {
		if _, err := parsePathGlob(bad); err == nil {
			t.Errorf("parsePathGlob(%q) succeeded", bad)
		}
	}
}

func TestKeyLines(t *testing.T) {
	src := `# comment with "quotes" and [brackets]
a = 1
s = """multi
line = 3
"""
d = 1979-05-27 07:32:00Z
arr = [
  "x", # [not a table]
  'y',
  { k = "v" },
]
"quoted.key" = { inner = [1, 2], 'lit' = true }
dotted . key = "\"" # "
[tab . "sub"]
deep = 2
[[aot]]
x = 1
[[aot]]
x = 2
[[aot.sub]]
y = 3
[aot.t]
z = 4
`
	k := scanKeyLines(src)
	for _, tc := range []struct {
		path []string
		line int
	}{
		{[]string{"a"}, 2},
		{[]string{"s"}, 3},
		{[]string{"line"}, 0},
		{[]string{"d"}, 6},
		{[]string{"arr"}, 7},
		{[]string{"arr", "[0]"}, 8},
		{[]string{"arr", "[1]"}, 9},
		{[]string{"arr", "[2]", "k"}, 10},
		{[]string{"quoted.key", "inner", "[1]"}, 12},
		{[]string{"quoted.key", "lit"}, 12},
		{[]string{"dotted", "key"}, 13},
		{[]string{"tab", "sub", "deep"}, 15},
		{[]string{"aot", "[0]", "x"}, 17},
		{[]string{"aot", "[1]"}, 18},
		{[]string{"aot", "[1]", "x"}, 19},
		{[]string{"aot", "[1]", "sub", "[0]", "y"}, 21},
		{[]string{"aot", "[1]", "t", "z"}, 23},
		{[]string{"aot", "[1]", "nope"}, 18}, // falls back to the parent
	} {
		if got := k.lineOf(tc.path); got != tc.line {
			t.Errorf("line of %q = %d; want %d", tc.path, got, tc.line)
		}
	}
}

// TestRepoBoundary: discovery stops at the root of a git repository (a
// directory holding .git), so a stray ascvet.toml above the checkout is
// ignored, unless the repository's topmost ascvet.toml says root = false;
// root = true stops it at any depth; outside a repository the walk goes up
// as far as it can.
func TestRepoBoundary(t *testing.T) {
	root := tempRoot(t)
	stray := "checks = [\"-ASC1001\"]\n"
	writeTree(t, root, map[string]string{
		"ascvet.toml":                    stray, // the stray file, say in a home directory
		"repo/.git/HEAD":                 "ref: refs/heads/main\n",
		"repo/src/k.cpp":                 "",
		"wt/.git":                        "gitdir: /elsewhere\n", // a worktree: .git is a file
		"wt/k.cpp":                       "",
		"inherit/.git/HEAD":              "",
		"inherit/ascvet.toml":            "root = false\nchecks = [\"inherit\", \"-ASC1002\"]\n",
		"inherit/k.cpp":                  "",
		"deep/.git/HEAD":                 "",
		"deep/a/ascvet.toml":             "root = false\n", // the topmost in its repository
		"deep/a/k.cpp":                   "",
		"deep/b/k.cpp":                   "",
		"stop/.git/HEAD":                 "",
		"stop/ascvet.toml":               "root = false\nchecks = [\"inherit\", \"-ASC1002\"]\n",
		"stop/sub/ascvet.toml":           "root = true\nchecks = [\"inherit\", \"-ASC1003\"]\n",
		"stop/sub/k.cpp":                 "",
		"stop/other/k.cpp":               "",
		"nogit/k.cpp":                    "",
		"nogit/below/ascvet.toml":        "root = true\n",
		"nogit/below/k.cpp":              "",
		"repo2/.git/HEAD":                "",
		"repo2/ascvet.toml":              "checks = [\"inherit\", \"-ASC1003\"]\n", // root unset: the repository root still stops
		"repo2/k.cpp":                    "",
		"inherit/sub/.git":               "gitdir: x\n", // a submodule: its own boundary
		"inherit/sub/ascvet.toml":        "root = false\n",
		"inherit/sub/k.cpp":              "",
		"inherit/sub/nested/ascvet.toml": "root = false\n", // not the topmost: no effect
		"inherit/sub/nested/k.cpp":       "",
	})
	// The same answers with the listing of a walk of root as without (the
	// directories above root are not listed: asked of the file system).
	listed := listTree(t, root)
	for _, withListing := range []bool{false, true} {
		l, err := NewLoader(Options{})
		if err != nil {
			t.Fatal(err)
		}
		if withListing {
			l.UseListing(listed)
		}
		repoBoundaryCases(t, l, root)
	}
}

// listTree lists every directory under root as a walk does
// (source.Listing), and returns what it saw of ascvet.toml and .git.
func listTree(t *testing.T, root string) Listed {
	t.Helper()
	seen := map[string]map[string]bool{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return err
		}
		entries, err := os.ReadDir(p)
		if err != nil {
			return err
		}
		seen[p] = map[string]bool{}
		for _, e := range entries {
			seen[p][e.Name()] = true
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return func(dir, name string) (bool, bool) {
		if name != FileName && name != ".git" {
			return false, false
		}
		names, ok := seen[dir]
		return names[name], ok
	}
}

func repoBoundaryCases(t *testing.T, l *Loader, root string) {
	t.Helper()
	abs := func(p string) string { return filepath.Join(root, filepath.FromSlash(p)) }
	for _, tc := range []struct {
		file     string
		disabled []string
		boundary string
		sources  []string
	}{
		{"repo/src/k.cpp", nil, "repo", nil},
		{"wt/k.cpp", nil, "wt", nil},
		{"inherit/k.cpp", []string{"ASC1001", "ASC1002"}, "", []string{"ascvet.toml", "inherit/ascvet.toml"}},
		{"deep/a/k.cpp", []string{"ASC1001"}, "", []string{"ascvet.toml", "deep/a/ascvet.toml"}},
		{"deep/b/k.cpp", nil, "deep", nil},
		{"stop/sub/k.cpp", []string{"ASC1003"}, "stop/sub", []string{"stop/sub/ascvet.toml"}},
		{"stop/other/k.cpp", []string{"ASC1001", "ASC1002"}, "", []string{"ascvet.toml", "stop/ascvet.toml"}},
		{"nogit/k.cpp", []string{"ASC1001"}, "", []string{"ascvet.toml"}},
		{"nogit/below/k.cpp", nil, "nogit/below", []string{"nogit/below/ascvet.toml"}},
		{"repo2/k.cpp", []string{"ASC1003"}, "repo2", []string{"repo2/ascvet.toml"}},
		{"inherit/sub/k.cpp", []string{"ASC1001", "ASC1002"}, "", []string{"ascvet.toml", "inherit/ascvet.toml", "inherit/sub/ascvet.toml"}},
		{"inherit/sub/nested/k.cpp", []string{"ASC1001", "ASC1002"}, "", []string{"ascvet.toml", "inherit/ascvet.toml", "inherit/sub/ascvet.toml", "inherit/sub/nested/ascvet.toml"}},
	} {
		e, err := l.For(abs(tc.file))
		if err != nil {
			t.Errorf("%s: %v", tc.file, err)
			continue
		}
		var sources []string
		for _, s := range e.Sources {
			rel, _ := filepath.Rel(root, s)
			sources = append(sources, filepath.ToSlash(rel))
		}
		if got := disabled(e); !slices.Equal(got, tc.disabled) {
			t.Errorf("%s: disabled %v; want %v", tc.file, got, tc.disabled)
		}
		if !slices.Equal(sources, tc.sources) {
			t.Errorf("%s: sources %v; want %v", tc.file, sources, tc.sources)
		}
		wantBoundary, wantIgnored := "", []string(nil)
		if tc.boundary != "" {
			wantBoundary, wantIgnored = abs(tc.boundary), []string{abs("ascvet.toml")}
			if tc.boundary == "stop/sub" {
				wantIgnored = []string{abs("stop/ascvet.toml"), abs("ascvet.toml")}
			}
		}
		if e.Boundary != wantBoundary || !slices.Equal(e.Ignored, wantIgnored) {
			t.Errorf("%s: boundary %q, ignored %v; want %q, %v", tc.file, e.Boundary, e.Ignored, wantBoundary, wantIgnored)
		}
	}
}

// TestListingBelieved: with a walk's listing, the loader asks the file
// system nothing of a directory listed: a listing that says a directory
// holds no ascvet.toml (the file came after the walk) leaves the file
// unread, and one that says it holds .git makes it a repository root. A
// directory the walk did not list is asked of the file system.
func TestListingBelieved(t *testing.T) {
	root := tempRoot(t)
	writeTree(t, root, map[string]string{
		"ascvet.toml":          "checks = [\"-ASC1001\"]\n",
		"a/ascvet.toml":        "checks = [\"inherit\", \"-ASC1002\"]\n",
		"a/b/k.cpp":            "",
		"unlisted/k.cpp":       "",
		"unlisted/ascvet.toml": "checks = [\"inherit\", \"-ASC1003\"]\n",
	})
	a, b := filepath.Join(root, "a"), filepath.Join(root, "a", "b")
	l, err := NewLoader(Options{})
	if err != nil {
		t.Fatal(err)
	}
	l.UseListing(func(dir, name string) (bool, bool) {
		switch dir {
		case a: // listed without its ascvet.toml
			return false, true
		case b: // listed with a .git
			return name == ".git", true
		}
		return false, false
	})
	e, err := l.For(filepath.Join(b, "k.cpp"))
	if err != nil {
		t.Fatal(err)
	}
	if len(e.Sources) != 0 || e.Boundary != b || disabled(e) != nil {
		t.Errorf("a/b/k.cpp: sources %v, boundary %q, disabled %v; want none, a/b (the listing's .git), none", e.Sources, e.Boundary, disabled(e))
	}
	e, err = l.For(filepath.Join(root, "unlisted", "k.cpp"))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := disabled(e), []string{"ASC1001", "ASC1003"}; !slices.Equal(got, want) || len(e.Sources) != 2 {
		t.Errorf("unlisted/k.cpp: disabled %v, sources %v; want %v from both files, read from the file system", got, e.Sources, want)
	}
}

// TestDefines: build macros merge from the root down, a nested file's
// value for a name replacing its parent's, in the order first set; NAME
// alone is NAME=1; each name's origin is kept.
func TestDefines(t *testing.T) {
	root := tempRoot(t)
	writeTree(t, root, map[string]string{
		"ascvet.toml":   "defines = [\"__NPU_ARCH__=2201\", \"TILING_KEY=3\"]\n",
		"a/ascvet.toml": "\ndefines = [\"__NPU_ARCH__=3510\", \"ASCENDC_CPU_DEBUG\"]\n",
		"a/b/k.asc":     "",
		"c/ascvet.toml": "defines = []\n",
	})
	l, _ := NewLoader(Options{})
	for path, want := range map[string]string{
		"a/b/k.asc": "__NPU_ARCH__=3510 TILING_KEY=3 ASCENDC_CPU_DEBUG=1",
		"c":         "__NPU_ARCH__=2201 TILING_KEY=3",
		".":         "__NPU_ARCH__=2201 TILING_KEY=3",
	} {
		e, err := l.For(filepath.Join(root, path))
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Join(e.Settings.Defines, " "); got != want {
			t.Errorf("%s: defines %s, want %s", path, got, want)
		}
		if path == "a/b/k.asc" && e.Origins["defines.__NPU_ARCH__"] != filepath.Join(root, "a/ascvet.toml")+":2" {
			t.Errorf("origin of __NPU_ARCH__: %q", e.Origins["defines.__NPU_ARCH__"])
		}
	}
}

// TestSharedByChain: directories whose chains of configuration files and
// repository boundaries are the same share one effective configuration
// (a tree of thousands of folders without ascvet.toml merges it once);
// a different chain or boundary gets its own.
func TestSharedByChain(t *testing.T) {
	root := tempRoot(t)
	writeTree(t, root, map[string]string{
		"repo/.git/HEAD":         "",
		"repo/a/k.cpp":           "",
		"repo/a/b/k.cpp":         "",
		"repo/c/k.cpp":           "",
		"repo/d/ascvet.toml":     "checks = [\"-ASC1001\"]\n",
		"repo/d/k.cpp":           "",
		"repo/d/e/k.cpp":         "",
		"other/.git/HEAD":        "",
		"other/k.cpp":            "",
		"repo/f/ascvet.toml":     "checks = [\"-ASC1001\"]\n",
		"repo/f/k.cpp":           "",
		"repo/g/.git/HEAD":       "", // a nested repository: its own boundary
		"repo/g/k.cpp":           "",
		"repo/h/ascvet.toml":     "[[overrides]]\npaths = [\"x/**\"]\nchecks = [\"-ASC1002\"]\n",
		"repo/h/k.cpp":           "",
		"repo/h/x/k.cpp":         "",
		"repo/h/y/k.cpp":         "",
		"repo/a/b/c/d/e/f/k.cpp": "",
	})
	l, err := NewLoader(Options{})
	if err != nil {
		t.Fatal(err)
	}
	of := func(p string) *Effective {
		e, err := l.ForFile(filepath.FromSlash(p), root)
		if err != nil {
			t.Fatal(err)
		}
		return e
	}
	if a, b, c, deep := of("repo/a/k.cpp"), of("repo/a/b/k.cpp"), of("repo/c/k.cpp"), of("repo/a/b/c/d/e/f/k.cpp"); a != b || a != c || a != deep {
		t.Error("folders of one repository without configuration files do not share their configuration")
	}
	if d, e := of("repo/d/k.cpp"), of("repo/d/e/k.cpp"); d != e || d == of("repo/a/k.cpp") || !slices.Contains(d.Sources, filepath.Join(root, "repo/d/ascvet.toml")) {
		t.Errorf("repo/d and below: shared %v, sources %v", d == e, d.Sources)
	}
	if d, f := of("repo/d/k.cpp"), of("repo/f/k.cpp"); d == f || !slices.Contains(f.Sources, filepath.Join(root, "repo/f/ascvet.toml")) {
		t.Errorf("two folders with configuration files of the same text share one: sources %v", f.Sources)
	}
	for _, p := range []string{"other/k.cpp", "repo/g/k.cpp"} {
		if e := of(p); e == of("repo/a/k.cpp") || e.Boundary != filepath.Join(root, filepath.Dir(filepath.FromSlash(p))) {
			t.Errorf("%s: boundary %q, shared with repo/a: %v", p, e.Boundary, e == of("repo/a/k.cpp"))
		}
	}
	if x, y := of("repo/h/x/k.cpp"), of("repo/h/y/k.cpp"); x == y || len(x.Overrides) != 1 || len(y.Overrides) != 0 {
		t.Errorf("an override applies by path: x %v, y %v", x.Overrides, y.Overrides)
	}
	// Folders asked about at once, by a fresh loader, get one all the same.
	fresh, err := NewLoader(Options{})
	if err != nil {
		t.Fatal(err)
	}
	dirs := []string{"repo/a", "repo/a/b", "repo/c", "repo/a/b/c", "repo/a/b/c/d", "repo/a/b/c/d/e", "repo/a/b/c/d/e/f"}
	got := make([]*Effective, len(dirs))
	var wg sync.WaitGroup
	for i, d := range dirs {
		wg.Go(func() {
			got[i], _ = fresh.ForFile(filepath.Join(filepath.FromSlash(d), "k.cpp"), root)
		})
	}
	wg.Wait()
	for i := range got {
		if got[i] == nil || got[i] != got[0] {
			t.Fatalf("folders asked about at once: %s does not share %s's configuration", dirs[i], dirs[0])
		}
	}
}
