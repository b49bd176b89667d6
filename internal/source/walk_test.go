package source

import (
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/ascvet/ascvet/cppfront"
	"github.com/ascvet/ascvet/internal/testfs"
)

// TestExpandNoted: a folder is walked for sources in order, hidden folders
// and build outputs left out, "dir/..." is dir; a folder without sources
// is noted; a missing path, a dangling link and a link to a folder are
// told apart; a link to a file is taken once, by the name it was found by.
func TestExpandNoted(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	testfs.Put(t, dir, "k/a.asc", "")
	testfs.Put(t, dir, "k/b.h", "")
	testfs.Put(t, dir, "k/readme.md", "")
	testfs.Put(t, dir, "k/.git/x.cpp", "")
	testfs.Put(t, dir, "k/build/gen.cpp", "")
	testfs.Put(t, dir, "docs/notes.txt", "")
	if runtime.GOOS != "windows" {
		for link, to := range map[string]string{"k/c.cpp": "a.asc", "k/dangling.cpp": "gone.asc", "k/sub.cpp": "../docs"} {
			if err := os.Symlink(to, filepath.Join(dir, link)); err != nil {
				t.Fatal(err)
			}
		}
	}
	var bad, notes []string
	got := ExpandNoted([]string{"k/...", "docs", "missing.asc", "k/a.asc"},
		func(p string, err error) { bad = append(bad, p) },
		func(p, msg string) { notes = append(notes, p+": "+msg) })
	want := []string{"k/a.asc", "k/b.h"} // k/c.cpp is a.asc again, found by its link: taken once
	if !slices.Equal(got, want) {
		t.Errorf("walked %q, want %q", got, want)
	}
	if len(notes) != 1 || !strings.HasPrefix(notes[0], "docs: no source files") {
		t.Errorf("notes %q", notes)
	}
	wantBad := []string{"missing.asc"}
	if runtime.GOOS != "windows" {
		wantBad = []string{filepath.Join("k", "dangling.cpp"), "missing.asc"}
	}
	slices.Sort(bad)
	if !slices.Equal(bad, wantBad) {
		t.Errorf("bad %q, want %q", bad, wantBad)
	}
}

// TestLimitHint says which flag lifts the limit a file broke.
func TestLimitHint(t *testing.T) {
	for limit, want := range map[string]string{"depth": "-max-depth", "timeout": "-file-timeout", "size": "; skipped"} {
		if got := LimitHint(&cppfront.LimitError{Limit: limit}); !strings.Contains(got, want) {
			t.Errorf("LimitHint(%s) = %q, want %q in it", limit, got, want)
		}
	}
}
