package cppfront

import (
	"errors"
	"go/token"
	"runtime"
	"strings"
	"testing"
	"time"
)

// macroBomb is 40 nested calls of a macro that doubles its argument: a
// full expansion would be 2^40 tokens (issue 33: 236 bytes hung ascvet,
// and -file-timeout did not stop it).
func macroBomb(levels int) []byte {
	return []byte("#define F(x) x x\n__simd_vf__ void K(__ubuf__ float* dst)\n{\n    int a = 0;\n    " +
		strings.Repeat("F(", levels) + "a" + strings.Repeat(")", levels) + ";\n}\n")
}

// runGuarded runs f and fails the test, instead of hanging the suite, when f
// does not return within limit (a liveness check; speed is measured by
// benchmarks).
func runGuarded(t *testing.T, limit time.Duration, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() { defer close(done); f() }()
	select {
	case <-done:
	case <-time.After(limit):
		t.Fatalf("still running after %v", limit)
	}
}

// TestMacroBomb: the exponential expansion stops at its work budget, the
// file is lowered unexpanded, and the expansion allocates a bounded amount.
func TestMacroBomb(t *testing.T) {
	src := macroBomb(40)
	runGuarded(t, 60*time.Second, func() {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		f, err := ParseFileOptions(token.NewFileSet(), "bomb.asc", src, Options{})
		runtime.ReadMemStats(&after)
		if err != nil {
			t.Errorf("the bomb: %v", err)
		}
		if f == nil || len(f.Funcs) != 1 {
			t.Errorf("the bomb's region is not lowered")
		}
		if f != nil && len(f.Expansions) != 0 {
			t.Errorf("%d expansions kept: over its budget the file is parsed unexpanded", len(f.Expansions))
		}
		if got := after.TotalAlloc - before.TotalAlloc; got > 256<<20 {
			t.Errorf("the bomb allocated %d MB", got>>20)
		}
	})
}

// TestMacroBombDeadline: a deadline that passes during an expansion stops
// it: the file gets its timeout error, not a hang. The work budget is
// lifted so that only the deadline can stop it.
func TestMacroBombDeadline(t *testing.T) {
	src := macroBomb(40)
	clean, blanks := prepass(src)
	runGuarded(t, 60*time.Second, func() {
		m, late := expandMacrosBy(src, clean, nil, blanks, nil, clock{deadline: time.Now().Add(-time.Second)}, 1<<62)
		if m != nil || !late {
			t.Errorf("expandMacrosBy = %v, late %v; want nil, late", m != nil, late)
		}
	})
	runGuarded(t, 60*time.Second, func() {
		_, err := ParseFileOptions(token.NewFileSet(), "bomb.asc", macroBomb(40), Options{Timeout: time.Nanosecond})
		var le *LimitError
		if !errors.As(err, &le) {
			t.Errorf("with a deadline already passed: %v, want a limit error", err)
		}
	})
}

// TestNestedAssignments: a = a = ... = 1 (256 KB) allocates in proportion
// to its size: each level of the chain used to copy the text of all the
// levels under it (1 MB took 4.9 GB).
func TestNestedAssignments(t *testing.T) {
	src := []byte("__simd_vf__ void K(__ubuf__ float* dst)\n{\n    int a;\n    " + strings.Repeat("a = ", 64<<10) + "1;\n}\n")
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	if _, err := ParseFileOptions(token.NewFileSet(), "chain.asc", src, Options{}); err != nil {
		t.Logf("the chain: %v", err)
	}
	runtime.ReadMemStats(&after)
	if got := after.TotalAlloc - before.TotalAlloc; got > 200<<20 {
		t.Errorf("a %d KB chain allocated %d MB", len(src)>>10, got>>20)
	}
}
