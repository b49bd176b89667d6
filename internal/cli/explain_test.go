package cli

import (
	"bytes"
	"strings"
	"testing"
	"unicode"

	"github.com/ascvet/ascvet/internal/golden"
	"github.com/ascvet/ascvet/ruleset"
)

// explain runs "ascvet explain args" with the locale variables set to
// locale (LANG; LC_ALL and LC_MESSAGES unset).
func explain(t *testing.T, locale string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	t.Setenv("LC_ALL", "")
	t.Setenv("LC_MESSAGES", "")
	t.Setenv("LANG", locale)
	var out, errb bytes.Buffer
	code = runExplain(args, &out, &errb)
	return code, out.String(), errb.String()
}

func TestExplainGolden(t *testing.T) {
	cases := []struct {
		name, locale string
		args         []string
	}{
		{"asc1001.txt", "C", []string{"ASC1001"}},
		{"asc1001.zh.txt", "C", []string{"-lang", "zh", "asc1001"}},
		{"asc3005.zh.md", "zh_CN.UTF-8", []string{"-f", "markdown", "mask-and-after-compare"}}, // the locale chooses Chinese
		{"two.txt", "en_US.UTF-8", []string{"unalign-store-without-post", "asc2003"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			code, out, errs := explain(t, c.locale, c.args...)
			if code != exitOK || errs != "" {
				t.Fatalf("exit %d, stderr %q", code, errs)
			}
			golden.Check(t, "explain/"+c.name, out)
		})
	}
}

