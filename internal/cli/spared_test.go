package cli

import (
	"io"
	"strings"
	"testing"
	"time"

	"github.com/ascvet/ascvet/internal/progress"
)

// TestSummaryNoSaving: a run whose warnings include some whose simulation
// measures no saving says, under the summary, how many did not fail the
// run and which flag makes them fail; with that flag, with -exit-zero or
// with a fail list that does not reach them, it says nothing.
func TestSummaryNoSaving(t *testing.T) {
	// masks.asc: ASC3004 and ASC3005 (info) save nothing in the simulated
	// region, ASC3002 (warning) saves ~5 cycles.
	const k = "../../testdata/kernels/masks.asc"
	const line = "2 findings with no measurable saving did not fail the run (-fail-no-saving)"
	_, out, _ := ascvet(t, "-cache", "off", "-fail", "info", k)
	if !strings.HasSuffix(out, line+"\n") {
		t.Errorf("-fail info: want the last line %q:\n%s", line, out)
	}
	if n := strings.Count(out, "no saving"); n != 2 {
		t.Errorf("%d findings say they save nothing, want the 2 the summary counts:\n%s", n, out)
	}
	for _, args := range [][]string{{"-fail", "info", "-fail-no-saving"}, {"-exit-zero"}, {"-fail", "warning"}} {
		_, out, _ := ascvet(t, append(append([]string{"-cache", "off"}, args...), k)...)
		if strings.Contains(out, "did not fail") {
			t.Errorf("%v: the summary speaks of findings that did not fail:\n%s", args, out)
		}
	}
	_, out, _ = ascvet(t, "-cache", "off", "-lang", "zh", "-fail", "info", k)
	if !strings.Contains(out, "2 个检查结果未测得收益，未使运行失败（-fail-no-saving 可使其失败）") {
		t.Errorf("-lang zh: the line is not translated:\n%s", out)
	}
}

// TestLongCommandsProgress: ascvet stats and ascvet sim over paths show
// the progress line a check shows (on a terminal, past a delay: here
// forced), and -q silences it; their output is unchanged.
func TestLongCommandsProgress(t *testing.T) {
	old := progress.New
	t.Cleanup(func() { progress.New = old })
	progress.New = func(w io.Writer, quiet bool) *progress.Line { return progress.Start(w, !quiet, 0, time.Millisecond) }
	const k = "../../testdata/kernels"
	for _, args := range [][]string{{"stats", k}, {"sim", k}} {
		code, out, errs := ascvet(t, args...)
		if code != exitOK || !strings.Contains(errs, "\rascvet: ") || !strings.Contains(errs, " files, ") || !strings.HasSuffix(errs, "\r\x1b[K") {
			t.Errorf("ascvet %v: exit %d, stderr %q; want the progress line, cleared", args, code, errs)
		}
		quiet := append([]string{args[0], "-q"}, args[1:]...)
		code, qout, qerrs := ascvet(t, quiet...)
		same := qout == out || args[0] == "stats" // stats prints its time
		if code != exitOK || qerrs != "" || !same || qout == "" {
			t.Errorf("ascvet %v: exit %d, stderr %q, output the same %v; want no progress, the same output", quiet, code, qerrs, same)
		}
	}
}
