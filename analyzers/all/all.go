// Package all lists every ascvet rule analyzer. The driver runs them; the
// tests below check that each is documented, valid and has fixtures.
package all

import (
	"golang.org/x/tools/go/analysis"

	"github.com/ascvet/ascvet/analyzers/asc0001"
)

// Analyzers returns the analyzer of every rule, in rule ID order.
func Analyzers() []*analysis.Analyzer {
	return []*analysis.Analyzer{
		asc0001.Analyzer,
	}
}
