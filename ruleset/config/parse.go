package config

import (
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/BurntSushi/toml"

	"github.com/ascvet/ascvet/ruleset"
)

// The keys a configuration file may hold. docs/ascvet.schema.json must
// describe exactly these (a test holds them together).
var (
	// topKeys are the keys of the file's top-level table.
	topKeys = []string{"root", "checks", "fail", "chip", "machine", "iterations", "confidence", "lang", "tests", "defines", "severity", "budgets", "overrides"}
	// overrideKeys are the keys of an [[overrides]] table.
	overrideKeys = []string{"paths", "checks", "fail", "chip", "machine", "iterations", "confidence", "lang", "tests", "severity", "budgets"}
)

// BudgetKeys are the keys of the budgets table, in the order of the
// register classes of package regalloc: RegTensor, MaskReg, unaligned
// registers for loads, for stores, AddrReg.
var BudgetKeys = []string{"vreg", "mask", "uload", "ustore", "addr"}

// Confidences and Langs are the values of the confidence and lang keys.
var (
	Confidences = []string{"high", "low"}
	Langs       = []string{"en", "zh"}
)

// file is one parsed configuration file.
type file struct {
	path      string        // absolute
	dir       string        // its directory: overrides' paths and machine are relative to it
	root      setting[bool] // root = true: discovery stops here; false: it goes on past the repository root
	top       layer         // the top-level settings
	overrides []override    // in file order
}

// layer is the settings of one table: the file's top level or an override.
type layer struct {
	checks     *list      // nil when unset
	fail       *list      // nil when unset
	severity   []sevEntry // globs first, then exact IDs and names; each in file order
	chip       setting[string]
	machine    setting[string] // absolute
	iterations setting[int]
	confidence setting[string]
	lang       setting[string]
	tests      setting[bool]
	defines    []setting[[2]string] // NAME, VALUE: build macros, as -D gives them (top level only)
	budgets    map[string]setting[int]
}

// list is a check or fail list.
type list struct {
	items []item
	at    pos
}

// setting is one value and where it was set; at.file is "" when unset.
type setting[T any] struct {
	v  T
	at pos
}

func (s setting[T]) set() bool { return s.at.file != "" }

// sevEntry is one entry of a severity table.
type sevEntry struct {
	rules []*ruleset.Rule
	sev   ruleset.Severity
	glob  bool
	at    pos
}

// override is one [[overrides]] table.
type override struct {
	layer
	paths []pathGlob
	at    pos
}

// parser checks one decoded file and collects its errors.
type parser struct {
	path  string
	dir   string
	lines *keyLines
	rules []*ruleset.Rule
	opts  *Options
	errs  ErrorList
}

// parseFile parses the configuration file at path (absolute) holding src.
func parseFile(path string, src []byte, rules []*ruleset.Rule, opts *Options) (*file, error) {
	lines := scanKeyLines(string(src))
	if lines.deep > 0 { // before the decoder, which can take gigabytes on such a file
		return nil, ErrorList{{File: path, Line: lines.deep, Msg: fmt.Sprintf("keys, tables and arrays nested more than %d levels deep; an ascvet.toml needs at most 4", maxDepth)}}
	}
	var m map[string]any
	if _, err := toml.Decode(string(src), &m); err != nil {
		var pe toml.ParseError
		if errors.As(err, &pe) {
			return nil, ErrorList{{File: path, Line: pe.Position.Line, Msg: "syntax error: " + pe.Message}}
		}
		return nil, ErrorList{{File: path, Msg: err.Error()}}
	}
	p := &parser{path: path, dir: filepath.Dir(path), lines: lines, rules: rules, opts: opts}
	f := &file{path: path, dir: p.dir}
	p.table(m, nil, topKeys, &f.top, func(key string, v any, at []string) {
		switch key {
		case "overrides":
			f.overrides = p.overrides(v, at)
		case "root":
			if b, ok := v.(bool); ok {
				f.root = setting[bool]{b, p.at(at)}
			} else {
				p.errorf(at, "want a boolean, not %s", typeName(v))
			}
		}
	})
	if len(p.errs) > 0 {
		sortErrors(p.errs)
		return nil, p.errs
	}
	return f, nil
}

