// Package testfs makes files for tests: a file with its folders, a file
// made to look old.
package testfs

import (
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Put writes name under dir, creating its folders, and returns its path.
func Put(t testing.TB, dir, name, data string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// Aged sets the modification time of path to d ago.
func Aged(t testing.TB, path string, d time.Duration) {
	t.Helper()
	old := time.Now().Add(-d)
	if err := os.Chtimes(path, old, old); err != nil {
		t.Fatal(err)
	}
}

// Read returns the contents of path.
func Read(t testing.TB, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// Names returns the names in dir, sorted.
func Names(t testing.TB, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names
}

// Files returns the paths of the regular files below dir, in walk order.
func Files(t testing.TB, dir string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			out = append(out, p)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// Kernel returns the example kernel name of the module's
// testdata/kernels, found from the test's folder up.
func Kernel(t testing.TB, name string) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return Read(t, filepath.Join(dir, "testdata", "kernels", name))
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatalf("no go.mod above the test's folder: cannot find testdata/kernels/%s", name)
		}
		dir = parent
	}
}

// NeedGit returns the path of the git command. Without one the test is
// skipped, saying why (what it cannot check), except under CI=true: git is
// part of CI's machine, and a test that needs it must run there.
func NeedGit(t testing.TB, why string) string {
	t.Helper()
	git, err := exec.LookPath("git")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("git is not installed, and CI must run this test: %v", err)
		}
		t.Skip(why)
	}
	return git
}

// Git runs git in dir with a configuration of its own (a test identity, no
// signing, main as the first branch; no system or global configuration)
// and returns what it printed; a failure fails the test.
func Git(t testing.TB, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir, "-c", "user.name=t", "-c", "user.email=t@example.com",
		"-c", "commit.gpgsign=false", "-c", "init.defaultBranch=main"}, args...)...)
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL="+os.DevNull)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// Snapshot lists what dir holds: each path below it (a folder with a
// trailing /), and the contents of the files, so that a test can tell that
// nothing in it changed.
func Snapshot(t testing.TB, dir string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			out = append(out, p+"/")
			return nil
		}
		data, err := os.ReadFile(p)
		out = append(out, p+": "+string(data))
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}
