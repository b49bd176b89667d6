package asc2001_test

import (
	"testing"

	"github.com/ascvet/ascvet/analyzers/asc2001"
	"github.com/ascvet/ascvet/analyzers/atest"
)

func TestASC2001(t *testing.T) {
	atest.Run(t, "testdata", asc2001.Analyzer)
}
