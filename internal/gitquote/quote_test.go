package gitquote

import (
	"math/rand/v2"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/ascvet/ascvet/internal/gitquote/gitquotetest"
	"github.com/ascvet/ascvet/internal/testfs"
)

func TestDiffLabel(t *testing.T) {
	for _, c := range gitquotetest.OddNames {
		if got := DiffLabel("a/", c.Name); got != c.Label {
			t.Errorf("diffLabel(a/, %q) = %q, want %q", c.Name, got, c.Label)
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
		if got := DisplayName(c.name); got != c.want {
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
			q := Quote(s, ascii)
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

// TestDiffLabelMatchesGit has git diff the odd names and compares its
// headers with diffLabel's.
func TestDiffLabelMatchesGit(t *testing.T) {
	testfs.NeedGit(t, "git is not installed: cannot compare the headers with git's")
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
	for _, c := range gitquotetest.OddNames {
		gitquotetest.MakeOdd(t, dir, c.Name, "one\n")
	}
	git("add", "-A")
	git("commit", "-q", "-m", "odd names")
	var want []string
	for _, c := range gitquotetest.OddNames {
		gitquotetest.MakeOdd(t, dir, c.Name, "two\n")
		want = append(want, "--- "+DiffLabel("a/", c.Name), "+++ "+DiffLabel("b/", c.Name))
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
