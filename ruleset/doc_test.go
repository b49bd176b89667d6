package ruleset

import (
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

// docRule is a rule that is not registered: Doc and the formatters need
// no registry. Its ID has Chinese texts in package i18n.
func docRule() *Rule {
	return &Rule{
		ID: "ASC1001", Name: "unalign-pre-in-loop", Title: "a title with *stars* and <angles>",
		Text: "First paragraph with `code_span*` and a_b and _edge_ and src + i * n, long enough to need wrapping at eighty " +
			"columns when it is printed in a terminal by ascvet explain.\n\nSecond paragraph.",
		Before: "\nfor (;;) {\n    LoadUnAlignPre(u, src);\n}\n", After: "LoadUnAlignPre(u, src);",
		Severity: Warning, Since: "0.1.0", Tags: []string{"performance", "unaligned"}, Precision: "high",
		Options: []Option{OptionConfidence, OptionMachine},
	}
}

func TestDoc(t *testing.T) {
	r := docRule()
	en := r.Doc("en")
	if en.Lang != "en" || en.Title != r.Title || en.Text != r.Text || en.HelpURI != r.HelpURI() {
		t.Errorf("Doc(en) = %+v", en)
	}
	if en.Before != "for (;;) {\n    LoadUnAlignPre(u, src);\n}" {
		t.Errorf("Before not trimmed of blank lines: %q", en.Before)
	}
	for _, lang := range []string{"", "fr", "EN", "en_US.UTF-8"} {
		if d := r.Doc(lang); d.Lang != "en" || d.Title != r.Title {
			t.Errorf("Doc(%q) is not English: %q", lang, d.Title)
		}
	}
	zh := r.Doc("zh_CN.UTF-8")
	if zh.Lang != "zh" || zh.Title == r.Title || !strings.Contains(zh.Text, "非对齐") {
		t.Errorf("Doc(zh) is not Chinese: %q %q", zh.Title, zh.Text)
	}
	if !strings.HasSuffix(zh.HelpURI, "/docs/rules.zh.md#asc1001") {
		t.Errorf("Chinese help URI %s", zh.HelpURI)
	}
	if zh.Options[0].Doc == OptionConfidence.Doc || zh.Options[0].Name != "confidence" || zh.Options[0].Default != "high" {
		t.Errorf("Chinese option %+v", zh.Options[0])
	}
	if r.Options[0].Doc != OptionConfidence.Doc {
		t.Error("Doc(zh) changed the rule's options")
	}
	if zh.Before != en.Before || zh.Severity != Warning || zh.Since != "0.1.0" || zh.Precision != "high" {
		t.Errorf("Doc(zh) lost language-neutral fields: %+v", zh)
	}
	// a rule without Chinese text stays English, labels and all
	other := &Rule{ID: "ASC9990", Name: "x", Title: "t", Text: "x", Severity: Info, Since: "0.1.0"}
	if d := other.Doc("zh"); d.Lang != "en" || d.Title != "t" {
		t.Errorf("rule without Chinese: %+v", d)
	}
	if got := other.FormatText("zh"); !strings.Contains(got, "Severity: info") {
		t.Errorf("rule without Chinese is not documented in English:\n%s", got)
	}
}

func TestFormatText(t *testing.T) {
	r := docRule()
	got := r.FormatText("en")
	for _, want := range []string{
		"ASC1001 unalign-pre-in-loop\na title with *stars* and <angles>\n\n",
		"Severity:  warning\nSince:     0.1.0\nPrecision: high\nTags:      performance, unaligned\n",
		"\n\nSecond paragraph.\n",
		"Bad:\n\n    for (;;) {\n        LoadUnAlignPre(u, src);\n    }\n",
		"Good:\n\n    LoadUnAlignPre(u, src);\n",
		"Options:\n  confidence (default: high)\n      high: report only",
		"  machine (default: none)\n",
		"\nHelp: " + r.HelpURI() + "\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("FormatText(en) lacks %q:\n%s", want, got)
		}
	}
	checkWidth(t, got)
	zh := r.FormatText("zh")
	for _, want := range []string{"严重级别：警告\n", "精度：    高\n", "反例：\n\n    for (;;) {", "正例：\n", "选项：\n  confidence（默认值：high）\n", "  machine（默认值：无）\n", "帮助：https://"} {
		if !strings.Contains(zh, want) {
			t.Errorf("FormatText(zh) lacks %q:\n%s", want, zh)
		}
	}
	checkWidth(t, zh)
}

