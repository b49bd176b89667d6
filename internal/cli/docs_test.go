package cli

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

// The README is the front page; the manual is docs/, one page per topic.
// These tests hold the pages together: links and anchors resolve, every
// page is reachable from the README, and the README stays a front page.

// docPages returns README.md and every docs/*.md, keyed by their path
// from the repository root (forward slashes).
func docPages(t *testing.T) map[string]string {
	t.Helper()
	files, err := filepath.Glob("../../docs/*.md")
	if err != nil {
		t.Fatal(err)
	}
	pages := map[string]string{}
	for _, f := range append([]string{"../../README.md"}, files...) {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		pages[strings.TrimPrefix(filepath.ToSlash(f), "../../")] = string(data)
	}
	return pages
}

// docSnippet returns the fenced block after "<!-- snippet: name -->" in
// README.md or a page of docs/; the marker must be in exactly one place,
// so that the text a test checks is the text users read.
func docSnippet(t *testing.T, name string) string {
	t.Helper()
	marker := "<!-- snippet: " + name + " -->"
	var found []string
	var rest string
	for page, text := range docPages(t) {
		if _, after, ok := strings.Cut(text, marker); ok {
			found, rest = append(found, page), after
		}
	}
	if len(found) != 1 {
		t.Fatalf("%s is in %d pages %v of README.md and docs/*.md; want 1", marker, len(found), found)
	}
	m := regexp.MustCompile("(?s)^\\s*```[a-z]*\\n(.*?)```").FindStringSubmatch(rest)
	if m == nil {
		t.Fatalf("%s: no fenced block after %s", found[0], marker)
	}
	return m[1]
}

var (
	fencedBlock = regexp.MustCompile("(?ms)^ *```.*?^ *```")
	inlineCode  = regexp.MustCompile("`[^`\n]*`")
	mdLink      = regexp.MustCompile(`\]\(([^)\s]+)(?:\s+"[^"]*")?\)`)
	htmlAnchor  = regexp.MustCompile(`<a\s+(?:id|name)="([^"]+)"`)
	linkText    = regexp.MustCompile(`\[([^\]]*)\]\([^)]*\)`)
)

// headingAnchors returns the anchors GitHub gives a page's headings
// (lower case, punctuation dropped, spaces as hyphens, a repeated one
// numbered -1, -2, ...) and its <a id=...> anchors.
func headingAnchors(text string) map[string]bool {
	anchors := map[string]bool{}
	seen := map[string]int{}
	for _, line := range strings.Split(fencedBlock.ReplaceAllString(text, ""), "\n") {
		h := strings.TrimLeft(line, "#")
		if len(h) == len(line) || len(line)-len(h) > 6 || !strings.HasPrefix(h, " ") {
			continue
		}
		h = linkText.ReplaceAllString(strings.TrimSpace(h), "$1")
		var b strings.Builder
		for _, r := range strings.ToLower(h) {
			switch {
			case r == ' ':
				b.WriteRune('-')
			case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
				b.WriteRune(r)
			}
		}
		slug := b.String()
		if n := seen[slug]; n > 0 {
			anchors[slug+"-"+strconv.Itoa(n)] = true
		} else {
			anchors[slug] = true
		}
		seen[slug]++
	}
	for _, m := range htmlAnchor.FindAllStringSubmatch(text, -1) {
		anchors[m[1]] = true
	}
	return anchors
}

// pageLinks returns the link targets of a page outside code.
func pageLinks(text string) []string {
	text = inlineCode.ReplaceAllString(fencedBlock.ReplaceAllString(text, ""), "")
	var links []string
	for _, m := range mdLink.FindAllStringSubmatch(text, -1) {
		links = append(links, m[1])
	}
	return links
}

// TestDocLinks: every relative link of README.md and docs/*.md names a
// file or folder of the repository, and a #fragment on a Markdown page
// names one of its headings; every page of docs/ is linked from the
// README.
func TestDocLinks(t *testing.T) {
	pages := docPages(t)
	fromReadme := map[string]bool{}
	for page, text := range pages {
		for _, link := range pageLinks(text) {
			if regexp.MustCompile(`^[a-z]+:`).MatchString(link) {
				continue // https:, mailto:
			}
			file, frag, _ := strings.Cut(link, "#")
			target := page
			if file != "" {
				target = filepath.ToSlash(filepath.Join(filepath.Dir(page), file))
				if strings.HasPrefix(target, "../") {
					t.Errorf("%s: link %s leaves the repository", page, link)
					continue
				}
				if _, err := os.Stat(filepath.Join("../..", target)); err != nil {
					t.Errorf("%s: link %s: %v", page, link, err)
					continue
				}
			}
			if page == "README.md" {
				fromReadme[target] = true
			}
			if frag == "" || !strings.HasSuffix(target, ".md") {
				continue
			}
			text, ok := pages[target]
			if !ok {
				data, err := os.ReadFile(filepath.Join("../..", target))
				if err != nil {
					t.Fatal(err)
				}
				text = string(data)
			}
			if !headingAnchors(text)[frag] {
				t.Errorf("%s: link %s: %s has no heading with the anchor #%s", page, link, target, frag)
			}
		}
	}
	for page := range pages {
		if page != "README.md" && !fromReadme[page] {
			t.Errorf("README.md does not link %s", page)
		}
	}
}

