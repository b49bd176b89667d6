package asc0001_test

import (
	"testing"

	"github.com/ascvet/ascvet/analyzers/asc0001"
	"github.com/ascvet/ascvet/analyzers/atest"
)

func TestASC0001(t *testing.T) {
	atest.Run(t, "testdata", asc0001.Analyzer)
}
