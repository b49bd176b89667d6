//go:build unix

package cli

import (
	"errors"
	"fmt"
	"go/token"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	sitter "github.com/tree-sitter/go-tree-sitter"
	tscpp "github.com/tree-sitter/tree-sitter-cpp/bindings/go"

	"github.com/ascvet/ascvet/analyzers/cppir"
	"github.com/ascvet/ascvet/analyzers/runner"
	"github.com/ascvet/ascvet/cppfront"
	"github.com/ascvet/ascvet/internal/resultcache"
	"github.com/ascvet/ascvet/internal/source"
)

// BenchmarkSpeed measures the speed targets in one run, against a raw
// tree-sitter parse of the same files timed in the same run:
//
//	ASCVET_SPEED_DIR=/work/corpus go test ./internal/cli -run XXX -bench Speed -benchtime 1x
//
// (without ASCVET_SPEED_DIR, the bundled example kernels). Each check is a
// process of the ascvet binary, built once, as a user runs it; the raw
// parse is a process too (this test binary, running TestRawParseChild), so
// that neither pays for what an earlier run left in the other's heap. CPU
// time is user + system of the child, from wait4. It reports:
//
//   - raw-cpu-s: tree-sitter-cpp parsing every VF file of the tree, nothing
//     done with the trees (the baseline; the least of three);
//   - cold/raw: a full check with an empty result cache (the least of
//     three, run in turn with the raw parses, the order alternating), over
//     the raw parse; on a shared VM one parse of the same files varies by
//     20% from run to run, and interference only adds time;
//     cold/raw-pairs-median is the median of the three pairs' ratios;
//   - warm/raw: the same check again, nothing changed;
//   - one-ms-cpu: a warm check of the one VF file nearest 70 KB, as
//     pre-commit runs it: a process (the mean of 10);
//   - touch-file-analysed, touch-header-analysed: files analysed again after
//     one VF file, then one header its analysis read, changed (in a copy of
//     the tree's sources, so that nothing of the user's is touched; counted
//     in-process, where the cache's counters are seen);
//   - cold-tree-sitter-share: of the CPU time of the cold check that fills
//     the copy's cache (in-process), the share tree-sitter itself takes:
//     parsing, flattening, freeing trees (cppfront.CountTreeSitterCPU).
//     The rest is ascvet's own Go, what a cold run adds to a parse.
func BenchmarkSpeed(b *testing.B) {
	dir := os.Getenv("ASCVET_SPEED_DIR")
	if dir == "" {
		dir = "../../testdata/kernels"
	}
	vf := vfFiles(b, dir)
	if len(vf) == 0 {
		b.Skip("no VF files under " + dir)
	}
	bin := buildBench(b)
	list := filepath.Join(b.TempDir(), "vf.txt")
	if err := os.WriteFile(list, []byte(strings.Join(vf, "\n")), 0o644); err != nil {
		b.Fatal(err)
	}
	args := []string{"-f", "json", "-fail", "none", dir}
	for b.Loop() {
		var ratios []float64
		var raw, cold time.Duration
		var cache string
		for k := range 3 {
			cache = b.TempDir()
			var r, c time.Duration
			if k%2 == 1 {
				c = procCPU(b, bin, args, cache)
			}
			r = rawCPU(b, list)
			if k%2 == 0 {
				c = procCPU(b, bin, args, cache)
			}
			ratios = append(ratios, c.Seconds()/r.Seconds())
			if k == 0 || r < raw {
				raw = r
			}
			if k == 0 || c < cold {
				cold = c
			}
		}
		slices.Sort(ratios)
		warm := procCPU(b, bin, args, cache)
		one := nearest(b, vf, 70<<10)
		oneArgs := []string{"-fail", "none", one}
		procCPU(b, bin, oneArgs, cache)
		const reps = 10
		var oneCPU time.Duration
		for range reps {
			oneCPU += procCPU(b, bin, oneArgs, cache)
		}
		oneCPU /= reps

		file, header := touchRun(b, dir, one)
		b.ReportMetric(raw.Seconds(), "raw-cpu-s")
		b.ReportMetric(cold.Seconds()/raw.Seconds(), "cold/raw")
		b.ReportMetric(ratios[1], "cold/raw-pairs-median")
		b.ReportMetric(warm.Seconds()/raw.Seconds(), "warm/raw")
		b.ReportMetric(float64(oneCPU.Microseconds())/1000, "one-ms-cpu")
		b.ReportMetric(float64(file), "touch-file-analysed")
		b.ReportMetric(float64(header), "touch-header-analysed")
		b.Logf("%d VF files; raw parse %v CPU, cold %v (least of 3), pairs' cold/raw %.3f; warm %v; one file (%s) %v", len(vf), raw, cold, ratios, warm, one, oneCPU)
	}
}

