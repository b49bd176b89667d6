package cppfront

import (
	"testing"

	"github.com/ascvet/ascvet/cppfront/internal/fuzzopt"
)

// TestMain bounds the fuzzer's minimisation (fuzzopt.MinimizeRuns).
func TestMain(m *testing.M) { fuzzopt.Main(m) }
