package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/ascvet/ascvet/internal/report"
	"github.com/ascvet/ascvet/internal/resultcache"
	"github.com/ascvet/ascvet/internal/source"
	"github.com/ascvet/ascvet/internal/vfgen"
)

// cacheRun runs ascvet with the cache in dir and returns its exit code,
// output, stderr and cache counters.
func cacheRun(t *testing.T, dir string, args ...string) (code int, out, errs string, st *resultcache.Counters) {
	t.Helper()
	t.Setenv("ASCVET_CACHE", dir)
	st = &resultcache.Counters{}
	withCacheStats(st, func() { code, out, errs = ascvet(t, args...) })
	return code, out, errs, st
}

// withCacheStats runs f and adds the cache counters of the runs it makes
// to st.
func withCacheStats(st *resultcache.Counters, f func()) {
	var seen []*resultcache.Counters
	observeCache = func(c *resultcache.Counters) { seen = append(seen, c) }
	defer func() { observeCache = nil }()
	f()
	for _, c := range seen {
		st.Add(c)
	}
}

// TestCacheSameFindings: every format prints the same with the cache off,
// cold and warm, and a warm run analyses nothing.
func TestCacheSameFindings(t *testing.T) {
	dir := t.TempDir()
	paths := []string{"../../testdata/kernels", "testdata/walk"}
	for _, f := range report.Formats {
		args := append([]string{"-f", f, "-fail", "none", "-show-ignored"}, paths...)
		_, off, _, _ := cacheRun(t, "off", args...) // the same arguments: SARIF lists them
		_, cold, _, _ := cacheRun(t, dir, args...)
		_, warm, errs, st := cacheRun(t, dir, args...)
		if cold != off || warm != off {
			t.Errorf("-f %s: the cache changed the output:\noff:\n%s\ncold:\n%s\nwarm:\n%s", f, off, cold, warm)
		}
		if st.Misses.Load() != 0 || st.Hits.Load() == 0 || errs != "" {
			t.Errorf("-f %s warm: %d hits, %d misses, stderr %q; want only hits", f, st.Hits.Load(), st.Misses.Load(), errs)
		}
	}
}

