package fixes

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ascvet/ascvet/internal/testfs"
)

func TestDiff(t *testing.T) {
	old := "a\r\nb\r\nc\r\n"
	got := Diff("./dir/k.cpp", []byte(old), []byte("a\r\nB\r\nc\r\n"))
	want := "--- a/dir/k.cpp\n+++ b/dir/k.cpp\n@@ -1,3 +1,3 @@\n a\r\n-b\r\n+B\r\n c\r\n"
	if got != want {
		t.Errorf("Diff = %q, want %q", got, want)
	}
	if got := Diff("/abs/k.cpp", []byte("a"), []byte("b")); !strings.HasPrefix(got, "--- a/abs/k.cpp\n+++ b/abs/k.cpp\n") {
		t.Errorf("Diff of an absolute name = %q", got)
	}
	if got := Diff("k.cpp", []byte(old), []byte(old)); got != "" {
		t.Errorf("Diff of equal texts = %q", got)
	}
}

// TestDiffApplies checks that git apply accepts the diff and reproduces the
// new text, CRLF, missing final newline and all.
func TestDiffApplies(t *testing.T) {
	git := testfs.NeedGit(t, "git is not installed: cannot check that git apply takes the diff")
	dir := t.TempDir()
	old := "int a;\r\n// keep\r\nBAD;\r\n\r\nx\r\ny\r\nz\r\nw\r\nBAD no newline"
	new := "int a;\r\n// keep\r\n;\r\n\r\nx\r\ny\r\nz\r\nw\r\n no newline"
	if err := os.MkdirAll(filepath.Join(dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "sub", "k.cpp"), []byte(old), 0o644); err != nil {
		t.Fatal(err)
	}
	patch := filepath.Join(dir, "fix.patch")
	if err := os.WriteFile(patch, []byte(Diff("sub/k.cpp", []byte(old), []byte(new))), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(git, "apply", patch)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git apply: %v\n%s", err, out)
	}
	got, err := os.ReadFile(filepath.Join(dir, "sub", "k.cpp"))
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != new {
		t.Errorf("patched file holds %q, want %q", got, new)
	}
}