// buildBench builds the ascvet binary into a temporary folder.
func buildBench(b *testing.B) string {
	b.Helper()
	bin := filepath.Join(b.TempDir(), "ascvet")
	if out, err := exec.Command("go", "build", "-o", bin, "../../cmd/ascvet").CombinedOutput(); err != nil {
		b.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// procCPU runs the ascvet binary bin with args and the result cache in
// cache, and returns the CPU time it took.
func procCPU(b *testing.B, bin string, args []string, cache string) time.Duration {
	b.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Env = append(os.Environ(), "ASCVET_CACHE="+cache)
	var errs strings.Builder
	cmd.Stdout, cmd.Stderr = io.Discard, &errs
	if err := cmd.Run(); err != nil {
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != exitFindings {
			b.Fatalf("ascvet %s: %v\n%s", strings.Join(args, " "), err, errs.String())
		}
	}
	return cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
}

// rawCPU runs TestRawParseChild in a child process over the files listed
// in list, and returns the CPU time it took.
func rawCPU(b *testing.B, list string) time.Duration {
	b.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestRawParseChild$", "-test.count=1")
	cmd.Env = append(os.Environ(), "ASCVET_RAW_FILES="+list)
	if out, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("raw parse: %v\n%s", err, out)
	}
	return cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
}

// TestRawParseChild is BenchmarkSpeed's baseline, in a process of its own:
// it parses every file listed in ASCVET_RAW_FILES with tree-sitter-cpp.
// Without that variable it does nothing.
func TestRawParseChild(t *testing.T) {
	list := os.Getenv("ASCVET_RAW_FILES")
	if list == "" {
		t.Skip("BenchmarkSpeed's child: ASCVET_RAW_FILES is not set")
	}
	data, err := os.ReadFile(list)
	if err != nil {
		t.Fatal(err)
	}
	rawParse(t, strings.Split(string(data), "\n"))
}

// touchRun copies the sources under dir to a temporary tree, fills a cache
// over it, then changes the copy of one (a VF file), then a header it
// includes, and returns how many files each change had analysed again.
func touchRun(b *testing.B, dir, one string) (file, header int64) {
	b.Helper()
	tmp := b.TempDir()
	if err := copySources(dir, tmp); err != nil {
		b.Fatal(err)
	}
	rel, err := filepath.Rel(dir, one)
	if err != nil {
		b.Fatal(err)
	}
	target := filepath.Join(tmp, rel)
	b.Setenv("ASCVET_CACHE", b.TempDir())
	args := []string{"-f", "json", "-fail", "none", tmp}
	var cpu time.Duration
	ts := treeSitterCPU(func() { cpu = cpuOf(func() { mustRun(b, args) }) })
	if ts > 0 && cpu > 0 {
		// The share of one run holds still where a process's CPU time
		// moves by a fifth from run to run.
		b.ReportMetric(ts.Seconds()/cpu.Seconds(), "cold-tree-sitter-share")
		b.Logf("a cold check in process (of a copy of the tree): %v CPU, of which tree-sitter %v (%.1f%%), ascvet's Go %v", cpu, ts, 100*ts.Seconds()/cpu.Seconds(), cpu-ts)
	}
	var warm resultcache.Counters
	withCacheStats(&warm, func() { mustRun(b, args) })
	if n := warm.Misses.Load(); n != 0 {
		b.Errorf("warm run: %d files analysed again, want 0", n)
	}
	appendTo := func(p string) int64 {
		f, err := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
		if err != nil {
			b.Fatal(err)
		}
		fmt.Fprintf(f, "\n// touched %d\n", time.Now().UnixNano())
		f.Close()
		var st resultcache.Counters
		withCacheStats(&st, func() { mustRun(b, args) })
		return st.Misses.Load()
	}
	file = appendTo(target)
	header = -1
	if h := consultedHeader(b, target, tmp); h != "" {
		header = appendTo(h)
	}
	return file, header
}

// consultedHeader returns a header whose values the lowering of first, or
// else of another VF file under dir, reads through the project index; ""
// when none does.
func consultedHeader(b *testing.B, first, dir string) string {
	b.Helper()
	ix := cppir.ProjectIndex()
	for _, p := range append([]string{first}, vfFiles(b, dir)...) {
		src, err := os.ReadFile(p)
		if err != nil {
			b.Fatal(err)
		}
		ix.Refresh()
		if _, err := cppfront.ParseFileOptions(token.NewFileSet(), p, src, cppfront.Options{Index: ix}); err != nil {
			continue
		}
		if deps := ix.Consulted(p); len(deps) > 0 {
			b.Logf("touching %s, which %s reads", deps[0].Path, p)
			return deps[0].Path
		}
	}
	return ""
}

// copySources copies the C++ and Python sources under dir to to, keeping
// their paths.
func copySources(dir, to string) error {
	return filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if d.Name() == ".git" {
				return filepath.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() || !runner.IsSource(d.Name()) {
			return nil
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		out := filepath.Join(to, rel)
		if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
			return err
		}
		return os.WriteFile(out, data, 0o644)
	})
}

