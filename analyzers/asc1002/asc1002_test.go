package asc1002_test

import (
	"testing"

	"github.com/ascvet/ascvet/analyzers/asc1002"
	"github.com/ascvet/ascvet/analyzers/atest"
)

func TestASC1002(t *testing.T) {
	atest.Run(t, "testdata", asc1002.Analyzer)
}
