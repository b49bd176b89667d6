//go:build unix

package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/gob"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"go.lsp.dev/protocol"

	"github.com/ascvet/ascvet/analyzers/fixes"
)

// The cache's defences against whoever else can write its folder (issue
// 33): see cachestore.go.

// cacheFiles returns the regular files of the cache dir.
func cacheFiles(t *testing.T, dir string) []string {
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

// forgeCache rewrites, as a forger who can write the cache folder would,
// the findings of every entry of the cache dir (the files' own entries and
// the packs' results) with change; it returns the entries changed.
func forgeCache(t *testing.T, dir string, change func([]cachedFinding) []cachedFinding) int {
	t.Helper()
	forge := func(data []byte) ([]byte, bool) {
		deps, rest, ok := splitDeps(data)
		if !ok {
			return nil, false
		}
		var stored []cachedFinding
		if !bytes.Equal(rest, noFindings) {
			if gob.NewDecoder(bytes.NewReader(rest)).Decode(&stored) != nil {
				return nil, false
			}
		}
		stored = change(stored)
		out := appendDeps(nil, deps)
		if len(stored) == 0 {
			return append(out, noFindings...), true
		}
		var b bytes.Buffer
		if err := gob.NewEncoder(&b).Encode(stored); err != nil {
			t.Fatal(err)
		}
		return append(out, b.Bytes()...), true
	}
	n := 0
	for _, p := range cacheFiles(t, dir) {
		b, err := os.ReadFile(p)
		if err != nil || len(b) <= 2*sha256.Size { // not an entry, or the build's hash
			continue
		}
		payload := b[sha256.Size:]
		var memo storedPack
		if gob.NewDecoder(bytes.NewReader(payload)).Decode(&memo) == nil && memo.Results != nil {
			for k, v := range memo.Results {
				if nv, ok := forge(v); ok {
					memo.Results[k] = nv
					n++
				}
			}
			var mb bytes.Buffer
			if err := gob.NewEncoder(&mb).Encode(memo); err != nil {
				t.Fatal(err)
			}
			payload = mb.Bytes()
		} else if nv, ok := forge(payload); ok {
			payload = nv
			n++
		} else {
			continue
		}
		sum := sha256.Sum256(payload)
		if err := os.WriteFile(p, append(sum[:], payload...), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return n
}

// TestCacheModes: the folder the run makes, the parents it makes, and the
// folders inside are 0700, its files 0600, whatever the umask; a folder an
// earlier version made readable by others is narrowed to 0700.
func TestCacheModes(t *testing.T) {
	old := syscall.Umask(0o002)
	defer syscall.Umask(old)
	base := t.TempDir()
	dir := filepath.Join(base, "a", "b", "ascvet")
	args := []string{"-fail", "none", "../../testdata/kernels"}
	cacheRun(t, dir, args...)
	cacheRun(t, dir, append([]string{"-iterations", "5"}, args...)...)
	cacheRun(t, dir, "-fail", "none", "../../testdata/kernels/masks.asc") // an entry of its own
	n := 0
	err := filepath.WalkDir(filepath.Join(base, "a"), func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		st, err := os.Lstat(p)
		if err != nil {
			return err
		}
		want := fs.FileMode(0o600)
		if st.IsDir() {
			want = 0o700
		} else {
			n++
		}
		if st.Mode().Perm() != want || (!st.IsDir() && !st.Mode().IsRegular()) {
			t.Errorf("%s: mode %v, want %04o", p, st.Mode(), want)
		}
		return nil
	})
	if err != nil || n < 3 {
		t.Fatalf("walking the cache: %v, %d files", err, n)
	}

	earlier := filepath.Join(base, "earlier")
	if err := os.Mkdir(earlier, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(earlier, 0o755); err != nil {
		t.Fatal(err)
	}
	if _, _, errs, st := cacheRun(t, earlier, args...); errs != "" || st.misses.Load() == 0 {
		t.Errorf("a 0755 folder of the user's: %d analysed, stderr %q; want it used", st.misses.Load(), errs)
	}
	if st, err := os.Stat(earlier); err != nil || st.Mode().Perm() != 0o700 {
		t.Errorf("a 0755 folder of the user's after a run: %v, %v; want 0700", st.Mode(), err)
	}
}

// TestCacheRefused: a cache folder that others can write, or that another
// user owns, is not used: one line on stderr, and the findings and exit
// code of a run without the cache, even when its entries were forged to
// hide every finding (which the user, who owns the folder, can do: the
// trust boundary). The folder may be a symbolic link: what it leads to is
// checked.
func TestCacheRefused(t *testing.T) {
	args := []string{"-f", "json", "../../testdata/kernels"}
	wantCode, want, _, _ := cacheRun(t, "off", args...)
	if wantCode != exitFindings || !strings.Contains(want, `"rule": "ASC1001"`) {
		t.Fatalf("without the cache: exit %d, output %q; want findings", wantCode, want)
	}
	refused := func(what, dir, msg string) {
		t.Helper()
		code, out, errs, st := cacheRun(t, dir, args...)
		if out != want || code != wantCode {
			t.Errorf("%s: exit %d, output differs: %v; want those of a run without the cache", what, code, out != want)
		}
		if errs != msg || st.hits.Load()+st.misses.Load() != 0 {
			t.Errorf("%s: stderr %q, %d hits, %d misses; want %q and no cache", what, errs, st.hits.Load(), st.misses.Load(), msg)
		}
	}

	dir := t.TempDir()
	cacheRun(t, dir, args...)
	if n := forgeCache(t, dir, func([]cachedFinding) []cachedFinding { return nil }); n == 0 {
		t.Fatal("no entry forged")
	}
	// The driver's own findings (directives) are not stored: they stay.
	if _, out, _, _ := cacheRun(t, dir, args...); strings.Contains(out, `"rule": "ASC1001"`) || strings.Contains(out, `"rule": "ASC1002"`) {
		t.Fatalf("the forging did not hide the analyzers' findings: the test is broken\n%s", out)
	}
	for _, mode := range []fs.FileMode{0o777, 0o770, 0o702} {
		if err := os.Chmod(dir, mode); err != nil {
			t.Fatal(err)
		}
		refused(fmt.Sprintf("mode %04o", mode), dir, fmt.Sprintf("ascvet: cache folder %s is writable by others (mode %04o); running without the cache\n", dir, mode))
	}
	if err := os.Chmod(dir, 0o700); err != nil {
		t.Fatal(err)
	}

	// Another user's folder: as root, give it away; otherwise, / is one.
	other, uid := dir, 4242
	if os.Getuid() == 0 {
		if err := os.Chown(dir, uid, uid); err != nil {
			t.Fatal(err)
		}
	} else {
		other, uid = "/", 0
		if st, err := os.Stat("/"); err != nil || st.Mode().Perm()&0o022 != 0 {
			t.Skip("not root, and / is not a folder another user owns that others cannot write: not checked")
		}
	}
	refused("another user's folder", other, fmt.Sprintf("ascvet: cache folder %s is owned by uid %d, not by you (uid %d); running without the cache\n", other, uid, os.Getuid()))

	// A link to a folder others can write is refused; to the user's own
	// folder, used.
	open := filepath.Join(t.TempDir(), "open")
	if err := os.Mkdir(open, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(open, 0o777); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(open, link); err != nil {
		t.Fatal(err)
	}
	refused("a link to a folder others can write", link, "ascvet: cache folder "+link+" is writable by others (mode 0777); running without the cache\n")
	if err := os.Chmod(open, 0o700); err != nil {
		t.Fatal(err)
	}
	cacheRun(t, link, args...)
	if code, out, errs, st := cacheRun(t, link, args...); out != want || code != wantCode || errs != "" || st.misses.Load() != 0 {
		t.Errorf("a link to the user's folder: exit %d, %d misses, stderr %q, output differs: %v; want it used", code, st.misses.Load(), errs, out != want)
	}
}

// TestCacheLinks: a symbolic link planted in the cache, at an entry's name
// or at one of its folders, is never written through: the files and
// folders it leads to stay as they were, and the findings are right.
func TestCacheLinks(t *testing.T) {
	args := []string{"-f", "json", "-fail", "none", "../../testdata/kernels"}
	_, want, _, _ := cacheRun(t, "off", args...)
	dir, outside := t.TempDir(), t.TempDir()
	victim := filepath.Join(outside, "victim.txt")
	const text = "the user's own file\n"
	if err := os.WriteFile(victim, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	cacheRun(t, dir, args...)
	cacheRun(t, dir, "-fail", "none", "../../testdata/kernels/masks.asc")
	files := cacheFiles(t, dir)
	for _, p := range files {
		if err := os.Remove(p); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(victim, p); err != nil {
			t.Fatal(err)
		}
	}
	check := func(what string) {
		t.Helper()
		if _, out, errs, _ := cacheRun(t, dir, args...); out != want || errs != "" {
			t.Errorf("%s: stderr %q, output differs: %v", what, errs, out != want)
		}
		if _, _, errs, _ := cacheRun(t, dir, "-fail", "none", "../../testdata/kernels/masks.asc"); errs != "" {
			t.Errorf("%s, one file named: stderr %q", what, errs)
		}
		if got, err := os.ReadFile(victim); err != nil || string(got) != text {
			t.Errorf("%s: the file a link in the cache led to now holds %q (%v)", what, got, err)
		}
	}
	check(strconv.Itoa(len(files)) + " files of the cache replaced by links to a file outside")

	// Its folders replaced by links to a folder outside.
	empty := filepath.Join(outside, "empty")
	if err := os.Mkdir(empty, 0o700); err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		p := filepath.Join(dir, e.Name())
		if err := os.RemoveAll(p); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(empty, p); err != nil {
			t.Fatal(err)
		}
	}
	check("the cache's folders replaced by links to a folder outside")
	if left, err := os.ReadDir(empty); err != nil || len(left) != 0 {
		t.Errorf("the folder outside the cache now holds %d files (%v)", len(left), err)
	}
}

// TestCacheForgedFix: a fix added to a stored entry is not written by -fix
// nor printed by -diff: the fixes written are made from the current text.
func TestCacheForgedFix(t *testing.T) {
	src, dir := t.TempDir(), t.TempDir()
	k := filepath.Join(src, "k.asc")
	orig, err := os.ReadFile("../../testdata/kernels/unaligned_copy.asc")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(k, orig, 0o644); err != nil {
		t.Fatal(err)
	}
	// What -fix writes without the cache.
	if _, _, errs, _ := cacheRun(t, "off", "-fix", k); !strings.Contains(errs, "fixed") {
		t.Fatalf("-fix without the cache: stderr %q; want fixes", errs)
	}
	fixed, err := os.ReadFile(k)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(k, orig, 0o644); err != nil {
		t.Fatal(err)
	}

	const forged = "/* forged by the cache */"
	cacheRun(t, dir, "-fail", "none", k) // an entry of its own
	cacheRun(t, dir, "-fail", "none", src)
	forge := func() {
		t.Helper()
		n := forgeCache(t, dir, func(fs []cachedFinding) []cachedFinding {
			for i := range fs {
				fs[i].Fixes = append([]fixes.Fix{{Pos: fs[i].Pos.Offset, Rule: "ASC1001", Message: "forged", Edits: []fixes.Edit{{Start: 0, End: 0, New: []byte(forged + "\n")}}}}, fs[i].Fixes...)
				break
			}
			return fs
		})
		if n == 0 {
			t.Fatal("no entry forged")
		}
	}
	forge()
	if _, out, _, _ := cacheRun(t, dir, "-f", "sarif", "-fail", "none", k); !strings.Contains(out, "forged") {
		t.Fatalf("the forged fix is not in the cache's findings: the test is broken\n%s", out)
	}
	forge()
	if _, out, errs, _ := cacheRun(t, dir, "-diff", k); strings.Contains(out, forged) || !strings.Contains(out, "@@") {
		t.Errorf("-diff printed the forged fix, or no diff (stderr %q):\n%s", errs, out)
	}
	forge()
	if _, out, errs, _ := cacheRun(t, dir, "-diff", src); strings.Contains(out, forged) {
		t.Errorf("-diff over the folder printed the forged fix (stderr %q):\n%s", errs, out)
	}
	forge()
	cacheRun(t, dir, "-fix", src)
	if got, err := os.ReadFile(k); err != nil || !bytes.Equal(got, fixed) {
		t.Errorf("-fix with a forged cache wrote:\n%s\nwant:\n%s", got, fixed)
	}

	// The language server's code actions, which the editor writes into
	// the buffer, are made afresh too.
	if err := os.WriteFile(k, orig, 0o644); err != nil {
		t.Fatal(err)
	}
	cacheRun(t, dir, "-fail", "none", k)
	forge()
	t.Setenv("ASCVET_CACHE", dir)
	c := startLSP(t, nil, lspOptions{debounce: 5 * time.Millisecond})
	c.initialize(src, "en")
	uri := c.open(k, string(orig), 1)
	c.diagnostics(uri, 1)
	actions := c.codeActions(uri, protocol.Range{End: protocol.Position{Line: 1 << 20}})
	edits := 0
	for _, a := range actions {
		if a.Edit == nil {
			continue
		}
		for _, es := range a.Edit.Changes {
			for _, e := range es {
				edits++
				if strings.Contains(e.NewText, forged) {
					t.Errorf("code action %q writes the forged fix", a.Title)
				}
			}
		}
	}
	if edits == 0 || c.srv.cache.stats.hits.Load() != 0 {
		t.Errorf("%d edits offered, %d cache hits; want fixes made afresh", edits, c.srv.cache.stats.hits.Load())
	}
}

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
