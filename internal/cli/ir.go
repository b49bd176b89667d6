package cli

import (
	"flag"
	"fmt"
	"go/token"
	"io"

	"golang.org/x/tools/go/analysis"

	"github.com/ascvet/ascvet/analyzers/cppir"
	"github.com/ascvet/ascvet/cppfront/ir"
	"github.com/ascvet/ascvet/internal/source"
)

// irFlags is the flag set of ascvet ir: the limit flags of a check, with
// their defaults; its usage goes to stderr.
func irFlags(stderr io.Writer) (*flag.FlagSet, *source.Limits) {
	fs := flag.NewFlagSet("ascvet ir", flag.ContinueOnError)
	fs.SetOutput(stderr)
	lim := source.AddLimitFlags(fs)
	fs.Usage = func() {
		fmt.Fprint(stderr, `usage: ascvet ir [limit flags] FILE...

Prints the VF IR of each file: regions, registers, loops (with folded trip
counts) and instructions (canonical op, argument roles, defs, uses), with
line:column positions. The file is read and parsed as a check reads and
parses it (same limits, same project index): a constant that a header it
includes defines shows folded where the rules see it folded.

Flags:
`)
		fs.PrintDefaults()
	}
	return fs, lim
}

// runIR implements "ascvet ir FILE...": it prints the IR of each file's VF
// regions, so an author can see what ascvet understood of a kernel: region
// kinds, registers with their classes, loops with folded trip counts, and
// every call with its canonical op, argument roles, defs and uses. It is
// the IR the rules see: the file goes through the parse of the cppir
// analyzer, with the limits a check gives it and the project index.
func runIR(args []string, stdout, stderr io.Writer) int {
	fs, lim := irFlags(stderr)
	if code, ok := parseArgs(fs, args, stderr); !ok {
		return code
	}
	if fs.NArg() == 0 {
		return commandError(stderr, "ir", "name at least one file")
	}
	if msg := lim.Validate(); msg != "" {
		return commandError(stderr, "ir", msg)
	}
	lim.Defines = configDefines(stderr, lim.Defines, fs.Arg(0))
	if err := lim.Apply([]*analysis.Analyzer{cppir.Analyzer}); err != nil {
		fmt.Fprintf(stderr, "ascvet: internal error: %v\n", err)
		return exitInternal
	}
	// The headers as they are now, as at the start of a check.
	index := cppir.ProjectIndex()
	index.Refresh()
	code := exitOK
	fset := token.NewFileSet()
	var buf []byte
	for _, path := range fs.Args() {
		src, _, _, _, err := source.ReadSourceStat(path, lim, &buf)
		if err != nil {
			fmt.Fprintf(stderr, "ascvet: %s\n", source.Describe(path, err))
			code = max(code, exitUsage)
			continue
		}
		f, err := cppir.ParseFileAsAnalyzer(fset, path, src)
		index.Consulted(path) // what a check keys its cache on; nothing to keep here
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
