// Gendocs writes the rule documentation pages from the rule definitions:
// docs/rules.md in English and docs/rules.zh.md in Chinese. It is run by
// "go generate ./ruleset"; its test fails when the pages are stale.
//
// Usage:
//
//	gendocs [-o dir]
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"

	_ "github.com/ascvet/ascvet/analyzers/all" // registers the analyzers' rules
	"github.com/ascvet/ascvet/ruleset"
	_ "github.com/ascvet/ascvet/ruleset/suppress" // registers the driver's rules (ASC0002, ASC0003)
)

// pages returns the generated pages by file name.
func pages() map[string][]byte {
	rules := ruleset.All()
	return map[string][]byte{
		"rules.md":    ruleset.Markdown("en", rules),
		"rules.zh.md": ruleset.Markdown("zh", rules),
	}
}

func main() {
	out := flag.String("o", "docs", "directory to write the pages to")
	flag.Parse()
	ps := pages()
	names := make([]string, 0, len(ps))
	for n := range ps {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, n := range names {
		if err := os.WriteFile(filepath.Join(*out, n), ps[n], 0o644); err != nil {
			fmt.Fprintln(os.Stderr, "gendocs:", err)
			os.Exit(1)
		}
	}
}
