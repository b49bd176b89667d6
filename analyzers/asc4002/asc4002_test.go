package asc4002_test

import (
	"testing"

	"github.com/ascvet/ascvet/analyzers/asc4002"
	"github.com/ascvet/ascvet/analyzers/atest"
)

func TestASC4002(t *testing.T) {
	atest.Run(t, "testdata", asc4002.Analyzer)
}
