package driver

import (
	"bytes"
	"fmt"
	"go/token"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/tools/go/analysis"

	"github.com/ascvet/ascvet/analyzers/cppir"
	"github.com/ascvet/ascvet/analyzers/runner"
	"github.com/ascvet/ascvet/analyzers/settings"
	"github.com/ascvet/ascvet/analyzers/simcost"
	"github.com/ascvet/ascvet/cppfront"
	"github.com/ascvet/ascvet/cppfront/ir"
	"github.com/ascvet/ascvet/internal/repo"
	"github.com/ascvet/ascvet/internal/report"
	"github.com/ascvet/ascvet/internal/resultcache"
	"github.com/ascvet/ascvet/regalloc"
	"github.com/ascvet/ascvet/ruleset"
	"github.com/ascvet/ascvet/ruleset/baseline"
	"github.com/ascvet/ascvet/ruleset/config"
	"github.com/ascvet/ascvet/ruleset/i18n"
	"github.com/ascvet/ascvet/ruleset/suppress"
)

// The pipeline of one file, after it was read and found to hold VF code:
//
//  1. its configuration: the ascvet.toml files above it, merged, with the
//     per-path overrides that match it, then the command line's -checks,
//     -chip, -confidence, ... over them;
//  2. the analyzers, with the file's settings provided to them
//     (runner.File.Provided);
//  3. the findings of disabled rules dropped; the suppression directives of
//     the file applied, and their own problems (ASC0002) and unused
//     directives (ASC0003) reported;
//  4. each finding becomes an issue: its configured severity, its message
//     in the output language, its source line and fingerprints.
//
// -fix reruns steps 2-3 on the fixed text, so a fix never touches a
// suppressed or disabled finding.

// Pipeline is the per-file analysis, shared by the workers.
type Pipeline struct {
	Analyzers []*analysis.Analyzer
	Loader    *config.Loader
	Checks    []string                 // -checks, applied over the config's list; nil when not given
	Override  func(*settings.Settings) // the settings given on the command line, applied over the config's
	Lang      string                   // output language
	Parallel  int                      // analyzers of one file run at once (runner.Options.Parallel): -j, so that a file alone uses the CPUs
	Roots     *repo.Roots              // the repository roots that fingerprints are keyed on; nil: paths as given
	Cache     *resultcache.Cache       // the analyzers' findings of earlier runs; nil: none
	WorkDir   string                   // the working directory, which relative names are taken from
	named     map[string]bool          // the files named on the command line (cleaned), not found by a walk
	Timeout   time.Duration            // -file-timeout: the time one file's analysis may take (run); 0 for no limit
	// FreshFixes: the run writes fixes or prints them as a diff (-fix,
	// -diff), or offers them as code actions (the language server), so
	// findings with fixes are not taken from the cache (resultcache.Cache.Get).
	FreshFixes bool
	// Defines are the build macros of the run's configuration (that of
	// the first path checked, config.Settings.Defines): the project index
	// holds one set. A file whose configuration sets others is analysed
	// with these, and Notes (when set) hears of it once per configuration.
	Defines []string
	Notes   io.Writer
}

// notedDefines are the notes noteDefines gave, by writer and text: once
// each for the process (a language server copies its pipeline when its
// configuration changes).
var notedDefines sync.Map

// noteDefines tells Notes, once per set of configuration files, that a
// file's configuration sets other build macros than the run's.
func (p *Pipeline) noteDefines(eff *config.Effective) {
	if p.Notes == nil {
		return
	}
	var from []string
	for k, o := range eff.Origins {
		if strings.HasPrefix(k, "defines.") {
			if f, _, ok := strings.Cut(o, ":"); ok && !slices.Contains(from, f) {
				from = append(from, f)
			}
		}
	}
	slices.Sort(from)
	key := fmt.Sprintf("%p\x00%s\x01%s\x01%s", p.Notes, strings.Join(from, "\x00"), strings.Join(eff.Settings.Defines, ";"), strings.Join(p.Defines, ";"))
	if _, seen := notedDefines.LoadOrStore(key, true); seen {
		return
	}
	where := strings.Join(from, ", ")
	if where == "" {
		where = "the configuration of files below the working directory"
	}
	run := strings.Join(p.Defines, " ")
	if run == "" {
		run = "none"
	}
	fmt.Fprintf(p.Notes, "ascvet: %s: its defines (%s) are not this run's: a run uses the build macros of the configuration of the first path it checks (%s); check that directory on its own, or give -D, to use them\n",
		where, strings.Join(eff.Settings.Defines, " "), run)
}

