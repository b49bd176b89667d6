package cli

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestProfiled: ASCVET_CPUPROFILE writes a CPU profile of the run and
// passes its exit code through; a profile that cannot be written is said
// and the run goes on; without the variable nothing is written.
func TestProfiled(t *testing.T) {
	dir := t.TempDir()
	prof := filepath.Join(dir, "cpu.prof")
	if code := profiled(prof, func() int { return 3 }); code != 3 {
		t.Errorf("exit %d through the profile, want 3", code)
	}
	if fi, err := os.Stat(prof); err != nil || fi.Size() == 0 {
		t.Errorf("no profile written: %v", err)
	}
	ran := false
	if code := profiled(filepath.Join(dir, "no", "such", "dir", "cpu.prof"), func() int { ran = true; return 0 }); code != 0 || !ran {
		t.Errorf("an unwritable profile stopped the run: exit %d, ran %v", code, ran)
	}
	if code := profiled("", func() int { return 1 }); code != 1 {
		t.Errorf("exit %d without a profile, want 1", code)
	}
}

// TestSplitTopLevel splits -instance lists at the commas outside template
// brackets.
func TestSplitTopLevel(t *testing.T) {
	for in, want := range map[string][]string{
		"T=half":                            {"T=half"},
		"T=half,Mode=2":                     {"T=half", "Mode=2"},
		"T=pair<int, int>,U=float":          {"T=pair<int, int>", "U=float"},
		"T=map<int, pair<int, int>>,Mode=1": {"T=map<int, pair<int, int>>", "Mode=1"},
	} {
		if got := splitTopLevel(in); !slices.Equal(got, want) {
			t.Errorf("splitTopLevel(%q) = %q, want %q", in, got, want)
		}
	}
}