// errorf records an error about the key at path.
func (p *parser) errorf(path []string, format string, args ...any) {
	p.errs = append(p.errs, &Error{File: p.path, Line: p.lines.lineOf(path), Key: dotted(path), Msg: fmt.Sprintf(format, args...)})
}

func (p *parser) at(path []string) pos { return pos{file: p.path, line: p.lines.lineOf(path)} }

// dotted writes a key path as TOML would, without array indices.
func dotted(path []string) string {
	var segs []string
	for _, s := range path {
		if strings.HasPrefix(s, "[") {
			continue
		}
		if s == "" || strings.ContainsFunc(s, func(r rune) bool { return r > 127 || !isBare(byte(r)) }) {
			s = fmt.Sprintf("%q", s)
		}
		segs = append(segs, s)
	}
	return strings.Join(segs, ".")
}

// sortedKeys returns m's keys in the order they appear in the file.
func (p *parser) sortedKeys(m map[string]any, path []string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b string) int {
		la, lb := p.lines.lineOf(append(slices.Clip(path), a)), p.lines.lineOf(append(slices.Clip(path), b))
		if la != lb {
			return la - lb
		}
		return strings.Compare(a, b)
	})
	return keys
}

// table reads the settings of m (the top level, or an override at path)
// into l; other is called for keys that are not settings.
func (p *parser) table(m map[string]any, path []string, allowed []string, l *layer, other func(key string, v any, at []string)) {
	for _, k := range p.sortedKeys(m, path) {
		v := m[k]
		at := append(slices.Clip(path), k)
		if k == "defines" && !slices.Contains(allowed, k) {
			p.errorf(at, "build macros apply to a whole run (one set per run, from the configuration of the first path checked): set defines at the top level")
			continue
		}
		if !slices.Contains(allowed, k) {
			p.unknownKey(at, allowed)
			continue
		}
		switch k {
		case "checks":
			l.checks = p.list(v, at, false)
		case "fail":
			l.fail = p.list(v, at, true)
		case "severity":
			l.severity = p.severity(v, at)
		case "budgets":
			l.budgets = p.budgets(v, at)
		case "chip":
			if s, ok := p.str(v, at); ok {
				if p.opts.Chips != nil && !slices.Contains(p.opts.Chips, s) {
					p.errorf(at, "unknown chip %q (want %s)%s", s, strings.Join(p.opts.Chips, ", "), suggest(s, p.opts.Chips))
				} else {
					l.chip = setting[string]{s, p.at(at)}
				}
			}
		case "machine":
			if s, ok := p.str(v, at); ok {
				abs := s
				if !filepath.IsAbs(abs) {
					abs = filepath.Join(p.dir, filepath.FromSlash(s))
				}
				abs = filepath.Clean(abs)
				if fi, err := os.Stat(abs); err != nil {
					p.errorf(at, "machine model %s: %v", s, errors.Unwrap(err))
				} else if fi.IsDir() {
					p.errorf(at, "machine model %s is a directory", s)
				} else {
					l.machine = setting[string]{abs, p.at(at)}
				}
			}
		case "iterations":
			if n, ok := p.positive(v, at); ok {
				l.iterations = setting[int]{n, p.at(at)}
			}
		case "confidence":
			if s, ok := p.enum(v, at, Confidences); ok {
				l.confidence = setting[string]{s, p.at(at)}
			}
		case "lang":
			if s, ok := p.enum(v, at, Langs); ok {
				l.lang = setting[string]{s, p.at(at)}
			}
		case "tests":
			if b, ok := v.(bool); ok {
				l.tests = setting[bool]{b, p.at(at)}
			} else {
				p.errorf(at, "want a boolean, not %s", typeName(v))
			}
		case "defines":
			l.defines = p.defines(v, at)
		default:
			other(k, v, at)
		}
	}
}

