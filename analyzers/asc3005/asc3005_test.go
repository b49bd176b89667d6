package asc3005_test

import (
	"testing"

	"github.com/ascvet/ascvet/analyzers/asc3005"
	"github.com/ascvet/ascvet/analyzers/atest"
)

func TestASC3005(t *testing.T) {
	atest.Run(t, "testdata", asc3005.Analyzer)
}
