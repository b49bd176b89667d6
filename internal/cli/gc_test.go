package cli

import (
	"io"
	"math"
	"runtime"
	"runtime/debug"
	"testing"
	"time"
)

// TestTuneGCHugeHeap: a check starts with GOGC off under the soft limit,
// and goes back to the default collector (GOGC=100, no limit) once the
// live heap passes checkLiveMax, as a huge file's does: under the limit
// the collector would run back to back (BenchmarkHugeFile's 32 MiB file
// took 31 s instead of 19). A user's GOGC is left alone.
func TestTuneGCHugeHeap(t *testing.T) {
	gcPercent := func() int {
		p := debug.SetGCPercent(100)
		debug.SetGCPercent(p)
		return p
	}
	defer func(m uint64) { checkLiveMax.Store(m) }(checkLiveMax.Load())
	checkLiveMax.Store(64 << 20) // so that the test need not hold half a GiB
	before, limBefore := gcPercent(), debug.SetMemoryLimit(-1)
	restore := tuneGC(func(string) string { return "" })
	if p, lim := gcPercent(), debug.SetMemoryLimit(-1); p != checkGOGC || lim != checkMemLimit {
		t.Fatalf("a check runs with GOGC=%d, limit %d; want %d, %d", p, lim, checkGOGC, checkMemLimit)
	}
	runtime.GC()
	if p := gcPercent(); p != checkGOGC {
		t.Errorf("a small heap: GOGC=%d after a collection, want %d", p, checkGOGC)
	}
	big := make([]byte, 96<<20) // past checkLiveMax
	for i := range big {
		big[i] = byte(i) // touched: live, not a zero page
	}
	deadline := time.Now().Add(5 * time.Second)
	for gcPercent() != 100 && time.Now().Before(deadline) {
		runtime.GC()
		time.Sleep(10 * time.Millisecond) // the finalizer runs on its own goroutine
	}
	if p, lim := gcPercent(), debug.SetMemoryLimit(-1); p != 100 || lim != math.MaxInt64 {
		t.Errorf("a live heap of %d MiB: GOGC=%d, limit %d; want 100 and none", len(big)>>20, p, lim)
	}
	runtime.KeepAlive(big)
	restore(true)
	if p, lim := gcPercent(), debug.SetMemoryLimit(-1); p != before || lim != limBefore {
		t.Errorf("restored GOGC=%d, limit %d; want %d, %d", p, lim, before, limBefore)
	}
	restore = tuneGC(func(k string) string {
		if k == "GOGC" {
			return "200"
		}
		return ""
	})
	if p := gcPercent(); p != before {
		t.Errorf("with the user's GOGC: GOGC=%d, want it left at %d", p, before)
	}
	restore(true)
}

// TestMainKeepsTunedGC: a check run by Main, whose process exits with its
// code, leaves the collector as the check tuned it (keepGC): set back, it
// would run once more as the process ends. A check run in a process that
// goes on gives the process its collector back.
func TestMainKeepsTunedGC(t *testing.T) {
	gcPercent := func() int {
		p := debug.SetGCPercent(100)
		debug.SetGCPercent(p)
		return p
	}
	t.Setenv("GOGC", "")
	t.Setenv("GOMEMLIMIT", "")
	t.Setenv("ASCVET_CACHE", t.TempDir())
	before, limBefore := gcPercent(), debug.SetMemoryLimit(-1)
	defer func() {
		keepGC = false
		debug.SetGCPercent(before)
		debug.SetMemoryLimit(limBefore)
	}()
	args := []string{"-f", "json", "-exit-zero", "../../testdata/kernels"}
	if code := run(args, io.Discard, io.Discard); code != exitOK {
		t.Fatalf("run: exit %d", code)
	}
	if p, lim := gcPercent(), debug.SetMemoryLimit(-1); p != before || lim != limBefore {
		t.Errorf("after run: GOGC=%d, limit %d; want them restored, %d and %d", p, lim, before, limBefore)
	}
	if code := Main(args, io.Discard, io.Discard); code != exitOK {
		t.Fatalf("Main: exit %d", code)
	}
	if p, lim := gcPercent(), debug.SetMemoryLimit(-1); p != checkGOGC || lim != checkMemLimit {
		t.Errorf("after Main: GOGC=%d, limit %d; want the check's, %d and %d", p, lim, checkGOGC, checkMemLimit)
	}
}
