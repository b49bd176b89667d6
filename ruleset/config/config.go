// Package config loads ascvet.toml, ascvet's configuration file, and
// computes the effective configuration of each checked file.
//
// # Discovery and merging
//
// The configuration of a file is every ascvet.toml from the repository root
// down to the file's directory, applied root first, so that a deeper file
// overrides what a shallower one says (staticcheck's staticcheck.conf works
// the same way). The walk up from the file stops, as .editorconfig's does:
//
//   - at a file that says root = true: nothing above its directory is read;
//   - at the root of a git repository (a directory holding .git, a
//     directory or a worktree's file), so that a stray ascvet.toml above a
//     checkout does not change its configuration; unless the repository's
//     topmost ascvet.toml (the shallowest on the way up) says root = false,
//     which inherits from the files above the repository root;
//   - outside any repository, at the filesystem root.
//
// So for ~/repo/src/k.asc:
//
//	~/ascvet.toml              checks = ["-ASC1*"]   not read
//	~/repo/.git
//	~/repo/ascvet.toml         (no root key)         read: the topmost in the repository
//	~/repo/src/k.asc
//
// Effective.Boundary is where the walk stopped, and Effective.Ignored the
// files above it. After each file its [[overrides]] tables whose paths match
// the checked file are applied, in file order: a deeper ascvet.toml still
// wins over a shallower file's overrides. A driver can instead name one file
// (-config FILE) or none (-no-config); see Options.
//
// # The file
//
//	root = true               # stop discovery here (false: inherit past the repository root)
//	checks = ["all", "-ASC3004", "-unalign-pre-in-loop"]  # which rules run (see Select)
//	fail = ["warning"]        # what fails the run (see FailPolicy)
//	chip = "ascend950"        # chip whose machine model prices findings
//	machine = "models/my.toml" # machine model file, relative to this file's directory
//	iterations = 16           # iterations simulated when a trip count does not fold
//	confidence = "high"       # high: report what is proven; low: also what is suspected
//	tests = false             # true: also analyse test code a walk finds (tests/, test/, *_test.*)
//	lang = "en"               # language of messages: en or zh
//
//	[severity]                # severity of a rule's findings, by ID, name or glob
//	ASC4002 = "warning"       # info, warning or error
//	"ASC1*" = "info"          # a glob must be quoted; exact entries win over globs
//
//	[budgets]                 # registers one VF may keep live: vreg, mask, uload, ustore, addr
//	vreg = 28
//
//	[[overrides]]             # settings for some paths; later overrides win
//	paths = ["legacy/**", "third_party/*.h"]  # relative to this file's directory
//	checks = ["-ASC1*"]       # applied on top of the file's list
//	severity = { ASC1003 = "info" }
//	budgets = { vreg = 30 }
//	iterations = 8
//
// An [[overrides]] table takes every key but overrides, plus paths. Check
// lists are described at Select, fail lists at FailPolicy.
// docs/ascvet.schema.json is the JSON schema of the file.
//
// A path pattern is slash-separated and relative to the directory of its
// configuration file; each segment is a path.Match pattern, "**" matches
// any number of directories, and a pattern that matches a directory
// matches everything below it:
//
//	legacy/**        every file below legacy ("legacy" says the same)
//	third_party/*.h  the headers directly in third_party
//	**/gen_*.cpp     generated files at any depth
//
// Every mistake is an error that names the file, the line and the key: a
// syntax error, an unknown key, a value of the wrong type or out of range,
// a rule, glob or path pattern that matches nothing valid. Nothing is
// ignored silently, since an ignored line of configuration is a check that
// quietly does not run.
package config

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/ascvet/ascvet/internal/regfile"
	"github.com/ascvet/ascvet/ruleset"
)

// FileName is the name of the configuration file.
const FileName = "ascvet.toml"

// Settings are the options of the rules that a configuration set. A zero
// field was not set by any configuration file; the driver then uses its
// flag, whose default is given below.
type Settings struct {
	Chip       string         // chip whose machine model prices findings; default "ascend950"
	Machine    string         // machine model file, absolute, used instead of Chip's; default none
	Iterations int            // iterations simulated when a trip count does not fold; default simcheck.DefaultIterations
	Confidence string         // "high" (report what is proven) or "low" (also what is suspected); default "high"
	Budgets    map[string]int // register budgets set, by BudgetKeys key; default regalloc.Ascend950; never nil
	Lang       string         // message language, "en" or "zh"; default "en"
	Tests      bool           // analyse test code found by a walk (tests/, test/, *_test.*); default false
	// Defines are the build macros, "NAME=VALUE" in the order they were
	// first set (a nested file's value for a NAME replaces its parent's),
	// as -D gives them. A run uses one set: that of the configuration of
	// the first path it checks (-D wins over it).
	Defines []string
}

