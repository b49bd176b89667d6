package asc5001_test

import (
	"testing"

	"github.com/ascvet/ascvet/analyzers/asc5001"
	"github.com/ascvet/ascvet/analyzers/atest"
)

func TestASC5001(t *testing.T) {
	atest.Run(t, "testdata", asc5001.Analyzer)
}