// TestCacheKey: what the key must cover makes the file analysed again (an
// included header, the settings, the machine file's bytes); what is applied
// after the analyzers (the language, the rules the config enables, the
// baseline) does not.
func TestCacheKey(t *testing.T) {
	cache := t.TempDir()
	src := t.TempDir()
	k := filepath.Join(src, "k.asc")
	write := func(p, s string) {
		t.Helper()
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(k, vfgen.RowsKernel)
	write(filepath.Join(src, "rows.h"), "constexpr uint32_t ROW = 68; // 272 bytes: off the 32-byte grid\n")
	misses := func(want int64, args ...string) string {
		t.Helper()
		_, out, errs, st := cacheRun(t, cache, append([]string{"-fail", "none"}, args...)...)
		if st.Misses.Load() != want {
			t.Errorf("ascvet %s: %d files analysed, want %d (stderr %q)", strings.Join(args, " "), st.Misses.Load(), want, errs)
		}
		return out
	}
	if out := misses(1, k); !strings.Contains(out, "ASC2001") {
		t.Fatalf("the misaligned stride from rows.h is not reported:\n%s", out)
	}
	if out := misses(0, k); !strings.Contains(out, "ASC2001") {
		t.Errorf("warm run lost the finding:\n%s", out)
	}
	write(filepath.Join(src, "rows.h"), "constexpr uint32_t ROW = 64; // 256 bytes\n")
	if out := misses(1, k); strings.Contains(out, "ASC2001") {
		t.Errorf("the header changed to an aligned stride, the finding stayed:\n%s", out)
	}
	write(filepath.Join(src, "rows.h"), "constexpr uint32_t ROW = 68;\n")
	misses(1, k) // the bytes are those of the first run, but rewritten: the comment went
	misses(1, "-iterations", "3", k)
	misses(0, "-iterations", "3", k)
	misses(1, "-max-depth", "500", k) // a limit of cppir, which the rules require
	misses(0, "-max-depth", "500", k)
	machine, err := os.ReadFile("../../simcheck/machines/ascend950.toml")
	if err != nil {
		t.Fatal(err)
	}
	m := filepath.Join(t.TempDir(), "m.toml")
	write(m, string(machine))
	misses(1, "-machine", m, k)
	misses(0, "-machine", m, k)
	write(m, string(machine)+"\n# another machine\n")
	misses(1, "-machine", m, k)

	if out := misses(0, "-lang", "zh", k); !strings.Contains(out, "ASC2001") || !strings.Contains(out, "错误") {
		t.Errorf("-lang zh from the cache:\n%s", out)
	}
	if out := misses(0, "-checks", "all,-ASC2001", k); strings.Contains(out, "ASC2001") {
		t.Errorf("-checks without ASC2001 from the cache still reports it:\n%s", out)
	}
	base := filepath.Join(t.TempDir(), "base.json")
	misses(0, "-write-baseline", base, k)
	if out := misses(0, "-baseline", base, k); strings.Contains(out, "ASC2001") {
		t.Errorf("-baseline from the cache still reports the finding:\n%s", out)
	}
}

// TestCacheDeps: an entry depends on the headers the file's lowering
// consulted, not on every header it includes. A kernel whose values are
// all its own is not analysed again when an included header changes; one
// that reads a value from a header is, and when the header goes.
func TestCacheDeps(t *testing.T) {
	cache := t.TempDir()
	src := t.TempDir()
	write := func(p, s string) {
		t.Helper()
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	own := filepath.Join(src, "own.asc")
	uses := filepath.Join(src, "uses.asc")
	rows := filepath.Join(src, "rows.h")
	// own.asc names its own constant in lower case: a name spelled as a
	// macro (ROW) that the file does not #define is looked for among the
	// headers' macros, and makes them a dependency (a header that comes to
	// #define it would change the file).
	write(own, strings.ReplaceAll(strings.Replace(vfgen.RowsKernel, `#include "rows.h"`, "#include \"rows.h\"\nconstexpr uint32_t rowLen = 68;", 1), "i * ROW", "i * rowLen"))
	write(uses, vfgen.RowsKernel)
	write(rows, "constexpr uint32_t ROW = 68;\n")
	misses := func(want int64, file string) {
		t.Helper()
		_, _, errs, st := cacheRun(t, cache, "-fail", "none", file)
		if st.Misses.Load() != want {
			t.Errorf("ascvet %s: %d files analysed, want %d (stderr %q)", filepath.Base(file), st.Misses.Load(), want, errs)
		}
	}
	misses(1, own)
	misses(1, uses)
	write(rows, "constexpr uint32_t ROW = 68; // touched\n")
	misses(0, own)  // it read nothing from rows.h
	misses(1, uses) // it read ROW
	misses(0, uses)
	if err := os.Remove(rows); err != nil {
		t.Fatal(err)
	}
	misses(0, own)
	misses(1, uses)
}

// TestCacheCorpus compares, when ASCVET_CORPUS names a tree of kernels (the
// public CANN repositories), the findings of every tenth VF file with the
// cache off, cold and warm, in JSON (fingerprints included):
//
//	ASCVET_CORPUS=/work/corpus go test ./internal/cli -run CacheCorpus
func TestCacheCorpus(t *testing.T) {
	dir := os.Getenv("ASCVET_CORPUS")
	if dir == "" {
		t.Skip("ASCVET_CORPUS is not set")
	}
	var sample []string
	for i, p := range source.Expand([]string{dir}, func(string, error) {}) {
		if i%10 == 0 {
			sample = append(sample, p)
		}
	}
	args := append([]string{"-f", "json", "-fail", "none"}, sample...)
	_, off, _, _ := cacheRun(t, "off", args...)
	cache := t.TempDir()
	_, cold, _, _ := cacheRun(t, cache, args...)
	_, warm, _, st := cacheRun(t, cache, args...)
	if cold != off || warm != off {
		t.Errorf("%d files: the cache changed the findings (cold differs: %v, warm differs: %v)", len(sample), cold != off, warm != off)
	}
	t.Logf("%d files, %d analysed from the cache, %d bytes of findings", len(sample), st.Hits.Load(), len(off))
}

// TestCacheBroken: a corrupt cache, a cache path that is a file, and a
// read-only cache are misses, never errors.
func TestCacheBroken(t *testing.T) {
	args := []string{"-f", "json", "-fail", "none", "../../testdata/kernels"}
	_, want, _ := ascvet(t, append([]string{"-cache", "off"}, args...)...)

	dir := t.TempDir()
	cacheRun(t, dir, args...)
	n := 0
	err := filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
		if err != nil || info.IsDir() {
			return err
		}
		n++
		return os.WriteFile(p, []byte("garbage\x00\xff"), 0o644)
	})
	if err != nil || n == 0 {
		t.Fatalf("corrupting the cache: %v, %d files", err, n)
	}
	if code, out, errs, st := cacheRun(t, dir, args...); out != want || errs != "" || code != exitOK || st.Hits.Load() != 0 {
		t.Errorf("corrupt cache: exit %d, %d hits, stderr %q, output differs: %v", code, st.Hits.Load(), errs, out != want)
	}
	if _, out, errs, st := cacheRun(t, dir, args...); out != want || errs != "" || st.Misses.Load() != 0 {
		t.Errorf("after the corrupt cache was rewritten: %d misses, stderr %q, output differs: %v", st.Misses.Load(), errs, out != want)
	}

	file := filepath.Join(t.TempDir(), "not-a-dir")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if code, out, errs, _ := cacheRun(t, file, args...); out != want || errs != "" || code != exitOK {
		t.Errorf("cache path is a file: exit %d, stderr %q, output differs: %v", code, errs, out != want)
	}

	// Read-only: a filled cache whose folders take no new file (chmod for
	// a user; root ignores modes, so chattr +i, which binds root too). Its
	// entries still serve; every write fails quietly.
	ro := t.TempDir()
	cacheRun(t, ro, args...)
	lock, unlock := func(p string) error { return os.Chmod(p, 0o555) }, func(p string) error { return os.Chmod(p, 0o755) }
	if os.Geteuid() == 0 {
		chattr, err := exec.LookPath("chattr")
		if err != nil {
			t.Log("running as root without chattr: a read-only cache cannot be made here; not checked")
			return
		}
		lock = func(p string) error { return exec.Command(chattr, "+i", p).Run() }
		unlock = func(p string) error { return exec.Command(chattr, "-i", p).Run() }
	}
	var dirs []string
	if err := filepath.Walk(ro, func(p string, info os.FileInfo, err error) error {
		if err == nil && info.IsDir() {
			dirs = append(dirs, p)
		}
		return err
	}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		for _, d := range dirs {
			_ = unlock(d)
		}
	})
	for i, d := range dirs {
		if err := lock(d); err != nil {
			if i == 0 { // chattr on a file system without the attribute (tmpfs)
				t.Logf("cannot make %s read-only here (%v): not checked", d, err)
				return
			}
			t.Fatalf("making %s read-only: %v", d, err)
		}
	}
	probe := filepath.Join(ro, "00", "probe")
	if err := os.WriteFile(probe, nil, 0o644); err == nil {
		t.Fatalf("the cache is still writable (%s was created)", probe)
	}
	if code, out, errs, st := cacheRun(t, ro, args...); out != want || errs != "" || code != exitOK || st.Hits.Load() == 0 {
		t.Errorf("read-only cache: exit %d, %d hits, stderr %q, output differs: %v", code, st.Hits.Load(), errs, out != want)
	}
	// A miss in the read-only cache: analysed, and the write that fails
	// says nothing.
	other := []string{"-f", "json", "-fail", "none", "-iterations", "5", "../../testdata/kernels/masks.asc"}
	_, wantOther, _, _ := cacheRun(t, "off", other...)
	if _, _, _, st := cacheRun(t, t.TempDir(), other...); st.Puts.Load() != 1 {
		t.Fatalf("a named file in a writable cache: %d entries written, want 1", st.Puts.Load())
	}
	if code, out, errs, st := cacheRun(t, ro, other...); out != wantOther || errs != "" || code != exitOK || st.Misses.Load() == 0 || st.Puts.Load() != 0 {
		t.Errorf("read-only cache, new settings: exit %d, %d misses, %d puts, stderr %q, output differs: %v", code, st.Misses.Load(), st.Puts.Load(), errs, out != wantOther)
	}
}

