package all

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"

	"github.com/ascvet/ascvet/analyzers/runner"
	"github.com/ascvet/ascvet/ruleset"
)

func TestValid(t *testing.T) {
	if err := analysis.Validate(Analyzers()); err != nil {
		t.Fatal(err)
	}
}

// TestEveryRule checks that Analyzers and the rule registry agree, that the
// list is in ID order, and that every rule has its fixtures (checkFixtures).
func TestEveryRule(t *testing.T) {
	var fromList, fromRegistry []string
	for _, a := range Analyzers() {
		r := ruleset.ForAnalyzer(a)
		if r == nil {
			t.Errorf("analyzer %s defines no rule", a.Name)
			continue
		}
		fromList = append(fromList, r.ID)
		if !a.RunDespiteErrors {
			t.Errorf("%s: RunDespiteErrors is false; go list reports C++ files in a Go package as errors", r.ID)
		}
		for _, req := range runner.Order(a.Requires) {
			if !req.RunDespiteErrors {
				t.Errorf("%s requires %s, whose RunDespiteErrors is false", r.ID, req.Name)
			}
		}
		dir := filepath.Join("..", strings.ToLower(r.ID), "testdata")
		entries, err := os.ReadDir(dir)
		if err != nil {
			t.Errorf("%s: %v", r.ID, err)
			continue
		}
		checkFixtures(t, r.ID, dir, entries)
	}
	for _, r := range ruleset.All() {
		fromRegistry = append(fromRegistry, r.ID)
	}
	if !slices.IsSorted(fromList) {
		t.Errorf("Analyzers() is not in rule ID order: %v", fromList)
	}
	if !slices.Equal(fromList, fromRegistry) {
		t.Errorf("Analyzers() has rules %v, the registry %v", fromList, fromRegistry)
	}
}

// pythonOnlyClean lists the rules whose construct the pypto_pro DSL cannot
// spell, with the reason: they have a Python good.py (the DSL's nearest
// code must stay silent) but no bad.py.
var pythonOnlyClean = map[string]string{
	"ASC2004": "the DSL cannot declare a RegTraitNumTwo register: vf.* calls declare their results implicitly " +
		"and pypto emits every register as RegTensor<T> (cce_codegen.cpp), so 64-bit data never takes the " +
		"two-register trait and the AddrReg and dual forms it forbids are fine",
}

// checkFixtures checks the fixtures of rule id in dir: a C++ good and bad
// fixture, a Python good.py, and a Python bad.py unless pythonOnlyClean
// exempts the rule (then there must be none).
func checkFixtures(t *testing.T, id, dir string, entries []os.DirEntry) {
	t.Helper()
	var cppGood, cppBad, pyGood, pyBad bool
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || !runner.IsSource(name) {
			continue
		}
		base, ext := strings.TrimSuffix(name, filepath.Ext(name)), strings.ToLower(filepath.Ext(name))
		py := ext == ".py"
		switch {
		case base == "good" && py:
			pyGood = true
		case base == "bad" && py:
			pyBad = true
		case base == "good":
			cppGood = true
		case base == "bad":
			cppBad = true
		}
	}
	if !cppGood || !cppBad {
		t.Errorf("%s: %s needs both a good and a bad C++ fixture", id, dir)
	}
	if !pyGood {
		t.Errorf("%s: %s needs a good.py (pypto_pro DSL code that must stay silent)", id, dir)
	}
	why, exempt := pythonOnlyClean[id]
	switch {
	case exempt && pyBad:
		t.Errorf("%s: %s has a bad.py, but pythonOnlyClean says the DSL cannot spell the rule's construct (%s)", id, dir, why)
	case !exempt && !pyBad:
		t.Errorf("%s: %s needs a bad.py, or an entry in pythonOnlyClean saying why the DSL cannot spell the construct", id, dir)
	}
}

// TestPythonOnlyClean checks that every rule pythonOnlyClean exempts exists.
func TestPythonOnlyClean(t *testing.T) {
	for id, why := range pythonOnlyClean {
		if _, ok := ruleset.Lookup(id); !ok {
			t.Errorf("pythonOnlyClean lists %s, which is no rule", id)
		}
		if len(why) < 40 {
			t.Errorf("pythonOnlyClean: the reason for %s is too short to say why: %q", id, why)
		}
	}
}
