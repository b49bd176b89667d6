package i18n_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode"

	"golang.org/x/tools/go/analysis"

	"github.com/ascvet/ascvet/analyzers/all"
	"github.com/ascvet/ascvet/analyzers/runner"
	"github.com/ascvet/ascvet/analyzers/settings"
	"github.com/ascvet/ascvet/ruleset"
	"github.com/ascvet/ascvet/ruleset/i18n"
	"github.com/ascvet/ascvet/ruleset/suppress"
)

// The driver's rules are defined by package suppress; importing it
// registers them, so that ruleset.All() holds every rule.
var _ = suppress.InvalidDirective

// TestEveryRuleHasChinese: every rule has a Chinese title and text, and
// every option a rule documents a Chinese description; no Chinese text is
// left for a rule that does not exist.
func TestEveryRuleHasChinese(t *testing.T) {
	ids := map[string]bool{}
	for _, r := range ruleset.All() {
		ids[r.ID] = true
		zh, ok := i18n.Rule(r.ID)
		switch {
		case !ok:
			t.Errorf("%s %s: no Chinese title and text", r.ID, r.Name)
			continue
		case !hasHan(zh.Title) || !hasHan(zh.Text):
			t.Errorf("%s: Chinese title or text without Chinese: %q", r.ID, zh.Title)
		case strings.HasSuffix(zh.Title, "。"), strings.Contains(zh.Title, "\n"):
			t.Errorf("%s: Chinese title %q is not one line without a final 。", r.ID, zh.Title)
		case len([]rune(zh.Text)) < len([]rune(r.Text))/4:
			t.Errorf("%s: Chinese text (%d characters) is much shorter than the English (%d): not a translation",
				r.ID, len([]rune(zh.Text)), len([]rune(r.Text)))
		}
		// Numbers and API names of the English text appear in the Chinese.
		for _, w := range apiWords.FindAllString(r.Text, -1) {
			if !strings.Contains(zh.Text, w) {
				t.Errorf("%s: the Chinese text does not mention %s", r.ID, w)
			}
		}
		for _, o := range r.Options {
			if doc, ok := i18n.Option(o.Name); !ok || !hasHan(doc) {
				t.Errorf("%s: option %s has no Chinese description", r.ID, o.Name)
			}
		}
	}
	for _, id := range i18n.RuleIDs() {
		if !ids[id] {
			t.Errorf("Chinese text for %s, which is no rule", id)
		}
	}
	for _, id := range i18n.CatalogRules() {
		if !ids[id] {
			t.Errorf("message catalog for %s, which is no rule", id)
		}
	}
	for id := range ids {
		if !slices.Contains(i18n.CatalogRules(), id) {
			t.Errorf("%s: no message patterns in the catalog", id)
		}
	}
}

// apiWords are the words of a rule text that a translation keeps as they
// are: API names in CamelCase and the DIST_ modes.
var apiWords = regexp.MustCompile(`\b(?:[A-Z][a-z]+[A-Z][A-Za-z]*|DIST_[A-Z0-9_]+)\b`)

func hasHan(s string) bool {
	return strings.ContainsFunc(s, func(r rune) bool { return unicode.Is(unicode.Han, r) })
}