// TestCacheProcesses runs the ascvet binary: several runs writing one cache
// at once, runs killed in the middle, and a full disk (a file size limit of
// 512 bytes, so that every cache write fails) all leave a cache whose
// results are right.
func TestCacheProcesses(t *testing.T) {
	bin := filepath.Join(buildAscvet(t), "ascvet")
	kernels, err := filepath.Abs("../../testdata/kernels")
	if err != nil {
		t.Fatal(err)
	}
	runBin := func(cache string, args ...string) (string, error) {
		cmd := exec.Command(bin, append([]string{"-f", "json", "-fail", "none"}, append(args, kernels)...)...)
		cmd.Env = append(os.Environ(), "ASCVET_CACHE="+cache)
		out, err := cmd.Output()
		return string(out), err
	}
	want, err := runBin("off")
	if err != nil {
		t.Fatal(err)
	}

	dir := t.TempDir()
	var wg sync.WaitGroup
	outs := make([]string, 4)
	errs := make([]error, 4)
	for i := range outs {
		wg.Go(func() { outs[i], errs[i] = runBin(dir) })
	}
	wg.Wait()
	for i := range outs {
		if errs[i] != nil || outs[i] != want {
			t.Errorf("concurrent run %d: %v, output differs: %v", i, errs[i], outs[i] != want)
		}
	}
	if out, err := runBin(dir); err != nil || out != want {
		t.Errorf("after the concurrent runs: %v, output differs: %v", err, out != want)
	}

	killed := t.TempDir()
	for _, after := range []time.Duration{5 * time.Millisecond, 20 * time.Millisecond, 60 * time.Millisecond} {
		cmd := exec.Command(bin, "-j", "1", kernels)
		cmd.Env = append(os.Environ(), "ASCVET_CACHE="+killed)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(after)
		_ = cmd.Process.Signal(syscall.SIGKILL)
		_ = cmd.Wait()
	}
	for range 2 {
		if out, err := runBin(killed); err != nil || out != want {
			t.Errorf("after killed runs: %v, output differs: %v", err, out != want)
		}
	}

	if _, err := exec.LookPath("bash"); err != nil {
		t.Log("no bash: not checking a full disk")
		return
	}
	full := t.TempDir()
	cmd := exec.Command("bash", "-c", `ulimit -f 1 && exec "$0" -f json -fail none "$1"`, bin, kernels)
	cmd.Env = append(os.Environ(), "ASCVET_CACHE="+full)
	out, err := cmd.Output()
	if err != nil || string(out) != want {
		t.Errorf("full disk: %v, output differs: %v", err, string(out) != want)
	}
}

