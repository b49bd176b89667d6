package golden

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// recorder is a testing.TB that keeps what Check reports.
type recorder struct {
	testing.TB
	errs []string
}

func (r *recorder) Helper() {}

func (r *recorder) Errorf(format string, args ...any) {
	r.errs = append(r.errs, fmt.Sprintf(format, args...))
}

// TestCheck: the same text passes, a different one is reported with both,
// and -update rewrites the file.
func TestCheck(t *testing.T) {
	t.Chdir(t.TempDir())
	if err := os.MkdirAll("testdata", 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join("testdata", "a.golden"), []byte("want\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r := &recorder{TB: t}
	Check(r, "a.golden", "want\n")
	if len(r.errs) != 0 {
		t.Errorf("the same text reported: %q", r.errs)
	}
	Check(r, "a.golden", "got\n")
	if len(r.errs) != 1 {
		t.Fatalf("a different text: %d reports, want 1", len(r.errs))
	}
	old := *Update
	*Update = true
	t.Cleanup(func() { *Update = old })
	Check(r, "a.golden", "got\n")
	if data, err := os.ReadFile(filepath.Join("testdata", "a.golden")); err != nil || string(data) != "got\n" {
		t.Errorf("-update wrote %q, %v", data, err)
	}
}