// TestCatalogCoversFindings runs every analyzer over the example kernels and
// every rule's fixtures, with the stream rules at both confidences, and
// checks that each message, each related message and each fix's title
// translates.
func TestCatalogCoversFindings(t *testing.T) {
	var names []string
	fixtures, err := filepath.Glob("../../analyzers/asc*/testdata")
	if err != nil {
		t.Fatal(err)
	}
	for _, dir := range append(fixtures, "../../testdata/kernels") {
		err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() && runner.IsSource(path) {
				names = append(names, path)
			}
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if len(names) < 30 {
		t.Fatalf("only %d example files found: %v", len(names), names)
	}
	seen := map[string]int{} // rule ID → messages checked
	for _, confidence := range []string{"high", "low"} {
		s := settings.Defaults()
		s.Confidence = confidence
		var files []runner.File
		for _, n := range names {
			src, err := os.ReadFile(n)
			if err != nil {
				t.Fatal(err)
			}
			files = append(files, runner.File{Name: n, Src: src, Provided: map[*analysis.Analyzer]any{settings.Analyzer: &s}})
		}
		res, err := runner.Run(all.Analyzers(), files, runner.Options{Jobs: 2})
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range res.Errors {
			t.Errorf("analyzer failed: %v", e.Error())
		}
		for _, f := range res.Findings {
			id := f.RuleID()
			checkTranslation(t, id, f.Diagnostic.Message)
			seen[id]++
			for _, rel := range f.Diagnostic.Related {
				if strings.HasPrefix(rel.Message, "ascvet:") {
					continue // machine-readable data (simcost.Attach), not for people
				}
				checkTranslation(t, id, rel.Message)
			}
			for _, fx := range f.Diagnostic.SuggestedFixes {
				checkTranslation(t, id, fx.Message) // the quick fix's title
			}
		}
	}
	// The driver's rules: the directives' problems and the unused ones.
	src := []byte(`int a; // ascvet:ignore
int b; // ascvet:ignore ASC1001
int c; // ascvet:ignore ASC9999 a reason
int d; // ascvet:ignore ASC1001,,ASC1002 a reason
int e; // ascvet:ignore [ASC a reason
int f; // ascvet:frobnicate ASC1001 reason
// ascvet:end-ignore
// ascvet:begin-ignore ASC1001 no end
int g; // NOLINT(ascvet-ASC1001
int h; // NOLINT(ascvet-nosuchrule)
// NOLINTEND(ascvet-ASC1001)
int i; // ascvet:ignore ASC1001 nothing here
// ascvet:file-ignore ASC2001 nothing in the file
// ascvet:begin-ignore ASC3001 nothing inside
// ascvet:end-ignore
int j; // NOLINT(ascvet-ASC1002)
// NOLINTBEGIN(ascvet-ASC4001)
// NOLINTEND(ascvet-ASC4001)
`)
	dirs, problems := suppress.Parse(src, suppress.SyntaxFor("k.cpp"))
	for _, p := range problems {
		checkTranslation(t, suppress.InvalidDirective.ID, p.Message)
		seen[suppress.InvalidDirective.ID]++
	}
	for _, u := range suppress.Apply(dirs, nil, nil).Unused {
		checkTranslation(t, suppress.UnusedDirective.ID, u.Message)
		seen[suppress.UnusedDirective.ID]++
	}
	for _, r := range ruleset.All() {
		if seen[r.ID] == 0 {
			t.Errorf("%s: no message of the rule was checked (add an example that triggers it)", r.ID)
		}
	}
	t.Logf("messages checked per rule: %v", seen)
}

// englishWord is a lowercase English word; left in a translation outside
// the captures, it is untranslated, unless it is code the templates quote
// (codeWords).
var englishWord = regexp.MustCompile(`\b[a-z]{2,}\b`)

var codeWords = map[string]bool{
	"ascvet": true, "ignore": true, "file": true, "begin": true, "end": true, "list": true, // directives, ascvet -list
	"src": true, "dst": true, "offset": true, "if": true, "for": true, "sizeof": true, "unalign": true, // code in the templates
	"else": true, "switch": true, "goto": true, "while": true, // C++ keywords the fix reasons name
}

// checkTranslation checks the Chinese of one message: it exists, it has
// Chinese in it, every capture copied unchanged is in it and looks like
// code rather than prose, and what remains once the captures are removed
// has no English words in a row.
func checkTranslation(t *testing.T, id, en string) {
	t.Helper()
	zh, verbatim, ok := i18n.Translate(id, en)
	if !ok {
		t.Errorf("%s: no translation of %q", id, en)
		return
	}
	if got := i18n.Message("zh", id, en); got != zh {
		t.Errorf("%s: Message and Translate disagree on %q", id, en)
	}
	if !hasHan(zh) {
		t.Errorf("%s: translation of %q has no Chinese: %q", id, en, zh)
	}
	rest := zh
	for _, v := range verbatim {
		if !strings.Contains(zh, v) {
			t.Errorf("%s: translation %q lost %q of %q", id, zh, v, en)
		}
		if !strings.Contains(en, v) {
			t.Errorf("%s: %q is in the translation %q but not in %q", id, v, zh, en)
		}
		if strings.Trim(v, "0123456789.") == "" {
			continue // a number holds no English word, and removing "3" from "uint32_t" would leave one
		}
		rest = strings.Replace(rest, v, " ", 1)
	}
	for _, w := range englishWord.FindAllString(rest, -1) {
		if !codeWords[w] {
			t.Errorf("%s: translation %q keeps the English word %q (of %q)", id, zh, w, en)
		}
	}
}
