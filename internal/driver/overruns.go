package driver

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/ascvet/ascvet/analyzers/regpressure"
	"github.com/ascvet/ascvet/internal/report"
	"github.com/ascvet/ascvet/ruleset/i18n"
)

// sameOverrun reports, of the register-pressure findings that name one
// overrun (regpressure.OverrunCategory: the region or helper that holds
// the peak, its file, the class), only one: the helper's own file's
// finding when the run has it (the overrun is reported where it happens),
// else the kernel with the most registers live there, the first in the
// run's order among equals. Two kernels of a folder that inline the same
// helper each see its overrun, at their calls: one finding is the overrun, and the
// others become its related locations, kept with -show-ignored as
// suppressed by it. Findings a directive or the baseline suppressed are
// left as they are; lang is the output language.
func sameOverrun(issues []report.Issue, lang string) {
	groups := map[string][]int{}
	var order []string
	for i := range issues {
		is := &issues[i]
		cat := is.Diagnostic.Category
		if len(is.Suppressed) > 0 || !strings.HasPrefix(cat, regpressure.OverrunCategory) {
			continue
		}
		key, _, _ := strings.Cut(cat, "#")
		if _, ok := groups[key]; !ok {
			order = append(order, key)
		}
		groups[key] = append(groups[key], i)
	}
	live := func(i int) int {
		_, n, _ := strings.Cut(issues[i].Diagnostic.Category, "#")
		v, _ := strconv.Atoi(n)
		return v
	}
	// own reports whether issue i is in the file that holds the peak:
	// where the overrun happens.
	own := func(key string, i int) bool {
		f := issues[i].Pos.Filename
		if a, err := filepath.Abs(f); err == nil {
			f = a
		}
		return strings.Contains(key, " "+f+":")
	}
	for _, key := range order {
		g := groups[key]
		rep := g[0]
		for _, i := range g[1:] {
			if own(key, i) != own(key, rep) {
				if own(key, i) {
					rep = i
				}
				continue
			}
			if live(i) > live(rep) {
				rep = i
			}
		}
		f := &issues[rep]
		for _, i := range g {
			if i == rep {
				continue
			}
			is := &issues[i]
			is.Suppressed = append(is.Suppressed, report.Suppression{Kind: "external",
				Justification: fmt.Sprintf("the same overrun as %s:%d", f.Pos.Filename, f.Pos.Line)})
			f.Related = append(f.Related, report.Related{Pos: is.Pos, End: is.End, Line: is.Line,
				Message: i18n.Message(lang, f.RuleID(), "the same overrun, where another kernel inlines the helper")})
		}
	}
}
