package atest

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
)

// fixer reports every BAD, as words does, with a fix that replaces the span
// bytes from it with repl; a BAD followed by '?' gets no fix.
func fixer(name, repl string, span int) *analysis.Analyzer {
	return &analysis.Analyzer{
		Name: name,
		Doc:  "report BAD, with a fix",
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
				d := analysis.Diagnostic{Pos: tf.Pos(off), End: tf.Pos(off + 3), Message: "bad word"}
				if off+3 >= len(src) || src[off+3] != '?' {
					d.SuggestedFixes = []analysis.SuggestedFix{{
						Message:   "replace BAD",
						TextEdits: []analysis.TextEdit{{Pos: tf.Pos(off), End: tf.Pos(off + span), NewText: []byte(repl)}},
					}}
				}
				pass.Report(d)
			}
			return nil, nil
		},
	}
}

var (
	remover  = fixer("remover", "", 3)          // removes BAD
	greedy   = fixer("greedy", "", 5)           // removes BAD and two bytes more: overlaps a BAD close after
	stubborn = fixer("stubborn", "/*x*/BAD", 3) // keeps BAD
	spawner  = fixer("spawner", "\nBAD", 3)     // moves BAD to the next line
	breaker  = fixer("breaker", "\n\n", 3)      // replaces BAD by two line breaks
)

// runFakeWith runs Run with analyzer a on a fake testing.TB and returns what
// it reported.
func runFakeWith(dir string, a *analysis.Analyzer) []string {
	ft := &fakeT{}
	done := make(chan struct{})
	go func() {
		defer close(done)
		Run(ft, dir, a)
	}()
	<-done
	return ft.errs
}

func TestFixes(t *testing.T) {
	Run(t, "testdata/fix/ok", remover)
	Run(t, "testdata/fix/moved", breaker) // the unfixed finding moves down two lines
}

func TestFixesFail(t *testing.T) {
	for _, tc := range []struct {
		dir  string
		a    *analysis.Analyzer
		want []string
	}{
		{"wrong", remover, []string{
			"testdata/fix/wrong/bad.cpp: fixed text differs from testdata/fix/wrong/bad.cpp.golden (go test -update rewrites it):\n" +
				"--- a/testdata/fix/wrong/bad.cpp.golden\n+++ b/testdata/fix/wrong/bad.cpp.golden\n@@ -1 +1 @@\n" +
				`-WRONG // want "bad word"` + "\n" + `+ // want "bad word"` + "\n",
		}},
		{"missing", remover, []string{
			"testdata/fix/missing/bad.cpp: a suggested fix but no testdata/fix/missing/bad.cpp.golden (go test -update writes it)",
		}},
		{"overlap", greedy, []string{
			`testdata/fix/overlap/bad.cpp:1:7: fix "replace BAD" overlaps fix "replace BAD" of the finding at 1:3; fixes must not overlap`,
		}},
		{"stubborn", stubborn, []string{
			"testdata/fix/stubborn/bad.cpp:1:6 (fixed text): the fix left a finding on its line: bad word [stubborn]",
		}},
		{"spawn", spawner, []string{
			"testdata/fix/spawn/bad.cpp:2:1 (fixed text): fixing introduced a new finding: bad word [spawner]",
		}},
	} {
		got := runFakeWith(filepath.Join("testdata/fix", tc.dir), tc.a)
		if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
			t.Errorf("%s: Run reported:\n%s\nwant:\n%s", tc.dir, strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
		}
	}
}

func TestFixesUpdate(t *testing.T) {
	dir := t.TempDir()
	src, err := os.ReadFile("testdata/fix/missing/bad.cpp")
	if err != nil {
		t.Fatal(err)
	}
	for name, data := range map[string][]byte{"bad.cpp": src, "good.cpp": []byte("fine\n")} {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	defer func(saved bool) { *update = saved }(*update)
	*update = true
	if errs := runFakeWith(dir, remover); len(errs) != 0 {
		t.Errorf("Run -update reported %q", errs)
	}
	golden, err := os.ReadFile(filepath.Join(dir, "bad.cpp.golden"))
	if want := " // want \"bad word\"\n"; err != nil || string(golden) != want {
		t.Errorf("golden file holds %q (%v), want %q", golden, err, want)
	}
	if _, err := os.Stat(filepath.Join(dir, "good.cpp.golden")); err == nil {
		t.Error("-update wrote a golden file for a fixture without fixes")
	}
	*update = false
	if errs := runFakeWith(dir, remover); len(errs) != 0 {
		t.Errorf("Run after -update reported %q", errs)
	}
}
