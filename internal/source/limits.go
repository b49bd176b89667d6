package source

import (
	"flag"
	"fmt"
	"strconv"
	"strings"
	"time"

	"golang.org/x/tools/go/analysis"

	"github.com/ascvet/ascvet/analyzers/runner"
	"github.com/ascvet/ascvet/cppfront"
	"github.com/ascvet/ascvet/ruleset/config"
)

// Input limits. A file beyond one is named on stderr with the limit it
// broke, the run goes on, and the exit code is at least 2 (an input was
// skipped). They are flags of ascvet and of ascvet stats.
const (
	// DefaultMaxFileSize: the largest VF file of the public CANN operator
	// repositories is 176 KB, but generated kernels are bigger. Checking
	// is linear in the size: a generated 10 MiB VF file (vfgen.Huge) takes
	// about 10 s and 1 GB, a 40 MiB one about 45 s and 3.8 GB (tree-sitter's
	// tree alone is half of that); the limit keeps the memory of one file
	// within what a CI runner has.
	DefaultMaxFileSize = 32 << 20
	// defaultFileTimeout: real kernels parse in milliseconds; parsing and
	// lowering a generated 32 MiB file takes about 20 s here. This only
	// stops pathological input, with room for a slower machine.
	defaultFileTimeout = 60 * time.Second
)

// Limits are the input limits of a run.
type Limits struct {
	MaxFileSize int64         // bytes; 0 for none
	MaxDepth    int           // bracket nesting (cppfront.Options.MaxDepth)
	FileTimeout time.Duration // parse time per file; 0 for none
	SimtRegions bool          // parse files whose only VF code is SIMT functions too (ascvet stats counts them; no rule reads them)
	Defines     Defines       // -D NAME[=VALUE]: macros every file sees first
}

// DefineUsage is the usage line of -D.
const DefineUsage = "define a macro every file sees first, as a compiler's -D: `MACRO` is NAME or NAME=VALUE (VALUE 1 by default; repeatable), for build macros the sources leave to the build (SCENARIO_NUM=0)"

// Defines are -D flags, in order, as the cppir analyzer's define flag
// takes them: NAME=VALUE pairs separated by ';' (VALUE 1 when -D NAME).
// A string, so that Limits stay comparable.
type Defines string

func (d *Defines) String() string { return string(*d) }

// Under returns the build macros of a configuration (config: NAME=VALUE
// each, config.Settings.Defines) with d's over them: a name -D gives keeps
// d's value. The result is in the define flag's form.
func (d Defines) Under(config []string) Defines {
	mine := map[string]bool{}
	for _, kv := range strings.Split(string(d), ";") {
		if name, _, ok := strings.Cut(kv, "="); ok {
			mine[name] = true
		}
	}
	var out []string
	for _, kv := range config {
		if name, _, ok := strings.Cut(kv, "="); ok && !mine[name] {
			out = append(out, kv)
		}
	}
	if d != "" {
		out = append(out, string(d))
	}
	return Defines(strings.Join(out, ";"))
}

// Set takes one -D NAME[=VALUE].
func (d *Defines) Set(s string) error {
	name, value, ok := strings.Cut(s, "=")
	if !ok {
		value = "1"
	}
	if !config.IsMacroName(name) {
		return fmt.Errorf("want NAME or NAME=VALUE, NAME a C identifier: %q", s)
	}
	if strings.ContainsAny(value, ";\n\r") {
		return fmt.Errorf("%s: a value holds no ';' and no line break", name)
	}
	if *d != "" {
		*d += ";"
	}
	*d += Defines(name + "=" + value)
	return nil
}

func DefaultLimits() Limits {
	return Limits{MaxFileSize: DefaultMaxFileSize, MaxDepth: cppfront.DefaultMaxDepth, FileTimeout: defaultFileTimeout}
}

// AddLimitFlags defines the limit flags on fs and returns the limits they set.
func AddLimitFlags(fs *flag.FlagSet) *Limits {
	lim := DefaultLimits()
	fs.Var((*SizeFlag)(&lim.MaxFileSize), "max-file-size",
		"largest file with VF code that is parsed, `SIZE` in bytes or with a unit (KiB, MiB, GiB, kB, MB, GB); 0 for no limit")
	fs.IntVar(&lim.MaxDepth, "max-depth", lim.MaxDepth, "deepest nesting `N` of brackets ( [ { in a file with VF code that is parsed")
	fs.DurationVar(&lim.FileTimeout, "file-timeout", lim.FileTimeout, "`DURATION` allowed to analyse one file: parse, rules, simulation and fix checks (60s, 2m); 0 for no limit")
	fs.Var(&lim.Defines, "D", DefineUsage)
	return &lim
}

// Validate returns what is wrong with flag values, or "".
func (l *Limits) Validate() string {
	switch {
	case l.MaxFileSize < 0:
		return "-max-file-size: want 0 (no limit) or more"
	case l.MaxDepth < 1:
		return fmt.Sprintf("-max-depth %d: want at least 1", l.MaxDepth)
	case l.FileTimeout < 0:
		return fmt.Sprintf("-file-timeout %v: want 0 (no limit) or more", l.FileTimeout)
	}
	return ""
}

// Apply hands the parser's limits to the analyzers that parse (cppir).
func (l *Limits) Apply(as []*analysis.Analyzer) error {
	if err := runner.SetFlag(as, "max-depth", strconv.Itoa(l.MaxDepth)); err != nil {
		return err
	}
	if err := runner.SetFlag(as, "file-timeout", l.FileTimeout.String()); err != nil {
		return err
	}
	if err := runner.SetFlag(as, "define", string(l.Defines)); err != nil {
		return err
	}
	return runner.SetFlag(as, "simt-regions", strconv.FormatBool(l.SimtRegions))
}

// LimitHint is what a skip message for a limit from cppfront adds.
func LimitHint(le *cppfront.LimitError) string {
	switch le.Limit {
	case "depth":
		return "; skipped (raise -max-depth to check it)"
	case "timeout":
		return "; skipped (raise -file-timeout to check it)"
	}
	return "; skipped"
}

// SizeFlag is a byte count flag: "8388608", "8MiB", "10MB", "512KiB".
type SizeFlag int64

// sizeUnits are the units sizeFlag accepts, with their value.
var sizeUnits = []struct {
	suffix string
	mult   int64
}{
	{"KiB", 1 << 10}, {"MiB", 1 << 20}, {"GiB", 1 << 30},
	{"kB", 1e3}, {"KB", 1e3}, {"MB", 1e6}, {"GB", 1e9}, {"B", 1},
}

func (s *SizeFlag) String() string { return FormatSize(int64(*s)) }

func (s *SizeFlag) Set(v string) error {
	num, mult := strings.TrimSpace(v), int64(1)
	for _, u := range sizeUnits {
		if rest, ok := strings.CutSuffix(num, u.suffix); ok {
			num, mult = strings.TrimSpace(rest), u.mult
			break
		}
	}
	n, err := strconv.ParseFloat(num, 64)
	if err != nil || !(n >= 0 && n*float64(mult) <= 1<<62) { // NaN too
		return fmt.Errorf("%q is not a size: want bytes, or a number with KiB, MiB, GiB, kB, MB or GB", v)
	}
	*s = SizeFlag(n * float64(mult))
	return nil
}

// FormatSize prints a byte count the way -max-file-size takes it.
func FormatSize(n int64) string {
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