// vfFiles lists the files under dir that a check analyses: sources with a
// VF marker, as the walk finds them.
func vfFiles(b *testing.B, dir string) []string {
	b.Helper()
	var out []string
	for _, p := range source.Expand([]string{dir}, func(string, error) {}) {
		src, err := os.ReadFile(p)
		if err == nil && cppfront.HasVFMarker(src) && !cppir.IsPython(p) {
			out = append(out, p)
		}
	}
	return out
}

// nearest returns the file of files whose size is nearest to size.
func nearest(b *testing.B, files []string, size int64) string {
	b.Helper()
	best, gap := "", int64(-1)
	for _, p := range files {
		st, err := os.Stat(p)
		if err != nil {
			continue
		}
		if g := max(st.Size()-size, size-st.Size()); gap < 0 || g < gap {
			best, gap = p, g
		}
	}
	return best
}

// rawParse parses every file with tree-sitter-cpp, reading each, and
// closes the trees.
func rawParse(b testing.TB, files []string) {
	b.Helper()
	p := sitter.NewParser()
	defer p.Close()
	if err := p.SetLanguage(sitter.NewLanguage(tscpp.Language())); err != nil {
		b.Fatal(err)
	}
	for _, path := range slices.Clone(files) {
		src, err := os.ReadFile(path)
		if err != nil {
			b.Fatal(err)
		}
		p.Parse(src, nil).Close()
	}
}

func mustRun(b *testing.B, args []string) {
	b.Helper()
	var errs strings.Builder
	if code := run(args, io.Discard, &errs); code != exitOK && code != exitFindings {
		b.Fatalf("ascvet %s: exit %d\n%s", strings.Join(args, " "), code, errs.String())
	}
}

// cpuOf returns the CPU time (user and system, every thread) f took.
func cpuOf(f func()) time.Duration {
	before := cpuNow()
	f()
	return cpuNow() - before
}

func cpuNow() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkCold is BenchmarkSpeed's cold run alone, for a CPU profile of
// it (-cpuprofile): a full check of ASCVET_SPEED_DIR with an empty result
// cache, in-process. It reports the check's CPU time and how it splits
// between tree-sitter (tree-sitter-cpu-s) and ascvet's Go (go-cpu-s).
func BenchmarkCold(b *testing.B) {
	dir := os.Getenv("ASCVET_SPEED_DIR")
	if dir == "" {
		dir = "../../testdata/kernels"
	}
	args := []string{"-f", "json", "-fail", "none", dir}
	for b.Loop() {
		b.Setenv("ASCVET_CACHE", b.TempDir())
		var cpu, ts time.Duration
		ts = treeSitterCPU(func() { cpu = cpuOf(func() { mustRun(b, args) }) })
		b.ReportMetric(cpu.Seconds(), "cpu-s")
		b.ReportMetric(ts.Seconds(), "tree-sitter-cpu-s")
		b.ReportMetric((cpu - ts).Seconds(), "go-cpu-s")
	}
}

// treeSitterCPU runs f with tree-sitter's CPU time counted
// (cppfront.CountTreeSitterCPU), and returns that time: parsing,
// flattening and freeing trees. Zero where it cannot be counted.
func treeSitterCPU(f func()) time.Duration {
	cppfront.CountTreeSitterCPU(true)
	defer cppfront.CountTreeSitterCPU(false)
	f()
	parse, flatten, free := cppfront.TreeSitterCPU()
	return parse + flatten + free
}
