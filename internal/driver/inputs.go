package driver

import (
	"bytes"
	"fmt"
	"io"
	"sync"
	"sync/atomic"

	"github.com/ascvet/ascvet/analyzers/runner"
	"github.com/ascvet/ascvet/internal/report"
	"github.com/ascvet/ascvet/internal/source"
	"github.com/ascvet/ascvet/ruleset/config"
	"github.com/ascvet/ascvet/simcheck"
)

// Inputs is what ascvet read from its path arguments.
type Inputs struct {
	Files     []runner.File  // load: the files with a VF marker; check: those kept for -fix and -diff
	Read      int            // C++ files read, with or without a marker
	Bytes     int64          // their total size
	VFFiles   int            // files with a VF marker (check: that were analysed)
	VFBytes   int64          // total size of the files with a VF marker
	Skipped   int            // paths and files that could not be read or were over a limit; each was reported
	Res       *runner.Result // check: the reported findings (not suppressed) and internal errors
	Issues    []report.Issue // check with a pipeline: every issue, suppressed ones included, sorted
	BadConfig int            // check: files whose configuration did not load (each reported)
	Tests     int            // test files the walk found and left out (testpaths.go)
	// check: the files the walk took (tests left out), in walk order, and
	// the indices in names of those not analysed to the end: skipped,
	// their configuration did not load, or an analyzer failed on them. A
	// baseline's entries of such a file are neither stale nor replaced
	// (RunScope).
	names     []string
	unchecked []int
}

// analysed returns the files check analysed to the end: read, and found
// free of VF code or run through every analyzer.
func (in *Inputs) analysed() []string {
	out := make([]string, 0, len(in.names)-len(in.unchecked))
	next := 0
	for i, name := range in.names {
		if next < len(in.unchecked) && in.unchecked[next] == i {
			next++
			continue
		}
		out = append(out, name)
	}
	return out
}

// Load expands the path arguments into files, reads them with jobs
// goroutines within the default limits, and keeps those with a VF marker,
// in walk order. Problems are reported on stderr, one line each, and
// counted in skipped. It holds every VF source at once; the check itself
// (Check) streams instead.
func Load(paths []string, jobs int, stderr io.Writer) *Inputs {
	in := &Inputs{}
	names := source.Expand(paths, func(path string, err error) {
		in.Skipped++
		fmt.Fprintf(stderr, "ascvet: %s\n", source.Describe(path, err))
	})
	loader, err := config.NewLoader(config.Options{Chips: simcheck.Chips()})
	names, in.Tests = source.DropTests(paths, names, func(name string) bool {
		if err != nil {
			return false
		}
		eff, ferr := loader.For(name)
		return ferr == nil && eff.Settings.Tests
	})
	lim := source.DefaultLimits()
	type read struct {
		src  []byte
		size int64
		vf   bool
		err  error
	}
	out := make([]read, len(names))
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(jobs, max(len(names), 1)) {
		wg.Go(func() {
			var buf []byte
			for i := int(next.Add(1) - 1); i < len(names); i = int(next.Add(1) - 1) {
				r := &out[i]
				var src []byte
				src, r.size, r.vf, r.err = source.ReadSource(names[i], &lim, &buf)
				if r.vf {
					r.src = bytes.Clone(src)
				}
			}
		})
	}
	wg.Wait()
	for i, r := range out {
		if r.err != nil {
			in.Skipped++
			fmt.Fprintf(stderr, "ascvet: %s\n", source.Describe(names[i], r.err))
			continue
		}
		in.Read++
		in.Bytes += r.size
		if r.vf {
			in.VFFiles++
			in.VFBytes += r.size
			in.Files = append(in.Files, runner.File{Name: names[i], Src: r.src})
		}
	}
	return in
}