// checkWidth checks that no line of prose is wider than TextWidth (code
// lines, indented by four spaces, are left as written, and so is a URL,
// which has a line of its own when it is wider).
func checkWidth(t *testing.T, text string) {
	t.Helper()
	for _, line := range strings.Split(text, "\n") {
		if strings.HasPrefix(line, "    ") && !strings.HasPrefix(line, "      ") || strings.HasPrefix(line, "Help") || strings.HasPrefix(line, "帮助") {
			continue
		}
		if urlAt(line) == line {
			continue
		}
		if w := displayWidth(line); w > TextWidth {
			t.Errorf("line of %d columns: %q", w, line)
		}
	}
}

func TestFormatMarkdown(t *testing.T) {
	r := docRule()
	got := r.FormatMarkdown("en")
	for _, want := range []string{
		"**a title with \\*stars\\* and \\<angles\\>** (`unalign-pre-in-loop`)\n\n",
		"Severity: **warning** · Since: 0.1.0 · Precision: high · Tags: `performance`, `unaligned`\n",
		"`code_span*`",         // code spans are left alone
		" a_b and \\_edge\\_ ", // intraword underscores are literal; edge ones are escaped
		"src + i \\* n",
		"\n\nSecond paragraph.\n",
		"Bad:\n\n```cpp\nfor (;;) {\n    LoadUnAlignPre(u, src);\n}\n```\n",
		"Good:\n\n```cpp\nLoadUnAlignPre(u, src);\n```\n",
		"- `confidence` (default `high`): high: report only",
		"- `machine` (default none): machine model file",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("FormatMarkdown(en) lacks %q:\n%s", want, got)
		}
	}
	zh := r.FormatMarkdown("zh")
	for _, want := range []string{"严重级别：**警告** · 引入版本：0.1.0 · 精度：高", "反例：\n\n```cpp\n", "- `confidence`（默认值 `high`）：high：", "（`unalign-pre-in-loop`）"} {
		if !strings.Contains(zh, want) {
			t.Errorf("FormatMarkdown(zh) lacks %q:\n%s", want, zh)
		}
	}
	// no examples, no options, no tags: no empty sections
	bare := &Rule{ID: "ASC9991", Name: "bare", Title: "t", Text: "x", Severity: Error, Since: "0.2.0"}
	md := bare.FormatMarkdown("en")
	if strings.Contains(md, "Bad") || strings.Contains(md, "Options") || strings.Contains(md, "Tags") || strings.Contains(md, "Precision") {
		t.Errorf("empty sections:\n%s", md)
	}
}

func TestMarkdownPage(t *testing.T) {
	a, b := docRule(), &Rule{ID: "ASC9992", Name: "pipe-rule", Title: "a | b", Text: "x", Severity: Info, Since: "0.1.0"}
	page := string(Markdown("en", []*Rule{a, b}))
	for _, want := range []string{
		"<!-- Code generated by \"go generate ./ruleset\"; DO NOT EDIT. -->\n",
		"| [ASC1001](#asc1001) | `unalign-pre-in-loop` | warning |",
		"| [ASC9992](#asc9992) | `pipe-rule` | info | a \\| b |",
		"\n## ASC1001\n\n**a title",
		"\n## ASC9992\n\n",
		"[rules.zh.md](rules.zh.md)",
	} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %q:\n%s", want, page)
		}
	}
	if strings.Index(page, "## ASC1001") > strings.Index(page, "## ASC9992") {
		t.Error("sections not in the order given")
	}
	zh := string(Markdown("zh_CN", []*Rule{a}))
	if !strings.Contains(zh, "# ascvet 规则") || !strings.Contains(zh, "| 规则 | 名称 | 严重级别 | 标题 |") || !strings.Contains(zh, "| 警告 |") {
		t.Errorf("Chinese page:\n%s", zh)
	}
}