// TestHeadingAnchors: the anchors TestDocLinks expects are GitHub's.
func TestHeadingAnchors(t *testing.T) {
	got := headingAnchors("# ascvet\n## Odd and hostile input\n## The `pypto_pro` Python DSL\n```\n## not a heading\n```\n### Sharing the result cache between jobs\n## Exit codes\n## Exit codes\n#nohash\n<a id=\"asc1001\"></a>\n## [Rules](rules.md) (generated)\n")
	want := []string{"ascvet", "odd-and-hostile-input", "the-pypto_pro-python-dsl", "sharing-the-result-cache-between-jobs", "exit-codes", "exit-codes-1", "asc1001", "rules-generated"}
	var keys []string
	for k := range got {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	slices.Sort(want)
	if !slices.Equal(keys, want) {
		t.Errorf("anchors %v, want %v", keys, want)
	}
}

// TestLicence: the repository carries the Apache License 2.0, whole, with
// its copyright line, and the README says so.
func TestLicence(t *testing.T) {
	data, err := os.ReadFile("../../LICENSE")
	if err != nil {
		t.Fatal(err)
	}
	licence := string(data)
	for _, s := range []string{
		"Apache License\n                           Version 2.0, January 2004\n",
		"TERMS AND CONDITIONS FOR USE, REPRODUCTION, AND DISTRIBUTION",
		"9. Accepting Warranty or Additional Liability.",
		"END OF TERMS AND CONDITIONS",
		"Copyright 2026 The ascvet Authors",
	} {
		if !strings.Contains(licence, s) {
			t.Errorf("LICENSE does not hold %q", s)
		}
	}
	if strings.Contains(licence, "[yyyy]") || strings.Count(licence, "\n") < 200 {
		t.Errorf("LICENSE is not the whole Apache License 2.0 with its copyright line filled in (%d lines)", strings.Count(licence, "\n"))
	}
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(readme), "Apache License") || !strings.Contains(string(readme), "](LICENSE)") {
		t.Error("README.md does not say that ascvet is under the Apache License, with a link to LICENSE")
	}
}

// findingLine matches a finding of the text format (a quoted file name
// aside): file:line:col: severity: ...
var findingLine = regexp.MustCompile(`^\S+:\d+:\d+: `)

// TestReadmeExample: the output the README shows for its first command is
// the example kernels' golden output, in part: each finding shown is a
// line of it, in its order (wrapped to 80 columns: a line that starts
// with four spaces continues the one before), and the lines after the
// findings are its summary, whole. The findings shown carry a real price:
// none is a warning that measures no saving.
func TestReadmeExample(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(readme), "<!-- snippet: example-output -->") {
		t.Fatal("README.md has no <!-- snippet: example-output --> block")
	}
	data, err := os.ReadFile("testdata/examples.text.golden")
	if err != nil {
		t.Fatal(err)
	}
	golden := strings.Split(strings.TrimSuffix(strings.ReplaceAll(string(data), "../../testdata/", "testdata/"), "\n"), "\n")
	var findings, summary []string
	for _, l := range golden {
		if findingLine.MatchString(l) && len(summary) == 0 {
			findings = append(findings, l)
		} else {
			summary = append(summary, l)
		}
	}
	block := docSnippet(t, "example-output")
	var shown []string
	for _, l := range strings.Split(strings.TrimSuffix(block, "\n"), "\n") {
		if n := utf8.RuneCountInString(l); n > 80 {
			t.Errorf("the README's example output has a line of %d characters; wrap it at 80: %s", n, l)
		}
		if rest, ok := strings.CutPrefix(l, "    "); ok && len(shown) > 0 {
			shown[len(shown)-1] += " " + rest
		} else {
			shown = append(shown, l)
		}
	}
	var shownFindings, shownSummary []string
	for _, l := range shown {
		if findingLine.MatchString(l) && len(shownSummary) == 0 {
			shownFindings = append(shownFindings, l)
		} else {
			shownSummary = append(shownSummary, l)
		}
	}
	if len(shownFindings) == 0 || len(shownFindings) > 3 {
		t.Errorf("the README's example shows %d findings; want one to three", len(shownFindings))
	}
	last, priced := -1, false
	for _, f := range shownFindings {
		i := slices.Index(findings, f)
		if i < 0 {
			t.Errorf("the README's example shows a finding the example kernels do not give (testdata/examples.text.golden):\n%s", f)
			continue
		}
		if i < last {
			t.Errorf("the README's example shows findings out of the output's order: %s", f)
		}
		last = i
		if strings.Contains(f, "no saving measurable") || strings.Contains(f, "saves ~0 ") {
			t.Errorf("the README's example shows a finding that measures no saving: %s", f)
		}
		priced = priced || regexp.MustCompile(`saves ~[1-9]`).MatchString(f)
	}
	if !priced {
		t.Error("the README's example shows no finding with a price (saves ~N cycles)")
	}
	if !slices.Equal(shownSummary, summary) {
		t.Errorf("the README's example ends with\n%s\nwant the summary of testdata/examples.text.golden:\n%s", strings.Join(shownSummary, "\n"), strings.Join(summary, "\n"))
	}
}

