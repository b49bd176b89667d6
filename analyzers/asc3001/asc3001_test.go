package asc3001_test

import (
	"testing"

	"github.com/ascvet/ascvet/analyzers/asc3001"
	"github.com/ascvet/ascvet/analyzers/atest"
)

func TestASC3001(t *testing.T) {
	atest.Run(t, "testdata", asc3001.Analyzer)
}
