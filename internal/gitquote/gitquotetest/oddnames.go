// Package gitquotetest holds file names that break a naive diff header or
// text line, for the tests of gitquote and of the reports that print names.
package gitquotetest

import (
	"os"
	"path/filepath"
	"testing"
)

// OddNames are file names that break a naive diff header or text line, each
// with what git diff writes after "--- " for it (checked against git itself
// in gitquote's TestDiffLabelMatchesGit).
var OddNames = []struct{ Name, Label string }{
	{"k.asc", "a/k.asc"},
	{"a b.asc", "a/a b.asc\t"},
	{"tab\there.asc", `"a/tab\there.asc"`},
	{"nl\nhere.asc", `"a/nl\nhere.asc"`},
	{"cr\rbell\a.asc", `"a/cr\rbell\a.asc"`},
	{"esc\x1b del\x7f.asc", `"a/esc\033 del\177.asc"` + "\t"},
	{`say "hi".asc`, `"a/say \"hi\".asc"` + "\t"},
	{`back\slash.asc`, `"a/back\\slash.asc"`},
	{"café.asc", `"a/caf\303\251.asc"`},
	{"核函数.asc", `"a/\346\240\270\345\207\275\346\225\260.asc"`},
}

// MakeOdd writes a file with a name from OddNames in dir, or skips the test
// when the file system refuses such a name.
func MakeOdd(t testing.TB, dir, name, data string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
		t.Skipf("this file system takes no file named %q: %v", name, err)
	}
	return p
}
