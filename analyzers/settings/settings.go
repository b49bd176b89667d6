// Package settings provides the options that change what the rules report:
// the chip and machine model that price findings, the iterations simulated
// when a trip count does not fold, the confidence of the stream rules and
// the register budgets.
//
// Its Analyzer's flags hold the defaults (the driver's -chip, -confidence,
// ... set them); a driver that configures files differently (ascvet.toml,
// per-path overrides) gives each file its own *Settings through
// runner.File.Provided, and the analyzer does not run for that file.
package settings

import (
	"fmt"
	"reflect"

	"golang.org/x/tools/go/analysis"

	"github.com/ascvet/ascvet/regalloc"
	"github.com/ascvet/ascvet/simcheck"
)

// Settings are the options of one file.
type Settings struct {
	Chip       string          // chip whose machine model prices findings ("ascend950")
	Machine    string          // machine model file used instead of Chip's ("" for none)
	Iterations int             // iterations simulated when a loop's trip count does not fold
	Confidence string          // "high": report what is proven; "low": also what is suspected
	Budget     regalloc.Budget // registers one VF may keep live, per class
}

// Check reports what is wrong with s.
func (s *Settings) Check() error {
	switch {
	case s.Confidence != "high" && s.Confidence != "low":
		return fmt.Errorf("confidence %q: want high or low", s.Confidence)
	case s.Iterations < 1:
		return fmt.Errorf("iterations %d: want at least 1", s.Iterations)
	}
	for c, n := range s.Budget {
		if n < 1 {
			return fmt.Errorf("budget-%s %d: want at least 1", regalloc.Class(c).Flag(), n)
		}
	}
	return nil
}

// Analyzer provides the *Settings of the file, from its flags.
var Analyzer = &analysis.Analyzer{
	Name:             "settings",
	Doc:              "options of the rules: chip, machine model, iterations, confidence and register budgets",
	RunDespiteErrors: true,
	ResultType:       reflect.TypeOf((*Settings)(nil)),
	Run:              func(*analysis.Pass) (any, error) { s := Defaults(); return &s, nil },
}

var flags = Settings{Chip: "ascend950", Iterations: simcheck.DefaultIterations, Confidence: "high", Budget: regalloc.Ascend950}

func init() {
	f := &Analyzer.Flags
	f.StringVar(&flags.Chip, "chip", flags.Chip, "chip whose machine model is used")
	f.StringVar(&flags.Machine, "machine", "", "machine model file to use instead of the chip's")
	f.IntVar(&flags.Iterations, "iterations", flags.Iterations, "iterations to simulate when a loop's trip count does not fold")
	f.StringVar(&flags.Confidence, "confidence", flags.Confidence, "high: report proven streams only; low: also streams whose addresses do not fold")
	for c := range flags.Budget {
		cl := regalloc.Class(c)
		f.IntVar(&flags.Budget[c], "budget-"+cl.Flag(), flags.Budget[c], cl.String()+" registers one VF may keep live")
	}
}

// Defaults returns the settings the flags give.
func Defaults() Settings { return flags }

// Of returns the settings of pass's file; the analyzer must require Analyzer.
func Of(pass *analysis.Pass) *Settings { return pass.ResultOf[Analyzer].(*Settings) }
