package repo

import (
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/ascvet/ascvet/ruleset/config"
)

// tree makes dirs and files (with nothing in them) under a fresh
// temporary folder and returns it.
func tree(t *testing.T, paths ...string) string {
	t.Helper()
	top := t.TempDir()
	for _, p := range paths {
		full := filepath.Join(top, filepath.FromSlash(p))
		if p[len(p)-1] == '/' {
			if err := os.MkdirAll(full, 0o755); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return top
}

// TestKeys: a file's root is the nearest git top-level above it (a .git
// folder, or a .git file as in a worktree), else the folder of the nearest
// ascvet.toml, else the working directory; its key is the slash path from
// there, whatever the working directory and however the name is spelled.
func TestKeys(t *testing.T) {
	top := tree(t,
		"repo/.git/", "repo/sub/k/a.asc", "repo/sub/"+config.FileName,
		"wt/.git", "wt/b.asc",
		"plain/cfg/"+config.FileName, "plain/cfg/deep/c.asc",
		"loose/d.asc",
	)
	for _, c := range []struct {
		wd, name, root, key string
	}{
		{"repo/sub", "k/a.asc", "repo", "sub/k/a.asc"},                  // .git wins over a nearer ascvet.toml
		{"repo", "./sub/k/../k/a.asc", "repo", "sub/k/a.asc"},           // spelling does not matter
		{"", "repo/sub/k/a.asc", "repo", "sub/k/a.asc"},                 // nor the working directory
		{"repo", "../wt/b.asc", "wt", "b.asc"},                          // a .git file is a top-level
		{"plain", "cfg/deep/c.asc", "plain/cfg", "deep/c.asc"},          // no git: the ascvet.toml folder
		{"loose", "d.asc", "loose", "d.asc"},                            // neither: the working directory
		{"loose", "../plain/cfg/deep/c.asc", "plain/cfg", "deep/c.asc"}, // found from elsewhere too
	} {
		wd := filepath.Join(top, filepath.FromSlash(c.wd))
		rf := NewRoots(wd)
		root, key := rf.Key(c.name)
		if want := filepath.Join(top, filepath.FromSlash(c.root)); root != want || key != c.key {
			t.Errorf("in %s, Key(%s) = %s, %s; want %s, %s", c.wd, c.name, root, key, want, c.key)
		}
		if got := rf.RootOf(c.name); got != root {
			t.Errorf("in %s, RootOf(%s) = %s, Key's root %s", c.wd, c.name, got, root)
		}
		if rf.WorkDir() != wd {
			t.Errorf("WorkDir() = %s, want %s", rf.WorkDir(), wd)
		}
	}
}

// TestKeyOutsideRoot: a file outside its root, which happens only when
// the root is the working directory, keeps its absolute path.
func TestKeyOutsideRoot(t *testing.T) {
	if _, err := os.Stat("/.git"); err == nil {
		t.Skip("/ is a git work tree here")
	}
	top := tree(t, "wd/", "elsewhere/e.asc")
	abs := filepath.Join(top, "elsewhere", "e.asc")
	// The root of e.asc's folder is the working directory only if nothing
	// above top is a git top-level or holds an ascvet.toml.
	rf := NewRoots(filepath.Join(top, "wd"))
	root, key := rf.Key(abs)
	if root != rf.WorkDir() {
		t.Skipf("%s has a root above the temporary folder (%s)", abs, root)
	}
	if key != filepath.ToSlash(abs) {
		t.Errorf("Key(%s) = %s, want the absolute slash path", abs, key)
	}
}

// TestGitTop finds the top-level above a file or folder, and none outside
// a work tree.
func TestGitTop(t *testing.T) {
	top := tree(t, "repo/.git/", "repo/a/b/", "none/x/")
	rf := NewRoots(top)
	if got, want := rf.GitTop(filepath.Join(top, "repo", "a", "b")), filepath.Join(top, "repo"); got != want {
		t.Errorf("GitTop(repo/a/b) = %q, want %q", got, want)
	}
	if got := rf.GitTop(filepath.Join(top, "repo")); got != filepath.Join(top, "repo") {
		t.Errorf("GitTop(repo) = %q, want repo itself", got)
	}
	if outside := rf.GitTop(filepath.Join(top, "none", "x")); outside != "" && outside == rf.GitTop(top) {
		return // the temporary folder is inside a work tree: nothing to tell
	} else if outside != "" {
		t.Errorf("GitTop(none/x) = %q, want none", outside)
	}
}

// TestFixed: Fixed roots make one folder the root of every file.
func TestFixed(t *testing.T) {
	top := tree(t, "repo/.git/", "repo/k.asc")
	rf := Fixed("/w")
	if got := rf.RootOf(filepath.Join(top, "repo", "k.asc")); got != "/w" {
		t.Errorf("Fixed RootOf = %q, want /w", got)
	}
	if got := rf.Abs("k/a.asc"); got != filepath.Join("/w", "k", "a.asc") {
		t.Errorf("Abs = %q", got)
	}
}

// TestRelUnder is the slash path below a root, and nothing above it.
func TestRelUnder(t *testing.T) {
	root := filepath.Join(string(filepath.Separator), "r")
	for _, c := range []struct {
		abs, rel string
		ok       bool
	}{
		{filepath.Join(root, "a", "b.asc"), "a/b.asc", true},
		{root, ".", true},
		{filepath.Join(root, "..a", "b"), "..a/b", true}, // a name that starts with two dots is below
		{filepath.Join(root, "..", "x"), "", false},
		{filepath.Dir(root), "", false},
	} {
		rel, ok := RelUnder(root, c.abs)
		if rel != c.rel || ok != c.ok {
			t.Errorf("RelUnder(%s, %s) = %q, %v; want %q, %v", root, c.abs, rel, ok, c.rel, c.ok)
		}
	}
}

// TestRootsConcurrent: Roots is safe for concurrent use (go test -race)
// and every goroutine sees the same roots.
func TestRootsConcurrent(t *testing.T) {
	top := tree(t, "repo/.git/", "repo/a/x.asc", "repo/b/y.asc", "plain/"+config.FileName, "plain/c/z.asc")
	rf := NewRoots(top)
	names := []string{"repo/a/x.asc", "repo/b/y.asc", "plain/c/z.asc"}
	want := []string{filepath.Join(top, "repo"), filepath.Join(top, "repo"), filepath.Join(top, "plain")}
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for i, n := range names {
				if got := rf.RootOf(n); got != want[i] {
					t.Errorf("RootOf(%s) = %s, want %s", n, got, want[i])
				}
			}
		})
	}
	wg.Wait()
}
