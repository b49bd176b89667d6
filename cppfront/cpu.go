package cppfront

import (
	"time"

	"github.com/ascvet/ascvet/cppfront/internal/tsutil"
)

// CountTreeSitterCPU turns on (from zero) or off the accounting of the CPU
// time that tree-sitter itself takes in this process: parsing, copying
// trees out (flattening) and freeing them. It is for the speed benchmarks,
// which compare a check with a raw parse: what is not tree-sitter's is
// ascvet's own Go. On, each such call costs about a microsecond more. Off
// where a thread's CPU clock cannot be read (Linux only).
func CountTreeSitterCPU(on bool) { tsutil.CountCPU(on) }

// TreeSitterCPU returns the CPU time counted since CountTreeSitterCPU(true)
// in parsing, flattening and freeing trees.
func TreeSitterCPU() (parse, flatten, free time.Duration) {
	c := tsutil.CountedCPU()
	return c.Parse, c.Flatten, c.Free
}