// TestReadmeFrontPage: the README is a front page. It opens with its title,
// keeps to about 200 lines of at most 120 characters, and within its first
// 60 lines a newcomer finds the two set-up commands (TestFreshClone runs
// them), the command that checks their own kernels, and what its output
// looks like.
func TestReadmeFrontPage(t *testing.T) {
	data, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	readme := string(data)
	if !strings.HasPrefix(readme, "# ascvet\n") {
		t.Errorf("README.md opens with %.40q; want its title, # ascvet", readme)
	}
	lines := strings.Split(strings.TrimSuffix(readme, "\n"), "\n")
	if len(lines) > 210 {
		t.Errorf("README.md has %d lines; a front page has about 200 at most: move the rest to docs/", len(lines))
	}
	for i, l := range lines {
		if n := utf8.RuneCountInString(l); n > 120 {
			t.Errorf("README.md:%d has %d characters; keep lines to 120", i+1, n)
		}
	}
	first := strings.Join(lines[:min(60, len(lines))], "\n") + "\n"
	cmds := readmeCommands(t, readme)
	if len(cmds) != 2 || !strings.Contains(cmds[0], "./testdata/kernels") || cmds[1] != "go test ./..." {
		t.Errorf("README.md's first sh block has %q; want the two set-up commands: ascvet on ./testdata/kernels, go test ./...", cmds)
	}
	if setup := regexp.MustCompile("(?s)```sh\\n.*?```").FindString(readme); !strings.Contains(first, setup) {
		t.Error("README.md's set-up commands are not within its first 60 lines")
	}
	var own bool
	for _, m := range regexp.MustCompile("(?s)```sh\\n(.*?)```").FindAllStringSubmatch(first, -1) {
		own = own || regexp.MustCompile(`(?m)^ascvet [^-\s]\S*`).MatchString(m[1]) && !strings.Contains(m[1], "ascvet ./testdata")
	}
	if !own {
		t.Error("README.md's first 60 lines have no sh block that runs ascvet on the reader's own kernels (ascvet path/to/kernels)")
	}
	if _, after, ok := strings.Cut(first, "<!-- snippet: example-output -->\n```\n"); !ok || !strings.Contains(after, "\n```\n") {
		t.Error("README.md's example output does not end within its first 60 lines")
	}
}

// TestHelpNamesDocs: the help of ascvet and of every command names pages
// of docs/ that exist, never a section of the README (the manual moved to
// docs/); ascvet lsp's points to the editors' page.
func TestHelpNamesDocs(t *testing.T) {
	helps := map[string]string{}
	_, helps["ascvet"], _ = ascvet(t, "help")
	for _, c := range commands {
		_, helps["ascvet "+c.name], _ = ascvet(t, "help", c.name)
	}
	page := regexp.MustCompile(`docs/[\w.-]+\.md`)
	for cmd, out := range helps {
		if out == "" {
			t.Errorf("%s: no help on stdout", cmd)
		}
		if strings.Contains(out, "README") {
			t.Errorf("help of %s names the README; name the page of docs/:\n%s", cmd, out)
		}
		for _, p := range page.FindAllString(out, -1) {
			if _, err := os.Stat(filepath.Join("../..", p)); err != nil {
				t.Errorf("help of %s names %s: %v", cmd, p, err)
			}
		}
	}
	if !strings.Contains(helps["ascvet lsp"], "docs/editors.md") {
		t.Errorf("ascvet help lsp does not point to docs/editors.md:\n%s", helps["ascvet lsp"])
	}
}
