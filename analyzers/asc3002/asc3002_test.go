package asc3002_test

import (
	"testing"

	"github.com/ascvet/ascvet/analyzers/asc3002"
	"github.com/ascvet/ascvet/analyzers/atest"
)

func TestASC3002(t *testing.T) {
	atest.Run(t, "testdata", asc3002.Analyzer)
}
