package simcheck

import (
	"os"
	"path/filepath"
	"runtime"
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

// TestParseDeep: a 64 KB machine file whose one key is 32,000 segments
// deep (a.a.a...a = 1) is refused before the TOML decoder sees it (the
// decoder alone took 39 GB and 52 s), with the line, and quickly: it
// allocates a few MB at most.
func TestParseDeep(t *testing.T) {
	data := []byte("name = 'x'\n" + strings.Repeat("a.", 32000) + "a = 1\n")
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err := Parse("deep.toml", data)
	runtime.ReadMemStats(&after)
	want := "deep.toml:2: keys, tables and arrays nested more than 64 levels deep; a machine model needs at most 3"
	if err == nil || err.Error() != want {
		t.Errorf("Parse: %v, want %s", err, want)
	}
	if got := after.TotalAlloc - before.TotalAlloc; got > 16<<20 {
		t.Errorf("a deep machine file allocated %d MB", got>>20)
	}
	if _, err := Chip("ascend950"); err != nil {
		t.Errorf("the embedded model: %v", err)
	}
}