// TestScanMemo: a file with no VF code is not read again while its status
// stays, unless it changed too close to the memo's writing to be trusted;
// a change that keeps its size and modification time is still seen (the
// change time), and VF code added to it is found.
func TestScanMemo(t *testing.T) {
	cache, src := t.TempDir(), t.TempDir()
	host := filepath.Join(src, "host.cpp")
	if err := os.WriteFile(host, []byte("int hostOnly(int x) { return x + 1; }"+strings.Repeat(" ", 40)+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	unread := func(want int64) *resultcache.Counters {
		t.Helper()
		_, _, errs, st := cacheRun(t, cache, "-fail", "none", src)
		if st.Unread.Load() != want || errs != "" {
			t.Errorf("%d files not read, want %d (stderr %q)", st.Unread.Load(), want, errs)
		}
		return st
	}
	unread(0)
	unread(0) // written just now: too close to the memo's time to trust
	old := time.Now().Add(-time.Hour)
	if err := os.Chtimes(host, old, old); err != nil {
		t.Fatal(err)
	}
	unread(0) // its time changed: read, and remembered
	unread(1)

	// The same size and modification time, other bytes: VF code now.
	st, err := os.Stat(host)
	if err != nil {
		t.Fatal(err)
	}
	vf := []byte("__simd_vf__ void F() { AscendC::Reg::RegTensor<float> v; }")
	vf = append(vf, strings.Repeat(" ", int(st.Size())-len(vf)-1)...)
	vf = append(vf, '\n')
	if int64(len(vf)) != st.Size() {
		t.Fatalf("test kernel of %d bytes, want %d", len(vf), st.Size())
	}
	if err := os.WriteFile(host, vf, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(host, old, st.ModTime()); err != nil {
		t.Fatal(err)
	}
	if runtime.GOOS != "linux" {
		t.Skip("the memo keeps change times on Linux alone: a change that keeps size and time is not seen here")
	}
	if st := unread(0); st.Misses.Load() != 1 {
		t.Errorf("the file that became a VF file was not analysed: %d files analysed", st.Misses.Load())
	}
}

// TestCachePack: a run over a tree keeps its results in one pack (a few
// cache files, not two a file), which the next run over the tree reads; a
// change to one file analyses that file alone; files named one by one (as
// pre-commit names them) get entries of their own, which a run naming
// another set of files finds.
func TestCachePack(t *testing.T) {
	cache, src := t.TempDir(), t.TempDir()
	if err := copySources("../../testdata/kernels", src); err != nil {
		t.Fatal(err)
	}
	count := func() int {
		n := 0
		_ = filepath.Walk(cache, func(_ string, info os.FileInfo, err error) error {
			if err == nil && !info.IsDir() {
				n++
			}
			return nil
		})
		return n
	}
	_, _, _, cold := cacheRun(t, cache, "-fail", "none", src)
	files := count()
	if cold.Misses.Load() < 10 || files > 8 {
		t.Errorf("cold run over the tree: %d files analysed, %d cache files; want every VF file analysed and a pack of a few files", cold.Misses.Load(), files)
	}
	if _, _, _, warm := cacheRun(t, cache, "-fail", "none", src); warm.Misses.Load() != 0 || warm.Hits.Load() != cold.Misses.Load() {
		t.Errorf("warm run: %d hits, %d misses; want %d and 0", warm.Hits.Load(), warm.Misses.Load(), cold.Misses.Load())
	}
	k := filepath.Join(src, "masks.asc")
	f, err := os.OpenFile(k, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString("\n// one more line\n"); err != nil {
		t.Fatal(err)
	}
	f.Close()
	if _, _, _, touched := cacheRun(t, cache, "-fail", "none", src); touched.Misses.Load() != 1 {
		t.Errorf("after one file changed: %d files analysed, want 1", touched.Misses.Load())
	}

	before := count()
	named := []string{"-fail", "none", k, filepath.Join(src, "clean.asc")}
	if _, _, _, st := cacheRun(t, cache, named...); st.Misses.Load() != 2 || st.Puts.Load() != 2 {
		t.Errorf("two files named: %d analysed, %d entries of their own; want 2 and 2", st.Misses.Load(), st.Puts.Load())
	}
	if count() < before+2 { // a file an entry
		t.Errorf("two files named wrote %d cache files, want their entries", count()-before)
	}
	if _, _, _, st := cacheRun(t, cache, "-fail", "none", k); st.Misses.Load() != 0 {
		t.Errorf("one of them named again, alone: %d analysed, want 0", st.Misses.Load())
	}
}
