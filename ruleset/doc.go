package ruleset

// The rule documentation has one source, the Rule literals and, for
// Chinese, the tables of package i18n. Doc assembles it in one language;
// FormatText prints it for the terminal (ascvet explain), FormatMarkdown
// for docs/rules.md and the SARIF rule help. docs/rules.md and
// docs/rules.zh.md are generated:
//
//go:generate go run ./internal/gendocs -o ../docs

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/ascvet/ascvet/ruleset/i18n"
)

// The options that several rules read. Package analyzers/settings owns
// them (flags of its analyzer, keys of ascvet.toml); the tests of
// ruleset/internal/gendocs hold these names and defaults against its flags.
var (
	OptionConfidence   = Option{Name: "confidence", Default: "high", Doc: "high: report only streams proven contiguous; low: also streams whose addresses do not fold"}
	OptionChip         = Option{Name: "chip", Default: "ascend950", Doc: "chip whose machine model prices the finding in simulated cycles"}
	OptionMachine      = Option{Name: "machine", Default: "", Doc: "machine model file (TOML) used instead of the chip's"}
	OptionIterations   = Option{Name: "iterations", Default: "16", Doc: "iterations simulated for a loop whose trip count does not fold"}
	OptionBudgetVReg   = Option{Name: "budget-vreg", Default: "32", Doc: "RegTensor registers one VF may keep live"}
	OptionBudgetMask   = Option{Name: "budget-mask", Default: "8", Doc: "MaskReg registers one VF may keep live"}
	OptionBudgetULoad  = Option{Name: "budget-uload", Default: "4", Doc: "UnalignRegForLoad registers one VF may keep live"}
	OptionBudgetUStore = Option{Name: "budget-ustore", Default: "4", Doc: "UnalignRegForStore registers one VF may keep live"}
)

// Documentation is the documentation of a rule in one language.
type Documentation struct {
	Lang      string   // i18n.EN or i18n.ZH: the language of Title, Text and the option docs
	ID        string   // "ASC1001"
	Name      string   // "unalign-pre-in-loop"
	Title     string   // one line
	Text      string   // paragraphs separated by a blank line
	Before    string   // C++ that the rule reports, or ""
	After     string   // the same, fixed, or ""
	Severity  Severity // default severity
	Since     string   // version that introduced the rule
	Tags      []string // SARIF tags (identifiers, never translated)
	Precision string   // "very-high", "high", "medium" or "low"
	Options   []Option // the settings that change the rule, Doc in Lang
	HelpURI   string   // the rule's section of the generated documentation in Lang
}

// Doc returns r's documentation in lang ("en", "zh", or a locale such as
// "zh_CN.UTF-8"; anything else is English). A rule without Chinese text is
// documented in English.
func (r *Rule) Doc(lang string) Documentation {
	d := Documentation{
		Lang: i18n.EN, ID: r.ID, Name: r.Name, Title: r.Title, Text: r.Text,
		Before: strings.Trim(r.Before, "\n"), After: strings.Trim(r.After, "\n"),
		Severity: r.Severity, Since: r.Since, Tags: r.Tags, Precision: r.Precision,
		Options: r.Options, HelpURI: r.HelpURI(),
	}
	if i18n.Normalize(lang) != i18n.ZH {
		return d
	}
	zh, ok := i18n.Rule(r.ID)
	if !ok {
		return d
	}
	d.Lang, d.Title, d.Text = i18n.ZH, zh.Title, zh.Text
	d.HelpURI = strings.TrimSuffix(DocsURL, ".md") + ".zh.md#" + strings.ToLower(r.ID)
	d.Options = make([]Option, len(r.Options))
	for i, o := range r.Options {
		if doc, ok := i18n.Option(o.Name); ok {
			o.Doc = doc
		}
		d.Options[i] = o
	}
	return d
}

// labels are the words of the formatted documentation.
type labels struct {
	severity, since, precision, tags, bad, good, options, help, dflt, none string
	sev                                                                    [Error + 1]string
	prec                                                                   map[string]string
}

