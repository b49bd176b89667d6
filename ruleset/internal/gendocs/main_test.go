package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/ascvet/ascvet/analyzers/all"
	"github.com/ascvet/ascvet/analyzers/runner"
	"github.com/ascvet/ascvet/analyzers/settings"
	"github.com/ascvet/ascvet/ruleset"
)

var update = flag.Bool("update", false, "rewrite docs/rules.md and docs/rules.zh.md")

const docsDir = "../../../docs"

// TestRulesMDUpToDate regenerates the pages in memory and compares them
// with the files.
func TestRulesMDUpToDate(t *testing.T) {
	for name, want := range pages() {
		path := filepath.Join(docsDir, name)
		if *update {
			if err := os.WriteFile(path, want, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		got, err := os.ReadFile(path)
		if err != nil {
			t.Errorf("%v; run go generate ./ruleset (or go test ./ruleset/internal/gendocs -update)", err)
			continue
		}
		if !bytes.Equal(got, want) {
			t.Errorf("docs/%s is stale: %s; run go generate ./ruleset (or go test ./ruleset/internal/gendocs -update)", name, firstDiff(got, want))
		}
	}
}

// firstDiff describes the first line where got and want differ.
func firstDiff(got, want []byte) string {
	g, w := strings.Split(string(got), "\n"), strings.Split(string(want), "\n")
	for i := 0; i < max(len(g), len(w)); i++ {
		var gl, wl string
		if i < len(g) {
			gl = g[i]
		}
		if i < len(w) {
			wl = w[i]
		}
		if gl != wl {
			return fmt.Sprintf("line %d is %q, want %q", i+1, gl, wl)
		}
	}
	return fmt.Sprintf("%d lines, want %d", len(g), len(w))
}

// TestPagesHaveEveryRule: each page has an index entry and a section for
// every rule, under the anchor of the rule's help URI.
func TestPagesHaveEveryRule(t *testing.T) {
	ps := pages()
	rules := ruleset.All()
	if len(rules) < 20 {
		t.Fatalf("only %d rules registered", len(rules))
	}
	for name, page := range ps {
		text := string(page)
		for _, r := range rules {
			_, anchor, _ := strings.Cut(r.HelpURI(), "#")
			if anchor != strings.ToLower(r.ID) {
				t.Errorf("%s: help URI %s, want anchor #%s", r.ID, r.HelpURI(), strings.ToLower(r.ID))
			}
			if !strings.Contains(text, "\n## "+r.ID+"\n") {
				t.Errorf("%s: no section ## %s (GitHub anchor #%s)", name, r.ID, anchor)
			}
			if !strings.Contains(text, "| ["+r.ID+"](#"+anchor+") |") {
				t.Errorf("%s: %s missing from the index", name, r.ID)
			}
		}
		if n := strings.Count(text, "```cpp\n"); n < 2*18 {
			t.Errorf("%s: %d cpp code blocks, want one per example", name, n)
		}
	}
	if zh := string(ps["rules.zh.md"]); !strings.Contains(zh, "非对齐") || !strings.Contains(zh, "正例") {
		t.Error("rules.zh.md is not in Chinese")
	}
}

var (
	precisions = []string{"very-high", "high", "medium", "low"}
	tagRE      = regexp.MustCompile(`^[a-z][a-z0-9]*(-[a-z0-9]+)*$`)
)

// TestRuleMetadata: every rule has tags, a precision SARIF knows, short
// examples, and options that are real settings with their real defaults,
// which the rule's analyzer reads.
func TestRuleMetadata(t *testing.T) {
	for _, r := range ruleset.All() {
		if !slices.Contains(precisions, r.Precision) {
			t.Errorf("%s: precision %q, want one of %v", r.ID, r.Precision, precisions)
		}
		if len(r.Tags) == 0 {
			t.Errorf("%s: no tags", r.ID)
		}
		for _, tag := range r.Tags {
			if !tagRE.MatchString(tag) {
				t.Errorf("%s: tag %q is not kebab-case", r.ID, tag)
			}
		}
		for _, ex := range []string{r.Before, r.After} {
			if n := strings.Count(ex, "\n") + 1; n > 15 {
				t.Errorf("%s: an example has %d lines, more than 15", r.ID, n)
			}
		}
		if r.Analyzer == nil && len(r.Options) > 0 {
			t.Errorf("%s: a driver rule with options %v", r.ID, r.Options)
		}
		for _, o := range r.Options {
			f := settings.Analyzer.Flags.Lookup(o.Name)
			switch {
			case f == nil:
				t.Errorf("%s: option %s is no setting", r.ID, o.Name)
				continue
			case f.DefValue != o.Default:
				t.Errorf("%s: option %s documents default %q, the setting's is %q", r.ID, o.Name, o.Default, f.DefValue)
			case o.Doc == "":
				t.Errorf("%s: option %s has no doc", r.ID, o.Name)
			}
			if !slices.Contains(runner.Order(r.Analyzer.Requires), settings.Analyzer) {
				t.Errorf("%s: documents option %s, but its analyzer does not read the settings", r.ID, o.Name)
			}
		}
	}
}

// wrapper makes a VF region of an example that is a list of statements.
const wrapper = `__simd_vf__ inline void Example(__ubuf__ float* srcAddr, __ubuf__ float* dstAddr,
    __ubuf__ half* src, __ubuf__ half* dst, __ubuf__ int64_t* src64, __ubuf__ int64_t* dst64,
    uint32_t count, uint16_t repeatTimes)
{
%s
}
`

// schematic are the rules whose examples elide what the rule needs to fire
// (dozens of registers or instructions do not fit in 15 lines): they are
// only checked to parse.
var schematic = map[string]bool{
	"ASC3001": true, // 36 live RegTensor
	"ASC3002": true, // 9 live MaskReg
	"ASC3003": true, // 5 load streams
	"ASC4001": true, // a chain of more than 64 instructions
	"ASC4002": true, // a chain of some 30 instructions
}

// TestExamples runs the analyzers over every rule's examples: the bad one
// is reported by the rule, the good one is not, and neither fails to
// parse (ASC0001) unless the rule is about parsing.
func TestExamples(t *testing.T) {
	var files []runner.File
	for _, r := range ruleset.All() {
		if r.Analyzer == nil {
			continue // the driver's rules: directives, not VF code
		}
		for _, ex := range []struct{ kind, code string }{{"before", r.Before}, {"after", r.After}} {
			if ex.code == "" {
				t.Errorf("%s: no %s example", r.ID, ex.kind)
				continue
			}
			src := ex.code
			if !strings.Contains(src, "__simd_vf__") {
				src = fmt.Sprintf(wrapper, "    "+strings.ReplaceAll(src, "\n", "\n    "))
			}
			files = append(files, runner.File{Name: r.ID + "_" + ex.kind + ".asc", Src: []byte(src)})
		}
	}
	res, err := runner.Run(all.Analyzers(), files, runner.Options{Jobs: 2})
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range res.Errors {
		t.Errorf("analyzer failed: %v", e.Error())
	}
	found := map[string][]string{} // file → rules reported
	for _, f := range res.Findings {
		found[f.Pos.Filename] = append(found[f.Pos.Filename], f.RuleID())
	}
	for _, r := range ruleset.All() {
		if r.Analyzer == nil {
			continue
		}
		before, after := found[r.ID+"_before.asc"], found[r.ID+"_after.asc"]
		if r.ID != "ASC0001" && (slices.Contains(before, "ASC0001") || slices.Contains(after, "ASC0001")) {
			t.Errorf("%s: an example does not parse (before: %v, after: %v)", r.ID, before, after)
		}
		if slices.Contains(after, r.ID) {
			t.Errorf("%s: the good example is reported by the rule", r.ID)
		}
		if !schematic[r.ID] && !slices.Contains(before, r.ID) {
			t.Errorf("%s: the bad example is not reported by the rule (findings: %v)", r.ID, before)
		}
	}
}
