package asc1001_test

import (
	"testing"

	"github.com/ascvet/ascvet/analyzers/asc1001"
	"github.com/ascvet/ascvet/analyzers/atest"
)

func TestASC1001(t *testing.T) {
	atest.Run(t, "testdata", asc1001.Analyzer)
}
