package main

import (
	"bytes"
	"encoding/xml"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
)

// oddNames are file names that break a naive diff header or text line, each
// with what git diff writes after "--- " for it (checked against git itself
// in TestDiffLabelMatchesGit).
var oddNames = []struct{ name, label string }{
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

func TestDiffLabel(t *testing.T) {
	for _, c := range oddNames {
		if got := diffLabel("a/", c.name); got != c.label {
			t.Errorf("diffLabel(a/, %q) = %q, want %q", c.name, got, c.label)
		}
	}
}

func TestDisplayName(t *testing.T) {
	for _, c := range []struct{ name, want string }{
		{"k.asc", "k.asc"},
		{"a b.asc", "a b.asc"},
		{`C:\src\k.asc`, `C:\src\k.asc`},
		{"核函数.asc", "核函数.asc"},
		{"nl\nhere.asc", `"nl\nhere.asc"`},
		{"tab\there.asc", `"tab\there.asc"`},
		{`say "hi".asc`, `"say \"hi\".asc"`},
		{"nl\n" + `back\slash`, `"nl\nback\\slash"`},
		{"nl\n核\xff.asc", `"nl\n核\377.asc"`},
		{"del\x7f", `"del\177"`},
	} {
		if got := displayName(c.name); got != c.want {
			t.Errorf("displayName(%q) = %q, want %q", c.name, got, c.want)
		}
	}
}

// TestCQuoteRoundTrip checks on random byte strings that a quoted name
// reads back as the name (Go's unquoting knows git's escapes), that the
// git form is ASCII, and that the text form is valid UTF-8 with no control
// character: nothing can break its line.
func TestCQuoteRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 15))
	alphabet := []byte("ab /.\\\"\t\n\r\x00\x01\x1b\x7f\x80\xc3\xa9\xe6\xa0\xb8\xff")
	for range 5000 {
		b := make([]byte, r.IntN(12))
		for i := range b {
			b[i] = alphabet[r.IntN(len(alphabet))]
		}
		s := string(b)
		for _, ascii := range []bool{true, false} {
			q := cQuote(s, ascii)
			if u, err := strconv.Unquote(q); err != nil || u != s {
				t.Fatalf("cQuote(%q, %v) = %s reads back as %q (%v)", s, ascii, q, u, err)
			}
			if !utf8.ValidString(q) || strings.ContainsFunc(q, func(r rune) bool { return r < ' ' || r == 0x7f }) {
				t.Fatalf("cQuote(%q, %v) = %q holds a control character or bad UTF-8", s, ascii, q)
			}
			if ascii && strings.ContainsFunc(q, func(r rune) bool { return r >= utf8.RuneSelf }) {
				t.Fatalf("cQuote(%q, true) = %q is not ASCII", s, q)
			}
		}
	}
}

// makeOdd writes a file with a name from oddNames in dir, or skips the test
// when the file system refuses such a name.
func makeOdd(t *testing.T, dir, name, data string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
		t.Skipf("this file system takes no file named %q: %v", name, err)
	}
	return p
}

// TestDiffLabelMatchesGit has git diff the odd names and compares its
// headers with diffLabel's.
func TestDiffLabelMatchesGit(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed: cannot compare the headers with git's")
	}
	dir := t.TempDir()
	git := func(args ...string) string {
		cmd := exec.Command("git", append([]string{"-c", "core.quotePath=true", "-c", "user.name=t", "-c", "user.email=t@t", "-c", "commit.gpgsign=false"}, args...)...)
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return string(out)
	}
	git("init", "-q", ".")
	for _, c := range oddNames {
		makeOdd(t, dir, c.name, "one\n")
	}
	git("add", "-A")
	git("commit", "-q", "-m", "odd names")
	var want []string
	for _, c := range oddNames {
		makeOdd(t, dir, c.name, "two\n")
		want = append(want, "--- "+diffLabel("a/", c.name), "+++ "+diffLabel("b/", c.name))
	}
	var got []string
	for line := range strings.SplitSeq(git("diff", "--no-color", "--no-ext-diff"), "\n") {
		if strings.HasPrefix(line, "--- ") || strings.HasPrefix(line, "+++ ") {
			got = append(got, line)
		}
	}
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("git diff headers\n%q\ndiffLabel\n%q", got, want)
	}
}

