//go:build linux

package tsutil

import (
	"fmt"
	"strings"
	"syscall"
	"testing"
	"time"

	sitter "github.com/tree-sitter/go-tree-sitter"
	tscpp "github.com/tree-sitter/tree-sitter-cpp/bindings/go"
)

// TestCountCPU: with the accounting on, a parse, a flatten and a free are
// each counted once, with CPU time that is more than nothing and no more
// than the process spent meanwhile; off, nothing more is counted.
func TestCountCPU(t *testing.T) {
	var b strings.Builder
	for i := range 400 {
		fmt.Fprintf(&b, "int f%d(int x) { int y = x * %d; for (int i = 0; i < y; ++i) { y += i << 1; } return y; }\n", i, i)
	}
	src := []byte(b.String())
	p := sitter.NewParser()
	defer p.Close()
	if err := p.SetLanguage(sitter.NewLanguage(tscpp.Language())); err != nil {
		t.Fatal(err)
	}
	defer CountCPU(false)
	CountCPU(true)
	before := processCPU()
	tree := Parse(p, src, time.Time{})
	if tree == nil {
		t.Fatal("no tree")
	}
	root := tree.RootNode()
	if n := len(Flatten(root, 1<<20, false, nil)); n < 400 {
		t.Fatalf("flattened %d nodes", n)
	}
	Free(tree)
	spent := processCPU() - before
	got := CountedCPU()
	if got.Parses != 1 || got.Flattens != 1 || got.Frees != 1 {
		t.Errorf("counted %d parses, %d flattens, %d frees; want one each", got.Parses, got.Flattens, got.Frees)
	}
	if got.Parse <= 0 || got.Flatten < 0 || got.Free < 0 {
		t.Errorf("counted parse %v, flatten %v, free %v", got.Parse, got.Flatten, got.Free)
	}
	if got.Total() > spent {
		t.Errorf("counted %v of tree-sitter, more than the %v the process spent", got.Total(), spent)
	}
	CountCPU(false)
	tree = Parse(p, src, time.Time{})
	Free(tree)
	if again := CountedCPU(); again != got {
		t.Errorf("counted with the accounting off: %+v, then %+v", got, again)
	}
	CountCPU(true)
	if zero := CountedCPU(); zero != (CPUTimes{}) {
		t.Errorf("turned on again, the counts start at %+v, want zero", zero)
	}
}

func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
