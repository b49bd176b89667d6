package suppress

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/ascvet/ascvet/ruleset"
)

// Rules for the tests; the real rules live in analyzers/..., which this
// package must not import.
var (
	ruleA = ruleset.DefineDriver(&ruleset.Rule{ID: "ASC1901", Name: "test-unaligned-a", Title: "a", Text: "a", Since: "0.2.0"})
	ruleB = ruleset.DefineDriver(&ruleset.Rule{ID: "ASC1902", Name: "test-unaligned-b", Title: "b", Text: "b", Since: "0.2.0"})
	ruleC = ruleset.DefineDriver(&ruleset.Rule{ID: "ASC2901", Name: "test-aligned", Title: "c", Text: "c", Since: "0.2.0"})
)

type applyCase struct {
	name     string
	py       bool     // Python syntax
	src      string   // lines joined by \n
	findings []string // "ASC1901@3" or "ASC1901@3-5"
	enabled  []string // rule IDs that ran; nil: all
	supp     []string // "ASC1901@3 by 2": finding suppressed by the directive on line 2
	unused   []string // "2": the directive on line 2 is reported; "2 by 1": its report is suppressed by line 1's
	problems []string // "line:col regexp"
}

var applyCases = []applyCase{
	{
		name:     "trailing line",
		src:      "a;\nx; // ascvet:ignore ASC1901 the stream restarts\ny;",
		findings: []string{"ASC1901@2", "ASC1902@2", "ASC1901@3", "ASC1901@1"},
		supp:     []string{"ASC1901@2 by 2"},
	},
	{
		name:     "line before",
		src:      "// ascvet:ignore ASC1901 reason here\nx;\ny;",
		findings: []string{"ASC1901@2", "ASC1901@3"},
		supp:     []string{"ASC1901@2 by 1"},
	},
	{
		name:     "stacked directives and an explanation reach the code",
		src:      "// ascvet:ignore ASC1901 r1\n// ascvet:ignore ASC1902 r2\n// some words\nx;",
		findings: []string{"ASC1901@4", "ASC1902@4"},
		supp:     []string{"ASC1901@4 by 1", "ASC1902@4 by 2"},
	},
	{
		name:     "a blank line detaches the directive",
		src:      "// ascvet:ignore ASC1901 r\n\nx;",
		findings: []string{"ASC1901@3"},
		unused:   []string{"1"},
	},
	{
		name:     "multi-line finding: last line",
		src:      "f(a,\n  b); // ascvet:ignore ASC1901 r",
		findings: []string{"ASC1901@1-2"},
		supp:     []string{"ASC1901@1 by 2"},
	},
	{
		name:     "multi-line finding: an inner line does not cover it",
		src:      "for (;;) {\n  x; // ascvet:ignore ASC1901 r\n  y;\n}",
		findings: []string{"ASC1901@1-4"},
		unused:   []string{"2"},
	},
	{
		name:     "list with and without blanks",
		src:      "x; // ascvet:ignore ASC1901,ASC1902 r\ny; // ascvet:ignore ASC1901 , ASC2901 r",
		findings: []string{"ASC1901@1", "ASC1902@1", "ASC2901@1", "ASC2901@2"},
		supp:     []string{"ASC1901@1 by 1", "ASC1902@1 by 1", "ASC2901@2 by 2"},
	},
	{
		name:     "names and case",
		src:      "x; // ascvet:ignore test-unaligned-a r\ny; // ascvet:ignore asc1902 r\nz; // ascvet:ignore TEST-Aligned r",
		findings: []string{"ASC1901@1", "ASC1902@2", "ASC2901@3"},
		supp:     []string{"ASC1901@1 by 1", "ASC1902@2 by 2", "ASC2901@3 by 3"},
	},
	{
		name:     "globs",
		src:      "x; // ascvet:ignore asc19* r\ny; // ascvet:ignore test-*-b r",
		findings: []string{"ASC1901@1", "ASC1902@1", "ASC2901@1", "ASC1901@2", "ASC1902@2"},
		supp:     []string{"ASC1901@1 by 1", "ASC1902@1 by 1", "ASC1902@2 by 2"},
	},
	{
		name:     "file",
		src:      "a;\n// ascvet:file-ignore ASC1901 generated code\nb;\n" + strings.Repeat("c;\n", 60),
		findings: []string{"ASC1901@1", "ASC1901@60", "ASC1902@60"},
		supp:     []string{"ASC1901@1 by 2", "ASC1901@60 by 2"},
	},
	{
		name: "block, nested",
		src: "a;\n// ascvet:begin-ignore ASC1901 r\nb;\n/* ascvet:begin-ignore ASC1902 r */\nc;\n" +
			"// ascvet:end-ignore\nd;\n// ascvet:end-ignore the end\ne;",
		findings: []string{"ASC1901@1", "ASC1901@3", "ASC1902@3", "ASC1902@5", "ASC1901@7", "ASC1902@7", "ASC1901@9"},
		supp:     []string{"ASC1901@3 by 2", "ASC1902@5 by 4", "ASC1901@7 by 2"},
	},
	{
		name:     "the most specific directive wins; all covering ones are used",
		src:      "// ascvet:file-ignore ASC1901 f\n// ascvet:begin-ignore ASC1901 b\nx; // ascvet:ignore ASC1901 l\n// ascvet:end-ignore",
		findings: []string{"ASC1901@3"},
		supp:     []string{"ASC1901@3 by 3"},
	},
	{
		name: "NOLINT",
		src: "a; // NOLINT(ascvet-ASC1901)\nb; // NOLINT\nc; // NOLINT(ascvet-*): reason\nd; // NOLINT(readability-*)\n" +
			"e; // NOLINT(ascvet-test-unaligned-b, readability-x)\nf; // NOLINTFOO\ng; // text then NOLINT(ascvet-ASC19*)\nh; // NOLINT(*)",
		findings: []string{"ASC1901@1", "ASC1902@1", "ASC2901@2", "ASC2901@3", "ASC1901@4", "ASC1902@5", "ASC1901@6", "ASC1902@7", "ASC2901@7", "ASC2901@8"},
		supp:     []string{"ASC1901@1 by 1", "ASC2901@2 by 2", "ASC2901@3 by 3", "ASC1902@5 by 5", "ASC1902@7 by 7", "ASC2901@8 by 8"},
	},
	{
		name:     "NOLINTNEXTLINE",
		src:      "// NOLINTNEXTLINE(ascvet-ASC1901)\nx;\ny;\n// NOLINTNEXTLINE\n\nz;",
		findings: []string{"ASC1901@1", "ASC1901@2", "ASC1901@3", "ASC1901@6"},
		supp:     []string{"ASC1901@2 by 1"},
	},
	{
		name:     "NOLINTBEGIN and NOLINTEND",
		src:      "a;\n// NOLINTBEGIN(ascvet-ASC1901)\nb;\n// NOLINTBEGIN\nc;\n// NOLINTEND\n// NOLINTEND(ascvet-ASC1901)\nd;",
		findings: []string{"ASC1901@1", "ASC1901@3", "ASC1902@3", "ASC2901@5", "ASC1901@8"},
		supp:     []string{"ASC1901@3 by 2", "ASC2901@5 by 4"},
	},
	{
		name:     "NOLINT for other tools' checks is no directive",
		src:      "// NOLINTBEGIN(readability-x)\nx; // NOLINT(google-*)\n// NOLINTNEXTLINE(-ascvet-ASC1901)\ny;",
		findings: []string{"ASC1901@2", "ASC1901@4"},
	},
	{
		name:     "Python",
		py:       true,
		src:      "x = 1  # ascvet:ignore ASC1901 r\n# ascvet:ignore ASC1902 r\ny = 2\nz = 3  # NOLINT\nw = '# ascvet:ignore ASC2901 r'  // ascvet:ignore ASC2901 r",
		findings: []string{"ASC1901@1", "ASC1902@3", "ASC1901@4", "ASC2901@5"},
		supp:     []string{"ASC1901@1 by 1", "ASC1902@3 by 2"},
	},
	{
		name:     "Python strings",
		py:       true,
		src:      "s = \"\"\"\n# ascvet:file-ignore ASC1901 r\n\"\"\"\nt = r'\\' # ascvet:ignore ASC1902 r'\nu = 1",
		findings: []string{"ASC1901@5", "ASC1902@4"},
	},
	{
		name: "C++ strings are not comments",
		src: "s = \"// ascvet:file-ignore ASC1901 r\";\n" +
			"r = R\"x(\n// ascvet:file-ignore ASC1902 r\n)\" )x\";\n" +
			"c = '\"'; n = 1'000'000; // ascvet:ignore ASC2901 r\n" +
			"u = u8\"/* ascvet:file-ignore ASC2901 r */\";",
		findings: []string{"ASC1901@1", "ASC1902@3", "ASC2901@5", "ASC2901@6"},
		supp:     []string{"ASC2901@5 by 5"},
	},
	{
		name:     "block comments",
		src:      "/* ascvet:ignore ASC1901 r */ x;\n/*\n * ascvet:ignore ASC1902 r\n */\ny;\n/** ascvet:file-ignore ASC2901 r */",
		findings: []string{"ASC1901@1", "ASC1902@5", "ASC2901@5"},
		supp:     []string{"ASC1901@1 by 1", "ASC1902@5 by 3", "ASC2901@5 by 6"},
	},
	{
		name:     "directive text not at the start of a comment",
		src:      "x; // see ascvet:ignore ASC1901 r\n// TODO: ascvet:file-ignore ASC1901 r",
		findings: []string{"ASC1901@1"},
	},
	{
		name:     "missing reason suppresses nothing",
		src:      "x; // ascvet:ignore ASC1901\ny; // ascvet:file-ignore ASC1902   \n// ascvet:begin-ignore ASC2901\nz;\n// ascvet:end-ignore",
		findings: []string{"ASC1901@1", "ASC1902@2", "ASC2901@4"},
		problems: []string{
			`1:7 ^ascvet:ignore ASC1901 has no reason; say after the rules why the finding does not apply$`,
			`2:7 ^ascvet:file-ignore ASC1902 has no reason`,
			`3:4 ^ascvet:begin-ignore ASC2901 has no reason`,
		},
	},
	{
		name:     "the suppress quick fix's placeholder reason suppresses nothing",
		src:      "// ascvet:ignore ASC1901 REASON: say why this finding does not apply\nx;\ny; // ascvet:ignore ASC1902 REASON: the stream restarts at a padded row",
		findings: []string{"ASC1901@2", "ASC1902@3"},
		supp:     []string{"ASC1902@3 by 3"},
		problems: []string{
			`1:4 ^ascvet:ignore ASC1901 still has the placeholder reason; replace it with why the finding does not apply$`,
		},
	},
	{
		name:     "unknown rule: reported, the known ones still apply",
		src:      "x; // ascvet:ignore ASC1901,ASC1999 r\ny; // ascvet:ignore because it is fine\nz; // NOLINT(ascvet-nope, readability-x)",
		findings: []string{"ASC1901@1", "ASC1901@3"},
		supp:     []string{"ASC1901@1 by 1"},
		problems: []string{
			`1:29 ^ascvet:ignore names unknown rule "ASC1999"; name a rule by ID, name or glob \(ascvet -list shows them\) before the reason$`,
			`2:21 ^ascvet:ignore names unknown rule "because"`,
			`3:7 ^NOLINT\(ascvet-nope, readability-x\) names unknown check "ascvet-nope"`,
		},
	},
	{
		name: "malformed",
		src: "// ascvet:ignore\n// ascvet:ignroe ASC1901 r\n// ascvet:ignore ASC1901,,ASC1902 r\n// ascvet:ignore [ASC r\n" +
			"// ascvet:ignore ASC1901, \nx; // NOLINT(ascvet-ASC1901\n",
		findings: []string{"ASC1901@2", "ASC1901@6"},
		problems: []string{
			`1:4 ^ascvet:ignore names no rule; write ascvet:ignore RULE\[,RULE\] reason$`,
			`2:4 ^unknown directive ascvet:ignroe; use ascvet:ignore, ascvet:file-ignore, ascvet:begin-ignore or ascvet:end-ignore$`,
			`3:4 ^ascvet:ignore has an empty rule in its list`,
			`4:18 ^ascvet:ignore has a malformed rule glob "\[ASC"`,
			`5:4 ^ascvet:ignore has an empty rule in its list`,
			`6:7 ^NOLINT has no closing parenthesis; write NOLINT\(ascvet-RULE\)$`,
		},
	},
	{
		name:     "unpaired blocks",
		src:      "// ascvet:end-ignore\n// ascvet:begin-ignore ASC1901 r\nx;\n// NOLINTEND(ascvet-ASC1902)\n// NOLINTBEGIN(ascvet-ASC2901)\n// NOLINTEND(ascvet-ASC1901)",
		findings: []string{"ASC1901@3", "ASC2901@6"},
		problems: []string{
			`1:4 ^ascvet:end-ignore has no open ascvet:begin-ignore to close; remove it or add the ascvet:begin-ignore$`,
			`2:4 ^ascvet:begin-ignore ASC1901 has no matching ascvet:end-ignore; add one after the code it should cover$`,
			`4:4 ^NOLINTEND\(ascvet-ASC1902\) has no matching NOLINTBEGIN\(ascvet-ASC1902\); remove it or add the NOLINTBEGIN with the same checks$`,
			`5:4 ^NOLINTBEGIN\(ascvet-ASC2901\) has no matching NOLINTEND\(ascvet-ASC2901\)`,
			`6:4 ^NOLINTEND\(ascvet-ASC1901\) has no matching NOLINTBEGIN`,
		},
	},
	{
		name:     "a begin without reason is still paired",
		src:      "// ascvet:begin-ignore ASC1901\nx;\n// ascvet:end-ignore",
		findings: []string{"ASC1901@2"},
		problems: []string{`1:4 has no reason`},
	},
	{
		name: "unused: line, block, file, NOLINT",
		src: "x; // ascvet:ignore ASC1901 r\n// ascvet:begin-ignore ASC1902 r\ny;\n// ascvet:end-ignore\n// ascvet:file-ignore ASC2901 r\n" +
			"z; // NOLINT(ascvet-ASC1901)\nw; // NOLINT\nv; // NOLINT(*)\n// NOLINTBEGIN(ascvet-ASC1902)\n// NOLINTEND(ascvet-ASC1902)",
		unused: []string{"1", "2", "5", "6", "9"},
	},
	{
		name:     "unused: only rules that ran",
		src:      "x; // ascvet:ignore ASC1901 r\ny; // ascvet:ignore ASC19* r\n// ascvet:file-ignore ASC2901 r",
		enabled:  []string{"ASC1902", "ASC0003"},
		findings: []string{"ASC1902@1"},
		unused:   []string{"2"},
	},
	{
		name:    "unused-directive disabled: nothing is unused",
		src:     "x; // ascvet:ignore ASC1901 r",
		enabled: []string{"ASC1901"},
	},
	{
		name:   "unused reports suppressed by a directive naming unused-directive",
		src:    "x; // ascvet:ignore ASC1901,unused-directive might fire\n// ascvet:ignore ASC0003 r\n// ascvet:ignore ASC1902 r\ny;\nz; // ascvet:ignore ASC2901 r",
		unused: []string{"1 by 1", "3 by 2", "5"},
	},
	{
		name:   "file-ignore of unused-directive",
		src:    "// ascvet:file-ignore unused-directive r\nx; // ascvet:ignore ASC1901 r",
		unused: []string{"2 by 1"},
	},
	{
		name:     "problems can be suppressed like findings",
		src:      "// ascvet:file-ignore invalid-directive legacy code\nx; // ascvet:ignore ASC1901",
		findings: []string{"ASC0002@2"},
		supp:     []string{"ASC0002@2 by 1"},
		problems: []string{`2:7 has no reason`},
	},
}

