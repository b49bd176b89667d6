package asc2002_test

import (
	"testing"

	"github.com/ascvet/ascvet/analyzers/asc2002"
	"github.com/ascvet/ascvet/analyzers/atest"
)

func TestASC2002(t *testing.T) {
	atest.Run(t, "testdata", asc2002.Analyzer)
}
