package cli

import (
	"encoding/json"
	"os"
	"slices"
	"testing"

	"github.com/ascvet/ascvet/cppfront"
	"github.com/ascvet/ascvet/internal/source"
)

// runsCompared is how many times TestSameVerdictsEveryRun runs the whole
// analysis: Go randomises map order on every range, so a verdict that
// depends on it differs between runs of one process.
const runsCompared = 5

// corpusSample is how many VF files of $ASCVET_CORPUS the test reads.
const corpusSample = 300

// TestSameVerdictsEveryRun runs the whole analysis several times over the
// same inputs and wants byte-identical findings (every rule, suspected
// findings and suppressed ones included) and stream verdicts (stats
// -sites, which also lists the sites no rule reports, with their reasons).
// The inputs are the rule fixtures and testdata/kernels, and, when
// ASCVET_CORPUS names a directory of real kernels, the first 300 files of
// it, in sorted order, that have a VF marker.
func TestSameVerdictsEveryRun(t *testing.T) {
	own := []string{"../../analyzers", "../../testdata/kernels"}
	t.Run("fixtures", func(t *testing.T) { sameEveryRun(t, own) })
	t.Run("corpus", func(t *testing.T) {
		dir := os.Getenv("ASCVET_CORPUS")
		if dir == "" {
			t.Skip("ASCVET_CORPUS is not set; set it to a directory of Ascend C kernels (e.g. /work/corpus) to also compare runs over real code")
		}
		files := vfSample(t, dir, corpusSample)
		if len(files) == 0 {
			t.Fatalf("no file with a VF marker under %s", dir)
		}
		t.Logf("%d VF files of %s", len(files), dir)
		sameEveryRun(t, files)
	})
}

// vfSample returns the first n files under dir, in sorted order, that the
// driver would read and that have a VF marker.
func vfSample(t *testing.T, dir string, n int) []string {
	t.Helper()
	all := source.Expand([]string{dir}, func(path string, err error) { t.Logf("%s: %v", path, err) })
	slices.Sort(all)
	var out []string
	for _, f := range all {
		src, err := os.ReadFile(f)
		if err != nil || !cppfront.HasVFMarker(src) {
			continue
		}
		if out = append(out, f); len(out) == n {
			break
		}
	}
	return out
}

func sameEveryRun(t *testing.T, paths []string) {
	t.Helper()
	var first string
	for i := range runsCompared {
		got := oneRun(t, paths)
		if i == 0 {
			first = got
			continue
		}
		if got != first {
			t.Fatalf("run %d differs from run 1:\n%s", i+1, firstDiff(first, got))
		}
	}
}

// oneRun returns the findings and the stream sites of one run.
func oneRun(t *testing.T, paths []string) string {
	t.Helper()
	args := append([]string{"-f", "json", "-exit-zero", "-confidence", "low", "-show-ignored", "-no-config"}, paths...)
	code, findings, errs := ascvet(t, args...)
	if code != exitOK {
		t.Fatalf("ascvet exit %d: %s", code, errs)
	}
	code, stats, errs := ascvet(t, append([]string{"stats", "-sites"}, paths...)...)
	if code != exitOK {
		t.Fatalf("ascvet stats exit %d: %s", code, errs)
	}
	// Only the stream part: the rest of the statistics holds the time taken.
	var st struct {
		Streams json.RawMessage `json:"streams"`
	}
	if err := json.Unmarshal([]byte(stats), &st); err != nil {
		t.Fatalf("stats output: %v", err)
	}
	return findings + "\n" + string(st.Streams)
}

// firstDiff shows where two outputs part.
func firstDiff(a, b string) string {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	from := max(i-300, 0)
	return "--- run 1\n" + a[from:min(i+300, len(a))] + "\n--- this run\n" + b[from:min(i+300, len(b))]
}
