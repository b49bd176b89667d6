package cli

import (
	"math"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"
	"sync/atomic"
)

// A check allocates about 20 KB of short-lived trees, flat copies and IR
// per KB of source, and keeps little: the findings, the scan memo and the
// project index. So a check runs with the collector off but for a 1 GiB
// soft memory limit (GOGC=off, GOMEMLIMIT=1GiB: it collects when the heap
// nears the limit, and works harder there rather than pass it), unless
// the user set GOGC or GOMEMLIMIT. A run that allocates less than the
// limit (a few files) never collects.
//
// The collector used to run with GOGC=400 under the same limit: over the
// six CANN repositories that made 14 collections, ten of them while the
// live heap was still small and the heap far from the limit, 0.70 s of
// the collector's CPU (the sum of GODEBUG=gctrace=1's, two runs); with
// GOGC off, 4 collections and 0.33 s, for a peak RSS of 1.07 GB instead of
// 1.00 (/usr/bin/time). Before that, GOGC=100 spent 6% of a cold run's
// CPU in the collector.
//
// A huge file is another matter: its analysis keeps about 60 bytes a byte
// of source live while it runs (a 32 MiB file, some 1.9 GB), and a live
// heap over the soft limit has the collector run back to back, at half
// the CPU, for nothing: the 32 MiB file of BenchmarkHugeFile took 31 s
// instead of 19, and time grew faster than size. So once the live heap
// passes half the limit, measured after each collection, the check goes
// back to the default collector: GOGC=100 and no limit (peak memory twice
// the live heap, as in any Go program). Below half the limit a collection
// still frees at least as much as the live heap, as with GOGC=100.
//
// The bar was a quarter of the limit (256 MiB). A check of the CANN
// repositories keeps 140 to 280 MB live (two workers, each with a file's
// trees and IR, and the project index), so in about one run of three the
// bar was passed for a moment and the rest of the run collected twice as
// often: 20 collections instead of 14, about 0.5 s more CPU
// (GODEBUG=gctrace=1 over /work/corpus, three runs each).
//
// What the limit costs is mostly the kernel's: the heap's first growth to
// the limit touches some 950 MB of fresh pages, 245,000 of a cold check's
// 310,000 minor page faults, all in its first 3 s (getrusage every 250 ms;
// after the first collection the heap reuses its pages). Measured and
// left: a lower limit (512 MiB: 221,000 faults, but the collector runs
// twice as often, and user time grew more than system time fell);
// MADV_POPULATE_WRITE over the arena first (the same faults, counted and
// paid in one call: 0.15 s less of 15.5, within noise); huge pages for the
// heap (THP is madvise-only here: 88,000 faults, but the scavenger's
// MADV_DONTNEED splits them and system time went from 1.7 s to 3.2 s; with
// GODEBUG=madvdontneed=0, which a program cannot set for itself, it did
// not, and the runs were as noisy as the gain).
const (
	checkGOGC     = -1 // off: only the limit starts a collection
	checkMemLimit = 1 << 30
)

// checkLiveMax is the live heap past which the default collector takes
// over (a variable for its test, read by the finalizer's goroutine).
var checkLiveMax atomic.Uint64

func init() { checkLiveMax.Store(checkMemLimit / 2) }

// tuneGC sets the collector for a check and returns what ends the check's
// tuning: it stops watching the live heap and, when settings is true, sets
// the collector back as it was (see keepGC for when it is not).
func tuneGC(getenv func(string) string) (restore func(settings bool)) {
	if getenv("GOGC") != "" || getenv("GOMEMLIMIT") != "" {
		return func(bool) {}
	}
	gc := debug.SetGCPercent(checkGOGC)
	lim := debug.SetMemoryLimit(checkMemLimit)
	w := &gcWatch{}
	w.arm()
	return func(settings bool) {
		w.mu.Lock()
		w.done = true
		w.mu.Unlock()
		if settings {
			debug.SetGCPercent(gc)
			debug.SetMemoryLimit(lim)
		}
	}
}

// gcWatch looks at the live heap after each collection (a finalizer of
// an object made for the purpose runs after the collection that finds it
// unreachable, and makes the next one), until the check ends or the live
// heap passes checkLiveMax.
type gcWatch struct {
	mu   sync.Mutex
	done bool // the check ended, or the default collector took over
}

type gcSentinel struct{ _ [16]byte } // big enough not to be a tiny-allocator object, which may never be collected alone

func (w *gcWatch) arm() {
	runtime.SetFinalizer(&gcSentinel{}, func(*gcSentinel) { w.collected() })
}

func (w *gcWatch) collected() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.done {
		return
	}
	if liveHeap() > checkLiveMax.Load() {
		w.done = true
		debug.SetGCPercent(100)
		debug.SetMemoryLimit(math.MaxInt64)
		return
	}
	w.arm()
}

// liveHeap returns the heap the last collection found live, in bytes.
func liveHeap() uint64 {
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return s[0].Value.Uint64()
}
