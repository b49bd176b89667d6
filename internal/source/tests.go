package source

import (
	"path/filepath"
	"strings"
)

// Test code is left out of a walk by default, as linters leave out
// generated code: host-side unit tests (gtest TEST_F, mockcpp MOCKER_CPP)
// and compile-only API checks are real code, but their findings are rarely
// what a kernel author wants. A file under a folder named tests or test,
// or named *_test.* or test_*.*, below the walked folder, is skipped unless
// its configuration says tests = true. A file named on the command line is
// always checked.

// isTestPath reports whether rel, a path below a walked folder, is test code.
func isTestPath(rel string) bool {
	parts := strings.Split(filepath.ToSlash(rel), "/")
	for _, d := range parts[:len(parts)-1] {
		if d == "tests" || d == "test" {
			return true
		}
	}
	base := parts[len(parts)-1]
	stem := strings.TrimSuffix(base, filepath.Ext(base))
	return strings.HasSuffix(stem, "_test") || strings.HasPrefix(stem, "test_")
}

// DropTests returns names without the test files a walk of paths found,
// unless testsFor says their configuration includes tests, and how many it
// dropped.
func DropTests(paths, names []string, testsFor func(name string) bool) ([]string, int) {
	explicit := map[string]bool{}
	var roots []string
	for _, p := range paths {
		c := filepath.Clean(WalkedPath(p))
		explicit[c] = true
		roots = append(roots, c)
	}
	kept := names[:0:0]
	dropped := 0
	for _, n := range names {
		c := filepath.Clean(n)
		if !explicit[c] {
			if rel, ok := below(roots, c); ok && isTestPath(rel) && !testsFor(n) {
				dropped++
				continue
			}
		}
		kept = append(kept, n)
	}
	return kept, dropped
}

// below returns name relative to the longest root it lies below.
func below(roots []string, name string) (string, bool) {
	best := ""
	found := false
	for _, r := range roots {
		if r == "." && !filepath.IsAbs(name) && !strings.HasPrefix(name, "..") {
			if !found {
				best, found = name, true
			}
			continue
		}
		if rel, ok := strings.CutPrefix(name, r+string(filepath.Separator)); ok && (!found || len(rel) < len(best)) {
			best, found = rel, true
		}
	}
	return best, found
}
