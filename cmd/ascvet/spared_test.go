package main

import (
	"strings"
	"testing"
)

// TestSummaryNoSaving: a run whose warnings include some whose simulation
// measures no saving says, under the summary, how many did not fail the
// run and which flag makes them fail; with that flag, with -exit-zero or
// with a fail list that does not reach them, it says nothing.
func TestSummaryNoSaving(t *testing.T) {
	const k = "../../testdata/kernels/unaligned_copy.asc"
	const line = "1 finding with no measurable saving did not fail the run (-fail-no-saving)"
	_, out, _ := ascvet(t, "-cache", "off", "-fail", "warning", k)
	if !strings.HasSuffix(out, line+"\n") {
		t.Errorf("-fail warning: want the last line %q:\n%s", line, out)
	}
	if n := strings.Count(out, "no saving"); n != 1 {
		t.Errorf("%d findings say they save nothing, want the 1 the summary counts:\n%s", n, out)
	}
	for _, args := range [][]string{{"-fail", "warning", "-fail-no-saving"}, {"-exit-zero"}, {"-fail", "error"}} {
		_, out, _ := ascvet(t, append(append([]string{"-cache", "off"}, args...), k)...)
		if strings.Contains(out, "did not fail") {
			t.Errorf("%v: the summary speaks of findings that did not fail:\n%s", args, out)
		}
	}
	_, out, _ = ascvet(t, "-cache", "off", "-lang", "zh", "-fail", "warning", k)
	if !strings.Contains(out, "1 个检查结果未测得收益，未使运行失败（-fail-no-saving 可使其失败）") {
		t.Errorf("-lang zh: the line is not translated:\n%s", out)
	}
}
