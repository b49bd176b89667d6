package simcheck

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestLoadErrors: a machine file that is missing or over MaxMachineFileSize
// is an error naming it.
func TestLoadErrors(t *testing.T) {
	dir := t.TempDir()
	big := filepath.Join(dir, "big.toml")
	if err := os.WriteFile(big, []byte("# "+strings.Repeat("x", MaxMachineFileSize)+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]string{
		filepath.Join(dir, "none.toml"): filepath.Join(dir, "none.toml") + ": no such file or directory",
		big:                             big + ": over the limit of 4 MiB for this file (4194307 bytes)",
		dir:                             dir + ": is a directory",
	} {
		if _, err := Load(path); err == nil || err.Error() != want {
			t.Errorf("Load(%s): %v, want %s", filepath.Base(path), err, want)
		}
	}
}
