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
// list is in ID order, and that every rule has its fixtures.
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
		var good, bad bool
		for _, e := range entries {
			base := strings.TrimSuffix(e.Name(), filepath.Ext(e.Name()))
			good = good || base == "good" && runner.IsSource(e.Name())
			bad = bad || base == "bad" && runner.IsSource(e.Name())
		}
		if !good || !bad {
			t.Errorf("%s: %s needs both a good and a bad fixture", r.ID, dir)
		}
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
