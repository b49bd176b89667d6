package i18n_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/ascvet/ascvet/ruleset/i18n"
)

// The reasons that end up inside messages come from two packages that the
// example kernels do not exercise completely: why a stream is not proven
// contiguous (analyzers/internal/stream, shown with -confidence=low) and
// why the replay withheld a fix (simcheck/replay). These tests read the
// reasons from the source, so that a reason added there without a
// translation fails here instead of turning a Chinese message English.

// goFiles returns the non-test Go files of dir, joined.
func goFiles(t *testing.T, dir string) string {
	t.Helper()
	names, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, n := range names {
		if strings.HasSuffix(n, "_test.go") {
			continue
		}
		src, err := os.ReadFile(n)
		if err != nil {
			t.Fatal(err)
		}
		b.Write(src)
	}
	return b.String()
}

// instantiate fills a format with sample values and appends the value
// of a trailing " + name".
func instantiate(t *testing.T, lit, plus string) string {
	t.Helper()
	s, err := strconv.Unquote(lit)
	if err != nil {
		t.Fatalf("%s: %v", lit, err)
	}
	s = strings.NewReplacer("%s", "x1", "%d", "7", "%v", "x2").Replace(s)
	if plus != "" {
		s += "i"
	}
	return s
}

func TestStreamReasonsTranslate(t *testing.T) {
	src := goFiles(t, "../../analyzers/internal/stream")
	re := regexp.MustCompile(`return (?:Unknown|NotContiguous), (?:fmt\.Sprintf\()?("(?:[^"\\]|\\.)*")( \+ [\w.]+)?`)
	ms := re.FindAllStringSubmatch(src, -1)
	if len(ms) < 30 {
		t.Fatalf("found %d reasons in the stream package; has its source changed shape?", len(ms))
	}
	for _, m := range ms {
		why := instantiate(t, m[1], m[2])
		if _, ok := i18n.TranslateFragment("Why", why); !ok {
			t.Errorf("stream reason %q (%s) has no translation", why, m[0])
		}
	}
}

func TestReplayReasonsTranslate(t *testing.T) {
	src := goFiles(t, "../../simcheck/replay")
	n := 0
	check := func(s string) {
		t.Helper()
		n++
		if _, ok := i18n.TranslateFragment("Reason", s); !ok {
			t.Errorf("replay reason %q has no translation", s)
		}
	}
	// refuse("format", ...): the formats, but for the one fail() builds
	for _, m := range regexp.MustCompile(`refuse\(("(?:[^"\\]|\\.)*")`).FindAllStringSubmatch(src, -1) {
		switch f := instantiate(t, m[1], ""); f {
		case "x1 x1, which the replay does not model":
		case "x1 accesses x1, which may point into the stream's buffer x1 (x1)":
			// the last %s is an alias's why: each is checked below
			for _, w := range regexp.MustCompile(`a\.why = ("(?:[^"\\]|\\.)*")`).FindAllStringSubmatch(src, -1) {
				why, err := strconv.Unquote(w[1])
				if err != nil {
					t.Fatal(err)
				}
				check("LoadAlign accesses rd, which may point into the stream's buffer dst (" + why + ")")
			}
			check(strings.Replace(f, "(x1)", "(the stream pointer dst moves between its declaration and the loop)", 1))
			check(strings.Replace(f, "(x1)", "(the stream pointer dst moves in an enclosing loop)", 1))
		default:
			check(f)
		}
	}
	// fail("what"): "<op> what, which the replay does not model"
	for _, m := range regexp.MustCompile(`fail\(("(?:[^"\\]|\\.)*")\)`).FindAllStringSubmatch(src, -1) {
		check("LoadAlign " + instantiate(t, m[1], "") + ", which the replay does not model")
	}
	// prefix + "..." and with + "...": plain reasons and the differences
	// found in a case
	for _, m := range regexp.MustCompile(`return (?:false, )?(prefix|with) \+ ("(?:[^"\\]|\\.)*")( \+ [\w.()\[\]]+)*( \+ "(?:[^"\\]|\\.)*")?`).FindAllStringSubmatch(src, -1) {
		s := instantiate(t, m[2], "")
		switch {
		case strings.Contains(m[3], "fault"):
			s += "StoreAlign touches UB bytes [262128, 262160), outside the 256 KB UB"
		case m[3] != "":
			s += "u0"
		}
		if m[4] != "" {
			s += instantiate(t, strings.TrimPrefix(m[4], " + "), "")
		}
		if m[1] == "with" {
			s = "with 4-byte elements, sizeof(T) = 2, src at offset 6 of a 32-byte block, n = 3, i starting at 1, 1 iteration, " + s
		}
		check(s)
	}
	for _, m := range regexp.MustCompile(`return ("no case of[^"]*") \+`).FindAllStringSubmatch(src, -1) {
		check(instantiate(t, m[1], "") + "LoadAlign at UB address 7, which is not 32-byte aligned)")
	}
	t.Logf("%d replay reasons checked", n)
	if n < 25 {
		t.Fatalf("found %d reasons in the replay package; has its source changed shape?", n)
	}
	// the faults of the machine model
	for _, m := range regexp.MustCompile(`Fault = fmt\.Errorf\(("(?:[^"\\]|\\.)*")`).FindAllStringSubmatch(src, -1) {
		f := instantiate(t, m[1], "")
		if _, ok := i18n.TranslateFragment("Fault", f); !ok {
			t.Errorf("replay fault %q has no translation", f)
		}
	}
}