// Effective is the configuration in force for one file.
type Effective struct {
	Enabled  map[string]bool             // by rule ID: whether the rule runs; every rule is a key
	Severity map[string]ruleset.Severity // by rule ID: the severity of the rule's findings; every rule is a key
	Fail     []string                    // the fail list, "inherit" resolved; nil when no configuration sets one
	Settings Settings                    // the settings configurations set
	Sources  []string                    // the configuration files applied, root first
	// Boundary is where discovery stopped: the root of the git repository,
	// or the directory of a file that says root = true; "" when it went
	// up to the filesystem root (or with Options.File or NoConfig).
	Boundary string
	// Ignored are the configuration files above Boundary, which were not
	// read, nearest first.
	Ignored []string
	// Overrides are the [[overrides]] tables applied, "FILE:LINE", in order.
	Overrides []string
	// Origins says where each value was decided, "FILE:LINE", by key:
	// "checks.ASC1001", "severity.ASC1001", "fail", "chip", "machine",
	// "iterations", "confidence", "lang", "budgets.vreg". A value left at
	// its default has no key.
	Origins map[string]string

	fail *FailPolicy // Fail parsed
}

// IsEnabled reports whether the rule with ID or name idOrName runs.
func (e *Effective) IsEnabled(idOrName string) bool {
	r, ok := ruleset.Lookup(idOrName)
	return ok && e.Enabled[r.ID]
}

// SeverityOf returns the severity of the findings of the rule with ID or
// name idOrName; false if there is no such rule.
func (e *Effective) SeverityOf(idOrName string) (ruleset.Severity, bool) {
	r, ok := ruleset.Lookup(idOrName)
	if !ok {
		return 0, false
	}
	s, ok := e.Severity[r.ID]
	return s, ok
}

// Fails reports whether a finding of the rule id at severity sev fails the
// run, by Fail, or by DefaultFail when Fail is nil.
func (e *Effective) Fails(id string, sev ruleset.Severity) bool {
	if e.fail == nil {
		p, err := ParseFail(DefaultFail)
		if err != nil {
			panic("internal error: config: DefaultFail: " + err.Error())
		}
		return p.Fails(id, sev)
	}
	return e.fail.Fails(id, sev)
}

// AllRules returns the set of every rule of ruleset.All, enabled: the
// parent of the root configuration file, and a base for Select.
func AllRules() map[string]bool { return allEnabled(ruleset.All()) }

// Options configure a Loader.
type Options struct {
	// File, when set, is the only configuration file used (the driver's
	// -config FILE); no ascvet.toml is looked for.
	File string
	// NoConfig uses no configuration file at all (-no-config).
	NoConfig bool
	// Chips, when not nil, are the valid values of chip (simcheck.Chips()).
	Chips []string
	// Rules are the rules that checks, fail and severity name; nil means
	// ruleset.All() at NewLoader time.
	Rules []*ruleset.Rule
}

// Loader finds, parses and merges configuration files. Each file is read
// and parsed once; a Loader is safe for concurrent use.
type Loader struct {
	opts     Options
	rules    []*ruleset.Rule
	mu       sync.Mutex
	dirs     map[string]*dirEntry  // by absolute directory
	aboveDir map[string][]string   // Effective.Ignored, by boundary
	fixed    []*file               // with Options.File: that file
	byDir    map[string]*Effective // the effective configuration of a directory whose chain has no overrides
	byChain  map[string]*Effective // the same, by where discovery stopped and the files of the chain: shared by directories
	parsed   atomic.Int64          // configuration files parsed (for tests)
	listed   Listed                // what a walk saw of directories; nil: ask the file system
}

// Listed reports whether the directory dir (absolute and clean) holds an
// entry called name, as a walk that listed it saw (source.Listing.Has);
// known is false when it was not listed.
type Listed func(dir, name string) (present, known bool)

// UseListing has l take what a walk saw of the directories it lists
// (whether each holds an ascvet.toml or a .git) instead of asking the file
// system again: two failing stat calls a directory. Call it before l is
// used by more than one goroutine.
func (l *Loader) UseListing(listed Listed) { l.listed = listed }

