package asc1005_test

import (
	"testing"

	"github.com/ascvet/ascvet/analyzers/asc1005"
	"github.com/ascvet/ascvet/analyzers/atest"
)

func TestASC1005(t *testing.T) {
	atest.Run(t, "testdata", asc1005.Analyzer)
}
