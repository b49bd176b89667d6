package asc1003_test

import (
	"testing"

	"github.com/ascvet/ascvet/analyzers/asc1003"
	"github.com/ascvet/ascvet/analyzers/atest"
)

func TestASC1003(t *testing.T) {
	atest.Run(t, "testdata", asc1003.Analyzer)
}
