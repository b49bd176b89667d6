// Package ruleset holds the metadata of every ascvet rule: its ID, short
// name, title, documentation, before/after example, severity and the version
// that introduced it.
//
// A rule is the pair of a *Rule and the *analysis.Analyzer that implements it;
// each rule package creates the pair once, at init time, with Define:
//
//	var Rule = ruleset.Define(&ruleset.Rule{ID: "ASC0001", Name: "vf-parse-error", ...},
//		&analysis.Analyzer{Run: run, Requires: ...})
//
// The driver, the documentation and the tests then find rules through All,
// Lookup and ForAnalyzer.
package ruleset

import (
	"fmt"
	"slices"
	"strings"
	"sync"

	"golang.org/x/tools/go/analysis"
)

// Severity is how serious a finding of a rule is.
type Severity int8

// The severities, from least to most serious.
const (
	Info    Severity = iota // worth knowing; not a defect by itself
	Warning                 // probably a defect or a missed optimisation
	Error                   // a defect: wrong results or a hardware fault
)

var severityNames = [...]string{"info", "warning", "error"}

// String returns the lowercase name of s ("info", "warning", "error").
func (s Severity) String() string {
	if s >= 0 && int(s) < len(severityNames) {
		return severityNames[s]
	}
	return fmt.Sprintf("severity(%d)", int8(s))
}

// ParseSeverity parses a severity name, ignoring case.
func ParseSeverity(s string) (Severity, error) {
	for i, n := range severityNames {
		if strings.EqualFold(s, n) {
			return Severity(i), nil
		}
	}
	return 0, fmt.Errorf("unknown severity %q (want %s)", s, strings.Join(severityNames[:], ", "))
}

// MarshalText implements encoding.TextMarshaler, so severities appear by name in JSON.
func (s Severity) MarshalText() ([]byte, error) {
	if s < 0 || int(s) >= len(severityNames) {
		return nil, fmt.Errorf("invalid severity %d", int8(s))
	}
	return []byte(s.String()), nil
}

// UnmarshalText implements encoding.TextUnmarshaler.
func (s *Severity) UnmarshalText(b []byte) error {
	v, err := ParseSeverity(string(b))
	if err != nil {
		return err
	}
	*s = v
	return nil
}

// Rule is the metadata of one rule.
type Rule struct {
	ID       string   // "ASC" and four digits; the first digit is the family
	Name     string   // short kebab-case name, usable wherever the ID is ("vf-parse-error")
	Title    string   // one line, lowercase, no final period
	Text     string   // what the rule checks, why it matters, and how to fix a finding
	Before   string   // a short example that the rule reports
	After    string   // the same example, fixed
	Severity Severity // default severity of the rule's findings (a config can change it)
	Since    string   // ascvet version that introduced the rule ("0.1.0")
	Tags     []string // SARIF tags: "performance", "correctness", "unaligned", ...
	// Precision is how often a finding is right, as SARIF's precision
	// property says it: "very-high", "high", "medium" or "low".
	Precision string
	Options   []Option           // the settings that change what the rule reports (config keys, flags)
	Analyzer  *analysis.Analyzer // set by Define; nil for a rule the driver reports itself (see DefineDriver)
}

// Option is a setting a rule reads.
type Option struct {
	Name    string // config key and flag name, "confidence"
	Default string // its default, as written in a config file
	Doc     string // one line
}

// DocsURL is where the generated rule documentation is published; a rule's
// help URI is this page with the rule's ID as anchor.
const DocsURL = "https://github.com/ascvet/ascvet/blob/main/docs/rules.md"

// HelpURI returns the address of r's documentation.
func (r *Rule) HelpURI() string { return DocsURL + "#" + strings.ToLower(r.ID) }

var registry struct {
	sync.Mutex
	byID   map[string]*Rule // by upper-case ID
	byName map[string]*Rule // by name
	byA    map[*analysis.Analyzer]*Rule
}

// Define registers the rule r as implemented by a and returns r. It sets
// a.Name to the lowercase ID (go/analysis wants an identifier, so "asc0001")
// and a.Doc to the title followed by the text, and records a in r.Analyzer.
//
// Define is meant for package-level variable initialisation: a malformed or
// duplicate rule is a programming error and panics.
func Define(r *Rule, a *analysis.Analyzer) *Rule {
	if a == nil {
		panic("internal error: ruleset.Define: nil analyzer (use DefineDriver)")
	}
	return register("Define", r, a)
}

