// Package asc3002 defines an Analyzer that reports VF regions keeping more
// Mask registers live at once than the chip has (package regalloc).
package asc3002

import (
	"golang.org/x/tools/go/analysis"

	"github.com/ascvet/ascvet/analyzers/regpressure"
	"github.com/ascvet/ascvet/analyzers/simcost"
	"github.com/ascvet/ascvet/regalloc"
	"github.com/ascvet/ascvet/ruleset"
)

// Rule is ASC3002 mask-pressure.
var Rule = ruleset.Define(&ruleset.Rule{
	ID:        "ASC3002",
	Name:      "mask-pressure",
	Title:     "MaskReg registers live at once above the budget",
	Severity:  ruleset.Warning,
	Since:     "0.1.0",
	Tags:      []string{"performance", "registers", "masks"},
	Precision: "medium",
	Options:   []ruleset.Option{ruleset.OptionBudgetMask, ruleset.OptionChip, ruleset.OptionMachine, ruleset.OptionIterations},
	Text:      text,
	Before:    before,
	After:     after,
}, &analysis.Analyzer{
	Requires:         []*analysis.Analyzer{regpressure.Analyzer, simcost.Analyzer},
	RunDespiteErrors: true,
	Run:              run,
})

// Analyzer is the analyzer of Rule.
var Analyzer = Rule.Analyzer

func run(pass *analysis.Pass) (any, error) {
	regpressure.Over(pass, pass.ResultOf[regpressure.Analyzer].(*regpressure.Result), regalloc.Mask,
		"the compiler spills the excess to the reserved UB area and adds synchronisation; combine masks (ASC3004, ASC3005) or recompute them where they are used", pass.ResultOf[simcost.Analyzer].(*simcost.Model))
	return nil, nil
}
