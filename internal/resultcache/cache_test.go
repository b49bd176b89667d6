package resultcache

import (
	"bytes"
	"cmp"
	"crypto/sha256"
	"go/token"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"golang.org/x/tools/go/analysis"

	"github.com/ascvet/ascvet/analyzers/fixes"
	"github.com/ascvet/ascvet/analyzers/runner"
	"github.com/ascvet/ascvet/analyzers/settings"
	"github.com/ascvet/ascvet/cppfront"
	"github.com/ascvet/ascvet/internal/testfs"
)

// TestBuildIDContent: the cache's salt identifies the executable's
// content: a binary replaced in place with the same size and modification
// time (which the salt's old memo, keyed on path, size and time, could not
// tell apart) gives another salt, whether it has a Go build ID or is
// hashed.
func TestBuildIDContent(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Skip(err)
	}
	id, err := buildID()
	if err != nil {
		t.Fatal(err)
	}
	if own, err := exeID(exe); err != nil || !bytes.Equal(own, id) {
		t.Fatalf("buildID %x, the executable's %x (%v)", id, own, err)
	}
	p := filepath.Join(t.TempDir(), "ascvet")
	stamp := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	put := func(b byte) []byte {
		t.Helper()
		if err := os.WriteFile(p, bytes.Repeat([]byte{b}, 4096), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(p, stamp, stamp); err != nil {
			t.Fatal(err)
		}
		h, err := exeID(p)
		if err != nil {
			t.Fatal(err)
		}
		return h
	}
	if a, b := put('a'), put('b'); bytes.Equal(a, b) {
		t.Error("two builds of the same size and time share a salt")
	}
}

// TestSplitDeps: a truncated or garbled header list is a miss, never a
// panic.
func TestSplitDeps(t *testing.T) {
	long := "/a/very/long/folder/of/a/repository/kernels/"
	deps := []cppfront.Dep{{Path: long + "b.h", Sum: sha256.Sum256([]byte("x"))}, {Path: "/0/c.h"}, {Path: long + "inc/d.h"}, {Path: long, Lookup: "include:d.h", Sum: sha256.Sum256([]byte(long + "inc/d.h"))}, {Path: long + "z.h"}}
	data := append(appendDeps(nil, deps), noFindings...)
	got, rest, ok := splitDeps(data)
	want := slices.Clone(deps)
	slices.SortFunc(want, func(x, y cppfront.Dep) int {
		return cmp.Or(strings.Compare(x.Path, y.Path), strings.Compare(x.Lookup, y.Lookup))
	})
	if !ok || !slices.Equal(got, want) || !bytes.Equal(rest, noFindings) {
		t.Fatalf("splitDeps(appendDeps) = %v %v %v", got, rest, ok)
	}
	// Paths shared with the one before are written once: a shared prefix
	// longer than the bytes left is no corruption (it was, at first).
	if len(data) > 2*len(long)+5*sha256.Size+40 {
		t.Errorf("entry of %d bytes: the long folder is written more than twice", len(data))
	}
	for n := range len(data) - len(noFindings) {
		if _, _, ok := splitDeps(data[:n]); ok {
			t.Errorf("splitDeps of the first %d bytes: ok", n)
		}
	}
	if _, _, ok := splitDeps([]byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01}); ok {
		t.Error("splitDeps of a huge count: ok")
	}
}

// TestCacheDir: ASCVET_CACHE names the folder, "off" none; without it the
// cache is the user cache folder's ascvet.
func TestCacheDir(t *testing.T) {
	t.Setenv("ASCVET_CACHE", "/some/where")
	if got := Dir(); got != "/some/where" {
		t.Errorf("ASCVET_CACHE=/some/where: %q", got)
	}
	t.Setenv("ASCVET_CACHE", "off")
	if got := Dir(); got != "" {
		t.Errorf("ASCVET_CACHE=off: %q", got)
	}
	t.Setenv("ASCVET_CACHE", "")
	if user, err := os.UserCacheDir(); err == nil {
		if got := Dir(); got != filepath.Join(user, "ascvet") {
			t.Errorf("no ASCVET_CACHE: %q, want %q", got, filepath.Join(user, "ascvet"))
		}
	}
}

