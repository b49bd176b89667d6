package cli

import (
	"fmt"
	"os"
	"testing"
)

// TestMain gives the tests a result cache of their own, so that they never
// write to the user's (a test that needs another sets ASCVET_CACHE itself),
// unless ASCVET_CACHE is set ("off" for benchmarks without a cache).
func TestMain(m *testing.M) {
	if os.Getenv("ASCVET_CACHE") != "" {
		os.Exit(m.Run())
	}
	dir, err := os.MkdirTemp("", "ascvet-test-cache")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	os.Setenv("ASCVET_CACHE", dir)
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}
