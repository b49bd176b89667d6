package testfs

import (
	"os"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestHelpers: Put makes folders and the file, Read and Names see it,
// Files finds the regular files below, Aged moves its time back.
func TestHelpers(t *testing.T) {
	dir := t.TempDir()
	p := Put(t, dir, "a/b.txt", "x")
	Put(t, dir, "c.txt", "y")
	if Read(t, p) != "x" {
		t.Errorf("Read(%s) = %q", p, Read(t, p))
	}
	if got := Names(t, dir); !slices.Equal(got, []string{"a", "c.txt"}) {
		t.Errorf("Names = %q", got)
	}
	if err := os.Symlink(p, dir+"/link"); err != nil {
		t.Fatal(err)
	}
	if got := Files(t, dir); !slices.Equal(got, []string{p, dir + "/c.txt"}) {
		t.Errorf("Files = %q, want the two regular files", got)
	}
	Aged(t, p, time.Hour)
	if fi, err := os.Stat(p); err != nil || time.Since(fi.ModTime()) < 59*time.Minute {
		t.Errorf("Aged: %v, %v", fi.ModTime(), err)
	}
}

// TestKernel: an example kernel is found from a folder below the module
// root.
func TestKernel(t *testing.T) {
	if k := Kernel(t, "masks.asc"); !strings.Contains(k, "__simd_vf__") && !strings.Contains(k, "__VEC_SCOPE__") {
		t.Errorf("masks.asc holds no VF code:\n%s", k)
	}
}

// TestGit runs git with its own identity: a commit is made and read back.
func TestGit(t *testing.T) {
	NeedGit(t, "git not installed")
	dir := t.TempDir()
	Git(t, dir, "init", "-q")
	Put(t, dir, "k.asc", "x")
	Git(t, dir, "add", ".")
	Git(t, dir, "commit", "-q", "-m", "first")
	if got := Git(t, dir, "log", "--format=%an %s"); got != "t first\n" {
		t.Errorf("git log: %q", got)
	}
	if got := strings.TrimSpace(Git(t, dir, "branch", "--show-current")); got != "main" {
		t.Errorf("branch %q, want main", got)
	}
}
