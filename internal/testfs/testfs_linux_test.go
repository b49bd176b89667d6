package testfs

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// TestNeedGitFound: NeedGit returns the git that PATH finds, first on
// PATH, under CI=true as well as without.
func TestNeedGitFound(t *testing.T) {
	first, second := t.TempDir(), t.TempDir()
	var gits []string
	for _, dir := range []string{first, second} {
		git := Put(t, dir, "git", "#!/bin/sh\nexit 1\n")
		if err := os.Chmod(git, 0o755); err != nil {
			t.Fatal(err)
		}
		gits = append(gits, git)
	}
	t.Setenv("PATH", first+string(os.PathListSeparator)+second)
	for _, ci := range []string{"", "true"} {
		t.Setenv("CI", ci)
		if got := NeedGit(t, "git"); got != gits[0] {
			t.Errorf("CI=%q: NeedGit = %q, want %q", ci, got, gits[0])
		}
	}
}

// TestKernelNoFolder: when the test's folder is gone (removed under it),
// Kernel stops the test with the error of finding it.
func TestKernelNoFolder(t *testing.T) {
	gone := filepath.Join(t.TempDir(), "gone")
	if err := os.Mkdir(gone, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Chdir(gone)
	if err := os.Remove(gone); err != nil {
		t.Fatal(err)
	}
	s := stopped(t, func(tb testing.TB) { Kernel(tb, "k.asc") })
	if err := s.err(); !errors.Is(err, syscall.ENOENT) {
		t.Errorf("stopped by %s(%s), want getwd's ENOENT", s.method, s.msg)
	}
}