var labelsOf = map[string]*labels{
	i18n.EN: {
		severity: "Severity", since: "Since", precision: "Precision", tags: "Tags",
		bad: "Bad", good: "Good", options: "Options", help: "Help", dflt: "default", none: "none",
		sev: [...]string{"info", "warning", "error"},
	},
	i18n.ZH: {
		severity: "严重级别", since: "引入版本", precision: "精度", tags: "标签",
		bad: "反例", good: "正例", options: "选项", help: "帮助", dflt: "默认值", none: "无",
		sev:  [...]string{"提示", "警告", "错误"},
		prec: map[string]string{"very-high": "很高", "high": "高", "medium": "中", "low": "低"},
	},
}

func (l *labels) severityName(s Severity) string {
	if s >= Info && s <= Error {
		return l.sev[s]
	}
	return s.String()
}

func (l *labels) precisionName(p string) string {
	if n, ok := l.prec[p]; ok {
		return n
	}
	return p
}

// colon is the colon after a label: "Severity: " or "严重级别：".
func (d *Documentation) colon() string {
	if d.Lang == i18n.ZH {
		return "："
	}
	return ": "
}

// SeverityName returns the name of s in lang: "warning", or "警告".
func SeverityName(s Severity, lang string) string {
	return labelsOf[i18n.Normalize(lang)].severityName(s)
}

// TextWidth is the width FormatText wraps the text to, in terminal
// columns (a Chinese character takes two).
const TextWidth = 80

// FormatText returns r's documentation in lang for the terminal: the
// header, the text wrapped to TextWidth columns, the examples indented by
// four spaces, the options and the help URI.
func (r *Rule) FormatText(lang string) string {
	d := r.Doc(lang)
	l := labelsOf[d.Lang]
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s\n%s\n\n", d.ID, d.Name, d.Title)
	fields := [][2]string{
		{l.severity, l.severityName(d.Severity)},
		{l.since, d.Since},
	}
	if d.Precision != "" {
		fields = append(fields, [2]string{l.precision, l.precisionName(d.Precision)})
	}
	if len(d.Tags) > 0 {
		fields = append(fields, [2]string{l.tags, strings.Join(d.Tags, ", ")})
	}
	pad := 0
	for _, f := range fields {
		pad = max(pad, displayWidth(f[0]))
	}
	for _, f := range fields {
		fmt.Fprintf(&b, "%s%s%s%s\n", f[0], d.colon(), strings.Repeat(" ", pad-displayWidth(f[0])), f[1])
	}
	for _, p := range paragraphs(d.Text) {
		b.WriteString("\n")
		for _, line := range wrap(p, TextWidth) {
			b.WriteString(line + "\n")
		}
	}
	for _, ex := range [][2]string{{l.bad, d.Before}, {l.good, d.After}} {
		if ex[1] == "" {
			continue
		}
		fmt.Fprintf(&b, "\n%s%s\n\n", ex[0], strings.TrimSpace(d.colon()))
		for _, line := range strings.Split(ex[1], "\n") {
			b.WriteString(strings.TrimRight("    "+line, " ") + "\n")
		}
	}
	if len(d.Options) > 0 {
		fmt.Fprintf(&b, "\n%s%s\n", l.options, strings.TrimSpace(d.colon()))
		for _, o := range d.Options {
			def := o.Default
			if def == "" {
				def = l.none
			}
			if d.Lang == i18n.ZH {
				fmt.Fprintf(&b, "  %s（%s：%s）\n", o.Name, l.dflt, def)
			} else {
				fmt.Fprintf(&b, "  %s (%s: %s)\n", o.Name, l.dflt, def)
			}
			for _, line := range wrap(o.Doc, TextWidth-6) {
				b.WriteString("      " + line + "\n")
			}
		}
	}
	fmt.Fprintf(&b, "\n%s%s%s\n", l.help, d.colon(), d.HelpURI)
	return b.String()
}