// Analysed is the outcome of the pipeline on one file.
type Analysed struct {
	Issues    []report.Issue         // every issue, suppressed ones included, in finding order
	Errs      []runner.InternalError // analyzers that failed
	Skip      string                 // why the file was skipped (a limit), "" when it was not
	ConfigErr string                 // its configuration does not load ("ascvet.toml:3: ..."); the file is not analysed
	// Stopped: the analysis was Stopped (runStore's stop flag) and has
	// nothing; it is neither stored nor to be shown.
	Stopped bool

	Deps     []cppfront.Dep    // the headers its findings depend on (what its lowering read through the project index)
	Settings settings.Settings // the settings it was analysed with
	eff      *config.Effective // its configuration
}

// reported returns the findings of the issues that are not suppressed.
func (a *Analysed) reported() []runner.Finding {
	var out []runner.Finding
	for i := range a.Issues {
		if len(a.Issues[i].Suppressed) == 0 {
			out = append(out, a.Issues[i].Finding)
		}
	}
	return out
}

// settingsFor returns the settings of a file: the defaults, the config's,
// then the command line's.
func (p *Pipeline) settingsFor(eff *config.Effective) (settings.Settings, error) {
	s := settings.Defaults()
	cs := eff.Settings
	if cs.Chip != "" {
		s.Chip, s.Machine = cs.Chip, ""
	}
	if cs.Machine != "" {
		s.Machine = cs.Machine
	}
	if cs.Iterations > 0 {
		s.Iterations = cs.Iterations
	}
	if cs.Confidence != "" {
		s.Confidence = cs.Confidence
	}
	for c := regalloc.Class(0); c < regalloc.NumClasses; c++ {
		if n, ok := cs.Budgets[c.Flag()]; ok {
			s.Budget[c] = n
		}
	}
	if p.Override != nil {
		p.Override(&s)
	}
	if err := s.Check(); err != nil {
		return s, err
	}
	if _, err := simcost.Load(s.Chip, s.Machine); err != nil {
		return s, err
	}
	return s, nil
}

// run analyses one file. With a timeout (-file-timeout), an analysis
// still running when it passes is stopped wherever it is (the parse checks
// its own deadline, but the lowering's helpers, the rules, the simulations
// and the fix checks after it are as long on a huge file) and the file is
// skipped with its message.
func (p *Pipeline) run(name string, src []byte) Analysed {
	if p.Timeout <= 0 {
		return p.RunStore(name, src, true, nil)
	}
	var stop atomic.Bool
	t := time.AfterFunc(p.Timeout, func() { stop.Store(true) })
	a := p.RunStore(name, src, true, &stop)
	t.Stop()
	if a.Stopped {
		return Analysed{Skip: fmt.Sprintf("%s: analysing took longer than the limit of %v; skipped (raise -file-timeout to check it)", name, p.Timeout)}
	}
	return a
}

