package main

import (
	"flag"
	"fmt"
	"go/token"
	"io"
	"os"

	"github.com/ascvet/ascvet/analyzers/cppir"
	"github.com/ascvet/ascvet/cppfront/ir"
)

// irFlags is the flag set of ascvet ir, which has no flag but -h; its
// usage goes to stderr.
func irFlags(stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet("ascvet ir", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprint(stderr, `usage: ascvet ir FILE...

Prints the VF IR of each file: regions, registers, loops (with folded trip
counts) and instructions (canonical op, argument roles, defs, uses), with
line:column positions.
`)
	}
	return fs
}

// runIR implements "ascvet ir FILE...": it prints the IR of each file's VF
// regions, so an author can see what ascvet understood of a kernel: region
// kinds, registers with their classes, loops with folded trip counts, and
// every call with its canonical op, argument roles, defs and uses.
func runIR(args []string, stdout, stderr io.Writer) int {
	fs := irFlags(stderr)
	if code, ok := parseArgs(fs, args, stderr); !ok {
		return code
	}
	if fs.NArg() == 0 {
		return usageError(stderr, "ir: name at least one file")
	}
	code := exitOK
	fset := token.NewFileSet()
	for _, path := range fs.Args() {
		src, err := os.ReadFile(path)
		if err != nil {
			fmt.Fprintf(stderr, "ascvet: %s\n", describe(path, err))
			code = max(code, exitUsage)
			continue
		}
		f, err := cppir.ParseFile(fset, path, src)
		if err != nil {
			code = max(code, parseFailed(stderr, path, err))
			continue
		}
		if err := ir.Fprint(stdout, fset, f); err != nil {
			fmt.Fprintf(stderr, "ascvet: %v\n", err)
			return exitInternal
		}
		for _, e := range ir.Verify(f) {
			fmt.Fprintf(stderr, "ascvet: internal error: %v\n", e)
			code = exitInternal
		}
	}
	return code
}
