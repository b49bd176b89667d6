package asc5003_test

import (
	"testing"

	"github.com/ascvet/ascvet/analyzers/asc5003"
	"github.com/ascvet/ascvet/analyzers/atest"
)

func TestASC5003(t *testing.T) {
	atest.Run(t, "testdata", asc5003.Analyzer)
}
