//go:build unix

package resultcache

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"golang.org/x/tools/go/analysis"

	"github.com/ascvet/ascvet/analyzers/runner"
)

// TestCacheTrim: entries unused for trimLimit, earlier versions' files and
// leftover temporary files go; used entries stay; a trim a day.
func TestCacheTrim(t *testing.T) {
	dir := t.TempDir()
	s, err := openStore(dir, os.Stderr)
	if err != nil {
		t.Fatal(err)
	}
	defer s.close()
	var fresh, stale [32]byte
	fresh[0], stale[0] = 1, 2
	for _, id := range [][32]byte{fresh, stale} {
		if err := s.put(id, []byte("data")); err != nil {
			t.Fatal(err)
		}
	}
	old := time.Now().Add(-trimLimit - 2*markEvery)
	leftovers := []string{filepath.Join(dir, "02", "x-a"), filepath.Join(dir, "02", "x-r.1.tmp"), filepath.Join(dir, "trim.txt.1.tmp")}
	for _, p := range leftovers {
		if err := os.WriteFile(p, nil, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	for _, p := range append(leftovers, filepath.Join(dir, s.name(stale))) {
		if err := os.Chtimes(p, old, old); err != nil {
			t.Fatal(err)
		}
	}
	s.trim()
	if _, ok := s.get(fresh); !ok {
		t.Error("the entry in use was trimmed")
	}
	if _, ok := s.get(stale); ok {
		t.Error("the entry unused for longer than trimLimit was kept")
	}
	for _, p := range leftovers {
		if _, err := os.Lstat(p); err == nil {
			t.Errorf("%s was kept", p)
		}
	}
	if st, err := os.Lstat(filepath.Join(dir, "trim.txt")); err != nil || st.Mode().Perm() != 0o600 {
		t.Errorf("trim.txt: %v %v", st, err)
	}
	if err := s.put(stale, []byte("data")); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(filepath.Join(dir, s.name(stale)), old, old); err != nil {
		t.Fatal(err)
	}
	s.trim() // within a day of the last: nothing
	if _, err := os.Lstat(filepath.Join(dir, s.name(stale))); err != nil {
		t.Error("a second trim within a day trimmed")
	}
}

// TestOpenRefused: a cache folder that others can write, or that another
// user owns, is not opened, whatever it holds (here, entries forged to
// hide a finding): one line on warn. A link is followed to what it leads
// to; the user's own 0700 folder opens.
func TestOpenRefused(t *testing.T) {
	text := []byte("__simd_vf__ void F() {}\n")
	dir, src := t.TempDir(), t.TempDir()
	store(t, dir, src, text, []runner.Finding{{Analyzer: probe, Diagnostic: analysis.Diagnostic{Message: "found"}}}, false)
	if n := forgeCache(t, dir, func([]cachedFinding) []cachedFinding { return nil }); n != 1 {
		t.Fatalf("%d entries forged, want 1", n)
	}
	refused := func(what, dir, want string) {
		t.Helper()
		var warn bytes.Buffer
		if rc := Open(dir, nil, src, &warn); rc != nil || warn.String() != want {
			rc.Close()
			t.Errorf("%s: opened %v, warned %q; want nil and %q", what, rc != nil, warn.String(), want)
		}
	}
	for _, mode := range []os.FileMode{0o777, 0o770, 0o702} {
		if err := os.Chmod(dir, mode); err != nil {
			t.Fatal(err)
		}
		refused(fmt.Sprintf("mode %04o", mode), dir, fmt.Sprintf("ascvet: cache folder %s is writable by others (mode %04o); running without the cache\n", dir, mode))
	}
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(dir, link); err != nil {
		t.Fatal(err)
	}
	refused("a link to a folder others can write", link, "ascvet: cache folder "+link+" is writable by others (mode 0702); running without the cache\n")
	if err := os.Chmod(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if found, ok := lookup(t, link, src, text, false, false); !ok || len(found) != 0 {
		t.Errorf("a link to the user's own folder: %v %v; want it opened, and its (forged) entry served", found, ok)
	}
	if os.Getuid() == 0 {
		if err := os.Chown(dir, 4242, 4242); err != nil {
			t.Fatal(err)
		}
		refused("another user's folder", dir, fmt.Sprintf("ascvet: cache folder %s is owned by uid 4242, not by you (uid 0); running without the cache\n", dir))
	} else if st, err := os.Stat("/"); err == nil && st.Mode().Perm()&0o022 == 0 {
		refused("another user's folder", "/", fmt.Sprintf("ascvet: cache folder / is owned by uid 0, not by you (uid %d); running without the cache\n", os.Getuid()))
	}
}