func TestWrap(t *testing.T) {
	en := "The VF issues two instructions a cycle, chosen out of order from a window of about 64 instructions, so split it."
	lines := wrap(en, 40)
	if strings.Join(lines, " ") != en {
		t.Errorf("wrap lost or changed words: %q", lines)
	}
	for _, l := range lines {
		if displayWidth(l) > 40 || strings.HasPrefix(l, " ") || strings.HasSuffix(l, " ") {
			t.Errorf("bad line %q", l)
		}
	}
	if got := wrap("averyveryverylongword short", 5); len(got) != 2 || got[0] != "averyveryverylongword" {
		t.Errorf("long word: %q", got)
	}
	zh := "连续非对齐搬入初始化只需执行一次，应移至 for 循环外部（示例见【正例】）。VF 每个周期双发两条指令。"
	lines = wrap(zh, 12)
	// only the spaces where a line breaks go
	if strings.ReplaceAll(strings.Join(lines, ""), " ", "") != strings.ReplaceAll(zh, " ", "") {
		t.Errorf("wrap changed the text: %q", lines)
	}
	for _, l := range lines {
		if displayWidth(l) > 12 {
			t.Errorf("line %q is %d columns wide", l, displayWidth(l))
		}
		first, _ := utf8.DecodeRuneInString(l)
		last, _ := utf8.DecodeLastRuneInString(l)
		if strings.ContainsRune(closing, first) {
			t.Errorf("line %q starts with closing punctuation", l)
		}
		if strings.ContainsRune(opening, last) {
			t.Errorf("line %q ends with opening punctuation", l)
		}
	}
	if len(lines) < 8 {
		t.Errorf("Chinese text not broken between characters: %q", lines)
	}
	// A URL is never broken, whatever its path holds; the text around it
	// still is.
	const url = "https://gitcode.com/cann/asc-devkit/blob/master/docs/zh/guide/VF性能优化/连续非对齐场景优化.md"
	for _, text := range []string{"来源：《连续非对齐场景优化》。 " + url + " 示例即其中的【反例】。", "Source: the guide, " + url + " and more words here."} {
		lines = wrap(text, 20)
		if !slices.Contains(lines, url) {
			t.Errorf("the URL is not a line of its own: %q", lines)
		}
		if strings.ReplaceAll(strings.Join(lines, ""), " ", "") != strings.ReplaceAll(text, " ", "") {
			t.Errorf("wrap changed the text: %q", lines)
		}
	}
	if got := wrap("（"+url+" x", 200); len(got) != 1 || got[0] != "（"+url+" x" {
		t.Errorf("URL after opening punctuation: %q", got)
	}
	if displayWidth("中a") != 3 || displayWidth("，") != 2 {
		t.Error("displayWidth")
	}
}

func TestEscapeMarkdown(t *testing.T) {
	for in, want := range map[string]string{
		"a*b":                              `a\*b`,
		"DIST_NORM_B16":                    "DIST_NORM_B16",
		"_x_":                              `\_x\_`,
		"see `a*b_` here *":                "see `a*b_` here \\*",
		"[link](x) <b> \\":                 `\[link\](x) \<b\> \\`,
		"中_文":                              "中_文",
		"see https://x.org/a_b_/c*d_ now_": "see https://x.org/a_b_/c*d_ now\\_",
		"xhttps://a_":                      "xhttps://a\\_",
	} {
		if got := escapeMarkdown(in); got != want {
			t.Errorf("escapeMarkdown(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestSeverityName(t *testing.T) {
	if SeverityName(Error, "zh") != "错误" || SeverityName(Info, "en") != "info" || SeverityName(Warning, "fr") != "warning" {
		t.Error("SeverityName")
	}
}