// TestRoundTrip: what is stored comes back as it was, for a run that names
// the file relatively (from the working directory) or absolutely (an
// editor's server): positions in the file take the run's name; positions
// in another file are stored absolute and given back relative to the
// working directory when the run names the file relatively.
func TestRoundTrip(t *testing.T) {
	dir, src := t.TempDir(), t.TempDir()
	text := []byte("__simd_vf__ void F() {}\n")
	at := func(file string, off int) token.Position {
		return token.Position{Filename: file, Offset: off, Line: 1, Column: off + 1}
	}
	in := []runner.Finding{{
		Analyzer:   probe,
		Diagnostic: analysis.Diagnostic{Message: "found", Category: "perf", URL: "u", Related: []analysis.RelatedInformation{{Message: "~12 cycles"}}},
		Pos:        at("k.asc", 3), End: at("k.asc", 5),
		Fixes:   []fixes.Fix{{Pos: 3, Rule: "ASC1001", Message: "hoist", Edits: []fixes.Edit{{Start: 3, End: 5, New: []byte("x")}}}},
		Related: []runner.Related{{Pos: at("inc/h.h", 7), End: at("inc/h.h", 9), Message: "in the helper"}},
	}, {Analyzer: probe, Diagnostic: analysis.Diagnostic{Message: "second"}, Pos: at("k.asc", 1), End: at("k.asc", 1)}}
	store(t, dir, src, text, in, false)

	rel, ok := lookup(t, dir, src, text, false, false)
	if !ok || !reflect.DeepEqual(rel, in) {
		t.Fatalf("named relatively: %+v %v\nwant %+v", rel, ok, in)
	}
	rc := Open(dir, []*analysis.Analyzer{probe}, t.TempDir(), io.Discard)
	defer rc.Close()
	abs := filepath.Join(src, "k.asc")
	key, _ := rc.Key(abs, text, &settings.Settings{})
	got, _, ok := rc.Get(key, abs, []*analysis.Analyzer{probe}, false)
	if !ok || len(got) != 2 {
		t.Fatalf("named absolutely, from another folder: %v %v; want the entry", got, ok)
	}
	if got[0].Pos.Filename != abs || got[0].Related[0].Pos.Filename != filepath.Join(src, "inc/h.h") {
		t.Errorf("named absolutely: positions in %q and %q; want %q and the header's absolute path", got[0].Pos.Filename, got[0].Related[0].Pos.Filename, abs)
	}
	if s := rc.Stats(); s.Hits.Load() != 1 || s.Misses.Load() != 0 {
		t.Errorf("%d hits, %d misses; want 1 and 0", s.Hits.Load(), s.Misses.Load())
	}
	var sum Counters
	sum.Add(rc.Stats())
	sum.Add(rc.Stats())
	sum.Add((*Cache)(nil).Stats())
	if sum.Hits.Load() != 2 {
		t.Errorf("Add: %d hits, want 2", sum.Hits.Load())
	}

	// Another analyzer set that lacks the one stored: a miss, not a panic.
	other := &analysis.Analyzer{Name: "other", Doc: "d", Run: probe.Run}
	rc2 := Open(dir, []*analysis.Analyzer{other}, src, io.Discard)
	defer rc2.Close()
	key, _ = rc2.Key("k.asc", text, &settings.Settings{})
	if found, _, ok := rc2.Get(key, "k.asc", []*analysis.Analyzer{other}, false); ok {
		t.Errorf("an entry of an analyzer not in the run served: %v", found)
	}
}

// TestDeps: an entry serves while every header its lowering read has the
// bytes it had; a machine file is part of the key, and one that cannot be
// read gives no key (no entry, analysed as without the cache).
func TestDeps(t *testing.T) {
	dir, src := t.TempDir(), t.TempDir()
	text := []byte("#include \"h.h\"\n__simd_vf__ void F() {}\n")
	h := testfs.Put(t, src, "h.h", "constexpr int N = 8;\n")
	machine := testfs.Put(t, src, "m.toml", "a = 1\n")
	st := &settings.Settings{Machine: machine}
	run := func() (*Cache, Key, bool) {
		t.Helper()
		rc := Open(dir, []*analysis.Analyzer{probe}, src, io.Discard)
		t.Cleanup(rc.Close)
		key, ok := rc.Key("k.asc", text, st)
		return rc, key, ok
	}
	rc, key, ok := run()
	if !ok {
		t.Fatal("no key")
	}
	rc.Put(key, "k.asc", nil, []cppfront.Dep{{Path: h, Sum: sha256.Sum256([]byte(testfs.Read(t, h)))}}, true)
	served := func(what string, want bool) {
		t.Helper()
		rc, key, ok := run()
		if !ok {
			t.Fatalf("%s: no key", what)
		}
		if _, deps, got := rc.Get(key, "k.asc", []*analysis.Analyzer{probe}, false); got != want || got && (len(deps) != 1 || deps[0].Path != h) {
			t.Errorf("%s: served %v (deps %v), want %v", what, got, deps, want)
		}
	}
	served("nothing changed", true)
	testfs.Put(t, src, "m.toml", "a = 2\n")
	served("the machine file changed", false)
	testfs.Put(t, src, "m.toml", "a = 1\n")
	served("the machine file back", true)
	testfs.Put(t, src, "h.h", "constexpr int N = 16;\n")
	served("the header changed", false)
	if err := os.Remove(machine); err != nil {
		t.Fatal(err)
	}
	if _, _, ok := run(); ok {
		t.Error("a key made with a machine file that cannot be read")
	}
}

