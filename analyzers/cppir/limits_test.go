package cppir

import (
	"errors"
	"go/token"
	"testing"

	"golang.org/x/tools/go/analysis"

	"github.com/ascvet/ascvet/cppfront"
)

// TestLimitFlags: the front end's limits are the analyzer's flags, and a
// file beyond them fails the pass with an error wrapping a
// *cppfront.LimitError, which drivers tell from their own failures.
func TestLimitFlags(t *testing.T) {
	defer func() {
		for name, v := range map[string]string{"max-depth": "1000", "file-timeout": "0s"} {
			if err := Analyzer.Flags.Set(name, v); err != nil {
				t.Error(err)
			}
		}
	}()
	if got := Analyzer.Flags.Lookup("max-depth").DefValue; got != "1000" {
		t.Errorf("-max-depth defaults to %s, want cppfront.DefaultMaxDepth", got)
	}
	if err := Analyzer.Flags.Set("max-depth", "2"); err != nil {
		t.Fatal(err)
	}
	read := func(string) ([]byte, error) { return []byte(kernel), nil }
	_, err := Analyzer.Run(&analysis.Pass{Analyzer: Analyzer, Fset: token.NewFileSet(), OtherFiles: []string{"k.asc"}, ReadFile: read})
	var le *cppfront.LimitError
	if !errors.As(err, &le) || le.Limit != "depth" || err.Error() != "k.asc: "+le.Msg {
		t.Errorf("err %v, want one wrapping a depth *cppfront.LimitError", err)
	}
	if err := Analyzer.Flags.Set("max-depth", "1000"); err != nil {
		t.Fatal(err)
	}
	if err := Analyzer.Flags.Set("file-timeout", "1ns"); err != nil {
		t.Fatal(err)
	}
	if _, err := Analyzer.Run(&analysis.Pass{Analyzer: Analyzer, Fset: token.NewFileSet(), OtherFiles: []string{"k.asc"}, ReadFile: read}); !errors.As(err, &le) || le.Limit != "timeout" {
		t.Errorf("err %v, want a timeout *cppfront.LimitError", err)
	}
}