// FormatMarkdown returns r's documentation in lang as Markdown, without a
// heading (docs/rules.md puts one before it; a SARIF rule's help.markdown
// is this text): the title, a line of facts, the text, the examples in
// cpp code fences and the options.
func (r *Rule) FormatMarkdown(lang string) string {
	d := r.Doc(lang)
	l := labelsOf[d.Lang]
	var b strings.Builder
	if d.Lang == i18n.ZH {
		fmt.Fprintf(&b, "**%s**（`%s`）\n\n", escapeMarkdown(d.Title), d.Name)
	} else {
		fmt.Fprintf(&b, "**%s** (`%s`)\n\n", escapeMarkdown(d.Title), d.Name)
	}
	facts := []string{
		l.severity + d.colon() + "**" + l.severityName(d.Severity) + "**",
		l.since + d.colon() + d.Since,
	}
	if d.Precision != "" {
		facts = append(facts, l.precision+d.colon()+l.precisionName(d.Precision))
	}
	if len(d.Tags) > 0 {
		tags := make([]string, len(d.Tags))
		for i, t := range d.Tags {
			tags[i] = "`" + t + "`"
		}
		facts = append(facts, l.tags+d.colon()+strings.Join(tags, ", "))
	}
	b.WriteString(strings.Join(facts, " · ") + "\n")
	for _, p := range paragraphs(d.Text) {
		b.WriteString("\n" + escapeMarkdown(p) + "\n")
	}
	for _, ex := range [][2]string{{l.bad, d.Before}, {l.good, d.After}} {
		if ex[1] != "" {
			fmt.Fprintf(&b, "\n%s%s\n\n```cpp\n%s\n```\n", ex[0], strings.TrimSpace(d.colon()), ex[1])
		}
	}
	if len(d.Options) > 0 {
		fmt.Fprintf(&b, "\n%s%s\n\n", l.options, strings.TrimSpace(d.colon()))
		for _, o := range d.Options {
			def := "`" + o.Default + "`"
			if o.Default == "" {
				def = l.none
			}
			if d.Lang == i18n.ZH {
				fmt.Fprintf(&b, "- `%s`（%s %s）：%s\n", o.Name, l.dflt, def, escapeMarkdown(o.Doc))
			} else {
				fmt.Fprintf(&b, "- `%s` (%s %s): %s\n", o.Name, l.dflt, def, escapeMarkdown(o.Doc))
			}
		}
	}
	return b.String()
}

// pageText is the fixed text of the generated pages.
var pageText = map[string]struct{ title, intro, other, rule, name string }{
	i18n.EN: {
		title: "ascvet rules",
		intro: "Every rule ascvet checks. This page is generated from the rule definitions, the same source as " +
			"`ascvet explain RULE`, `ascvet -list` and the rule help in SARIF output; " +
			"run `go generate ./ruleset` after changing a rule.\n\n" +
			"**Performance findings and their cycles.** Every finding of a performance rule (ASC1001–ASC1003, " +
			"ASC3001–ASC3005, ASC4001, ASC4002, ASC5001–ASC5004) carries the cycles the fix saves, from a replay of the loop (or region) " +
			"before and after it. When the replay measures no saving, the finding is still reported, with \"no saving " +
			"measurable\": the pattern is what the vendor guidance calls slow, and the simulator may be wrong about that " +
			"loop. Such a finding does not fail a run unless the fail list names its rule or `-fail-no-saving` asks. " +
			"ASC4002 reports only an unroll that saves at least 15% of the loop.",
		other: "中文版：[rules.zh.md](rules.zh.md)",
		rule:  "Rule", name: "Name",
	},
	i18n.ZH: {
		title: "ascvet 规则",
		intro: "ascvet 检查的全部规则。本页由规则定义生成，与 `ascvet explain -lang zh RULE`、`ascvet -list` " +
			"以及 SARIF 输出中的规则帮助同源；修改规则后请运行 `go generate ./ruleset`。\n\n" +
			"**性能类结果与周期。** 每条性能类规则（ASC1001–ASC1003、ASC3001–ASC3005、ASC4001、ASC4002、ASC5001–ASC5004）的结果都附有修复可节省的周期，" +
			"来自对修复前后循环（或区域）的回放模拟。回放测不出收益时，结果仍会报告，并注明“测不出收益”：" +
			"这种写法是厂商指南所说的低效写法，而模拟器对该循环的估计也可能有误。这样的结果不会使运行失败，" +
			"除非 fail 列表点名了该规则，或使用了 `-fail-no-saving`。ASC4002 只报告能节省循环至少 15% 的展开。",
		other: "English: [rules.md](rules.md)",
		rule:  "规则", name: "名称",
	},
}