// RunStore is run, storing what the analyzers find in the result cache
// only when store is set: an editor's server stores the buffers that
// match their files, not every keystroke's. The analysis stops early once
// stop is set (runner.File.Stop; nil: never), as the server's does when a
// newer edit came.
func (p *Pipeline) RunStore(name string, src []byte, store bool, stop *atomic.Bool) Analysed {
	eff, err := p.Loader.ForFile(name, p.WorkDir)
	if err != nil {
		return Analysed{ConfigErr: err.Error()}
	}
	enabled := eff.Enabled
	if p.Checks != nil {
		if enabled, err = config.Select(p.Checks, enabled); err != nil {
			return Analysed{ConfigErr: "-checks: " + err.Error()}
		}
	}
	st, err := p.settingsFor(eff)
	if err != nil {
		return Analysed{ConfigErr: fmt.Sprintf("%s: %v", SourcesOf(eff), err)}
	}
	if !slices.Equal(eff.Settings.Defines, p.Defines) {
		p.noteDefines(eff)
	}
	f := runner.File{Name: name, Src: bytes.Clone(src), Provided: map[*analysis.Analyzer]any{settings.Analyzer: &st}, Stop: stop}
	sc := scanAhead(f)
	res, deps, errs, skip := p.analyse(f, &st, store)
	if skip != "" {
		return Analysed{Skip: skip}
	}
	if len(res.Stopped) > 0 {
		return Analysed{Stopped: true}
	}
	var findings []runner.Finding
	for _, fd := range res.Findings {
		if enabled[fd.RuleID()] || fd.Rule == nil {
			findings = append(findings, fd)
		}
	}
	issues := p.suppress(f, findings, enabled, sc)
	p.describe(f, issues, eff, sc)
	return Analysed{Issues: issues, Errs: errs, Deps: deps, Settings: st, eff: eff}
}

// analyse runs the analyzers on f, or takes their findings from the cache.
// It returns, besides, the headers whose bytes the findings depend on.
func (p *Pipeline) analyse(f runner.File, st *settings.Settings, store bool) (res *runner.Result, deps []cppfront.Dep, errs []runner.InternalError, skip string) {
	var key resultcache.Key
	keyed := false
	if p.Cache != nil {
		if key, keyed = p.Cache.Key(f.Name, f.Src, st); keyed {
			if found, deps, ok := p.Cache.Get(key, f.Name, p.Analyzers, p.FreshFixes); ok {
				return &runner.Result{Findings: found}, deps, nil, ""
			}
		}
	}
	res, err := runner.Run(p.Analyzers, []runner.File{f}, runner.Options{Jobs: 1, Parallel: p.Parallel})
	deps = cppir.ProjectIndex().Consulted(f.Name)
	if err != nil {
		panic("internal error: analyzers validated, then not: " + err.Error())
	}
	if len(res.Stopped) > 0 {
		return res, nil, nil, "" // no findings, and none of them would hold: nothing to store
	}
	errs, skips := splitLimits(res.Errors)
	if len(skips) > 0 {
		return nil, nil, nil, skips[0]
	}
	if keyed && store && len(res.Errors) == 0 {
		p.Cache.Put(key, f.Name, res.Findings, deps, p.named[filepath.Clean(f.Name)])
	}
	return res, deps, errs, ""
}

func SourcesOf(eff *config.Effective) string {
	if len(eff.Sources) == 0 {
		return "settings"
	}
	return eff.Sources[len(eff.Sources)-1]
}

// suppress applies the file's directives to its findings, and adds the
// directives' own findings (ASC0002, ASC0003) when those rules are enabled;
// directives can suppress those too.
func (p *Pipeline) suppress(f runner.File, findings []runner.Finding, enabled map[string]bool, sc *scans) []report.Issue {
	dirs, problems := sc.directives()
	var all []runner.Finding
	all = append(all, findings...)
	if enabled[suppress.InvalidDirective.ID] {
		for _, pr := range problems {
			all = append(all, driverFinding(f.Name, suppress.InvalidDirective, pr.Line, pr.Col, pr.EndCol, pr.Message))
		}
	}
	targets := make([]suppress.Target, len(all))
	for i := range all {
		targets[i] = suppress.Target{Rule: all[i].RuleID(), Line: all[i].Pos.Line, EndLine: all[i].End.Line}
	}
	var ran []string
	for id, on := range enabled {
		if on {
			ran = append(ran, id)
		}
	}
	out := suppress.Apply(dirs, targets, ran)
	issues := make([]report.Issue, len(all), len(all)+len(out.Unused))
	for i := range all {
		issues[i] = report.Issue{Finding: all[i]}
	}
	for _, s := range out.Suppressed {
		is := &issues[s.Finding]
		is.Suppressed = append(is.Suppressed, report.Suppression{Kind: "inSource", Justification: s.Reason})
	}
	if enabled[suppress.UnusedDirective.ID] {
		for _, u := range out.Unused {
			d := &dirs[u.Directive]
			is := report.Issue{Finding: driverFinding(f.Name, suppress.UnusedDirective, d.Line, d.Col, d.EndCol, u.Message)}
			if u.By >= 0 {
				is.Suppressed = []report.Suppression{{Kind: "inSource", Justification: dirs[u.By].Reason}}
			}
			issues = append(issues, is)
		}
	}
	slices.SortStableFunc(issues, func(a, b report.Issue) int { return compareIssues(&a, &b) })
	return issues
}