func (p *parser) unknownKey(at []string, allowed []string) {
	key := at[len(at)-1]
	hint := suggest(key, allowed)
	if hint == "" {
		hint = " (want " + strings.Join(allowed, ", ") + ")"
	}
	p.errorf(at, "unknown key %s%s", dotted(at), hint)
}

// typeName names the TOML type of a decoded value.
func typeName(v any) string {
	switch v.(type) {
	case string:
		return "a string"
	case int64:
		return "an integer"
	case float64:
		return "a float"
	case bool:
		return "a boolean"
	case []any, []map[string]any:
		return "an array"
	case map[string]any:
		return "a table"
	}
	return "a date-time"
}

func (p *parser) str(v any, at []string) (string, bool) {
	s, ok := v.(string)
	if !ok {
		p.errorf(at, "want a string, not %s", typeName(v))
		return "", false
	}
	if s == "" {
		p.errorf(at, "empty string")
		return "", false
	}
	return s, true
}

func (p *parser) enum(v any, at []string, values []string) (string, bool) {
	s, ok := v.(string)
	if !ok {
		p.errorf(at, "want a string, not %s", typeName(v))
		return "", false
	}
	if !slices.Contains(values, s) {
		p.errorf(at, "%q: want %s%s", s, strings.Join(values, " or "), suggest(s, values))
		return "", false
	}
	return s, true
}

func (p *parser) positive(v any, at []string) (int, bool) {
	n, ok := v.(int64)
	if !ok {
		p.errorf(at, "want an integer, not %s", typeName(v))
		return 0, false
	}
	switch {
	case n < 1:
		p.errorf(at, "%d: want at least 1", n)
		return 0, false
	case n > math.MaxInt32:
		p.errorf(at, "%d: want at most %d", n, math.MaxInt32)
		return 0, false
	}
	return int(n), true
}

func (p *parser) array(v any, at []string) ([]any, bool) {
	a, ok := v.([]any)
	if !ok {
		if ms, isTables := v.([]map[string]any); isTables {
			a = make([]any, len(ms))
			for i, m := range ms {
				a[i] = m
			}
			return a, true
		}
		p.errorf(at, "want an array, not %s", typeName(v))
	}
	return a, ok
}

// list reads a check list, or a fail list when fail is set. A string
// stands for the list of its comma-separated items, as the -checks and
// -fail flags take them: fail = "error" is fail = ["error"].
func (p *parser) list(v any, at []string, fail bool) *list {
	one, isString := v.(string)
	var a []any
	if isString {
		for _, s := range SplitList(one) {
			a = append(a, s)
		}
	} else {
		var ok bool
		if a, ok = v.([]any); !ok {
			p.errorf(at, "want a string or an array of strings, not %s", typeName(v))
			return nil
		}
	}
	l := &list{at: p.at(at), items: []item{}}
	bad := false
	for i, e := range a {
		eat := append(slices.Clip(at), index(i))
		if isString { // the items have no lines of their own
			eat = at
		}
		s, ok := e.(string)
		if !ok {
			p.errorf(eat, "want strings, not %s", typeName(e))
			bad = true
			continue
		}
		it, err := parseItem(p.rules, s, p.at(eat), fail)
		if err != nil {
			p.errorf(eat, "%v", err)
			bad = true
			continue
		}
		l.items = append(l.items, it)
	}
	if bad {
		return nil
	}
	return l
}

func (p *parser) severity(v any, at []string) []sevEntry {
	m, ok := v.(map[string]any)
	if !ok {
		p.errorf(at, "want a table, not %s", typeName(v))
		return nil
	}
	var globs, exact []sevEntry
	for _, k := range p.sortedKeys(m, at) {
		kat := append(slices.Clip(at), k)
		s, ok := m[k].(string)
		if !ok {
			p.errorf(kat, "want a severity name, not %s", typeName(m[k]))
			continue
		}
		sev, err := ruleset.ParseSeverity(s)
		if err != nil || sev.String() != s {
			p.errorf(kat, "severity %q: want info, warning or error%s", s, suggest(s, []string{"info", "warning", "error"}))
			continue
		}
		rs, err := matchRules(p.rules, k)
		if err != nil {
			p.errorf(kat, "%v", err)
			continue
		}
		e := sevEntry{rules: rs, sev: sev, glob: isGlob(k) || k == "all", at: p.at(kat)}
		if e.glob {
			globs = append(globs, e)
		} else {
			exact = append(exact, e)
		}
	}
	return append(globs, exact...)
}

