package asc2003_test

import (
	"testing"

	"github.com/ascvet/ascvet/analyzers/asc2003"
	"github.com/ascvet/ascvet/analyzers/atest"
)

func TestASC2003(t *testing.T) {
	atest.Run(t, "testdata", asc2003.Analyzer)
}
