package tempfile

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/ascvet/ascvet/internal/testfs"
)

// TestTempName checks that the temporary files' names are told apart from
// the old ones and from the file they replace, whatever that is called.
func TestTempName(t *testing.T) {
	for _, base := range []string{"k.asc", "a b.asc", "tab\tnl\n.asc", ".hidden", "x.ascvet-tmp-1-00000000"} {
		name := Name(base, 4127, 0x9f86d0a1)
		m := tempPattern.FindStringSubmatch(name)
		if m == nil || m[1] != base || m[2] != "4127" {
			t.Errorf("Name(%q) = %q; parsed as %q", base, name, m)
		}
		if oldTempPattern.MatchString(name) {
			t.Errorf("%q taken for an old-style temporary file", name)
		}
	}
	if name := Name("k.asc", 7, 1); name != ".k.asc.ascvet-tmp-7-00000001" {
		t.Errorf("Name = %q", name)
	}
	// A long name is cut to fit, at a character boundary.
	for _, base := range []string{strings.Repeat("x", 250) + ".asc", strings.Repeat("核", 80) + ".asc"} {
		name := Name(base, 4194303, 0xffffffff)
		m := tempPattern.FindStringSubmatch(name)
		if len(name) > maxNameLen || len(name) < maxNameLen-2 || !utf8.ValidString(name) || m == nil || !strings.HasPrefix(base, m[1]) {
			t.Errorf("Name of a %d-byte name = %q (%d bytes)", len(base), name, len(name))
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
	a := testfs.Put(t, dir, "a.asc", "old a")
	b := testfs.Put(t, dir, "b.asc", "old b")
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
	if got := testfs.Names(t, dir); !slices.Equal(got, []string{"a.asc", "b.asc"}) {
		t.Errorf("after the sweep %s holds %q", dir, got)
	}
	if testfs.Read(t, a) != "old a" || testfs.Read(t, b) != "new" {
		t.Errorf("a holds %q, b %q; want old a and new", testfs.Read(t, a), testfs.Read(t, b))
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
	testfs.Put(t, dir, "k.asc", "kernel")
	stale := testfs.Put(t, dir, ".k.asc.ascvet-1234567", "half")
	testfs.Aged(t, stale, 2*time.Minute)
	fresh := testfs.Put(t, dir, ".k.asc.ascvet-42", "being written")
	testfs.Aged(t, fresh, 10*time.Second)
	orphan := testfs.Put(t, dir, ".gone.asc.ascvet-99", "whose file is gone")
	testfs.Aged(t, orphan, time.Hour)
	for _, name := range []string{".k.asc.ascvet-notes", ".foo.ascvet-notes", ".k.asc.ascvet-tmp-notes", "k.asc.ascvet-12"} {
		testfs.Aged(t, testfs.Put(t, dir, name, "a user's file"), time.Hour)
	}
	// Our own process's file is live, however old.
	mine := testfs.Put(t, dir, Name("k.asc", os.Getpid(), 7), "ours")
	testfs.Aged(t, mine, time.Hour)
	// A directory with a temporary file's name is not ours.
	if err := os.Mkdir(filepath.Join(dir, ".k.asc.ascvet-555"), 0o755); err != nil {
		t.Fatal(err)
	}
	testfs.Aged(t, filepath.Join(dir, ".k.asc.ascvet-555"), time.Hour)
	before := testfs.Names(t, dir)

	var stderr bytes.Buffer
	RemoveStale(&stderr, dir, time.Now())
	want := slices.DeleteFunc(slices.Clone(before), func(n string) bool { return n == filepath.Base(stale) })
	if got := testfs.Names(t, dir); !slices.Equal(got, want) {
		t.Errorf("after removing stale files %s holds\n%q\nwant\n%q", dir, got, want)
	}
	if got, wantMsg := stderr.String(), "ascvet: removed "+stale+", a temporary file left by an interrupted ascvet 0.2.0 or earlier\n"; got != wantMsg {
		t.Errorf("stderr %q, want %q", got, wantMsg)
	}
}

// TestIsTemp tells the names of temporary files, and their process, from
// others.
func TestIsTemp(t *testing.T) {
	name := Name("k.asc", 4127, 0x9f86d0a1)
	if pid, ok := IsTemp(name); !ok || pid != 4127 {
		t.Errorf("IsTemp(%q) = %d, %v", name, pid, ok)
	}
	for _, other := range []string{"k.asc", ".k.asc.ascvet-42", ".notes.ascvet-draft", ".k.asc.ascvet-tmp-0-9f86d0a1"} {
		if _, ok := IsTemp(other); ok {
			t.Errorf("IsTemp(%q) is true", other)
		}
	}
}

// TestRemoveStaleUnreadable: a folder that cannot be read (missing, or a
// file) is passed over in silence: nothing is printed, made or removed.
func TestRemoveStaleUnreadable(t *testing.T) {
	dir := t.TempDir()
	notDir := testfs.Put(t, dir, ".k.asc.ascvet-1234567", "half")
	testfs.Aged(t, notDir, time.Hour)
	var stderr bytes.Buffer
	RemoveStale(&stderr, filepath.Join(dir, "missing"), time.Now())
	RemoveStale(&stderr, notDir, time.Now())
	if stderr.Len() != 0 {
		t.Errorf("stderr %q, want nothing", stderr.String())
	}
	if got := testfs.Names(t, dir); !slices.Equal(got, []string{".k.asc.ascvet-1234567"}) || testfs.Read(t, notDir) != "half" {
		t.Errorf("%s holds %q, the file %q", dir, got, testfs.Read(t, notDir))
	}
}
