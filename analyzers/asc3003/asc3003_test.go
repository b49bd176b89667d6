package asc3003_test

import (
	"testing"

	"github.com/ascvet/ascvet/analyzers/asc3003"
	"github.com/ascvet/ascvet/analyzers/atest"
)

func TestASC3003(t *testing.T) {
	atest.Run(t, "testdata", asc3003.Analyzer)
}
