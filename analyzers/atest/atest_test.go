package atest

import (
	"bytes"
	"fmt"
	"go/token"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
)

// words reports every occurrence of BAD, the way a rule reports findings.
var words = &analysis.Analyzer{
	Name:       "words",
	Doc:        "report BAD",
	ResultType: reflect.TypeFor[*token.File](),
	Run: func(pass *analysis.Pass) (any, error) {
		name := pass.OtherFiles[0]
		src, err := pass.ReadFile(name)
		if err != nil {
			return nil, err
		}
		tf := pass.Fset.AddFile(name, -1, len(src))
		tf.SetLinesForContent(src)
		for off := 0; ; off += 3 {
			i := bytes.Index(src[off:], []byte("BAD"))
			if i < 0 {
				break
			}
			off += i
			pass.Report(analysis.Diagnostic{Pos: tf.Pos(off), Message: "bad word"})
		}
		return tf, nil
	},
}

// fakeT records what Run reports; Fatal stops the goroutine as testing.T does.
type fakeT struct {
	testing.TB
	errs []string
}

func (t *fakeT) Helper()                        {}
func (t *fakeT) Errorf(format string, a ...any) { t.errs = append(t.errs, fmt.Sprintf(format, a...)) }
func (t *fakeT) Fatalf(format string, a ...any) {
	t.Errorf(format, a...)
	runtime.Goexit()
}

// runFake runs Run on a fake testing.TB and returns what it reported.
func runFake(dir string) []string {
	ft := &fakeT{}
	done := make(chan struct{})
	go func() {
		defer close(done)
		Run(ft, dir, words)
	}()
	<-done
	return ft.errs
}

func TestPasses(t *testing.T) {
	Run(t, "testdata/ok", words)
}

func TestFailsOnUnmetAndUnexpected(t *testing.T) {
	got := strings.Join(runFake("testdata/fail"), "\n")
	want := strings.Join([]string{
		"testdata/fail/bad.asc:2:5: unexpected diagnostic: bad word [words]",
		"testdata/fail/bad.asc:4:9: unexpected diagnostic: bad word [words]",
		"testdata/fail/bad.asc:5:5: unexpected diagnostic: bad word [words]",
		`testdata/fail/bad.asc:2: no diagnostic matching "no such message"`,
		`testdata/fail/bad.asc:3: no diagnostic matching "nothing here"`,
		`testdata/fail/bad.asc:4:3: no diagnostic matching "bad word"`,
	}, "\n")
	if got != want {
		t.Errorf("Run reported:\n%s\nwant:\n%s", got, want)
	}
}

func TestFailsWithoutFixtures(t *testing.T) {
	got := runFake("testdata/empty")
	if len(got) != 1 || !strings.Contains(got[0], "no C++ fixture") {
		t.Errorf("Run reported %q, want a missing-fixture failure", got)
	}
	got = runFake("testdata/no-such-dir")
	if len(got) != 1 {
		t.Errorf("Run reported %q, want one failure", got)
	}
}

func TestParseExpectations(t *testing.T) {
	for in, want := range map[string]string{
		`"a"`:                 "0:a",
		`"a" 12:"b\\.c"  "d"`: `0:a 12:b\.c 0:d`,
		"`x y` 3:`z`":         "0:x y 3:z",
		``:                    "error",
		`a`:                   "error",
		`'a'`:                 "error",
		`0:"a"`:               "error",
		`"("`:                 "error",
		`"a" junk`:            "error",
	} {
		ws, err := parseExpectations(in)
		var got []string
		for _, w := range ws {
			got = append(got, fmt.Sprintf("%d:%s", w.col, w.re))
		}
		g := strings.Join(got, " ")
		if err != nil {
			g = "error"
		}
		if g != want {
			t.Errorf("parseExpectations(%q) = %q, want %q", in, g, want)
		}
	}
}
