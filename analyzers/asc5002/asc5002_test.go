package asc5002_test

import (
	"testing"

	"github.com/ascvet/ascvet/analyzers/asc5002"
	"github.com/ascvet/ascvet/analyzers/atest"
)

func TestASC5002(t *testing.T) {
	atest.Run(t, "testdata", asc5002.Analyzer)
}
