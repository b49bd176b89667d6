package asc1004_test

import (
	"testing"

	"github.com/ascvet/ascvet/analyzers/asc1004"
	"github.com/ascvet/ascvet/analyzers/atest"
)

func TestASC1004(t *testing.T) {
	atest.Run(t, "testdata", asc1004.Analyzer)
}