// DefineDriver registers a rule that no analyzer implements: the driver
// reports its findings itself (the suppression directives' rules, which
// need every other finding of the file). It panics as Define does.
func DefineDriver(r *Rule) *Rule { return register("DefineDriver", r, nil) }

// register checks and records r, implemented by a (nil for a driver rule).
func register(caller string, r *Rule, a *analysis.Analyzer) *Rule {
	if err := check(r, a); err != nil {
		panic("internal error: ruleset." + caller + ": " + err.Error())
	}
	registry.Lock()
	defer registry.Unlock()
	if registry.byID == nil {
		registry.byID = map[string]*Rule{}
		registry.byName = map[string]*Rule{}
		registry.byA = map[*analysis.Analyzer]*Rule{}
	}
	if registry.byID[r.ID] != nil {
		panic("internal error: ruleset." + caller + ": duplicate rule ID " + r.ID)
	}
	if registry.byName[r.Name] != nil {
		panic("internal error: ruleset." + caller + ": duplicate rule name " + r.Name)
	}
	if a != nil {
		if registry.byA[a] != nil {
			panic("internal error: ruleset.Define: analyzer already defines rule " + registry.byA[a].ID)
		}
		a.Name = strings.ToLower(r.ID)
		a.Doc = r.Title + "\n\n" + r.Text
		r.Analyzer = a
		registry.byA[a] = r
	}
	registry.byID[r.ID] = r
	registry.byName[r.Name] = r
	return r
}

// check reports what is wrong with a rule definition (a is nil for a
// driver rule).
func check(r *Rule, a *analysis.Analyzer) error {
	switch {
	case r == nil:
		return fmt.Errorf("nil rule")
	case !validID(r.ID):
		return fmt.Errorf("rule ID %q is not ASC followed by four digits", r.ID)
	case !validName(r.Name):
		return fmt.Errorf("rule %s: name %q is not kebab-case", r.ID, r.Name)
	case r.Title == "" || r.Text == "":
		return fmt.Errorf("rule %s: empty title or text", r.ID)
	case strings.HasSuffix(r.Title, "."):
		return fmt.Errorf("rule %s: title ends with a period", r.ID)
	case r.Severity < Info || r.Severity > Error:
		return fmt.Errorf("rule %s: invalid severity %d", r.ID, r.Severity)
	case r.Since == "":
		return fmt.Errorf("rule %s: no Since version", r.ID)
	case r.Analyzer != nil:
		return fmt.Errorf("rule %s: defined twice", r.ID)
	case a != nil && a.Run == nil:
		return fmt.Errorf("rule %s: analyzer has no Run", r.ID)
	}
	return nil
}

func validID(id string) bool {
	if len(id) != 7 || !strings.HasPrefix(id, "ASC") {
		return false
	}
	for _, c := range id[3:] {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

func validName(n string) bool {
	if n == "" || n[0] == '-' || n[len(n)-1] == '-' || strings.Contains(n, "--") {
		return false
	}
	for _, c := range n {
		if (c < 'a' || c > 'z') && (c < '0' || c > '9') && c != '-' {
			return false
		}
	}
	return true
}

// All returns every defined rule, sorted by ID.
func All() []*Rule {
	registry.Lock()
	defer registry.Unlock()
	rules := make([]*Rule, 0, len(registry.byID))
	for _, r := range registry.byID {
		rules = append(rules, r)
	}
	slices.SortFunc(rules, func(a, b *Rule) int { return strings.Compare(a.ID, b.ID) })
	return rules
}

// Lookup finds a rule by ID (in any case, "asc0001" too) or by name.
func Lookup(idOrName string) (*Rule, bool) {
	registry.Lock()
	defer registry.Unlock()
	if r := registry.byID[strings.ToUpper(idOrName)]; r != nil {
		return r, true
	}
	r := registry.byName[strings.ToLower(idOrName)]
	return r, r != nil
}

// ForAnalyzer returns the rule that a implements, or nil when a implements
// none (a provider such as cppir).
func ForAnalyzer(a *analysis.Analyzer) *Rule {
	registry.Lock()
	defer registry.Unlock()
	return registry.byA[a]
}

// EditDistance is the Levenshtein distance between a and b, in bytes (rule
// IDs, names and config keys are ASCII): what "did you mean" suggestions
// rank by.
func EditDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
