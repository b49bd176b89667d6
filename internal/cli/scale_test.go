package cli

import (
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/metrics"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"golang.org/x/tools/go/analysis"

	"github.com/ascvet/ascvet/internal/driver"
	"github.com/ascvet/ascvet/internal/source"
)

// BenchmarkScale runs ascvet over generated operator repositories (see
// genTree) of 5,000 and 20,000 files, 5% of them VF kernels, with -j 1 and
// -j 2:
//
//	go test ./internal/cli -run XXX -bench Scale -benchtime 3x
//
// Besides ns/op it reports files/s, the files parsed (those with a VF
// marker; the rest are dropped after the byte scan), the peak of the Go
// heap during a run (sampled every millisecond, runtime/metrics, no
// stop-the-world) and that peak per 1,000 files, and the peak resident set
// (Linux; it includes tree-sitter's C memory, and is the process's high
// water mark, so it only grows from one sub-benchmark to the next). The
// trees are generated once per size; the page cache is warm.
func BenchmarkScale(b *testing.B) {
	for _, n := range []int{5000, 20000} {
		b.Run(fmt.Sprintf("files=%d", n), func(b *testing.B) {
			dir := b.TempDir()
			genTree(b, dir, n, 20)
			in, err := driver.Check([]string{dir}, analyzers(), driver.CheckConfig{Jobs: 2, Limits: source.DefaultLimits()}, io.Discard)
			if err != nil {
				b.Fatal(err)
			}
			if in.Read != n {
				b.Fatalf("%d files read, want %d", in.Read, n)
			}
			for _, j := range []int{1, 2} {
				b.Run(fmt.Sprintf("j=%d", j), func(b *testing.B) {
					benchRun(b, []string{"-j", strconv.Itoa(j), "-f", "json", "-fail-on", "error", dir}, n, in.VFFiles)
				})
			}
		})
	}
}

// BenchmarkScaleHosts grows the tree with host code only: 100 VF kernels
// (the same findings) among 5,000, then 20,000 files, with the cache off.
// What a run keeps for its output grows with the findings; the peak heap
// must stay flat as the tree grows around them.
//
//	go test ./internal/cli -run XXX -bench ScaleHosts -benchtime 1x
func BenchmarkScaleHosts(b *testing.B) {
	b.Setenv("ASCVET_CACHE", "off")
	for _, n := range []int{5000, 20000} {
		b.Run(fmt.Sprintf("files=%d", n), func(b *testing.B) {
			dir := b.TempDir()
			vf := genTree(b, dir, n, n/100)
			benchRun(b, []string{"-j", "2", "-f", "json", "-fail", "none", dir}, n, vf)
		})
	}
}

// benchRun runs ascvet with args, over a tree of n files of which parsed
// have a VF marker, and reports the metrics of BenchmarkScale.
func benchRun(b *testing.B, args []string, n, parsed int) {
	runtime.GC()
	base := heapBytes()
	peak := sampleHeap()
	for b.Loop() {
		if code := run(args, io.Discard, io.Discard); code != exitOK && code != exitFindings {
			b.Fatalf("exit %d", code)
		}
	}
	top := peak()
	sec := b.Elapsed().Seconds() / float64(b.N)
	b.ReportMetric(float64(n)/sec, "files/s")
	b.ReportMetric(float64(parsed), "parsed")
	b.ReportMetric(float64(top)/(1<<20), "peak-heap-MB")
	b.ReportMetric(float64(top-min(top, base))/(1<<20)/(float64(n)/1000), "MB/1k-files")
	if rss := peakRSS(); rss > 0 {
		b.ReportMetric(float64(rss)/(1<<20), "peak-RSS-MB")
	}
}

// heapBytes is the Go heap in use now: objects and the unused part of
// their spans, as runtime.MemStats.HeapInuse counts.
func heapBytes() uint64 {
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}, {Name: "/memory/classes/heap/unused:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64() + s[1].Value.Uint64()
}

// sampleHeap samples heapBytes every 10 ms until the returned function is
// called, which returns the highest value seen. (Every millisecond, the
// sampling cost the 40 MB huge-file benchmark a second or more of its time.)
func sampleHeap() func() uint64 {
	var top atomic.Uint64
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		t := time.NewTicker(10 * time.Millisecond)
		defer t.Stop()
		for {
			if h := heapBytes(); h > top.Load() {
				top.Store(h)
			}
			select {
			case <-done:
				return
			case <-t.C:
			}
		}
	})
	return func() uint64 {
		close(done)
		wg.Wait()
		return top.Load()
	}
}

// peakRSS returns the process's peak resident set size (VmHWM), or 0 where
// /proc does not tell.
func peakRSS() uint64 {
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(data), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, err := strconv.ParseUint(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 10, 64)
			if err == nil {
				return kb << 10
			}
		}
	}
	return 0
}

// TestOnlyVFFilesAnalysed: a file without a VF marker is read and scanned,
// never handed to the analyzers (so never parsed).
func TestOnlyVFFilesAnalysed(t *testing.T) {
	dir := t.TempDir()
	vf := genTree(t, dir, 300, 20)
	var seen atomic.Int64
	counter := &analysis.Analyzer{
		Name: "counter",
		Doc:  "counts the files it is run on",
		Run: func(*analysis.Pass) (any, error) {
			seen.Add(1)
			return nil, nil
		},
	}
	defer func(saved func() []*analysis.Analyzer) { analyzers = saved }(analyzers)
	analyzers = func() []*analysis.Analyzer { return []*analysis.Analyzer{counter} }
	// The driver's own directive rules would still check the fixtures'
	// directives: turn them off too.
	code, out, errs := ascvet(t, "-j", "2", "-checks", "-ASC0002,-ASC0003", dir)
	if code != exitOK || errs != "" || out != "no findings in 300 files\n" {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out, errs)
	}
	if int(seen.Load()) != vf {
		t.Errorf("%d files analysed, want the %d with a VF marker", seen.Load(), vf)
	}
}