// has reports whether dir holds name, from the listing when it is known,
// else from the file system (Lstat: any kind of entry).
func (l *Loader) has(dir, name string) bool {
	if l.listed != nil {
		if present, known := l.listed(dir, name); known {
			return present
		}
	}
	_, err := os.Lstat(filepath.Join(dir, name))
	return err == nil
}

// dirEntry is the chain of configuration files that apply in a directory.
type dirEntry struct {
	once     sync.Once
	chain    []*file   // root first
	boundary string    // where discovery stopped: a repository root or a root = true file's directory; "" at the filesystem root
	pending  bool      // inside a repository, above its first ascvet.toml: the chain above the repository (outer) waits for that file's root key
	outer    string    // with pending: the directory above the repository root
	errs     ErrorList // of every file of the chain
}

// NewLoader returns a Loader. With opts.File it reads that file now and
// returns its errors.
func NewLoader(opts Options) (*Loader, error) {
	l := &Loader{opts: opts, rules: opts.Rules, dirs: map[string]*dirEntry{}, aboveDir: map[string][]string{}}
	if l.rules == nil {
		l.rules = ruleset.All()
	}
	switch {
	case opts.File != "" && opts.NoConfig:
		return nil, errors.New("-config and -no-config exclude each other")
	case opts.File != "":
		abs, err := filepath.Abs(opts.File)
		if err != nil {
			return nil, err
		}
		f, err := l.read(abs)
		if err != nil {
			return nil, err
		}
		if f == nil {
			return nil, fmt.Errorf("%s: no such file", opts.File)
		}
		l.fixed = []*file{f}
	}
	return l, nil
}

// MaxFileSize is the size of the largest configuration file read (4 MiB; a
// real one has a few hundred bytes). A larger one is an error, and so is a
// path that is not a regular file (a FIFO, a link to /dev/zero): neither
// is read.
const MaxFileSize = 4 << 20

// read reads and parses the configuration file at path (absolute); it
// returns nil, nil when there is none.
func (l *Loader) read(path string) (*file, error) {
	src, err := regfile.Read(path, MaxFileSize)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return nil, ErrorList{{File: path, Msg: err.Error()}}
	}
	l.parsed.Add(1)
	return parseFile(path, src, l.rules, &l.opts)
}

// chain returns the configuration files that apply in dir (absolute and
// clean), root first.
func (l *Loader) chain(dir string) ([]*file, error) {
	e := l.entry(dir)
	if e == nil {
		if l.fixed != nil {
			return l.fixed, nil
		}
		return nil, nil
	}
	if len(e.errs) > 0 {
		return nil, e.errs
	}
	return e.chain, nil
}

// entry returns the discovery state of dir (absolute and clean), nil with
// -config FILE or -no-config. See the package documentation, "Discovery
// and merging": the walk up from dir stops at a file that says root =
// true, and at the root of a git repository (a directory holding .git)
// unless the repository's topmost ascvet.toml above dir says root = false.
func (l *Loader) entry(dir string) *dirEntry {
	if l.opts.NoConfig || l.fixed != nil {
		return nil
	}
	l.mu.Lock()
	e := l.dirs[dir]
	if e == nil {
		e = &dirEntry{}
		l.dirs[dir] = e
	}
	l.mu.Unlock()
	e.once.Do(func() {
		parent := filepath.Dir(dir)
		switch {
		case parent == dir:
		case l.has(dir, ".git"): // the root of a git work tree: .git, a directory or (in a worktree or submodule) a file
			e.boundary, e.pending, e.outer = dir, true, parent
		default:
			p := l.entry(parent)
			e.chain, e.boundary, e.pending, e.outer = p.chain, p.boundary, p.pending, p.outer
			e.errs = append(e.errs, p.errs...)
		}
		var f *file
		var err error
		if l.listed == nil || l.has(dir, FileName) {
			f, err = l.read(filepath.Join(dir, FileName))
		}
		if err != nil {
			e.errs = append(e.errs, asList(err)...)
		}
		switch {
		case f == nil:
		case f.root.set() && f.root.v:
			e.chain, e.boundary, e.pending = []*file{f}, dir, false
		case e.pending: // the repository's topmost configuration
			e.chain, e.pending = []*file{f}, false
			if f.root.set() && !f.root.v {
				o := l.entry(e.outer)
				e.chain = append(o.chain[:len(o.chain):len(o.chain)], f)
				e.boundary = o.boundary
				e.errs = append(e.errs, o.errs...)
			}
		default:
			e.chain = append(e.chain[:len(e.chain):len(e.chain)], f)
		}
	})
	return e
}

