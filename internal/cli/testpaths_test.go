package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestWalkLeavesOutTests: a walk skips test code below the walked folder
// (not a test folder above it); a file named on the command line, and a
// configuration with tests = true, bring it back.
func TestWalkLeavesOutTests(t *testing.T) {
	kernel, err := os.ReadFile("../../testdata/kernels/unaligned_bugs.asc")
	if err != nil {
		t.Fatal(err)
	}
	root := filepath.Join(t.TempDir(), "test", "repo") // a test folder above the walked one does not count
	for _, rel := range []string{"op_kernel/k.asc", "tests/ut/k.asc", "op_kernel/k_test.asc"} {
		p := filepath.Join(root, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, kernel, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	files := func(out string) map[string]bool {
		got := map[string]bool{}
		for _, line := range strings.Split(out, "\n") {
			if i := strings.Index(line, ".asc:"); i > 0 {
				rel, _ := filepath.Rel(root, line[:i+4])
				got[filepath.ToSlash(rel)] = true
			}
		}
		return got
	}
	_, out, _ := ascvet(t, "-no-config", root)
	if got := files(out); len(got) != 1 || !got["op_kernel/k.asc"] {
		t.Errorf("walk reported %v, want op_kernel/k.asc only", got)
	}
	_, out, _ = ascvet(t, "-no-config", root, filepath.Join(root, "tests/ut/k.asc"))
	if got := files(out); len(got) != 2 || !got["tests/ut/k.asc"] {
		t.Errorf("with the test file named: %v, want it reported too", got)
	}
	if err := os.WriteFile(filepath.Join(root, "ascvet.toml"), []byte("tests = true\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, out, errs := ascvet(t, root)
	if got := files(out); len(got) != 3 {
		t.Errorf("with tests = true: %v (stderr %q), want all three files", got, errs)
	}
}

// TestFailNoSaving: a warning whose simulation measures no saving is
// reported but does not fail the run, unless -fail-no-saving asks.
func TestFailNoSaving(t *testing.T) {
	src, err := os.ReadFile("../../analyzers/asc3001/testdata/bad.asc")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(src), "\n")
	end := 0
	for i, l := range lines {
		if l == "}\n" {
			end = i + 1
			break
		}
	}
	path := filepath.Join(t.TempDir(), "sum34.asc")
	if err := os.WriteFile(path, []byte(strings.Join(lines[:end], "")), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, _ := ascvet(t, "-no-config", path)
	if !strings.Contains(out, "no saving measurable") || code != exitOK {
		t.Fatalf("exit %d, want %d, for:\n%s", code, exitOK, out)
	}
	if code, _, _ := ascvet(t, "-no-config", "-fail-no-saving", path); code != exitFindings {
		t.Errorf("-fail-no-saving: exit %d, want %d", code, exitFindings)
	}
}
