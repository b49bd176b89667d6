package asc2004_test

import (
	"testing"

	"github.com/ascvet/ascvet/analyzers/asc2004"
	"github.com/ascvet/ascvet/analyzers/atest"
)

func TestASC2004(t *testing.T) {
	atest.Run(t, "testdata", asc2004.Analyzer)
}
