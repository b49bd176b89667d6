package config

import (
	"fmt"
	"path"
	"strings"

	"github.com/ascvet/ascvet/ruleset"
)

// item is one parsed entry of a check or fail list.
type item struct {
	text     string           // as written
	neg      bool             // "-X"
	inherit  bool             // "inherit"
	all      bool             // "all", "*", "-all", "-*"
	severity ruleset.Severity // for a severity entry of a fail list
	isSev    bool             // the entry is a severity name (fail lists only)
	rules    []*ruleset.Rule  // the rules a selector matches
	at       pos              // where it was written; zero for flags
}

// pos is a place in a configuration file.
type pos struct {
	file string // absolute path; "" for a command-line flag
	line int
}

func (p pos) String() string {
	if p.file == "" {
		return ""
	}
	return fmt.Sprintf("%s:%d", p.file, p.line)
}

// isGlob reports whether s holds path.Match meta characters.
func isGlob(s string) bool { return strings.ContainsAny(s, "*?[") }

// matchRules returns the rules whose ID or name sel (an ID, a name or a
// glob) matches, in ID order.
func matchRules(rules []*ruleset.Rule, sel string) ([]*ruleset.Rule, error) {
	if sel == "" {
		return nil, fmt.Errorf("empty rule selector")
	}
	if sel == "all" {
		sel = "*"
	}
	if !isGlob(sel) {
		for _, r := range rules {
			if strings.EqualFold(r.ID, sel) || r.Name == strings.ToLower(sel) {
				return []*ruleset.Rule{r}, nil
			}
		}
		return nil, fmt.Errorf("unknown rule %s%s", sel, suggest(sel, ruleNames(rules)))
	}
	low := strings.ToLower(sel)
	if _, err := path.Match(low, ""); err != nil {
		return nil, fmt.Errorf("bad glob %s: %w", sel, err)
	}
	var out []*ruleset.Rule
	for _, r := range rules {
		okID, _ := path.Match(low, strings.ToLower(r.ID))
		okName, _ := path.Match(low, r.Name)
		if okID || okName {
			out = append(out, r)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s matches no rule", sel)
	}
	return out, nil
}

func ruleNames(rules []*ruleset.Rule) []string {
	var out []string
	for _, r := range rules {
		out = append(out, r.ID, r.Name)
	}
	return out
}

// parseItem parses one list entry; fail lists also take severity names.
func parseItem(rules []*ruleset.Rule, s string, at pos, fail bool) (item, error) {
	it := item{text: s, at: at}
	body := s
	if strings.HasPrefix(body, "-") {
		it.neg, body = true, body[1:]
	}
	switch {
	case body == "inherit" && !it.neg:
		it.inherit = true
		return it, nil
	case body == "inherit":
		return it, fmt.Errorf("-inherit means nothing; write inherit and remove rules after it")
	case body == "all" || body == "*":
		it.all = true
		return it, nil
	case fail && body == "none" && !it.neg:
		it.all, it.neg = true, true
		return it, nil
	}
	if fail {
		if sev, err := ruleset.ParseSeverity(body); err == nil {
			if sev.String() != body {
				return it, fmt.Errorf("severity %s: write it in lowercase, %s", body, sev)
			}
			it.isSev, it.severity = true, sev
			return it, nil
		}
	}
	rs, err := matchRules(rules, body)
	if err != nil {
		if w := nearSeverity(body); fail && !it.neg && w != "" {
			return it, &SeverityTypo{Entry: s, Want: w}
		}
		return it, err
	}
	it.rules = rs
	return it, nil
}

// A SeverityTypo is an entry of a fail list that names no rule and is
// close to a severity or to none: "errors", "warnings", "nonee". It most
// likely means Want.
type SeverityTypo struct {
	Entry string // as written
	Want  string // error, warning, info or none
}

func (e *SeverityTypo) Error() string {
	if e.Want == "none" {
		return fmt.Sprintf("unknown rule %s; did you mean none?", e.Entry)
	}
	return fmt.Sprintf("unknown rule %s; did you mean the severity %s?", e.Entry, e.Want)
}

// nearSeverity returns the severity name, or none, that s (no rule's ID or
// name) most likely misspells, or "".
func nearSeverity(s string) string {
	low := strings.ToLower(s)
	for i := ruleset.Info; i <= ruleset.Error; i++ {
		name := i.String()
		if strings.HasPrefix(low, name) && len(low) <= len(name)+1 || strings.HasPrefix(name, low) && len(low) >= 3 {
			return name // "errors", "warnings"; "warn", "err"
		}
	}
	w := suggest(s, []string{ruleset.Info.String(), ruleset.Warning.String(), ruleset.Error.String(), "none"})
	return strings.TrimSuffix(strings.TrimPrefix(w, " (did you mean "), "?)")
}

// selectRules applies items to base as the check list semantics above say.
// origin, when not nil, receives for each rule whose state the list decided
// the position of the entry that decided it (the list's own position for
// rules a replacing list leaves out).
func selectRules(rules []*ruleset.Rule, items []item, listAt pos, base map[string]bool, fromBase bool, origin map[string]pos) map[string]bool {
	if len(items) > 0 && (items[0].inherit || items[0].neg) {
		fromBase = true
	}
	set := make(map[string]bool, len(rules))
	for _, r := range rules {
		set[r.ID] = fromBase && base[r.ID]
		if !fromBase && origin != nil {
			origin[r.ID] = listAt
		}
	}
	for _, it := range items {
		switch {
		case it.inherit:
			for _, r := range rules {
				if base[r.ID] && !set[r.ID] {
					set[r.ID] = true
					if origin != nil {
						origin[r.ID] = it.at
					}
				}
			}
		default:
			match := it.rules
			if it.all {
				match = rules
			}
			for _, r := range match {
				set[r.ID] = !it.neg
				if origin != nil {
					origin[r.ID] = it.at
				}
			}
		}
	}
	return set
}

// allEnabled is the parent of the root configuration: every rule enabled.
func allEnabled(rules []*ruleset.Rule) map[string]bool {
	m := make(map[string]bool, len(rules))
	for _, r := range rules {
		m[r.ID] = true
	}
	return m
}

// Select applies a check list to base, the set of enabled rules (by ID)
// that "inherit" and a leading removal start from (nil: every rule), and
// returns the resulting set, which has every rule of ruleset.All as a key.
// It is what the checks key does, for the driver's -checks flag:
// Select(SplitList("all,-ASC1*"), eff.Enabled).
//
// A check list (the checks key, the -checks flag) is read left to right
// over a set of enabled rules:
//
//	"all" or "*"           enables every rule
//	"inherit"              enables every rule the parent enabled (staticcheck's splice)
//	"ASC1001"              enables a rule by ID (any case) ...
//	"unalign-pre-in-loop"  ... or by name
//	"ASC1*"                enables every rule whose ID or name the glob matches
//	                       (path.Match syntax, case-insensitive)
//	"-X"                   disables what X (any of the above but "inherit") enables
//
// The set starts empty, so that ["ASC1001"] runs ASC1001 alone, as in
// staticcheck; but a list that begins with "inherit" or with a removal
// starts from the parent's set: ["-ASC3004"] means "what the parent runs,
// without ASC3004", which is what it says. The parent of the root
// configuration file enables every rule. A list in [[overrides]] always
// starts from the set of its file. An entry that matches no rule is an
// error: a typo must not silently enable nothing.
func Select(list []string, base map[string]bool) (map[string]bool, error) {
	rules := ruleset.All()
	if base == nil {
		base = allEnabled(rules)
	}
	items := make([]item, 0, len(list))
	for _, s := range list {
		it, err := parseItem(rules, s, pos{}, false)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", s, err)
		}
		items = append(items, it)
	}
	return selectRules(rules, items, pos{}, base, false, nil), nil
}

