package all_test

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/ascvet/ascvet/analyzers/all"
	"github.com/ascvet/ascvet/analyzers/runner"
)

// maxFuzzInput bounds the inputs FuzzAnalyzers runs: a fuzzed kernel is a
// few kilobytes; bigger ones only slow the search down.
const maxFuzzInput = 16 << 10

// fuzzDeadline is how long the analyzers may take on one fuzzed input: a
// few kilobytes analyse in milliseconds, so a run this long is a hang.
const fuzzDeadline = 20 * time.Second

// FuzzAnalyzers: every rule runs on any C++ text without failing (a panic
// in an analyzer is an error of the run) and reports findings with
// positions inside the file. The seeds are the rules' fixtures and the
// example kernels: mutations of real VF code reach the rules' deeper
// paths (masks, loops, helpers, fixes) that random text does not.
func FuzzAnalyzers(f *testing.F) {
	for _, pat := range []string{"../asc*/testdata/*.asc", "../asc*/testdata/*.cpp", "../../testdata/kernels/*.asc"} {
		paths, err := filepath.Glob(pat)
		if err != nil {
			f.Fatal(err)
		}
		for _, p := range paths {
			src, err := os.ReadFile(p)
			if err != nil {
				f.Fatal(err)
			}
			if len(src) <= maxFuzzInput {
				f.Add(src)
			}
		}
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		if len(src) > maxFuzzInput {
			return
		}
		type outcome struct {
			res *runner.Result
			err error
		}
		done := make(chan outcome, 1)
		go func() {
			res, err := runner.Run(all.Analyzers(), []runner.File{{Name: "fuzz.asc", Src: src}}, runner.Options{Jobs: 1})
			done <- outcome{res, err}
		}()
		var res *runner.Result
		select {
		case o := <-done:
			if o.err != nil {
				t.Fatal(o.err)
			}
			res = o.res
		case <-time.After(fuzzDeadline):
			t.Fatalf("the analyzers ran over %v on %d bytes", fuzzDeadline, len(src))
		}
		for _, e := range res.Errors {
			t.Errorf("analyzer failed: %v", e.Error())
		}
		for _, fd := range res.Findings {
			if fd.Pos.Filename != "fuzz.asc" || fd.Pos.Offset < 0 || fd.Pos.Offset > len(src) {
				t.Errorf("%s: finding at %v, outside the file of %d bytes: %s", fd.RuleID(), fd.Pos, len(src), fd.Diagnostic.Message)
			}
		}
	})
}
