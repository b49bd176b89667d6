package main

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

// dirNames returns the names in dir, sorted.
func dirNames(t *testing.T, dir string) []string {
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

// aged sets the modification time of path to d ago.
func aged(t *testing.T, path string, d time.Duration) {
	t.Helper()
	old := time.Now().Add(-d)
	if err := os.Chtimes(path, old, old); err != nil {
		t.Fatal(err)
	}
}

// TestTempName checks that the temporary files' names are told apart from
// the old ones and from the file they replace, whatever that is called.
func TestTempName(t *testing.T) {
	for _, base := range []string{"k.asc", "a b.asc", "tab\tnl\n.asc", ".hidden", "x.ascvet-tmp-1-00000000"} {
		name := tempName(base, 4127, 0x9f86d0a1)
		m := tempPattern.FindStringSubmatch(name)
		if m == nil || m[1] != base || m[2] != "4127" {
			t.Errorf("tempName(%q) = %q; parsed as %q", base, name, m)
		}
		if oldTempPattern.MatchString(name) {
			t.Errorf("%q taken for an old-style temporary file", name)
		}
	}
	if name := tempName("k.asc", 7, 1); name != ".k.asc.ascvet-tmp-7-00000001" {
		t.Errorf("tempName = %q", name)
	}
	// A long name is cut to fit, at a character boundary.
	for _, base := range []string{strings.Repeat("x", 250) + ".asc", strings.Repeat("核", 80) + ".asc"} {
		name := tempName(base, 4194303, 0xffffffff)
		m := tempPattern.FindStringSubmatch(name)
		if len(name) > maxNameLen || len(name) < maxNameLen-2 || !utf8.ValidString(name) || m == nil || !strings.HasPrefix(base, m[1]) {
			t.Errorf("tempName of a %d-byte name = %q (%d bytes)", len(base), name, len(name))
		}
	}
	for _, name := range []string{".k.asc.ascvet-123", ".k.asc.ascvet-4294967295"} {
		if m := oldTempPattern.FindStringSubmatch(name); m == nil || m[1] != "k.asc" {
			t.Errorf("%q not taken for an old-style temporary file of k.asc (%q)", name, m)
		}
	}
	for _, name := range []string{".k.asc.ascvet-notes", ".k.asc.ascvet-12345678901", "k.asc.ascvet-1",
		".k.asc.ascvet-tmp-0-00000000", ".k.asc.ascvet-tmp-1-0000000", ".k.asc.ascvet-tmp-1-0000000G", ".k.asc.ascvet-tmp-1"} {
		if tempPattern.MatchString(name) || oldTempPattern.MatchString(name) {
			t.Errorf("%q taken for a temporary file", name)
		}
	}
}

// TestTempFilesRemoveAll checks what a signal's sweep leaves: the file
// whose rename came first is whole, the other is the original, no
// temporary file is left, and no new one can be made.
func TestTempFilesRemoveAll(t *testing.T) {
	dir := t.TempDir()
	a := put(t, dir, "a.asc", "old a")
	b := put(t, dir, "b.asc", "old b")
	r := &tempFiles{live: map[string]bool{}}
	ta, err := r.create(dir, "a.asc")
	if err != nil {
		t.Fatal(err)
	}
	tb, err := r.create(dir, "b.asc")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []*os.File{ta, tb} {
		if !strings.HasPrefix(filepath.Base(f.Name()), ".") || !tempPattern.MatchString(filepath.Base(f.Name())) {
			t.Errorf("temporary file %s is not named by the pattern", f.Name())
		}
		if _, err := f.WriteString("new"); err != nil {
			t.Fatal(err)
		}
		f.Close()
	}
	if err := os.Rename(tb.Name(), b); err != nil { // b's rename beat the signal
		t.Fatal(err)
	}
	r.removeAll()
	if got := dirNames(t, dir); !slices.Equal(got, []string{"a.asc", "b.asc"}) {
		t.Errorf("after the sweep %s holds %q", dir, got)
	}
	if contents(t, a) != "old a" || contents(t, b) != "new" {
		t.Errorf("a holds %q, b %q; want old a and new", contents(t, a), contents(t, b))
	}
	if err := os.Rename(ta.Name(), a); err == nil { // a's rename came second
		t.Error("the swept temporary file could still be renamed")
	}
	if f, err := r.create(dir, "c.asc"); !errors.Is(err, errExiting) {
		t.Errorf("create after the sweep = %v, %v; want errExiting", f, err)
	}
}

// TestRemoveStaleTempsOld checks the rule for the temporary files of ascvet
// 0.2.0 and earlier: removed when over a minute old and beside their file,
// kept otherwise; and that look-alikes and live files are kept.
func TestRemoveStaleTempsOld(t *testing.T) {
	dir := t.TempDir()
	put(t, dir, "k.asc", "kernel")
	stale := put(t, dir, ".k.asc.ascvet-1234567", "half")
	aged(t, stale, 2*time.Minute)
	fresh := put(t, dir, ".k.asc.ascvet-42", "being written")
	aged(t, fresh, 10*time.Second)
	orphan := put(t, dir, ".gone.asc.ascvet-99", "whose file is gone")
	aged(t, orphan, time.Hour)
	for _, name := range []string{".k.asc.ascvet-notes", ".foo.ascvet-notes", ".k.asc.ascvet-tmp-notes", "k.asc.ascvet-12"} {
		aged(t, put(t, dir, name, "a user's file"), time.Hour)
	}
	// Our own process's file is live, however old.
	mine := put(t, dir, tempName("k.asc", os.Getpid(), 7), "ours")
	aged(t, mine, time.Hour)
	// A directory with a temporary file's name is not ours.
	if err := os.Mkdir(filepath.Join(dir, ".k.asc.ascvet-555"), 0o755); err != nil {
		t.Fatal(err)
	}
	aged(t, filepath.Join(dir, ".k.asc.ascvet-555"), time.Hour)
	before := dirNames(t, dir)

	var stderr bytes.Buffer
	removeStaleTemps(&stderr, dir, time.Now())
	want := slices.DeleteFunc(slices.Clone(before), func(n string) bool { return n == filepath.Base(stale) })
	if got := dirNames(t, dir); !slices.Equal(got, want) {
		t.Errorf("after removing stale files %s holds\n%q\nwant\n%q", dir, got, want)
	}
	if got, wantMsg := stderr.String(), "ascvet: removed "+stale+", a temporary file left by an interrupted ascvet 0.2.0 or earlier\n"; got != wantMsg {
		t.Errorf("stderr %q, want %q", got, wantMsg)
	}
}

// TestFixRemovesStaleTemps checks that -fix sweeps the directories it
// writes in, and only those.
func TestFixRemovesStaleTemps(t *testing.T) {
	withAnalyzers(t, noBad)
	dir := t.TempDir()
	fixMe := filepath.Join(dir, "fix")
	clean := filepath.Join(dir, "clean")
	for _, d := range []string{fixMe, clean} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	k := kernel(t, fixMe, "k.cpp", "BAD\r\n")
	kernel(t, clean, "c.cpp", "good\r\n")
	staleFix := put(t, fixMe, ".k.cpp.ascvet-77", "x")
	staleClean := put(t, clean, ".c.cpp.ascvet-78", "x")
	aged(t, staleFix, time.Hour)
	aged(t, staleClean, time.Hour)

	code, _, errs := ascvet(t, "-fix", dir)
	if code != exitOK || errs != "ascvet: removed "+staleFix+", a temporary file left by an interrupted ascvet 0.2.0 or earlier\nascvet: fixed 1 finding in "+k+"\n" {
		t.Errorf("-fix: exit %d, stderr %q", code, errs)
	}
	if got := dirNames(t, fixMe); !slices.Equal(got, []string{"k.cpp"}) {
		t.Errorf("%s holds %q after -fix", fixMe, got)
	}
	if got := dirNames(t, clean); !slices.Equal(got, []string{".c.cpp.ascvet-78", "c.cpp"}) {
		t.Errorf("%s, where -fix wrote nothing, holds %q; want it untouched", clean, got)
	}
}

// TestOutputTempFile checks that -o writes through a temporary file named
// by the pattern and leaves none behind.
func TestOutputTempFile(t *testing.T) {
	withAnalyzers(t, noBad)
	dir := t.TempDir()
	kernel(t, dir, "k.cpp", "BAD\r\n")
	out := filepath.Join(t.TempDir(), "report.json")
	var seen []string
	tempCreated = func(path string) { seen = append(seen, path) }
	t.Cleanup(func() { tempCreated = nil })
	if code, _, errs := ascvet(t, "-f", "json", "-o", out, dir); code != exitFindings || errs != "" {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	if len(seen) != 1 || filepath.Dir(seen[0]) != filepath.Dir(out) ||
		!strings.HasPrefix(filepath.Base(seen[0]), ".report.json.ascvet-tmp-"+strconv.Itoa(os.Getpid())+"-") {
		t.Errorf("temporary files %q; want one .report.json.ascvet-tmp-PID-RAND beside %s", seen, out)
	}
	if got := dirNames(t, filepath.Dir(out)); !slices.Equal(got, []string{"report.json"}) {
		t.Errorf("output directory holds %q", got)
	}
}

// TestFixLongName checks that a file whose name leaves no room for the
// temporary file's suffix is fixed all the same.
func TestFixLongName(t *testing.T) {
	withAnalyzers(t, noBad)
	dir := t.TempDir()
	name := strings.Repeat("k", 240) + ".cpp"
	if err := os.WriteFile(filepath.Join(dir, name), nil, 0o644); err != nil {
		t.Skipf("this file system takes no %d-byte name: %v", len(name), err)
	}
	k := kernel(t, dir, name, "BAD\r\n")
	if code, _, errs := ascvet(t, "-fix", k); code != exitOK || errs != "ascvet: fixed 1 finding in "+k+"\n" {
		t.Errorf("-fix: exit %d, stderr %q", code, errs)
	}
	if got := dirNames(t, dir); !slices.Equal(got, []string{name}) {
		t.Errorf("%s holds %q", dir, got)
	}
}
