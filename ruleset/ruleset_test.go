package ruleset

import (
	"encoding/json"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
)

func run(*analysis.Pass) (any, error) { return nil, nil }

func newRule(id, name string) *Rule {
	return &Rule{ID: id, Name: name, Title: "a title", Text: "some text", Severity: Warning, Since: "0.1.0"}
}

func TestSeverity(t *testing.T) {
	for _, s := range []Severity{Info, Warning, Error} {
		got, err := ParseSeverity(strings.ToUpper(s.String()))
		if err != nil || got != s {
			t.Errorf("ParseSeverity(%q) = %v, %v; want %v", strings.ToUpper(s.String()), got, err, s)
		}
	}
	if _, err := ParseSeverity("fatal"); err == nil {
		t.Error("ParseSeverity(fatal) succeeded")
	}
	if Info >= Warning || Warning >= Error {
		t.Error("severities are not ordered")
	}
	b, err := json.Marshal(struct{ S Severity }{Error})
	if err != nil || string(b) != `{"S":"error"}` {
		t.Errorf("json = %s, %v", b, err)
	}
	var v struct{ S Severity }
	if err := json.Unmarshal([]byte(`{"S":"info"}`), &v); err != nil || v.S != Info {
		t.Errorf("unmarshal = %v, %v", v.S, err)
	}
	if Severity(9).String() != "severity(9)" {
		t.Errorf("Severity(9).String() = %q", Severity(9).String())
	}
}

func TestDefineAndLookup(t *testing.T) {
	a := &analysis.Analyzer{Run: run}
	r := Define(newRule("ASC9902", "second-rule"), a)
	b := &analysis.Analyzer{Run: run}
	Define(newRule("ASC9901", "first-rule"), b)

	if a.Name != "asc9902" || r.Analyzer != a {
		t.Errorf("Define: a.Name = %q, r.Analyzer = %p", a.Name, r.Analyzer)
	}
	if !strings.HasPrefix(a.Doc, "a title\n\nsome text") {
		t.Errorf("Doc = %q", a.Doc)
	}
	if err := analysis.Validate([]*analysis.Analyzer{a, b}); err != nil {
		t.Errorf("Validate: %v", err)
	}
	for _, key := range []string{"ASC9902", "asc9902", "second-rule"} {
		if got, ok := Lookup(key); !ok || got != r {
			t.Errorf("Lookup(%q) = %v, %v", key, got, ok)
		}
	}
	if _, ok := Lookup("no-such-rule"); ok {
		t.Error("Lookup(no-such-rule) found a rule")
	}
	if ForAnalyzer(a) != r {
		t.Error("ForAnalyzer(a) != r")
	}
	if ForAnalyzer(&analysis.Analyzer{}) != nil {
		t.Error("ForAnalyzer of an unregistered analyzer is not nil")
	}
	var ids []string
	for _, r := range All() {
		ids = append(ids, r.ID)
	}
	if got := strings.Join(ids, ","); !strings.Contains(got, "ASC9901,ASC9902") {
		t.Errorf("All() = %s, want sorted by ID", got)
	}
}

func TestDefineRejects(t *testing.T) {
	Define(newRule("ASC9910", "taken-name"), &analysis.Analyzer{Run: run})
	cases := map[string]func(){
		"bad id":         func() { Define(newRule("ASC991", "x"), &analysis.Analyzer{Run: run}) },
		"bad id prefix":  func() { Define(newRule("ABC9911", "x"), &analysis.Analyzer{Run: run}) },
		"bad name":       func() { Define(newRule("ASC9912", "Bad_Name"), &analysis.Analyzer{Run: run}) },
		"duplicate id":   func() { Define(newRule("ASC9910", "other-name"), &analysis.Analyzer{Run: run}) },
		"duplicate name": func() { Define(newRule("ASC9913", "taken-name"), &analysis.Analyzer{Run: run}) },
		"no run":         func() { Define(newRule("ASC9914", "no-run"), &analysis.Analyzer{}) },
		"period": func() {
			r := newRule("ASC9915", "period")
			r.Title = "ends with a period."
			Define(r, &analysis.Analyzer{Run: run})
		},
		"no since": func() {
			r := newRule("ASC9916", "no-since")
			r.Since = ""
			Define(r, &analysis.Analyzer{Run: run})
		},
		"bad severity": func() {
			r := newRule("ASC9917", "bad-severity")
			r.Severity = 7
			Define(r, &analysis.Analyzer{Run: run})
		},
	}
	for name, f := range cases {
		t.Run(name, func(t *testing.T) {
			defer func() {
				if e := recover(); e == nil {
					t.Error("Define did not panic")
				} else if !strings.HasPrefix(e.(string), "internal error: ") {
					t.Errorf("panic %q does not start with internal error", e)
				}
			}()
			f()
		})
	}
}

func TestEditDistance(t *testing.T) {
	for _, c := range []struct {
		a, b string
		d    int
	}{{"", "", 0}, {"abc", "", 3}, {"", "ab", 2}, {"kitten", "sitting", 3}, {"asc1010", "asc1001", 2}, {"mask-demorgen", "mask-demorgan", 1}} {
		if got := EditDistance(c.a, c.b); got != c.d {
			t.Errorf("EditDistance(%q, %q) = %d, want %d", c.a, c.b, got, c.d)
		}
	}
}
