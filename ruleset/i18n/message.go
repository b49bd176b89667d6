package i18n

import (
	"regexp"
	"strings"
	"sync"
	"unicode"
)

// A pattern translates one shape of English text. Its regular expression
// must match the whole text (it is anchored when compiled); its template
// is the Chinese text, where ${name} stands for the group name's capture.
//
// A capture of a lowercase group goes into the template unchanged (an
// identifier, a number, a code expression). A group whose name starts with
// an upper-case letter names a fragment kind (see fragments and
// listKinds), optionally followed by digits to use a kind twice ("Cost",
// "Cost2"): its capture is translated with that kind's patterns, and when
// it cannot be, the pattern does not apply. Every group appears in the
// template, and the template names only groups: compile checks both.
type pattern struct {
	re string // regular expression with named groups
	zh string // Chinese template
}

type compiled struct {
	re    *regexp.Regexp
	zh    string
	names []string // the group names, by index
}

// A translation is what translate returns: the text, and the captures
// that went in unchanged, for the tests to check.
type translation struct {
	Text     string   // the Chinese text
	Verbatim []string // the captures copied unchanged, in order
}

var (
	compileOnce sync.Once
	byRule      map[string][]compiled // rule ID → patterns of its messages
	byKind      map[string][]compiled // fragment kind → patterns
	byDriver    []compiled            // the driver's lines
	lists       map[string]listKind   // list kinds
)

// A listKind is a list of items, each translated with an item kind.
type listKind struct {
	sep, zhSep string // separator in English and in Chinese
	item       string // kind of each item, or "" for items copied unchanged
}

func compileAll() {
	compileOnce.Do(func() {
		lists = listKinds
		byKind = map[string][]compiled{}
		for k := range fragments {
			byKind[k] = nil // known before any pattern is checked
		}
		for k, ps := range fragments {
			byKind[k] = compile(ps)
		}
		byRule = map[string][]compiled{}
		for id, ps := range messages {
			byRule[id] = compile(ps)
		}
		byDriver = compile(driver)
	})
}

var templateName = regexp.MustCompile(`\$\{([A-Za-z0-9_]*)\}`)

// compile compiles ps; a malformed pattern is a programming error and
// panics (every test compiles the catalog).
func compile(ps []pattern) []compiled {
	out := make([]compiled, len(ps))
	for i, p := range ps {
		re := regexp.MustCompile("^(?:" + p.re + ")$")
		used := map[string]bool{}
		for _, m := range templateName.FindAllStringSubmatch(p.zh, -1) {
			used[m[1]] = true
		}
		groups := map[string]bool{}
		for _, name := range re.SubexpNames()[1:] {
			if name == "" {
				panic("internal error: i18n: unnamed group in " + p.re + " (use (?:...))")
			}
			groups[name] = true
			if !used[name] {
				panic("internal error: i18n: template drops group " + name + ": " + p.zh)
			}
			if isKind(name) {
				kind := strings.TrimRightFunc(name, unicode.IsDigit)
				_, frag := byKind[kind]
				_, list := lists[kind]
				if !frag && !list {
					panic("internal error: i18n: unknown fragment kind " + kind + " in " + p.re)
				}
			}
		}
		for name := range used {
			if !groups[name] {
				panic("internal error: i18n: template names no group " + name + ": " + p.zh)
			}
		}
		out[i] = compiled{re: re, zh: p.zh, names: re.SubexpNames()}
	}
	return out
}

// isKind reports whether a group name names a fragment kind.
func isKind(name string) bool { return name != "" && name[0] >= 'A' && name[0] <= 'Z' }

// Message translates a finding's message, or one of its related
// messages, that rule ruleID reported, into lang. English, an unknown
// rule and a message no pattern matches return english unchanged: a
// message is never half translated.
func Message(lang, ruleID, english string) string {
	if Normalize(lang) != ZH {
		return english
	}
	if t, ok := translate(ruleID, english); ok {
		return t.Text
	}
	return english
}

// Driver translates a line that the driver prints itself (see driver in
// the catalog: the summary of the text output, "ignored") into lang.
// English, and a line no pattern matches, return english unchanged.
func Driver(lang, english string) string {
	if Normalize(lang) != ZH {
		return english
	}
	compileAll()
	var t translation
	if s, ok := apply(byDriver, english, &t, 0); ok {
		return s
	}
	return english
}

// translate translates a message of rule id.
func translate(id, english string) (translation, bool) {
	compileAll()
	var t translation
	s, ok := apply(byRule[strings.ToUpper(id)], english, &t, 0)
	t.Text = s
	return t, ok
}

// maxDepth bounds the nesting of fragments (a catalog error could
// otherwise recurse forever).
const maxDepth = 8

// apply translates s with the first pattern of ps that matches it and
// whose fragments all translate.
func apply(ps []compiled, s string, t *translation, depth int) (string, bool) {
	if depth > maxDepth {
		return "", false
	}
	for _, p := range ps {
		m := p.re.FindStringSubmatch(s)
		if m == nil {
			continue
		}
		saved := len(t.Verbatim)
		vals := map[string]string{}
		ok := true
		for i, name := range p.names {
			if name == "" {
				continue
			}
			v, good := fragment(name, m[i], t, depth)
			if !good {
				ok = false
				break
			}
			vals[name] = v
		}
		if !ok {
			t.Verbatim = t.Verbatim[:saved]
			continue
		}
		return expand(p.zh, vals), true
	}
	return "", false
}

// fragment translates the capture v of group name.
func fragment(name, v string, t *translation, depth int) (string, bool) {
	if !isKind(name) {
		if prose.MatchString(v) {
			return "", false // a pattern too loose for this message: do not copy English into Chinese
		}
		if v != "" {
			t.Verbatim = append(t.Verbatim, v)
		}
		return v, true
	}
	kind := strings.TrimRightFunc(name, unicode.IsDigit)
	if l, ok := lists[kind]; ok {
		var parts []string
		for _, item := range strings.Split(v, l.sep) {
			s, good := fragment(l.item, item, t, depth+1)
			if !good {
				return "", false
			}
			parts = append(parts, s)
		}
		return strings.Join(parts, l.zhSep), true
	}
	return apply(byKind[kind], v, t, depth+1)
}

// prose matches English words in a row, which a capture copied unchanged
// must not hold: identifiers, numbers and code expressions do not.
var prose = regexp.MustCompile(`(?:^|[^\w:-])[a-z]{2,} [a-z]{2,} [a-z]{2,}(?:$|[^\w:-])`)

// expand replaces each ${name} of tmpl with vals[name].
func expand(tmpl string, vals map[string]string) string {
	var b strings.Builder
	for {
		i := strings.Index(tmpl, "${")
		if i < 0 {
			b.WriteString(tmpl)
			return b.String()
		}
		j := strings.IndexByte(tmpl[i:], '}')
		if j < 0 {
			panic("internal error: i18n: unterminated ${ in " + tmpl)
		}
		b.WriteString(tmpl[:i])
		name := tmpl[i+2 : i+j]
		v, ok := vals[name]
		if !ok {
			panic("internal error: i18n: template names no group " + name + ": " + tmpl)
		}
		b.WriteString(v)
		tmpl = tmpl[i+j+1:]
	}
}
