package source

import (
	"errors"
	"flag"
	"slices"
	"testing"
	"time"

	"golang.org/x/tools/go/analysis"

	"github.com/ascvet/ascvet/analyzers/all"
	"github.com/ascvet/ascvet/analyzers/cppir"
)

func TestSizeFlag(t *testing.T) {
	for _, c := range []struct {
		in   string
		want int64
	}{
		{"0", 0}, {"8388608", 8 << 20}, {"8MiB", 8 << 20}, {"8 MiB", 8 << 20}, {"512KiB", 512 << 10},
		{"10MB", 10e6}, {"1.5GiB", 3 << 29}, {"100B", 100}, {"2kB", 2000},
	} {
		var s SizeFlag
		if err := s.Set(c.in); err != nil || int64(s) != c.want {
			t.Errorf("Set(%q) = %d, %v; want %d", c.in, s, err, c.want)
		}
	}
	for _, bad := range []string{"", "MiB", "-1", "8XB", "1e30GiB"} {
		var s SizeFlag
		if err := s.Set(bad); err == nil {
			t.Errorf("Set(%q) accepted: %d", bad, s)
		}
	}
	for n, want := range map[int64]string{8 << 20: "8MiB", 10<<20 + 5000: "10.0MiB", 1 << 30: "1GiB", 1536: "1.5KiB", 3 << 10: "3KiB", 12: "12B"} {
		if got := FormatSize(n); got != want {
			t.Errorf("formatSize(%d) = %s, want %s", n, got, want)
		}
	}
}

// TestLimits: the flags set the limits, Validate refuses what cannot be,
// and Apply hands them to the parsing analyzer.
func TestLimits(t *testing.T) {
	fs := flag.NewFlagSet("x", flag.ContinueOnError)
	lim := AddLimitFlags(fs)
	if *lim != DefaultLimits() {
		t.Errorf("defaults %+v, want %+v", *lim, DefaultLimits())
	}
	if err := fs.Parse([]string{"-max-file-size", "2MiB", "-max-depth", "50", "-file-timeout", "3s"}); err != nil {
		t.Fatal(err)
	}
	if lim.MaxFileSize != 2<<20 || lim.MaxDepth != 50 || lim.FileTimeout != 3*time.Second || lim.Validate() != "" {
		t.Errorf("limits %+v, %q", *lim, lim.Validate())
	}
	for _, bad := range []Limits{{MaxFileSize: -1, MaxDepth: 1}, {MaxDepth: 0}, {MaxDepth: 1, FileTimeout: -time.Second}} {
		if bad.Validate() == "" {
			t.Errorf("%+v is valid", bad)
		}
	}
	if err := lim.Apply(all.Analyzers()); err != nil {
		t.Fatal(err)
	}
	if got := cppir.Analyzer.Flags.Lookup("max-depth").Value.String(); got != "50" {
		t.Errorf("cppir -max-depth %s after Apply, want 50", got)
	}
	def := DefaultLimits()
	if err := def.Apply(all.Analyzers()); err != nil { // leave the analyzer as other tests expect it
		t.Fatal(err)
	}
}

// TestApplyRefused: an analyzer that refuses a limit's value makes Apply
// fail, naming the analyzer and the flag, before the limits after it are
// handed on.
func TestApplyRefused(t *testing.T) {
	errRefused := errors.New("refused")
	refuse := func(string) error { return errRefused }
	for _, c := range []struct {
		refused string // the flag that fails
		want    string
		set     []string // the flags set before it
	}{
		{"max-depth", "fake -max-depth: refused", nil},
		{"file-timeout", "fake -file-timeout: refused", []string{"max-depth=7"}},
		{"simt-regions", "fake -simt-regions: refused", []string{"max-depth=7", "file-timeout=2s"}},
	} {
		a := &analysis.Analyzer{Name: "fake", Doc: "fake: a parser's flags", Run: func(*analysis.Pass) (any, error) { return nil, nil }}
		var set []string
		for _, name := range []string{"max-depth", "file-timeout", "simt-regions"} {
			if name == c.refused {
				a.Flags.Func(name, "", refuse)
				continue
			}
			a.Flags.Func(name, "", func(v string) error { set = append(set, name+"="+v); return nil })
		}
		lim := Limits{MaxDepth: 7, FileTimeout: 2 * time.Second, SimtRegions: true}
		err := lim.Apply([]*analysis.Analyzer{a})
		if err == nil || err.Error() != c.want || !errors.Is(err, errRefused) {
			t.Errorf("%s refused: Apply = %v, want %q", c.refused, err, c.want)
		}
		if !slices.Equal(set, c.set) {
			t.Errorf("%s refused: set %q before it, want %q", c.refused, set, c.set)
		}
	}
}

// TestSizeFlagNaN: "NaN" is no size. Converted to int64 it is
// implementation-defined: math.MinInt64 on amd64 (Validate then says "want
// 0 or more" of what the user did not give), 0 on arm64 (no limit).
func TestSizeFlagNaN(t *testing.T) {
	for _, v := range []string{"NaN", "nan", "NaN MiB"} {
		var s SizeFlag
		if err := s.Set(v); err == nil {
			t.Errorf("Set(%q) accepted: %d", v, int64(s))
		}
	}
}