// copyDir copies the regular files of src into a new directory.
func copyDir(t *testing.T, src string) string {
	t.Helper()
	dst := t.TempDir()
	entries, err := os.ReadDir(src)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		data, err := os.ReadFile(filepath.Join(src, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dst, e.Name()), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dst
}

// TestDiffOddNamesApply writes fixable kernels under the odd names, takes
// ascvet -diff, and applies it with git apply and with patch -p1 to fresh
// copies: each must end as -fix leaves the files.
func TestDiffOddNamesApply(t *testing.T) {
	orig := t.TempDir()
	k := copyKernel(t)
	for i, c := range oddNames {
		makeOdd(t, orig, c.name, k+strings.Repeat("// pad\n", i))
	}
	before := readTree(t, orig)
	want := readTree(t, copyDirFixed(t, orig))

	t.Chdir(orig)
	code, diff, errs := ascvet(t, "-diff", ".")
	if code != exitFindings || errs != "" || strings.Count(diff, "\n--- ")+1 != len(oddNames) {
		t.Fatalf("-diff: exit %d, stderr %q\n%s", code, errs, diff)
	}
	for rel, data := range readTree(t, orig) {
		if !bytes.Equal(data, before[rel]) {
			t.Fatalf("-diff wrote %q", rel)
		}
	}

	tools := []struct {
		name string
		args []string
	}{
		{"git", []string{"git", "apply", "-"}},
		{"patch", []string{"patch", "-p1", "--batch", "--no-backup-if-mismatch"}},
	}
	for _, tool := range tools {
		t.Run(tool.name, func(t *testing.T) {
			if _, err := exec.LookPath(tool.args[0]); err != nil {
				t.Skipf("%s is not installed: cannot check that it applies the diff", tool.args[0])
			}
			dir := copyDir(t, orig)
			if tool.name == "git" {
				// A repository of its own, so that git apply works from
				// its top whatever holds the temporary directory.
				if out, err := exec.Command("git", "init", "-q", dir).CombinedOutput(); err != nil {
					t.Fatalf("git init: %v\n%s", err, out)
				}
			}
			cmd := exec.Command(tool.args[0], tool.args[1:]...)
			cmd.Dir = dir
			cmd.Stdin = strings.NewReader(diff)
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("%s: %v\n%s\ndiff:\n%s", strings.Join(tool.args, " "), err, out, diff)
			}
			got := readTree(t, dir)
			for rel := range got {
				if strings.HasPrefix(rel, ".git"+string(filepath.Separator)) {
					delete(got, rel)
				}
			}
			for rel, data := range want {
				if !bytes.Equal(got[rel], data) {
					t.Errorf("%s: after %s, %q differs from what -fix writes", tool.name, tool.args[0], rel)
				}
			}
			if len(got) != len(want) {
				t.Errorf("after %s the directory holds %d files, want %d", tool.args[0], len(got), len(want))
			}
		})
	}
}

// copyDirFixed returns a copy of dir that ascvet -fix has fixed.
func copyDirFixed(t *testing.T, dir string) string {
	t.Helper()
	fixed := copyDir(t, dir)
	if code, _, errs := ascvet(t, "-fix", fixed); code != exitOK || strings.Count(errs, "ascvet: fixed") != len(oddNames) {
		t.Fatalf("-fix: exit %d\n%s", code, errs)
	}
	return fixed
}

// TestOddNamesInReports checks that a file name holding a newline, a tab or
// a quote keeps every text line whole (quoted), and that the machine
// formats carry it exactly where they can.
func TestOddNamesInReports(t *testing.T) {
	withAnalyzers(t, noBad)
	dir := t.TempDir()
	var names []string
	for _, n := range []string{"nl\nk.cpp", "tab\tk.cpp", `q"k.cpp`, "ctl\x01k.cpp"} {
		p := makeOdd(t, dir, n, "__simd_vf__ void f() {\nBAD\n}\n")
		names = append(names, p)
	}

	// text: one line per finding, the name quoted.
	_, out, _ := ascvet(t, dir)
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) != len(names)+1 {
		t.Fatalf("text output has %d lines, want %d findings and the summary:\n%s", len(lines), len(names), out)
	}
	for _, p := range names {
		want := displayName(p) + ":2:1: "
		if !strings.HasPrefix(want, `"`) {
			t.Errorf("%q is not quoted", p)
		}
		if !slices.ContainsFunc(lines, func(l string) bool { return strings.HasPrefix(l, want) }) {
			t.Errorf("no line starts with %s:\n%s", want, out)
		}
	}

	// checkstyle: the name whole, unless XML cannot carry it.
	_, out, _ = ascvet(t, "-f", "checkstyle", dir)
	var report checkstyleReport
	if err := xml.Unmarshal([]byte(out), &report); err != nil {
		t.Fatalf("checkstyle: %v\n%s", err, out)
	}
	var got []string
	for _, f := range report.Files {
		got = append(got, f.Name)
	}
	want := []string{names[0], names[1], names[2], cQuote(names[3], true)}
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("checkstyle files %q, want %q", got, want)
	}

	// github: each annotation one line, its file property the name whole;
	// the step summary quotes it.
	summary := filepath.Join(t.TempDir(), "summary.md")
	t.Setenv("GITHUB_STEP_SUMMARY", summary)
	_, out, _ = ascvet(t, "-f", "github", dir)
	lines = strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) != len(names) {
		t.Fatalf("github output has %d lines, want %d:\n%s", len(lines), len(names), out)
	}
	unescape := strings.NewReplacer("%0D", "\r", "%0A", "\n", "%3A", ":", "%2C", ",", "%25", "%")
	got = nil
	for _, l := range lines {
		prop, _, _ := strings.Cut(strings.TrimPrefix(l, "::warning file="), ",line=")
		got = append(got, unescape.Replace(prop))
	}
	want = slices.Clone(names)
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("github file properties %q, want %q", got, want)
	}
	md := contents(t, summary)
	for _, p := range names {
		if !strings.Contains(md, escapeCell(displayName(p))+":2:1 |") {
			t.Errorf("step summary does not locate %q quoted:\n%s", p, md)
		}
	}
}
