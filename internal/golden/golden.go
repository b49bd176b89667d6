// Package golden compares a test's output with a golden file under the
// test's testdata folder, or rewrites the file when the test runs with
// -update.
package golden

import (
	"flag"
	"os"
	"path/filepath"
	"testing"
)

// Update is the -update flag: rewrite the golden files instead of
// comparing with them.
var Update = flag.Bool("update", false, "rewrite the golden files")

// Check compares got with testdata/name, or rewrites it with -update.
func Check(t testing.TB, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *Update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if got != string(want) {
		t.Errorf("output differs from %s (run go test -update to accept):\n--- got\n%s--- want\n%s", path, got, want)
	}
}
