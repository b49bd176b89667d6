package asc3004_test

import (
	"testing"

	"github.com/ascvet/ascvet/analyzers/asc3004"
	"github.com/ascvet/ascvet/analyzers/atest"
)

func TestASC3004(t *testing.T) {
	atest.Run(t, "testdata", asc3004.Analyzer)
}
