package source

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestIsTestPath(t *testing.T) {
	for rel, want := range map[string]bool{
		"tests/api/check.cpp":       true,
		"op/test/ut/kernel_ut.cpp":  true,
		"op/op_kernel/add_test.h":   true,
		"op/op_kernel/test_add.cpp": true,
		"op/op_kernel/add.h":        false,
		"op/testing/add.h":          false, // only tests and test are test folders
		"op/latest_kernel.h":        false,
		"contest/add.asc":           false,
	} {
		if got := isTestPath(rel); got != want {
			t.Errorf("isTestPath(%q) = %v, want %v", rel, got, want)
		}
	}
}

// TestDropTests: test files a walk found below its folders go, unless
// their configuration takes tests; a file named itself stays; the count
// says how many went.
func TestDropTests(t *testing.T) {
	sep := string(filepath.Separator)
	names := []string{
		"k" + sep + "a.asc",
		"k" + sep + "tests" + sep + "t.cpp",
		"k" + sep + "b_test.cpp",
		"k" + sep + "keep" + sep + "tests" + sep + "u.cpp",
		"k" + sep + "named_test.cpp",
		"other" + sep + "test_x.cpp",
		"c.cpp",
		"test_top.cpp",
	}
	paths := []string{"k", "k" + sep + "named_test.cpp", "."}
	keepTests := func(name string) bool { return strings.Contains(name, sep+"keep"+sep) }
	got, dropped := DropTests(paths, names, keepTests)
	want := []string{
		"k" + sep + "a.asc",
		"k" + sep + "keep" + sep + "tests" + sep + "u.cpp",
		"k" + sep + "named_test.cpp",
		"c.cpp",
	}
	if !slices.Equal(got, want) || dropped != 4 {
		t.Errorf("DropTests = %q, %d dropped; want %q, 4", got, dropped, want)
	}
	abs := filepath.Join(t.TempDir(), "r")
	got, dropped = DropTests([]string{abs}, []string{filepath.Join(abs, "test", "x.cpp"), filepath.Join(abs, "x.cpp")}, func(string) bool { return false })
	if len(got) != 1 || dropped != 1 {
		t.Errorf("under an absolute root: %q, %d dropped", got, dropped)
	}
}

// TestDropTestsDotDotDot: "dir/..." and "..." are walked as dir and ".",
// so the test files their walk finds are dropped as those of dir and "."
// are.
func TestDropTestsDotDotDot(t *testing.T) {
	sep := string(filepath.Separator)
	names := []string{"k" + sep + "a.asc", "k" + sep + "tests" + sep + "t.asc", "k" + sep + "b_test.cpp"}
	none := func(string) bool { return false }
	for _, paths := range [][]string{{"k"}, {"k/..."}, {"..."}} {
		got, dropped := DropTests(paths, names, none)
		if want := names[:1]; !slices.Equal(got, want) || dropped != 2 {
			t.Errorf("DropTests(%q) = %q, %d dropped; want %q, 2", paths, got, dropped, want)
		}
	}
}
