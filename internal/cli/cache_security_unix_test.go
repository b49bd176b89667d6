//go:build unix

package cli

import (
	"bytes"
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

	"github.com/ascvet/ascvet/internal/lsp"
	"github.com/ascvet/ascvet/internal/lsp/lsptest"
	"github.com/ascvet/ascvet/internal/testfs"
)

// The cache's defences against whoever else can write its folder (issue
// 33): see internal/resultcache/store.go.

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
	if _, _, errs, st := cacheRun(t, earlier, args...); errs != "" || st.Misses.Load() == 0 {
		t.Errorf("a 0755 folder of the user's: %d analysed, stderr %q; want it used", st.Misses.Load(), errs)
	}
	if st, err := os.Stat(earlier); err != nil || st.Mode().Perm() != 0o700 {
		t.Errorf("a 0755 folder of the user's after a run: %v, %v; want 0700", st.Mode(), err)
	}
}

// TestCacheRefused: a cache folder that others can write, or that another
// user owns, is not used: one line on stderr, no entry read, and the
// findings and exit code of a run without the cache. The folder may be a
// symbolic link: what it leads to is checked. (That such a folder is not
// opened whatever its entries hold, forged ones too: resultcache's
// TestOpenRefused.)
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
		if errs != msg || st.Hits.Load()+st.Misses.Load() != 0 {
			t.Errorf("%s: stderr %q, %d hits, %d misses; want %q and no cache", what, errs, st.Hits.Load(), st.Misses.Load(), msg)
		}
	}

	dir := t.TempDir()
	cacheRun(t, dir, args...)
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
	if code, out, errs, st := cacheRun(t, link, args...); out != want || code != wantCode || errs != "" || st.Misses.Load() != 0 {
		t.Errorf("a link to the user's folder: exit %d, %d misses, stderr %q, output differs: %v; want it used", code, st.Misses.Load(), errs, out != want)
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
	files := testfs.Files(t, dir)
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

// TestCacheFixesAfresh: -fix and -diff, and the language server's code
// actions, take no stored entry whose findings carry fixes: the fixes
// written are made from the current text, so that one forged into the
// cache is never written (resultcache's TestForgedFix: such an entry
// serves no run that asks for fixes).
func TestCacheFixesAfresh(t *testing.T) {
	src := t.TempDir()
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

	// A cache that holds the file's findings, fixes and all: an entry of
	// its own and a pack's.
	warm := func() string {
		t.Helper()
		dir := t.TempDir()
		cacheRun(t, dir, "-fail", "none", k)
		cacheRun(t, dir, "-fail", "none", src)
		if _, _, _, st := cacheRun(t, dir, "-fail", "none", k); st.Hits.Load() != 1 {
			t.Fatalf("a run that only reports: %d hits, want the entry served (else the test is broken)", st.Hits.Load())
		}
		return dir
	}
	afresh := func(what string, args ...string) string {
		t.Helper()
		_, out, errs, st := cacheRun(t, warm(), args...)
		if st.Hits.Load() != 0 || st.Misses.Load() == 0 {
			t.Errorf("%s: %d hits, %d misses (stderr %q); want the file with fixes analysed afresh", what, st.Hits.Load(), st.Misses.Load(), errs)
		}
		return out
	}
	if out := afresh("-diff", "-diff", k); !strings.Contains(out, "@@") {
		t.Errorf("-diff printed no diff:\n%s", out)
	}
	afresh("-diff over the folder", "-diff", src)
	afresh("-fix", "-fix", src)
	if got, err := os.ReadFile(k); err != nil || !bytes.Equal(got, fixed) {
		t.Errorf("-fix with a warm cache wrote:\n%s\nwant:\n%s", got, fixed)
	}

	// The language server's code actions, which the editor writes into
	// the buffer, are made afresh too.
	if err := os.WriteFile(k, orig, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("ASCVET_CACHE", warm())
	c := lsptest.Start(t, nil, lsp.Options{Debounce: 5 * time.Millisecond})
	c.Initialize(src, "en")
	uri := c.Open(k, string(orig), 1)
	c.Diagnostics(uri, 1)
	actions := c.CodeActions(uri, protocol.Range{End: protocol.Position{Line: 1 << 20}})
	edits := 0
	for _, a := range actions {
		if a.Edit == nil {
			continue
		}
		for _, es := range a.Edit.Changes {
			edits += len(es)
		}
	}
	if edits == 0 || c.Server.CacheStats().Hits.Load() != 0 {
		t.Errorf("%d edits offered, %d cache hits; want fixes made afresh", edits, c.Server.CacheStats().Hits.Load())
	}
}