// above returns the configuration files above dir, nearest first.
func (l *Loader) above(dir string) []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	if files, ok := l.aboveDir[dir]; ok {
		return files
	}
	var files []string
	for d := filepath.Dir(dir); ; d = filepath.Dir(d) {
		if fi, err := os.Stat(filepath.Join(d, FileName)); err == nil && !fi.IsDir() {
			files = append(files, filepath.Join(d, FileName))
		}
		if filepath.Dir(d) == d {
			break
		}
	}
	l.aboveDir[dir] = files
	return files
}

// asList returns the problems err holds.
func asList(err error) ErrorList {
	var list ErrorList
	if errors.As(err, &list) {
		return list
	}
	return ErrorList{{Msg: err.Error()}}
}

// ForFile is For of a path known to be a file (not a directory): it spares
// a stat, and takes a relative path from wd, the working directory, which
// the caller knows (filepath.Abs asks the system for it at every call).
func (l *Loader) ForFile(path, wd string) (*Effective, error) {
	abs := path
	if !filepath.IsAbs(path) {
		abs = filepath.Join(wd, path)
	}
	return l.effective(filepath.Dir(abs), abs)
}

// For returns the effective configuration of the file at path (which
// need not exist); when path is a directory, that of a file in it, as
// ForDir says. The error, when not nil, is an ErrorList (or an error of
// filepath.Abs). The result is shared: do not change it.
func (l *Loader) For(path string) (*Effective, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, err
	}
	if fi, err := os.Stat(abs); err == nil && fi.IsDir() {
		return l.effective(abs, abs)
	}
	return l.effective(filepath.Dir(abs), abs)
}

// ForDir returns the configuration of a file directly in the directory dir
// that no override names in particular: the overrides that apply are those
// whose paths match dir itself ("legacy/**" and "legacy" match legacy, but
// "legacy/*.cpp" does not).
func (l *Loader) ForDir(dir string) (*Effective, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	return l.effective(abs, abs)
}

// effective merges the chain of dir for target, a file in dir or dir.
func (l *Loader) effective(dir, target string) (*Effective, error) {
	chain, err := l.chain(dir)
	if err != nil {
		return nil, err
	}
	// Without overrides every file of a directory has the directory's
	// configuration: merge it once (a tree has thousands of files a
	// directory).
	same := true
	for _, f := range chain {
		if len(f.overrides) > 0 {
			same = false
			break
		}
	}
	if !same {
		return l.merged(chain, dir, target)
	}
	l.mu.Lock()
	e, ok := l.byDir[dir]
	l.mu.Unlock()
	if ok {
		return e, nil
	}
	// Nor does it depend on the directory beyond its chain and where
	// discovery stopped: the directories of a tree without configuration
	// files share one (the CANN repositories have 29 thousand directories
	// and no ascvet.toml: 0.12 s and 33 MB of merging a run, before).
	key := ""
	if de := l.entry(dir); de != nil {
		key = de.boundary
	}
	for _, f := range chain {
		key += "\x00" + f.path
	}
	l.mu.Lock()
	e, ok = l.byChain[key]
	l.mu.Unlock()
	if !ok {
		if e, err = l.merged(chain, dir, target); err != nil {
			return nil, err
		}
	}
	l.mu.Lock()
	if l.byDir == nil {
		l.byDir = map[string]*Effective{}
	}
	if l.byChain == nil {
		l.byChain = map[string]*Effective{}
	}
	if first, ok := l.byChain[key]; ok {
		e = first // merged twice at once: every directory gets the one kept
	} else {
		l.byChain[key] = e
	}
	l.byDir[dir] = e
	l.mu.Unlock()
	return e, nil
}

// merged merges chain, the configuration files of dir, for target.
func (l *Loader) merged(chain []*file, dir, target string) (*Effective, error) {
	m := newMerge(l.rules)
	if e := l.entry(dir); e != nil && e.boundary != "" {
		m.e.Boundary = e.boundary
		m.e.Ignored = l.above(e.boundary)
	}
	for _, f := range chain {
		m.e.Sources = append(m.e.Sources, f.path)
		m.apply(&f.top, false)
		rel, err := filepath.Rel(f.dir, target)
		if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			continue // -config FILE elsewhere: its overrides match nothing outside its directory
		}
		if rel == "." {
			rel = ""
		}
		rel = filepath.ToSlash(rel)
		for i := range f.overrides {
			o := &f.overrides[i]
			if o.matches(rel) {
				m.e.Overrides = append(m.e.Overrides, o.at.String())
				m.apply(&o.layer, true)
			}
		}
	}
	return m.result()
}

