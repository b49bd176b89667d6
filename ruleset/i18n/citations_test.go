package i18n_test

import (
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/ascvet/ascvet/ruleset"
	"github.com/ascvet/ascvet/ruleset/i18n"
)

// noSource are the rules whose subject is ascvet itself (its parser and
// its suppression directives): no vendor document is their source.
var noSource = map[string]bool{
	"ASC0001": true, // the VF could not be parsed
	"ASC0002": true, // malformed suppression directive
	"ASC0003": true, // unused suppression directive
}

// sourceHosts are where the documents the rules cite are published: the
// Ascend documentation on hiascend.com, and the CANN repositories
// (asc-devkit, pypto) on GitCode.
var sourceHosts = map[string]bool{"www.hiascend.com": true, "gitcode.com": true}

var (
	// internalRef are names no user can follow: the project's working
	// copies of the vendor documents ("seed 000") and its notes.
	internalRef = regexp.MustCompile(`(?i)\bseeds?\b|vf-api\.md|shared/reference`)
	urlRE       = regexp.MustCompile(`https?://\S+`)
	// A title is quoted: "Instruction Dual-Issue", 《指令双发优化》.
	titleRE = regexp.MustCompile(`"[^"]+"|《[^》]+》`)
)

// TestRuleSources: no user-visible text of a rule, in English or Chinese,
// names a source users cannot follow ("seed 002", vf-api.md); every rule
// built from vendor documents has a paragraph "Source:" ("来源：") that
// names them by title or gives their address, each address an https URL
// of a site that publishes them, after a blank (so that Markdown links it)
// and printed whole by ascvet explain and in docs/rules.md.
func TestRuleSources(t *testing.T) {
	for _, r := range ruleset.All() {
		if noSource[r.ID] && !strings.HasPrefix(r.ID, "ASC0") {
			t.Errorf("%s: only the rules about ascvet itself (ASC0xxx) may cite no source", r.ID)
		}
		for _, lang := range []string{i18n.EN, i18n.ZH} {
			d := r.Doc(lang)
			if d.Lang != lang {
				t.Errorf("%s has no %s text", r.ID, lang)
				continue
			}
			texts := []string{d.Title, d.Text, d.Before, d.After}
			for _, o := range d.Options {
				texts = append(texts, o.Doc)
			}
			for _, s := range texts {
				if m := internalRef.FindString(s); m != "" {
					t.Errorf("%s (%s) cites %q, which users cannot follow: cite the document's title and URL", r.ID, lang, m)
				}
			}
			label := map[string]string{i18n.EN: "Source: ", i18n.ZH: "来源："}[lang]
			var source string
			for _, p := range strings.Split(d.Text, "\n\n") {
				if strings.HasPrefix(strings.TrimSpace(p), label) {
					source = strings.TrimSpace(p)
				}
			}
			if noSource[r.ID] {
				continue
			}
			urls := urlRE.FindAllString(source, -1)
			switch {
			case source == "":
				t.Errorf("%s (%s): no paragraph starting %q", r.ID, lang, label)
				continue
			case len(urls) == 0 && !titleRE.MatchString(source):
				t.Errorf("%s (%s): the source names no document, by title or URL: %s", r.ID, lang, source)
			}
			plain, md := r.FormatText(lang), r.FormatMarkdown(lang)
			for _, raw := range urls {
				u, err := url.Parse(strings.TrimRight(raw, ".,"))
				if err != nil || u.Scheme != "https" || !sourceHosts[u.Host] || u.Path == "" {
					t.Errorf("%s (%s): %q is not an https address of %v", r.ID, lang, raw, sourceHosts)
				}
				if i := strings.Index(source, raw); i > 0 && source[i-1] != ' ' {
					t.Errorf("%s (%s): no blank before %s: Markdown would not link it", r.ID, lang, raw)
				}
				if !strings.Contains(plain, "\n"+raw) && !strings.Contains(plain, " "+raw) {
					t.Errorf("%s (%s): ascvet explain breaks %s", r.ID, lang, raw)
				}
				if !strings.Contains(md, " "+raw) {
					t.Errorf("%s (%s): the Markdown documentation changes %s", r.ID, lang, raw)
				}
			}
		}
	}
}