// Markdown returns the documentation page of rules in lang: an index
// table, then one section per rule whose heading, the rule's ID, gives
// the anchor of Rule.HelpURI ("#asc1001").
func Markdown(lang string, rules []*Rule) []byte {
	lang = i18n.Normalize(lang)
	l, p := labelsOf[lang], pageText[lang]
	var b strings.Builder
	b.WriteString("<!-- Code generated by \"go generate ./ruleset\"; DO NOT EDIT. -->\n\n")
	fmt.Fprintf(&b, "# %s\n\n%s\n\n%s\n\n", p.title, p.intro, p.other)
	fmt.Fprintf(&b, "| %s | %s | %s | %s |\n|---|---|---|---|\n", p.rule, p.name, l.severity, titleWord(lang))
	for _, r := range rules {
		d := r.Doc(lang)
		fmt.Fprintf(&b, "| [%s](#%s) | `%s` | %s | %s |\n", d.ID, strings.ToLower(d.ID), d.Name,
			l.severityName(d.Severity), strings.ReplaceAll(escapeMarkdown(d.Title), "|", `\|`))
	}
	for _, r := range rules {
		fmt.Fprintf(&b, "\n## %s\n\n%s", r.ID, r.FormatMarkdown(lang))
	}
	return []byte(b.String())
}

func titleWord(lang string) string {
	if lang == i18n.ZH {
		return "标题"
	}
	return "Title"
}

// paragraphs splits text at blank lines.
func paragraphs(text string) []string {
	var out []string
	for _, p := range strings.Split(strings.TrimSpace(text), "\n\n") {
		if p = strings.Join(strings.Fields(p), " "); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// escapeMarkdown escapes what Markdown would read as markup in prose: an
// asterisk, an underscore at the edge of a word (intraword underscores, as
// in DIST_NORM_B16, are literal in CommonMark), brackets, angle brackets
// and backslashes. Code spans (between backquotes) are copied as they are,
// and so are URLs after a blank, which GitHub links as written.
func escapeMarkdown(s string) string {
	var b strings.Builder
	code := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '`' {
			code = !code
		}
		if code {
			b.WriteByte(c)
			continue
		}
		if u := urlAt(s[i:]); u != "" && (i == 0 || s[i-1] == ' ') {
			b.WriteString(u) // an autolink: escaping would change the address
			i += len(u) - 1
			continue
		}
		switch c {
		case '\\', '*', '[', ']', '<', '>':
			b.WriteByte('\\')
		case '_':
			if i == 0 || i == len(s)-1 || !isWordByte(s[i-1]) || !isWordByte(s[i+1]) {
				b.WriteByte('\\')
			}
		}
		b.WriteByte(c)
	}
	return b.String()
}

func isWordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c >= utf8.RuneSelf
}