func (o *override) matches(rel string) bool {
	for _, g := range o.paths {
		if g.match(rel) {
			return true
		}
	}
	return false
}

// merge accumulates layers into an Effective.
type merge struct {
	rules   []*ruleset.Rule
	e       *Effective
	origin  map[string]pos // checks origins, by rule ID
	fail    []item         // resolved fail list; nil while unset
	failSet bool
	// defineAt is the index in e.Settings.Defines of each macro's name.
	defineAt map[string]int
}

func newMerge(rules []*ruleset.Rule) *merge {
	e := &Effective{
		Enabled:  allEnabled(rules),
		Severity: make(map[string]ruleset.Severity, len(rules)),
		Settings: Settings{Budgets: map[string]int{}},
		Origins:  map[string]string{},
	}
	for _, r := range rules {
		e.Severity[r.ID] = r.Severity
	}
	return &merge{rules: rules, e: e, origin: map[string]pos{}}
}

func (m *merge) apply(l *layer, inOverride bool) {
	e := m.e
	if l.checks != nil {
		e.Enabled = selectRules(m.rules, l.checks.items, l.checks.at, e.Enabled, inOverride, m.origin)
	}
	if l.fail != nil {
		m.applyFail(l.fail, inOverride)
	}
	for _, s := range l.severity {
		for _, r := range s.rules {
			e.Severity[r.ID] = s.sev
			e.Origins["severity."+r.ID] = s.at.String()
		}
	}
	setString(&e.Settings.Chip, l.chip, "chip", e.Origins)
	setString(&e.Settings.Machine, l.machine, "machine", e.Origins)
	setString(&e.Settings.Confidence, l.confidence, "confidence", e.Origins)
	setString(&e.Settings.Lang, l.lang, "lang", e.Origins)
	if l.tests.set() {
		e.Settings.Tests = l.tests.v
		e.Origins["tests"] = l.tests.at.String()
	}
	if l.iterations.set() {
		e.Settings.Iterations = l.iterations.v
		e.Origins["iterations"] = l.iterations.at.String()
	}
	for k, b := range l.budgets {
		e.Settings.Budgets[k] = b.v
		e.Origins["budgets."+k] = b.at.String()
	}
	for _, d := range l.defines {
		kv := d.v[0] + "=" + d.v[1]
		if m.defineAt == nil {
			m.defineAt = map[string]int{}
		}
		if i, ok := m.defineAt[d.v[0]]; ok {
			e.Settings.Defines[i] = kv
		} else {
			m.defineAt[d.v[0]] = len(e.Settings.Defines)
			e.Settings.Defines = append(e.Settings.Defines, kv)
		}
		e.Origins["defines."+d.v[0]] = d.at.String()
	}
}

func setString(dst *string, s setting[string], key string, origins map[string]string) {
	if s.set() {
		*dst = s.v
		origins[key] = s.at.String()
	}
}

// applyFail merges a fail list: "inherit" splices the list in force
// (DefaultFail when none), as does a leading removal or an override.
func (m *merge) applyFail(l *list, inOverride bool) {
	parent := m.fail
	if !m.failSet {
		p, err := ParseFail(DefaultFail)
		if err != nil {
			panic("internal error: config: DefaultFail: " + err.Error())
		}
		parent = p.items
	}
	var out []item
	if inOverride && !hasInherit(l.items) || len(l.items) > 0 && l.items[0].neg {
		out = append(out, parent...)
	}
	for _, it := range l.items {
		if it.inherit {
			out = append(out, parent...)
		} else {
			out = append(out, it)
		}
	}
	m.fail, m.failSet = out, true
	m.e.Origins["fail"] = l.at.String()
}

func hasInherit(items []item) bool {
	for _, it := range items {
		if it.inherit {
			return true
		}
	}
	return false
}

func (m *merge) result() (*Effective, error) {
	e := m.e
	for id, p := range m.origin {
		e.Origins["checks."+id] = p.String()
	}
	if m.failSet {
		e.Fail = make([]string, len(m.fail))
		for i, it := range m.fail {
			e.Fail[i] = it.text
		}
		e.fail = &FailPolicy{items: m.fail}
	}
	return e, nil
}
