package asc4001_test

import (
	"testing"

	"github.com/ascvet/ascvet/analyzers/asc4001"
	"github.com/ascvet/ascvet/analyzers/atest"
)

func TestASC4001(t *testing.T) {
	atest.Run(t, "testdata", asc4001.Analyzer)
}
