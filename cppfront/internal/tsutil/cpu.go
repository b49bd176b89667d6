package tsutil

import (
	"runtime"
	"sync/atomic"
	"time"

	sitter "github.com/tree-sitter/go-tree-sitter"
)

// CPU accounting of the C side, for the speed benchmarks: how much of a
// check's CPU time tree-sitter itself takes (parsing, flattening, freeing
// trees), and so how much is left to ascvet's own Go. A process's CPU
// time varies by a fifth from run to run on a shared machine; the share
// of one run does not, so it says where a gap to the raw parse lies.
//
// It is off unless CountCPU turns it on: then each call reads its thread's
// CPU clock before and after (two system calls, with the goroutine locked
// to its thread in between), about a microsecond a call.
var (
	counting                            atomic.Bool
	parseCPU, flattenCPU, freeCPU       atomic.Int64
	parseCalls, flattenCalls, freeCalls atomic.Int64
)

// CPUTimes is what CountCPU has counted since it was turned on.
type CPUTimes struct {
	Parse, Flatten, Free    time.Duration // CPU time of the calls' threads inside them
	Parses, Flattens, Frees int64         // calls counted
}

// Total is the CPU time of every call counted.
func (c CPUTimes) Total() time.Duration { return c.Parse + c.Flatten + c.Free }

// CountCPU turns the accounting on (from zero) or off. Where a thread's CPU
// clock cannot be read (threadCPU reports false), it stays off.
func CountCPU(on bool) {
	if _, ok := threadCPU(); !ok {
		on = false
	}
	if on {
		for _, c := range []*atomic.Int64{&parseCPU, &flattenCPU, &freeCPU, &parseCalls, &flattenCalls, &freeCalls} {
			c.Store(0)
		}
	}
	counting.Store(on)
}

// CountedCPU returns what has been counted.
func CountedCPU() CPUTimes {
	return CPUTimes{
		Parse: time.Duration(parseCPU.Load()), Flatten: time.Duration(flattenCPU.Load()), Free: time.Duration(freeCPU.Load()),
		Parses: parseCalls.Load(), Flattens: flattenCalls.Load(), Frees: freeCalls.Load(),
	}
}

// timed starts timing a call into C; the function it returns adds the
// call's thread CPU time to sum and one to calls. Off, both do nothing.
func timed(sum, calls *atomic.Int64) func() {
	if !counting.Load() {
		return func() {}
	}
	runtime.LockOSThread()
	t0, _ := threadCPU()
	return func() {
		t1, _ := threadCPU()
		runtime.UnlockOSThread()
		sum.Add(int64(t1 - t0))
		calls.Add(1)
	}
}

// Free frees a tree (sitter.Tree.Close), counted as freeing.
func Free(t *sitter.Tree) {
	done := timed(&freeCPU, &freeCalls)
	t.Close()
	done()
}
