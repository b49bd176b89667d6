package main

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode"
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