// SplitList splits a comma-separated flag value ("all, -ASC1*") into
// entries, trimming spaces and dropping empty ones.
func SplitList(s string) []string {
	var out []string
	for f := range strings.SplitSeq(s, ",") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}

// DefaultFail is the fail list in force when no configuration sets one:
// findings of severity warning or error fail the run, as the driver's
// -fail-on default says.
var DefaultFail = []string{"warning"}

// FailPolicy is a parsed fail list: which findings fail the run.
//
// A fail list holds the entries of a check list (see Select: "all",
// "inherit", IDs, names, globs, "-X"), severity names, "warning" standing
// for every finding of severity warning or higher, and "none", which is
// "-all". The last entry that matches a finding decides: ["warning",
// "-ASC4002", "ASC0001"] fails on warnings and errors except ASC4002's,
// and on every ASC0001 finding. "inherit" splices the parent's list
// (DefaultFail at the root); a list beginning with a removal inherits
// implicitly, and one in [[overrides]] always does.
type FailPolicy struct {
	items []item
}

// ParseFail parses a fail list (for the driver's -fail flag) against the
// rules of ruleset.All; "inherit" stands for DefaultFail.
func ParseFail(list []string) (*FailPolicy, error) {
	rules := ruleset.All()
	var p FailPolicy
	for _, s := range list {
		it, err := parseItem(rules, s, pos{}, true)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", s, err)
		}
		if it.inherit {
			d, _ := ParseFail(DefaultFail)
			p.items = append(p.items, d.items...)
			continue
		}
		p.items = append(p.items, it)
	}
	return &p, nil
}

// Fails reports whether a finding of rule id at severity sev fails the run.
func (p *FailPolicy) Fails(id string, sev ruleset.Severity) bool {
	fails, _ := p.Decide(id, sev)
	return fails
}

// Decide is Fails, and also reports whether the item that decided names
// the rule itself (an ID, name or glob) rather than a severity or all.
func (p *FailPolicy) Decide(id string, sev ruleset.Severity) (fails, named bool) {
	for _, it := range p.items {
		if it.matches(id, sev) {
			fails, named = !it.neg, !it.all && !it.isSev
		}
	}
	return fails, named
}

func (it *item) matches(id string, sev ruleset.Severity) bool {
	switch {
	case it.all:
		return true
	case it.isSev:
		return sev >= it.severity
	}
	for _, r := range it.rules {
		if r.ID == id {
			return true
		}
	}
	return false
}