func (p *parser) budgets(v any, at []string) map[string]setting[int] {
	m, ok := v.(map[string]any)
	if !ok {
		p.errorf(at, "want a table, not %s", typeName(v))
		return nil
	}
	out := map[string]setting[int]{}
	for _, k := range p.sortedKeys(m, at) {
		kat := append(slices.Clip(at), k)
		if !slices.Contains(BudgetKeys, k) {
			p.unknownKey(kat, BudgetKeys)
			continue
		}
		if n, ok := p.positive(m[k], kat); ok {
			out[k] = setting[int]{n, p.at(kat)}
		}
	}
	return out
}

func (p *parser) overrides(v any, at []string) []override {
	a, ok := p.array(v, at)
	if !ok {
		return nil
	}
	var out []override
	for i, e := range a {
		oat := append(slices.Clip(at), index(i))
		m, ok := e.(map[string]any)
		if !ok {
			p.errorf(oat, "want a table ([[overrides]]), not %s", typeName(e))
			continue
		}
		o := override{at: p.at(oat)}
		p.table(m, oat, overrideKeys, &o.layer, func(key string, v any, kat []string) {
			if key != "paths" {
				panic("internal error: config: unhandled key " + key)
			}
			ps, ok := p.array(v, kat)
			if !ok {
				return
			}
			if len(ps) == 0 {
				p.errorf(kat, "empty; name at least one path pattern")
			}
			for j, e := range ps {
				eat := append(slices.Clip(kat), index(j))
				s, ok := e.(string)
				if !ok {
					p.errorf(eat, "want strings, not %s", typeName(e))
					continue
				}
				g, err := parsePathGlob(s)
				if err != nil {
					p.errorf(eat, "%v", err)
					continue
				}
				o.paths = append(o.paths, g)
			}
		})
		if _, ok := m["paths"]; !ok {
			p.errorf(oat, "override has no paths")
		}
		out = append(out, o)
	}
	return out
}

// maxDefines bounds the build macros of one file: a build names a few,
// and every file of a run reads them all.
const maxDefines = 1024

// defines reads the defines key: an array of "NAME" or "NAME=VALUE", as
// -D takes them (NAME alone is NAME=1).
func (p *parser) defines(v any, at []string) []setting[[2]string] {
	arr, ok := v.([]any)
	if !ok {
		p.errorf(at, "want an array of \"NAME\" or \"NAME=VALUE\" strings, not %s", typeName(v))
		return nil
	}
	if len(arr) > maxDefines {
		p.errorf(at, "%d build macros: at most %d", len(arr), maxDefines)
		return nil
	}
	var out []setting[[2]string]
	for i, e := range arr {
		s, ok := e.(string)
		if !ok {
			p.errorf(at, "item %d: want a string \"NAME\" or \"NAME=VALUE\", not %s", i+1, typeName(e))
			continue
		}
		name, value, has := strings.Cut(s, "=")
		if !has {
			value = "1"
		}
		switch {
		case !IsMacroName(name):
			p.errorf(at, "item %d: %q: want NAME or NAME=VALUE, NAME a C identifier", i+1, s)
		case strings.ContainsAny(value, ";\n\r"):
			p.errorf(at, "item %d: %s: a value holds no ';' and no line break", i+1, name)
		default:
			out = append(out, setting[[2]string]{[2]string{name, value}, p.at(at)})
		}
	}
	return out
}

// IsMacroName reports whether s is a C identifier: a macro's name.
func IsMacroName(s string) bool {
	if s == "" {
		return false
	}
	for i, c := range s {
		if c != '_' && (c < 'a' || c > 'z') && (c < 'A' || c > 'Z') && (i == 0 || c < '0' || c > '9') {
			return false
		}
	}
	return true
}