func compareIssues(a, b *report.Issue) int {
	if a.Pos.Line != b.Pos.Line {
		return a.Pos.Line - b.Pos.Line
	}
	if a.Pos.Column != b.Pos.Column {
		return a.Pos.Column - b.Pos.Column
	}
	if a.RuleID() != b.RuleID() {
		if a.RuleID() < b.RuleID() {
			return -1
		}
		return 1
	}
	return 0
}

// scans are the passes over a file's text that the driver makes besides
// the analyzers: its suppression directives, lines and line hashes. For a
// big file they run while the analyzers do (a second each on a 40 MB
// file); for the others on first use, and the hashes only when a finding
// needs them.
type scans struct {
	src      runner.File
	ahead    chan struct{} // closed when the scans made ahead are done; nil when none were
	dirs     []suppress.Directive
	problems []suppress.Problem
	split    [][]byte
	table    report.HashTable
}

// scanAheadMin is the size from which scanAhead scans while the analyzers run.
const scanAheadMin = 1 << 20

func scanAhead(f runner.File) *scans {
	sc := &scans{src: f}
	if len(f.Src) >= scanAheadMin {
		sc.ahead = make(chan struct{})
		go func() {
			defer close(sc.ahead)
			sc.dirs, sc.problems = suppress.Parse(f.Src, suppress.SyntaxFor(f.Name))
			sc.split = bytes.Split(f.Src, []byte("\n"))
			sc.table = report.LineHashTable(f.Src)
		}()
	}
	return sc
}

func (sc *scans) directives() ([]suppress.Directive, []suppress.Problem) {
	if sc.ahead != nil {
		<-sc.ahead
		return sc.dirs, sc.problems
	}
	return suppress.Parse(sc.src.Src, suppress.SyntaxFor(sc.src.Name))
}

func (sc *scans) lines() [][]byte {
	if sc.ahead != nil {
		<-sc.ahead
		return sc.split
	}
	return bytes.Split(sc.src.Src, []byte("\n"))
}

func (sc *scans) hashes() report.HashTable {
	if sc.ahead != nil {
		<-sc.ahead
		return sc.table
	}
	return report.LineHashTable(sc.src.Src)
}

// driverFinding is a finding the driver reports itself, for a rule no
// analyzer implements.
func driverFinding(file string, r *ruleset.Rule, line, col, endCol int, msg string) runner.Finding {
	return runner.Finding{
		Rule:       r,
		Diagnostic: analysis.Diagnostic{Message: msg},
		Pos:        tokenPos(file, line, col),
		End:        tokenPos(file, line, endCol),
	}
}

