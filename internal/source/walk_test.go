package source

import (
	"errors"
	"io/fs"
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

// TestExpandArgs: "..." alone is the current folder; a folder given twice,
// as itself and within another folder given before it, yields its files
// once; another folder after them is walked as well.
func TestExpandArgs(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	testfs.Put(t, dir, "a/x.cpp", "")
	testfs.Put(t, dir, "a/sub/y.h", "")
	testfs.Put(t, dir, "b/z.asc", "")
	bad := func(p string, err error) { t.Errorf("%s: %v", p, err) }
	sep := string(filepath.Separator)
	if got, want := Expand([]string{"..."}, bad), []string{"a" + sep + "sub" + sep + "y.h", "a" + sep + "x.cpp", "b" + sep + "z.asc"}; !slices.Equal(got, want) {
		t.Errorf("Expand(...) = %q, want %q", got, want)
	}
	if got, want := Expand([]string{"a", "a/sub", "b"}, bad), []string{"a" + sep + "sub" + sep + "y.h", "a" + sep + "x.cpp", "b" + sep + "z.asc"}; !slices.Equal(got, want) {
		t.Errorf("Expand(a, a/sub, b) = %q, want %q", got, want)
	}
}

// TestExpandUnreadableFolder: a folder that cannot be listed is a bad
// path, not a folder without sources; what was listed before the error is
// walked still.
func TestExpandUnreadableFolder(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	testfs.Put(t, dir, "locked/a.cpp", "")
	testfs.Put(t, dir, "part/a.cpp", "")
	testfs.Put(t, dir, "part/b.cpp", "")
	defer func(r func(string) ([]os.DirEntry, error)) { ReadDir = r }(ReadDir)
	ReadDir = func(name string) ([]os.DirEntry, error) {
		entries, err := os.ReadDir(name)
		switch name {
		case "locked":
			return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrPermission}
		case "part":
			return entries[:1], &fs.PathError{Op: "readdirent", Path: name, Err: fs.ErrPermission} // b.cpp not listed
		}
		return entries, err
	}
	var bad, notes []string
	got := ExpandNoted([]string{"locked", "part"},
		func(p string, err error) {
			if !errors.Is(err, fs.ErrPermission) {
				t.Errorf("%s: %v, want fs.ErrPermission", p, err)
			}
			bad = append(bad, p)
		},
		func(p, msg string) { notes = append(notes, p+": "+msg) })
	if want := []string{filepath.Join("part", "a.cpp")}; !slices.Equal(got, want) {
		t.Errorf("walked %q, want %q", got, want)
	}
	if want := []string{"locked", "part"}; !slices.Equal(bad, want) {
		t.Errorf("bad %q, want %q", bad, want)
	}
	if len(notes) != 0 {
		t.Errorf("notes %q, want none", notes)
	}
}

// TestWalkOrder: a walk reaches the files of a folder in the order of
// their names, what is below one in its place, and a folder before what
// lies below it.
func TestWalkOrder(t *testing.T) {
	root := filepath.FromSlash("/r")
	for _, c := range []struct {
		real, at string
		want     bool
	}{
		{"a.cpp", "b.cpp", true},
		{"b.cpp", "a.cpp", false},
		{"a/z.cpp", "b.cpp", true},
		{"c.cpp", "b/a.cpp", false},
		{"a", "a/b.cpp", true},
		{"a/b.cpp", "a", false},
	} {
		real, at := filepath.Join(root, filepath.FromSlash(c.real)), filepath.Join(root, filepath.FromSlash(c.at))
		if got := walkOrder(root, real, at); got != c.want {
			t.Errorf("walkOrder(%s before %s) = %v, want %v", c.real, c.at, got, c.want)
		}
	}
}

// TestExpandListed: the listing holds, by absolute path, every directory
// the walk listed whole, with the names of interest it holds (of any
// type: .git a directory or a file); a directory it did not enter (hidden,
// a build tree, above the path walked) or could not list whole is not
// known, and neither is a name it was not told of.
func TestExpandListed(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	testfs.Put(t, dir, "r/ascvet.toml", "")
	testfs.Put(t, dir, "r/a/.git", "gitdir: x\n")
	testfs.Put(t, dir, "r/a/k.cpp", "")
	testfs.Put(t, dir, "r/a/b/.git/HEAD", "")
	testfs.Put(t, dir, "r/a/b/k.cpp", "")
	testfs.Put(t, dir, "r/build/ascvet.toml", "")
	testfs.Put(t, dir, "r/.hidden/ascvet.toml", "")
	testfs.Put(t, dir, "r/part/ascvet.toml", "")
	testfs.Put(t, dir, "r/part/k.cpp", "")
	defer func(r func(string) ([]os.DirEntry, error)) { ReadDir = r }(ReadDir)
	ReadDir = func(name string) ([]os.DirEntry, error) {
		entries, err := os.ReadDir(name)
		if filepath.Base(name) == "part" {
			return entries, &fs.PathError{Op: "readdirent", Path: name, Err: fs.ErrPermission}
		}
		return entries, err
	}
	lst := NewListing("ascvet.toml", ".git")
	ExpandListed([]string{"r/..."}, func(string, error) {}, func(string, string) {}, lst)
	abs := func(p string) string { return filepath.Join(dir, filepath.FromSlash(p)) }
	for _, tc := range []struct {
		dir, name      string
		present, known bool
	}{
		{"r", "ascvet.toml", true, true},
		{"r", ".git", false, true},
		{"r/a", ".git", true, true}, // a file
		{"r/a", "ascvet.toml", false, true},
		{"r/a/b", ".git", true, true},  // a directory
		{"r/a", "k.cpp", false, false}, // not a name of the listing
		{"r/build", "ascvet.toml", false, false},
		{"r/.hidden", "ascvet.toml", false, false},
		{"r/part", "ascvet.toml", false, false}, // listed with an error
		{".", "ascvet.toml", false, false},      // above the path walked
	} {
		if present, known := lst.Has(abs(tc.dir), tc.name); present != tc.present || known != tc.known {
			t.Errorf("Has(%s, %s) = %v, %v; want %v, %v", tc.dir, tc.name, present, known, tc.present, tc.known)
		}
	}
	var nilListing *Listing
	if present, known := nilListing.Has(abs("r"), "ascvet.toml"); present || known {
		t.Errorf("a nil listing knows %v, %v", present, known)
	}
}
