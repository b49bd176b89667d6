// Package stop provides the flag that stops the analysis of one file
// early. The language server sets it when a newer edit of the buffer made
// the analysis useless: a big file's parse and simulations would
// otherwise hold a CPU and their memory to the end for nothing.
//
// A driver gives a file its flag through runner.File.Stop; the runner
// makes it this analyzer's result for the file, starts no analyzer once
// it is set, and drops what the file's analyzers found. The analyzers
// whose run is long (cppir's parse, the streams' fixes, the loop
// simulations) require Analyzer and return early once it is set; what
// they return then is never seen. The command line never sets the flag.
package stop

import (
	"errors"
	"reflect"
	"sync/atomic"

	"golang.org/x/tools/go/analysis"
)

// Analyzer provides the stop flag of the file: runner.File.Stop, or, for
// a driver that gives none, a flag nobody sets.
var Analyzer = &analysis.Analyzer{
	Name:             "stop",
	Doc:              "the flag that stops a file's analysis early (the language server sets it when a newer edit made the analysis useless)",
	RunDespiteErrors: true,
	ResultType:       reflect.TypeFor[*atomic.Bool](),
	Run:              func(*analysis.Pass) (any, error) { return new(atomic.Bool), nil },
}

// Of returns the stop flag of pass's file; the analyzer must require
// Analyzer. A pass made by hand without its result (a test's) gets a flag
// nobody sets.
func Of(pass *analysis.Pass) *atomic.Bool {
	if b, ok := pass.ResultOf[Analyzer].(*atomic.Bool); ok && b != nil {
		return b
	}
	return new(atomic.Bool)
}

// ErrStopped is the error of an analyzer that returned early because the
// flag was set; the runner drops it with the rest of the file's outcome.
var ErrStopped = errors.New("analysis stopped")

// Set reports whether the analysis of pass's file was stopped; the
// analyzer must require Analyzer.
func Set(pass *analysis.Pass) bool { return Of(pass).Load() }
