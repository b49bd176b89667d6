// Package fuzzopt holds the TestMain of the front ends' fuzz tests: the
// fuzzer's defaults that suit targets which parse a file per run.
package fuzzopt

import (
	"flag"
	"os"
	"testing"
)

// MinimizeRuns is the default of -test.fuzzminimizetime that Main sets
// when the command line does not: at most this many runs to minimise an
// input. The fuzzer minimises every input that finds new coverage by
// trying the removal of every run of its bytes (n^2/2 runs); with the
// default of a minute, a worker that found a 1 KB input spent the minute
// on it (0 execs/s in the fuzzer's log). A short minimisation only leaves
// a longer input in the corpus; crashers are still written out, minimised
// as far as the budget went.
const MinimizeRuns = "2000x"

// Main sets the defaults and runs the tests.
func Main(m *testing.M) {
	flag.Parse()
	set := false
	flag.Visit(func(f *flag.Flag) { set = set || f.Name == "test.fuzzminimizetime" })
	if !set {
		if err := flag.Set("test.fuzzminimizetime", MinimizeRuns); err != nil {
			panic("internal error: " + err.Error())
		}
	}
	os.Exit(m.Run())
}
