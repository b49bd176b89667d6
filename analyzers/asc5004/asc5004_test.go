package asc5004_test

import (
	"testing"

	"github.com/ascvet/ascvet/analyzers/asc5004"
	"github.com/ascvet/ascvet/analyzers/atest"
)

func TestASC5004(t *testing.T) {
	atest.Run(t, "testdata", asc5004.Analyzer)
}
