// Package all lists every ascvet rule analyzer. The driver runs them; the
// tests below check that each is documented, valid and has fixtures.
package all

import (
	"golang.org/x/tools/go/analysis"

	"github.com/ascvet/ascvet/analyzers/asc0001"
	"github.com/ascvet/ascvet/analyzers/asc1001"
	"github.com/ascvet/ascvet/analyzers/asc1002"
	"github.com/ascvet/ascvet/analyzers/asc1003"
	"github.com/ascvet/ascvet/analyzers/asc1004"
	"github.com/ascvet/ascvet/analyzers/asc1005"
	"github.com/ascvet/ascvet/analyzers/asc1006"
	"github.com/ascvet/ascvet/analyzers/asc2001"
	"github.com/ascvet/ascvet/analyzers/asc2002"
	"github.com/ascvet/ascvet/analyzers/asc2003"
	"github.com/ascvet/ascvet/analyzers/asc2004"
	"github.com/ascvet/ascvet/analyzers/asc3001"
	"github.com/ascvet/ascvet/analyzers/asc3002"
	"github.com/ascvet/ascvet/analyzers/asc3003"
	"github.com/ascvet/ascvet/analyzers/asc3004"
	"github.com/ascvet/ascvet/analyzers/asc3005"
	"github.com/ascvet/ascvet/analyzers/asc4001"
	"github.com/ascvet/ascvet/analyzers/asc4002"
	"github.com/ascvet/ascvet/analyzers/asc5001"
	"github.com/ascvet/ascvet/analyzers/asc5002"
	"github.com/ascvet/ascvet/analyzers/asc5003"
	"github.com/ascvet/ascvet/analyzers/asc5004"
)

// Analyzers returns the analyzer of every rule, in rule ID order.
func Analyzers() []*analysis.Analyzer {
	return []*analysis.Analyzer{
		asc0001.Analyzer,
		asc1001.Analyzer,
		asc1002.Analyzer,
		asc1003.Analyzer,
		asc1004.Analyzer,
		asc1005.Analyzer,
		asc1006.Analyzer,
		asc2001.Analyzer,
		asc2002.Analyzer,
		asc2003.Analyzer,
		asc2004.Analyzer,
		asc3001.Analyzer,
		asc3002.Analyzer,
		asc3003.Analyzer,
		asc3004.Analyzer,
		asc3005.Analyzer,
		asc4001.Analyzer,
		asc4002.Analyzer,
		asc5001.Analyzer,
		asc5002.Analyzer,
		asc5003.Analyzer,
		asc5004.Analyzer,
	}
}
