package main

import (
	"flag"
	"fmt"
	"strconv"
	"strings"
	"time"

	"golang.org/x/tools/go/analysis"

	"github.com/ascvet/ascvet/cppfront"
)

// Input limits. A file beyond one is named on stderr with the limit it
// broke, the run goes on, and the exit code is at least 2 (an input was
// skipped). They are flags of ascvet and of ascvet stats.
const (
	// defaultMaxFileSize: the largest VF file of the public CANN operator
	// repositories is 176 KB, but generated kernels are bigger. Checking
	// is linear in the size: a generated 10 MiB VF file (genHugeVF) takes
	// about 10 s and 1 GB, a 40 MiB one about 45 s and 3.8 GB (tree-sitter's
	// tree alone is half of that); the limit keeps the memory of one file
	// within what a CI runner has.
	defaultMaxFileSize = 32 << 20
	// defaultFileTimeout: real kernels parse in milliseconds; parsing and
	// lowering a generated 32 MiB file takes about 20 s here. This only
	// stops pathological input, with room for a slower machine.
	defaultFileTimeout = 60 * time.Second
)

// limits are the input limits of a run.
type limits struct {
	maxFileSize int64         // bytes; 0 for none
	maxDepth    int           // bracket nesting (cppfront.Options.MaxDepth)
	fileTimeout time.Duration // parse time per file; 0 for none
	simtRegions bool          // parse files whose only VF code is SIMT functions too (ascvet stats counts them; no rule reads them)
}

func defaultLimits() limits {
	return limits{maxFileSize: defaultMaxFileSize, maxDepth: cppfront.DefaultMaxDepth, fileTimeout: defaultFileTimeout}
}

// addLimitFlags defines the limit flags on fs and returns the limits they set.
func addLimitFlags(fs *flag.FlagSet) *limits {
	lim := defaultLimits()
	fs.Var((*sizeFlag)(&lim.maxFileSize), "max-file-size",
		"largest file with VF code that is parsed, `SIZE` in bytes or with a unit (KiB, MiB, GiB, kB, MB, GB); 0 for no limit")
	fs.IntVar(&lim.maxDepth, "max-depth", lim.maxDepth, "deepest nesting `N` of brackets ( [ { in a file with VF code that is parsed")
	fs.DurationVar(&lim.fileTimeout, "file-timeout", lim.fileTimeout, "`DURATION` allowed to analyse one file: parse, rules, simulation and fix checks (60s, 2m); 0 for no limit")
	return &lim
}

// validate returns what is wrong with flag values, or "".
func (l *limits) validate() string {
	switch {
	case l.maxFileSize < 0:
		return "-max-file-size: want 0 (no limit) or more"
	case l.maxDepth < 1:
		return fmt.Sprintf("-max-depth %d: want at least 1", l.maxDepth)
	case l.fileTimeout < 0:
		return fmt.Sprintf("-file-timeout %v: want 0 (no limit) or more", l.fileTimeout)
	}
	return ""
}

// apply hands the parser's limits to the analyzers that parse (cppir).
func (l *limits) apply(as []*analysis.Analyzer) error {
	if err := setAnalyzerFlag(as, "max-depth", strconv.Itoa(l.maxDepth)); err != nil {
		return err
	}
	if err := setAnalyzerFlag(as, "file-timeout", l.fileTimeout.String()); err != nil {
		return err
	}
	return setAnalyzerFlag(as, "simt-regions", strconv.FormatBool(l.simtRegions))
}

// hint is what a skip message for a limit from cppfront adds.
func limitHint(le *cppfront.LimitError) string {
	switch le.Limit {
	case "depth":
		return "; skipped (raise -max-depth to check it)"
	case "timeout":
		return "; skipped (raise -file-timeout to check it)"
	}
	return "; skipped"
}

// sizeFlag is a byte count flag: "8388608", "8MiB", "10MB", "512KiB".
type sizeFlag int64

// sizeUnits are the units sizeFlag accepts, with their value.
var sizeUnits = []struct {
	suffix string
	mult   int64
}{
	{"KiB", 1 << 10}, {"MiB", 1 << 20}, {"GiB", 1 << 30},
	{"kB", 1e3}, {"KB", 1e3}, {"MB", 1e6}, {"GB", 1e9}, {"B", 1},
}

func (s *sizeFlag) String() string { return formatSize(int64(*s)) }

func (s *sizeFlag) Set(v string) error {
	num, mult := strings.TrimSpace(v), int64(1)
	for _, u := range sizeUnits {
		if rest, ok := strings.CutSuffix(num, u.suffix); ok {
			num, mult = strings.TrimSpace(rest), u.mult
			break
		}
	}
	n, err := strconv.ParseFloat(num, 64)
	if err != nil || n < 0 || n*float64(mult) > 1<<62 {
		return fmt.Errorf("%q is not a size: want bytes, or a number with KiB, MiB, GiB, kB, MB or GB", v)
	}
	*s = sizeFlag(n * float64(mult))
	return nil
}

// formatSize prints a byte count the way -max-file-size takes it.
func formatSize(n int64) string {
	switch {
	case n >= 1<<30 && n%(1<<30) == 0:
		return fmt.Sprintf("%dGiB", n>>30)
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%dMiB", n>>20)
	case n >= 1<<20:
		return fmt.Sprintf("%.1fMiB", float64(n)/(1<<20))
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%dKiB", n>>10)
	case n >= 1<<10:
		return fmt.Sprintf("%.1fKiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%dB", n)
}