// TestExplainList: without a rule, explain lists them all, titled in the
// language of the locale.
func TestExplainList(t *testing.T) {
	code, out, errs := explain(t, "zh_CN.UTF-8")
	if code != exitOK || errs != "" {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	for _, r := range ruleset.All() {
		if !strings.Contains(out, r.ID) || !strings.Contains(out, r.Doc("zh").Title) {
			t.Errorf("list lacks %s or its Chinese title:\n%s", r.ID, out)
		}
	}
}

// TestExplainSpellings: an ID in any case and the name give the same text;
// -lang beats the locale.
func TestExplainSpellings(t *testing.T) {
	_, want, _ := explain(t, "C", "ASC3004")
	for _, arg := range []string{"asc3004", "Asc3004", "mask-demorgan", "MASK-DEMORGAN"} {
		if code, got, _ := explain(t, "C", arg); code != exitOK || got != want {
			t.Errorf("explain %s differs from explain ASC3004 (exit %d)", arg, code)
		}
	}
	if _, got, _ := explain(t, "zh_CN.UTF-8", "-lang", "en", "ASC3004"); got != want {
		t.Error("-lang en does not beat LANG=zh_CN.UTF-8")
	}
	_, zh, _ := explain(t, "C", "-lang", "zh", "ASC3004")
	if _, got, _ := explain(t, "zh_CN.UTF-8", "ASC3004"); got != zh || got == want {
		t.Error("LANG=zh_CN.UTF-8 does not give the Chinese text")
	}
}

func TestExplainUnknown(t *testing.T) {
	cases := []struct {
		locale string
		args   []string
		stderr string
		stdout string // a prefix
	}{
		{"C", []string{"ASC1010"}, "ascvet explain: unknown rule \"ASC1010\"; did you mean ASC1001 (unalign-pre-in-loop)?\n", ""},
		{"C", []string{"unalign-pre-loop"}, "did you mean ASC1001 (unalign-pre-in-loop)?", ""},
		{"C", []string{"mask-demorgen"}, "did you mean ASC3004 (mask-demorgan)?", ""},
		{"C", []string{"xyzzy"}, "ascvet explain: unknown rule \"xyzzy\"; run 'ascvet explain' to list the rules\n", ""},
		{"zh_CN.UTF-8", []string{"asc4003"}, "未知规则 \"asc4003\"；是不是指 ASC4001（long-dependency-chain）？", ""}, // not ASC0003, as far
		{"C", []string{"asc0004"}, "did you mean ASC0001 (vf-parse-error)?", ""},
		// the known rules are printed all the same
		{"C", []string{"ASC2001", "nope-nope-nope", "ASC2002"}, "unknown rule \"nope-nope-nope\"", "ASC2001 dist-alignment\n"},
	}
	for _, c := range cases {
		code, out, errs := explain(t, c.locale, c.args...)
		if code != exitUsage {
			t.Errorf("explain %v: exit %d, want %d", c.args, code, exitUsage)
		}
		if !strings.Contains(errs, c.stderr) {
			t.Errorf("explain %v: stderr %q, want %q", c.args, errs, c.stderr)
		}
		if !strings.HasPrefix(out, c.stdout) || (c.stdout == "") != (out == "") {
			t.Errorf("explain %v: stdout %q, want it to start with %q", c.args, out, c.stdout)
		}
		if c.stdout != "" && !strings.Contains(out, "ASC2002 dist-type-mismatch\n") {
			t.Errorf("explain %v: the second known rule is missing", c.args)
		}
	}
}

func TestExplainUsage(t *testing.T) {
	for _, args := range [][]string{{"-lang", "fr", "ASC1001"}, {"-f", "json", "ASC1001"}, {"-nosuchflag"}} {
		if code, out, errs := explain(t, "C", args...); code != exitUsage || out != "" || errs == "" {
			t.Errorf("explain %v: exit %d, stdout %q, stderr %q", args, code, out, errs)
		}
	}
	if code, _, errs := explain(t, "C", "-h"); code != exitOK || !strings.Contains(errs, "usage: ascvet explain") {
		t.Errorf("-h: exit %d, %q", code, errs)
	}
}

// TestExplainEveryRule explains every rule in both languages and formats:
// the header, the text wrapped to 80 columns, both examples.
func TestExplainEveryRule(t *testing.T) {
	for _, r := range ruleset.All() {
		for _, lang := range []string{"en", "zh"} {
			code, out, errs := explain(t, "C", "-lang", lang, r.ID)
			if code != exitOK || errs != "" {
				t.Errorf("%s %s: exit %d, %q", r.ID, lang, code, errs)
				continue
			}
			if !strings.HasPrefix(out, r.ID+" "+r.Name+"\n"+r.Doc(lang).Title+"\n") {
				t.Errorf("%s %s: header %q", r.ID, lang, strings.SplitN(out, "\n", 3)[:2])
			}
			codeLines := map[string]bool{}
			for _, l := range strings.Split(r.Before+"\n"+r.After, "\n") {
				codeLines["    "+l] = true
			}
			for _, line := range strings.Split(out, "\n") {
				if !codeLines[line] && !strings.Contains(line, "https://") && width(line) > ruleset.TextWidth {
					t.Errorf("%s %s: line of %d columns: %q", r.ID, lang, width(line), line)
				}
			}
			if r.Before != "" && !strings.Contains(out, "    "+strings.SplitN(r.Before, "\n", 2)[0]+"\n") {
				t.Errorf("%s %s: the bad example is missing", r.ID, lang)
			}
			_, md, _ := explain(t, "C", "-lang", lang, "-f", "markdown", r.ID)
			if !strings.HasPrefix(md, "## "+r.ID+"\n\n**") || r.Before != "" && !strings.Contains(md, "```cpp\n"+r.Before+"\n```") {
				t.Errorf("%s %s: markdown:\n%s", r.ID, lang, md)
			}
		}
	}
}

// width counts a Chinese character, a fullwidth form and a curly quote
// as two columns.
func width(s string) int {
	n := 0
	for _, r := range s {
		n++
		if unicode.Is(unicode.Han, r) || r >= 0x3000 && r <= 0x303F || r >= 0xFF00 && r <= 0xFF60 || r >= 0x2018 && r <= 0x201F {
			n++
		}
	}
	return n
}