// describe fills in what the formats need: severity, message in the
// output language, source line, fingerprints and cost.
func (p *Pipeline) describe(f runner.File, issues []report.Issue, eff *config.Effective, sc *scans) {
	if len(issues) == 0 {
		return
	}
	lines, hashes := sc.lines(), sc.hashes()
	py := cppir.IsPython(f.Name)
	key := filepath.ToSlash(f.Name)
	if p.Roots != nil {
		_, key = p.Roots.Key(f.Name)
	}
	lineOf := func(l int) string {
		if l >= 1 && l <= len(lines) {
			return string(bytes.TrimRight(lines[l-1], "\r"))
		}
		return ""
	}
	for i := range issues {
		is := &issues[i]
		is.Level = is.Severity()
		if s, ok := eff.Severity[is.RuleID()]; ok {
			is.Level = s
		}
		is.Message = i18n.Message(p.Lang, is.RuleID(), is.Diagnostic.Message)
		if py {
			is.Message = dslNames(is.Message)
		}
		is.Fixes = fixTitles(p.Lang, is.RuleID(), is.Fixes, py)
		if c, ok, _ := simcost.Extract(is.Diagnostic.Related); ok {
			is.Cost = &c
		}
		is.Line = lineOf(is.Pos.Line)
		is.LineHash = hashes.At(is.Pos.Line)
		for _, r := range is.Finding.Related {
			if strings.HasPrefix(r.Message, simcost.RelatedPrefix) {
				continue
			}
			msg := i18n.Message(p.Lang, is.RuleID(), r.Message)
			if py {
				msg = dslNames(msg)
			}
			rl := "" // the source line: known of the finding's own file only
			if r.Pos.Filename == is.Pos.Filename {
				rl = lineOf(r.Pos.Line)
			}
			is.Related = append(is.Related, report.Related{Pos: r.Pos, End: r.End, Message: msg, Line: rl})
		}
		is.Key = key
		is.Snippet = baseline.SnippetLines(lines, is.Pos.Line, is.End.Line)
		is.Fingerprint = baseline.Fingerprint(is.RuleID(), key, is.Snippet)
	}
}

// rerun returns what -fix runs on the texts it fixed: the pipeline, and
// its reported findings (so that suppressed findings are never fixed).
func (p *Pipeline) rerun(jobs int) func([]runner.File) (*runner.Result, error) {
	return func(files []runner.File) (*runner.Result, error) {
		outs := make([]Analysed, len(files))
		var wg sync.WaitGroup
		sem := make(chan struct{}, max(jobs, 1))
		for i := range files {
			wg.Go(func() {
				sem <- struct{}{}
				defer func() { <-sem }()
				outs[i] = p.run(files[i].Name, files[i].Src)
			})
		}
		wg.Wait()
		res := &runner.Result{}
		for _, a := range outs {
			res.Findings = append(res.Findings, a.reported()...)
			res.Errors = append(res.Errors, a.Errs...)
		}
		return (&runner.Result{}).Replace(nil, res), nil
	}
}

// reanalyse replaces the issues of the files -fix wrote by those of their
// new text.
func reanalyse(p *Pipeline, issues []report.Issue, written []fixedFile) []report.Issue {
	if len(written) == 0 {
		return issues
	}
	fresh := map[string]bool{}
	var out []report.Issue
	for _, f := range written {
		fresh[f.name] = true
		out = append(out, p.run(f.name, f.new).Issues...)
	}
	for _, is := range issues {
		if !fresh[is.Pos.Filename] {
			out = append(out, is)
		}
	}
	sortIssues(out)
	return out
}

// sortIssues sorts issues by file, line, column and rule.
func sortIssues(issues []report.Issue) {
	slices.SortStableFunc(issues, func(a, b report.Issue) int {
		if c := strings.Compare(a.Pos.Filename, b.Pos.Filename); c != 0 {
			return c
		}
		return compareIssues(&a, &b)
	})
}

func tokenPos(file string, line, col int) token.Position {
	return token.Position{Filename: file, Line: line, Column: col}
}

