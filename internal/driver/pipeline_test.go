package driver

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"golang.org/x/tools/go/analysis"

	"github.com/ascvet/ascvet/analyzers/cppir"
	"github.com/ascvet/ascvet/analyzers/stop"
	"github.com/ascvet/ascvet/ruleset/config"
	"github.com/ascvet/ascvet/simcheck"
)

// TestFileTimeoutAfterParse: -file-timeout bounds a file's whole analysis,
// not its parse alone: an analyzer after the parse that runs on (as the
// simulations and fix checks of a huge file do) is stopped when the limit
// passes, and the file is skipped with its message. Before, only the
// parse watched the clock, and a 31 MiB file ran past the 60 s default.
func TestFileTimeoutAfterParse(t *testing.T) {
	slow := &analysis.Analyzer{
		Name:     "slow",
		Doc:      "runs until its file's analysis is stopped (at most 20 s)",
		Requires: []*analysis.Analyzer{cppir.Analyzer, stop.Analyzer},
		Run: func(pass *analysis.Pass) (any, error) {
			for end := time.Now().Add(20 * time.Second); !stop.Set(pass) && time.Now().Before(end); {
				time.Sleep(time.Millisecond)
			}
			return nil, nil
		},
	}
	loader, err := config.NewLoader(config.Options{Chips: simcheck.Chips()})
	if err != nil {
		t.Fatal(err)
	}
	name := filepath.Join(t.TempDir(), "k.asc")
	src, err := os.ReadFile("../../testdata/kernels/unaligned_copy.asc")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, src, 0o644); err != nil {
		t.Fatal(err)
	}
	p := &Pipeline{Analyzers: []*analysis.Analyzer{slow}, Loader: loader, Lang: "en", Parallel: 1, Timeout: 50 * time.Millisecond}
	a := p.run(name, src)
	if want := name + ": analysing took longer than the limit of 50ms; skipped (raise -file-timeout to check it)"; a.Skip != want {
		t.Errorf("skip %q, want %q", a.Skip, want)
	}
	p.Timeout = 0
	fast := *slow
	fast.Run = func(*analysis.Pass) (any, error) { return nil, nil }
	p.Analyzers = []*analysis.Analyzer{&fast}
	if a := p.run(name, src); a.Skip != "" || a.Stopped {
		t.Errorf("no limit: skip %q, stopped %v", a.Skip, a.Stopped)
	}
}