func TestApply(t *testing.T) {
	for _, tc := range applyCases {
		t.Run(tc.name, func(t *testing.T) {
			syntax := CPP
			if tc.py {
				syntax = Python
			}
			dirs, problems := Parse([]byte(tc.src), syntax)
			var got []string
			for _, p := range problems {
				got = append(got, fmt.Sprintf("%d:%d %s", p.Line, p.Col, p.Message))
			}
			if len(got) != len(tc.problems) {
				t.Errorf("problems:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tc.problems, "\n"))
			} else {
				for i, want := range tc.problems {
					pos, re, _ := strings.Cut(want, " ")
					gpos, gmsg, _ := strings.Cut(got[i], " ")
					if gpos != pos || !regexp.MustCompile(re).MatchString(gmsg) {
						t.Errorf("problem %d = %q; want %q", i, got[i], want)
					}
					if strings.HasSuffix(gmsg, ".") || gmsg != strings.ToLower(gmsg[:1])+gmsg[1:] && !strings.HasPrefix(gmsg, "NOLINT") {
						t.Errorf("problem %q is not in the house style", gmsg)
					}
				}
			}

			var findings []Target
			for _, f := range tc.findings {
				rule, lines, _ := strings.Cut(f, "@")
				from, to, _ := strings.Cut(lines, "-")
				line, _ := strconv.Atoi(from)
				end, _ := strconv.Atoi(to)
				findings = append(findings, Target{Rule: rule, Line: line, EndLine: end})
			}
			res := Apply(dirs, findings, tc.enabled)
			got = nil
			for _, s := range res.Suppressed {
				f, d := findings[s.Finding], dirs[s.Directive]
				got = append(got, fmt.Sprintf("%s@%d by %d", f.Rule, f.Line, d.Line))
				if s.Reason != d.Reason {
					t.Errorf("suppression reason %q; want the directive's %q", s.Reason, d.Reason)
				}
			}
			if !slices.Equal(got, tc.supp) {
				t.Errorf("suppressed %q; want %q", got, tc.supp)
			}
			got = nil
			for _, u := range res.Unused {
				s := strconv.Itoa(dirs[u.Directive].Line)
				if u.By >= 0 {
					s += " by " + strconv.Itoa(dirs[u.By].Line)
				}
				got = append(got, s)
				if !strings.Contains(u.Message, "suppressed no finding") || strings.HasSuffix(u.Message, ".") {
					t.Errorf("unused message %q", u.Message)
				}
			}
			if !slices.Equal(got, tc.unused) {
				t.Errorf("unused %q; want %q", got, tc.unused)
			}
		})
	}
}

func TestDirectiveFields(t *testing.T) {
	src := "int a;\n  x; // ascvet:ignore ASC1901,test-* why not  \n/* NOLINTBEGIN(ascvet-ASC1902, readability-x) ok */\n// NOLINTEND(ascvet-ASC1902, readability-x)\n"
	dirs, problems := Parse([]byte(src), CPP)
	if len(problems) != 0 || len(dirs) != 2 {
		t.Fatalf("Parse = %+v, %+v", dirs, problems)
	}
	d := dirs[0]
	off := strings.Index(src, "ascvet:ignore")
	want := Directive{
		Kind: Ignore, Text: "ascvet:ignore ASC1901,test-*", Patterns: []string{"ASC1901", "test-*"},
		Rules: []string{"ASC1901", "ASC1902", "ASC2901"}, Reason: "why not",
		Span: Span{Line: 2, Col: 9, EndCol: 45, Offset: off, EndOffset: off + len("ascvet:ignore ASC1901,test-* why not")},
		From: 2, To: 2, Explicit: true,
	}
	if fmt.Sprint(d) != fmt.Sprint(want) {
		t.Errorf("directive\n%+v\nwant\n%+v", d, want)
	}
	b := dirs[1]
	if b.Kind != NolintBegin || b.Text != "NOLINTBEGIN(ascvet-ASC1902, readability-x)" || b.Reason != "ok" ||
		!slices.Equal(b.Patterns, []string{"ascvet-ASC1902"}) || !slices.Equal(b.Rules, []string{"ASC1902"}) ||
		b.From != 3 || b.To != 4 || b.EndSpan.Line != 4 || b.EndSpan.Col != 4 || !b.Explicit {
		t.Errorf("block directive %+v", b)
	}
	if b.Kind.String() != "NOLINTBEGIN" || FileIgnore.String() != "ascvet:file-ignore" {
		t.Errorf("Kind.String: %s %s", b.Kind, FileIgnore)
	}
}

func TestSyntaxFor(t *testing.T) {
	for name, want := range map[string]Syntax{"k.cpp": CPP, "k.asc": CPP, "k.h": CPP, "gen.py": Python, "x/y.PYI": Python} {
		if got := SyntaxFor(name); got != want {
			t.Errorf("SyntaxFor(%s) = %d; want %d", name, got, want)
		}
	}
}

func TestScanCPP(t *testing.T) {
	src := `a = "x//y\"/*"; // one
b = 'x' /* two
   lines */ c = R"d(/* no )" // no)d"; d = 0x1p-3'0; // three \
continued
e = LR"(// no)" u'/' // four
#include "/*no*/"
`
	var got []string
	for _, c := range scanCPP([]byte(src)) {
		got = append(got, src[c.start:c.end])
	}
	want := []string{"// one", "/* two\n   lines */", "// three \\\ncontinued", "// four"}
	if !slices.Equal(got, want) {
		t.Errorf("comments %q; want %q", got, want)
	}
	// Unterminated literals end at the newline; an unterminated comment at the end.
	got = nil
	src = "a = \"open\n// yes\nR\"x(never\n/* no"
	for _, c := range scanCPP([]byte(src)) {
		got = append(got, src[c.start:c.end])
	}
	if !slices.Equal(got, []string{"// yes"}) {
		t.Errorf("comments %q", got)
	}
}

func TestRules(t *testing.T) {
	for _, r := range []*ruleset.Rule{InvalidDirective, UnusedDirective} {
		if got, ok := ruleset.Lookup(r.Name); !ok || got != r || r.Analyzer != nil {
			t.Errorf("Lookup(%s) = %v, %v", r.Name, got, ok)
		}
		if r.Before == "" || r.After == "" || len(r.Tags) == 0 || r.Precision == "" || r.Since != "0.2.0" {
			t.Errorf("rule %s is incomplete", r.ID)
		}
	}
	if InvalidDirective.Severity != ruleset.Warning || UnusedDirective.Severity != ruleset.Info {
		t.Error("severities changed")
	}
	_, _ = ruleA, ruleB
	_ = ruleC
}

func FuzzParse(f *testing.F) {
	for _, tc := range applyCases {
		f.Add(tc.src, tc.py)
	}
	f.Fuzz(func(t *testing.T, src string, py bool) {
		syntax := CPP
		if py {
			syntax = Python
		}
		dirs, problems := Parse([]byte(src), syntax)
		for _, d := range dirs {
			s := d.Span
			if s.Offset < 0 || s.EndOffset > len(src) || s.Offset > s.EndOffset || s.Line < 1 || s.Col < 1 || d.From > d.To {
				t.Fatalf("bad directive %+v", d)
			}
		}
		for _, p := range problems {
			if p.EndOffset > len(src) || p.Offset > p.EndOffset {
				t.Fatalf("bad problem %+v", p)
			}
		}
		Apply(dirs, []Target{{Rule: "ASC1901", Line: 1, EndLine: 3}}, nil)
	})
}