// dslNames rewrites, in a message about a pypto_pro Python kernel, the
// canonical op names the rules use (LoadUnAlignPre) into what the kernel's
// author wrote (vf.load_unalign_pre), where the DSL has one spelling.
func dslNames(msg string) string {
	for _, r := range dslSnippets { // the C++ call shapes some messages spell out
		msg = strings.ReplaceAll(msg, r[0], r[1])
	}
	msg = postModeNormal.ReplaceAllString(msg, "$1 with a stride but without post_update=True is the POST_MODE_NORMAL form, which the post-update interface does not support; pass post_update=True to advance $2 by the stride, or drop the stride to leave it")
	msg = postModeNormalZh.ReplaceAllString(msg, "${1} 带步长却未设 post_update=True，即 POST_MODE_NORMAL 形式，而 PostUpdate 接口不支持该模式；请传入 post_update=True 使${2}按步长自动更新，或去掉步长使其保持不变")
	dslOnce.Do(func() {
		var names []string
		for op := ir.Op(0); int(op) < ir.NumOps; op++ {
			if d, ok := ir.DSLSpelling(op); ok {
				dslOf[op.String()] = d
				names = append(names, regexp.QuoteMeta(op.String()))
			}
		}
		slices.SortFunc(names, func(a, b string) int { return len(b) - len(a) }) // longest first
		dslRx = regexp.MustCompile(`\b(?:` + strings.Join(names, "|") + `)\b`)
	})
	return dslRx.ReplaceAllStringFunc(msg, func(w string) string { return dslOf[w] })
}

// dslSnippets are C++ calls and phrases that rule messages spell out, in
// their DSL form (the DSL's argument order and post_update keyword).
var dslSnippets = [][2]string{
	{"keep unaligned offsets in uint32_t with post-update (LoadUnAlign(dst, u, src, stride))", "pass the offset as a stride with post_update=True (dst = vf.load_unalign(u, src, stride, post_update=True))"},
	{"keep unaligned offsets in uint32_t with post-update (StoreUnAlign(dst, src, u, stride))", "pass the offset as a stride with post_update=True (vf.store_unalign(dst, src, u, stride, post_update=True))"},
	{"keep unaligned offsets in uint32_t with post-update (StoreUnAlignPost(dst, u, 0))", "pass the offset as a stride with post_update=True (vf.store_unalign_post(dst, u, 0, post_update=True))"},
	{"请改用 uint32_t 并采用 PostUpdate 模式（LoadUnAlign(dst, u, src, stride)）", "请把偏移量作为步长传入并设 post_update=True（dst = vf.load_unalign(u, src, stride, post_update=True)）"},
	{"请改用 uint32_t 并采用 PostUpdate 模式（StoreUnAlign(dst, src, u, stride)）", "请把偏移量作为步长传入并设 post_update=True（vf.store_unalign(dst, src, u, stride, post_update=True)）"},
	{"请改用 uint32_t 并采用 PostUpdate 模式（StoreUnAlignPost(dst, u, 0)）", "请把偏移量作为步长传入并设 post_update=True（vf.store_unalign_post(dst, u, 0, post_update=True)）"},
}

// postModeNormal is ASC2003's message, whose C++ remedy (a template
// argument) is a keyword in the DSL.
var postModeNormalZh = regexp.MustCompile(`(\S+) 以 POST_MODE_NORMAL 实例化，而 PostUpdate 接口不支持该模式；请使用 POST_MODE_UPDATE 使(.+?)按步长自动更新，或使用不带步长的接口使其保持不变`)

var postModeNormal = regexp.MustCompile(`(\w+) instantiated with POST_MODE_NORMAL, which the post-update interface does not support; use POST_MODE_UPDATE to advance (\S+) by the stride, or the interface without a stride to leave it`)

var (
	dslOnce sync.Once
	dslRx   *regexp.Regexp
	dslOf   = map[string]string{}
)

// namedFiles returns the paths that name files, cleaned.
func namedFiles(paths []string) map[string]bool {
	out := map[string]bool{}
	for _, p := range paths {
		if st, err := os.Stat(p); err == nil && !st.IsDir() {
			out[filepath.Clean(p)] = true
		}
	}
	return out
}

// ParseAsCheck parses a file as a check does (cppir.ParseFileAsAnalyzer):
// with the project index, so that header constants fold and helpers of
// other headers are inlined as the rules see them. What the lowering
// consulted is dropped: nothing is cached here.
func ParseAsCheck(fset *token.FileSet, name string, src []byte) (*ir.File, error) {
	f, err := cppir.ParseFileAsAnalyzer(fset, name, src)
	cppir.ProjectIndex().Consulted(name)
	return f, err
}