// TestCorruptEntry: an entry whose bytes do not decode is a miss, never a
// panic, however it is cut.
func TestCorruptEntry(t *testing.T) {
	dir, src := t.TempDir(), t.TempDir()
	text := []byte("__simd_vf__ void F() {}\n")
	store(t, dir, src, text, []runner.Finding{{Analyzer: probe, Diagnostic: analysis.Diagnostic{Message: "found"}}}, false)
	files := testfs.Files(t, dir)
	var entry string
	for _, p := range files {
		if b, err := os.ReadFile(p); err == nil && bytes.Contains(b, []byte("found")) {
			entry = p
		}
	}
	if entry == "" {
		t.Fatalf("no entry among %q", files)
	}
	whole, err := os.ReadFile(entry)
	if err != nil {
		t.Fatal(err)
	}
	payload := whole[sha256.Size:]
	for n := range len(payload) {
		cut := payload[:n]
		sum := sha256.Sum256(cut)
		if err := os.WriteFile(entry, append(sum[:], cut...), 0o600); err != nil {
			t.Fatal(err)
		}
		if found, ok := lookup(t, dir, src, text, false, false); ok {
			t.Fatalf("an entry cut to %d of %d bytes served %v", n, len(payload), found)
		}
	}
}

// TestMemo: a file the memo recorded without VF code is taken as unchanged
// by the next run over the same paths while its status stays, unless it
// was modified within racyWindow of the recording; a change of size or
// time, or a run over other paths or with another size limit, reads it.
func TestMemo(t *testing.T) {
	dir, src := t.TempDir(), t.TempDir()
	host := testfs.Put(t, src, "host.cpp", "int f(int x) { return x; }\n")
	fresh := testfs.Put(t, src, "fresh.cpp", "int g(int x) { return x; }\n")
	testfs.Aged(t, host, time.Hour)
	record := func(paths []string, max int64) (*Cache, *Memo) {
		t.Helper()
		rc := Open(dir, nil, src, io.Discard)
		t.Cleanup(rc.Close)
		return rc, rc.Memo(paths, max)
	}
	_, m := record([]string{src}, 1<<20)
	if _, ok := m.Unchanged(host); ok {
		t.Fatal("the first run found a memo")
	}
	for _, p := range []string{host, fresh} {
		st, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		m.NoVF(p, st)
	}
	m.Save(time.Now())

	rc, m := record([]string{src}, 1<<20)
	if size, ok := m.Unchanged(host); !ok || size != int64(len("int f(int x) { return x; }\n")) {
		t.Errorf("the old file: unchanged %v, size %d; want it taken as recorded", ok, size)
	}
	if _, ok := m.Unchanged(fresh); ok {
		t.Error("a file modified just before the recording was taken as unchanged")
	}
	if n := rc.Stats().Unread.Load(); n != 1 {
		t.Errorf("%d files unread, want 1", n)
	}
	if _, m := record([]string{src, host}, 1<<20); m.old != nil {
		t.Error("a run over other paths read the memo")
	}
	if _, m := record([]string{src}, 1<<10); m.old != nil {
		t.Error("a run with another size limit read the memo")
	}
	testfs.Put(t, src, "host.cpp", "int f(int x) { return x + 1; }\n")
	testfs.Aged(t, host, time.Hour)
	if _, m := record([]string{src}, 1<<20); func() bool { _, ok := m.Unchanged(host); return ok }() {
		t.Error("a file whose size changed was taken as unchanged")
	}
	var none *Memo
	if _, ok := none.Unchanged(host); ok {
		t.Error("no memo: unchanged")
	}
	none.NoVF(host, nil)
	none.Save(time.Now())
	if (*Cache)(nil).Memo([]string{src}, 1) != nil || Open("", nil, src, io.Discard) != nil {
		t.Error("no cache: a memo, or a cache opened in no folder")
	}
}
