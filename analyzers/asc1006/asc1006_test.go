package asc1006_test

import (
	"testing"

	"github.com/ascvet/ascvet/analyzers/asc1006"
	"github.com/ascvet/ascvet/analyzers/atest"
)

func TestASC1006(t *testing.T) {
	atest.Run(t, "testdata", asc1006.Analyzer)
}
