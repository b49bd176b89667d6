package config

import (
	"errors"
	"path/filepath"
	"slices"
	"testing"

	"github.com/ascvet/ascvet/ruleset"
)

// TestListAsString checks that fail and checks take a single string, as the
// flags do: fail = "error" is fail = ["error"], and a comma-separated
// string is the list of its items. A string item is checked like an array's.
func TestListAsString(t *testing.T) {
	root := tempRoot(t)
	writeTree(t, root, map[string]string{
		"one/ascvet.toml":   "fail = \"error\"\n",
		"two/ascvet.toml":   "fail = \"error, ASC1001\"\nchecks = \"all,-ASC4002\"\n",
		"bad/ascvet.toml":   "\nfail = \"eror\"\n",
		"num/ascvet.toml":   "fail = 3\n",
		"empty/ascvet.toml": "fail = \"\"\n",
	})
	l, err := NewLoader(Options{})
	if err != nil {
		t.Fatal(err)
	}
	e, err := l.For(filepath.Join(root, "one", "k.cpp"))
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(e.Fail, []string{"error"}) || e.Fails("ASC1001", ruleset.Warning) || !e.Fails("ASC1001", ruleset.Error) {
		t.Errorf(`fail = "error": fail list %v`, e.Fail)
	}
	e, err = l.For(filepath.Join(root, "two", "k.cpp"))
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(e.Fail, []string{"error", "ASC1001"}) || !e.Fails("ASC1001", ruleset.Info) || e.Fails("ASC3001", ruleset.Warning) {
		t.Errorf(`fail = "error, ASC1001": fail list %v`, e.Fail)
	}
	if got := disabled(e); !slices.Equal(got, []string{"ASC4002"}) {
		t.Errorf(`checks = "all,-ASC4002": disabled %v`, got)
	}
	for dir, want := range map[string]string{
		"bad": "ascvet.toml:2: fail: unknown rule eror",
		"num": "ascvet.toml:1: fail: want a string or an array of strings, not an integer",
	} {
		_, err := l.For(filepath.Join(root, dir, "k.cpp"))
		var list ErrorList
		if !errors.As(err, &list) || len(list) != 1 {
			t.Fatalf("%s: error %v; want one", dir, err)
		}
		if got := list[0].Format(filepath.Base(list[0].File)); len(got) < len(want) || got[:len(want)] != want {
			t.Errorf("%s: %q, want it to start %q", dir, got, want)
		}
	}
	e, err = l.For(filepath.Join(root, "empty", "k.cpp"))
	if err != nil || e.Fail == nil || len(e.Fail) != 0 {
		t.Errorf(`fail = "": fail list %#v, %v; want an empty list (nothing fails), as fail = []`, e.Fail, err)
	}
}