// wrap breaks text into lines of at most width columns. Words break at
// spaces; Chinese text, which has none, breaks between any two characters,
// except before closing punctuation (，。；：、）) and after opening
// punctuation (（), which stay with their neighbour. A word longer than
// width gets a line of its own.
func wrap(text string, width int) []string {
	var lines []string
	var line strings.Builder
	w := 0
	for _, t := range tokens(text) {
		tw := displayWidth(t.text)
		sep := 0
		if t.space && w > 0 {
			sep = 1
		}
		if w > 0 && w+sep+tw > width {
			lines = append(lines, line.String())
			line.Reset()
			w, sep = 0, 0
		}
		if sep == 1 {
			line.WriteByte(' ')
		}
		line.WriteString(t.text)
		w += sep + tw
	}
	if w > 0 {
		lines = append(lines, line.String())
	}
	return lines
}

// A token is an unbreakable piece of text.
type token struct {
	text  string
	space bool // a space separates it from the previous token
}

// tokens splits text into words and single wide characters, with closing
// punctuation joined to the token before it and opening punctuation to the
// token after it. A URL (from "https://" or "http://" to the next blank)
// is one token, whatever characters its path holds, so that a link to a
// Chinese document is never broken.
func tokens(text string) []token {
	var out []token
	var cur strings.Builder
	space := false // a space precedes the token being built
	glue := false  // the token being built ends with opening punctuation
	flush := func() {
		if cur.Len() > 0 {
			out = append(out, token{cur.String(), space})
			cur.Reset()
			space = false
		}
	}
	skip := 0 // the end of the last URL: the runes before it are written
	for i, r := range text {
		if i < skip {
			continue
		}
		if u := urlAt(text[i:]); u != "" && (cur.Len() == 0 || glue) {
			cur.WriteString(u)
			glue = false
			flush()
			skip = i + len(u)
			continue
		}
		switch {
		case r == ' ' || r == '\t' || r == '\n':
			flush()
			space, glue = true, false
		case strings.ContainsRune(closing, r):
			if cur.Len() == 0 && len(out) > 0 && !space {
				out[len(out)-1].text += string(r)
				continue
			}
			cur.WriteRune(r)
			flush()
		case strings.ContainsRune(opening, r):
			if !glue {
				flush()
			}
			cur.WriteRune(r)
			glue = true
		case runeWidth(r) == 2:
			if !glue {
				flush()
			}
			cur.WriteRune(r)
			glue = false
			flush()
		default:
			if cur.Len() > 0 && !glue && runeWidth(lastRune(cur.String())) == 2 {
				flush()
			}
			glue = false
			cur.WriteRune(r)
		}
	}
	flush()
	return out
}

// urlAt returns the URL at the start of s, up to the next blank, or "".
func urlAt(s string) string {
	if !strings.HasPrefix(s, "https://") && !strings.HasPrefix(s, "http://") {
		return ""
	}
	if end := strings.IndexAny(s, " \t\n"); end >= 0 {
		return s[:end]
	}
	return s
}

const (
	closing = "，。；：、）！？」』”’》】"
	opening = "（「『“‘《【"
)

func lastRune(s string) rune {
	r, _ := utf8.DecodeLastRuneInString(s)
	return r
}

// displayWidth is the number of terminal columns s takes.
func displayWidth(s string) int {
	n := 0
	for _, r := range s {
		n += runeWidth(r)
	}
	return n
}

// runeWidth is 2 for the wide (CJK) characters, 1 for the others. The
// curly quotes, of ambiguous width, count as wide: only the Chinese texts
// use them, and CJK terminals show them wide.
func runeWidth(r rune) int {
	switch {
	case r >= 0x2018 && r <= 0x201F:
		return 2
	case r >= 0x1100 && r <= 0x115F, r >= 0x2E80 && r <= 0xA4CF, r >= 0xAC00 && r <= 0xD7A3,
		r >= 0xF900 && r <= 0xFAFF, r >= 0xFE30 && r <= 0xFE4F, r >= 0xFF00 && r <= 0xFF60,
		r >= 0xFFE0 && r <= 0xFFE6, r >= 0x20000 && r <= 0x3FFFD:
		return 2
	}
	return 1
}
