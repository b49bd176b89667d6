package report

// -f sarif writes SARIF 2.1.0 as GitHub code scanning reads it (see
// docs.github.com "SARIF support for code scanning"):
//
//   - every rule of the run in tool.driver.rules, with a PascalCase name,
//     short and full description, help as text and Markdown, helpUri, tags,
//     precision and problem.severity, and each result's ruleIndex into them;
//   - regions with start and end line and column, columns counted in UTF-16
//     code units as run.columnKind declares (ascvet counts bytes; the
//     finding's source line converts them) and never below 1, which the
//     schema forbids;
//   - relatedLocations linked from the message as [text](id), the only way
//     GitHub shows them;
//   - partialFingerprints: primaryLocationLineHash, the one GitHub uses, and
//     ascvet/v1, the line-independent fingerprint of the baseline;
//   - fixes, suppressions, simulated cycles, the invocation and
//     automationDetails, which GitHub ignores but other consumers read;
//   - no absolute path of the machine but the roots in originalUriBaseIds:
//     the files, and the invocation's working directory, are relative to
//     a root's base id, the arguments to the working directory (see
//     sarifBases.invocation);
//   - GitHub's limits: fullDescription at most 1024 characters, at most 20
//     tags per rule and 25,000 results per run (the least severe are left
//     out, and a notification says how many).
//
// The types below are our own rather than a library's:
// honnef.co/go/tools/sarif has no partialFingerprints, ruleIndex,
// fullDescription, rule name, properties, automationDetails or columnKind,
// and writes startColumn 0 (schema-invalid); github.com/owenrumney/go-sarif/v3
// has every field but writes each result with a dozen empty arrays and -1
// placeholders ("rank": -1, "byteOffset": -1, "graphs": []), bloating logs
// that GitHub caps at 10 MB, and would add four modules to go.mod. A page
// of structs gives exactly the fields above, with omitempty where
// SARIF has no useful zero.
//
// The output is deterministic: no timestamps, no GUIDs, maps sorted by key.

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"go/token"
	"io"
	"net/url"
	"path/filepath"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/ascvet/ascvet/analyzers/fixes"
	"github.com/ascvet/ascvet/internal/repo"
	"github.com/ascvet/ascvet/ruleset"
)

// SrcRoot is the uriBaseId of the first root the SARIF URIs are relative
// to, the one GitHub code scanning resolves against the checkout.
const SrcRoot = "%SRCROOT%"

// MaxDescription is the most characters GitHub code scanning takes in a
// rule's shortDescription and fullDescription.
const MaxDescription = 1024

const (
	sarifSchema  = "https://json.schemastore.org/sarif-2.1.0.json"
	sarifVersion = "2.1.0"
	toolURI      = "https://github.com/ascvet/ascvet"

	maxTags    = 20    // GitHub: tags per rule
	maxResults = 25000 // GitHub: results per run
)

type sarifLog struct {
	Schema  string     `json:"$schema"`
	Version string     `json:"version"`
	Runs    []sarifRun `json:"runs"`
}

type sarifRun struct {
	Tool               sarifTool                   `json:"tool"`
	Invocations        []sarifInvocation           `json:"invocations"`
	AutomationDetails  sarifAutomation             `json:"automationDetails"`
	OriginalURIBaseIDs map[string]sarifArtifactLoc `json:"originalUriBaseIds,omitempty"`
	VersionControl     []sarifVCS                  `json:"versionControlProvenance,omitempty"` // the git checkout the run looked at
	Language           string                      `json:"language"`                           // of the messages, "en-US" or "zh-CN"
	ColumnKind         string                      `json:"columnKind"`                         // always "utf16CodeUnits"
	Results            []sarifResult               `json:"results"`                            // present, empty, for a clean run
}

// sarifVCS is a versionControlDetails object: where the checked files come
// from, so that a SARIF log can be tied to a commit.
type sarifVCS struct {
	RepositoryURI string `json:"repositoryUri"`
	RevisionID    string `json:"revisionId,omitempty"`
	Branch        string `json:"branch,omitempty"`
	MappedTo      *struct {
		URIBaseID string `json:"uriBaseId"`
	} `json:"mappedTo,omitempty"`
}

type sarifTool struct {
	Driver sarifDriver `json:"driver"`
}

type sarifDriver struct {
	Name            string      `json:"name"`
	Version         string      `json:"version"`
	SemanticVersion string      `json:"semanticVersion"`
	InformationURI  string      `json:"informationUri"`
	Rules           []sarifRule `json:"rules"`
}

type sarifRule struct {
	ID                   string         `json:"id"`
	Name                 string         `json:"name"` // PascalCase of the kebab name; SARIF wants it to differ from id
	ShortDescription     sarifMessage   `json:"shortDescription"`
	FullDescription      sarifMessage   `json:"fullDescription"`
	Help                 sarifMessage   `json:"help"`
	HelpURI              string         `json:"helpUri"`
	DefaultConfiguration sarifConfig    `json:"defaultConfiguration"`
	Properties           sarifRuleProps `json:"properties"`
}

type sarifConfig struct {
	Level string `json:"level"`
}

type sarifRuleProps struct {
	Tags            []string `json:"tags,omitempty"`
	Precision       string   `json:"precision,omitempty"`
	ProblemSeverity string   `json:"problem.severity"` // error, warning or recommendation
}

// sarifMessage is a message or a multiformatMessageString.
type sarifMessage struct {
	Text     string `json:"text"`
	Markdown string `json:"markdown,omitempty"`
}

type sarifResult struct {
	RuleID              string             `json:"ruleId"`
	RuleIndex           *int               `json:"ruleIndex,omitempty"` // absent when the rule is not in tool.driver.rules
	Level               string             `json:"level"`
	Kind                string             `json:"kind"`
	Message             sarifMessage       `json:"message"`
	Locations           []sarifLocation    `json:"locations"`
	RelatedLocations    []sarifLocation    `json:"relatedLocations,omitempty"`
	PartialFingerprints map[string]string  `json:"partialFingerprints,omitempty"`
	Fixes               []sarifFix         `json:"fixes,omitempty"`
	Suppressions        []sarifSuppression `json:"suppressions"` // empty: examined and not suppressed
	Properties          *sarifResultProps  `json:"properties,omitempty"`
}

type sarifResultProps struct {
	CyclesBefore int    `json:"cycles_before"`
	CyclesAfter  int    `json:"cycles_after"`
	CyclesSaved  int    `json:"cycles_saved_per_iteration"`
	Iterations   int    `json:"iterations,omitempty"`         // simulated (1 for a region)
	Trip         string `json:"trip,omitempty"`               // where the iteration count came from (simcost.Cost.Trip)
	Bound        string `json:"bound,omitempty"`              // what binds the loop, when the fix saves nothing (or under a cycle an iteration and 1%)
	CallBefore   int    `json:"call_cycles_before,omitempty"` // one call of the VF function, before the fix
	CallAfter    int    `json:"call_cycles_after,omitempty"`  // and after
}

type sarifLocation struct {
	ID               int           `json:"id,omitempty"` // related locations only, from 1
	PhysicalLocation sarifPhysical `json:"physicalLocation"`
	Message          *sarifMessage `json:"message,omitempty"`
}

type sarifPhysical struct {
	ArtifactLocation sarifArtifactLoc `json:"artifactLocation"`
	Region           sarifRegion      `json:"region"`
}

type sarifArtifactLoc struct {
	URI       string `json:"uri"`
	URIBaseID string `json:"uriBaseId,omitempty"`
}

// sarifRegion is either lines and columns (1-based, columns in UTF-16 code
// units, EndColumn exclusive) or a byte offset and length (fixes).
type sarifRegion struct {
	StartLine   int  `json:"startLine,omitempty"`
	StartColumn int  `json:"startColumn,omitempty"`
	EndLine     int  `json:"endLine,omitempty"`
	EndColumn   int  `json:"endColumn,omitempty"`
	ByteOffset  *int `json:"byteOffset,omitempty"`
	ByteLength  *int `json:"byteLength,omitempty"`
}

type sarifFix struct {
	Description     sarifMessage          `json:"description"`
	ArtifactChanges []sarifArtifactChange `json:"artifactChanges"`
}

type sarifArtifactChange struct {
	ArtifactLocation sarifArtifactLoc   `json:"artifactLocation"`
	Replacements     []sarifReplacement `json:"replacements"`
}

type sarifReplacement struct {
	DeletedRegion   sarifRegion   `json:"deletedRegion"`
	InsertedContent *sarifContent `json:"insertedContent,omitempty"` // absent for a deletion
}

type sarifContent struct {
	Text   string `json:"text,omitempty"`
	Binary string `json:"binary,omitempty"` // base64, for text that is not UTF-8
}

type sarifSuppression struct {
	Kind          string `json:"kind"`
	Status        string `json:"status"`
	Justification string `json:"justification,omitempty"`
}

type sarifInvocation struct {
	Arguments           []string            `json:"arguments,omitempty"`        // without absolute paths (sarifBases.invocation)
	WorkingDirectory    *sarifArtifactLoc   `json:"workingDirectory,omitempty"` // relative to a base id
	ExecutionSuccessful bool                `json:"executionSuccessful"`
	ExitCode            int                 `json:"exitCode"`
	Notifications       []sarifNotification `json:"toolExecutionNotifications,omitempty"`
}

type sarifNotification struct {
	Level   string       `json:"level"`
	Message sarifMessage `json:"message"`
}

type sarifAutomation struct {
	ID string `json:"id"` // "category/run-id"; GitHub keys analyses by the category
}

// Related is one of a finding's Related locations, resolved.
type Related struct {
	Pos, End token.Position // as Finding.Pos and End: 1-based lines, byte columns
	Message  string         // in the output language
	Line     string         // the source line of Pos ("" when unknown)
}

// issueRelated returns an issue's related locations (a variable, so that
// tests can give hand-made issues some).
var issueRelated = func(is *Issue) []Related { return is.Related }

// WriteSARIF writes r as a SARIF 2.1.0 log with one run.
func WriteSARIF(w io.Writer, r *Report) error {
	run := sarifRun{
		Tool: sarifTool{Driver: sarifDriver{
			Name: "ascvet", Version: r.Version, SemanticVersion: r.Version, InformationURI: toolURI,
			Rules: make([]sarifRule, 0, len(r.Rules)),
		}},
		AutomationDetails: sarifAutomation{ID: automationID(r.Category)},
		Language:          sarifLanguage(r.Lang),
		ColumnKind:        "utf16CodeUnits",
		VersionControl:    vcsOf(r.VCS),
		Results:           []sarifResult{},
	}
	index := map[string]int{}
	for i, rule := range r.Rules {
		index[rule.ID] = i
		run.Tool.Driver.Rules = append(run.Tool.Driver.Rules, sarifRuleOf(rule, r.Lang))
	}
	bases := newSARIFBases(r)
	run.OriginalURIBaseIDs = bases.originals()
	if len(run.VersionControl) > 0 && len(bases.roots) > 0 && r.rootFinder().GitTop(bases.roots[0]) == bases.roots[0] {
		run.VersionControl[0].MappedTo = &struct {
			URIBaseID string `json:"uriBaseId"`
		}{SrcRoot}
	}

	keep, dropped := capIssues(r.Issues, maxResults)
	for _, i := range keep {
		run.Results = append(run.Results, sarifResultOf(&r.Issues[i], index, bases))
	}

	inv := sarifInvocation{
		ExecutionSuccessful: r.Completed,
		ExitCode:            r.Exit,
	}
	inv.WorkingDirectory, inv.Arguments = bases.invocation(r.WorkDir, r.Args)
	if dropped > 0 {
		inv.Notifications = append(inv.Notifications, sarifNotification{Level: "warning", Message: sarifMessage{Text: fmt.Sprintf(
			"%d of %d results left out, the least severe: GitHub code scanning rejects a run with more than %d; use -f json for all of them",
			dropped, len(r.Issues), maxResults)}})
	}
	run.Invocations = []sarifInvocation{inv}

	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false) // keep "Reg<T>" readable; JSON needs no HTML escaping
	enc.SetIndent("", "  ")
	return enc.Encode(sarifLog{Schema: sarifSchema, Version: sarifVersion, Runs: []sarifRun{run}})
}

// capIssues returns the indexes of the issues to write, in order: all of
// them, or the n most severe (earlier first within a level), and how many
// it left out.
func capIssues(issues []Issue, n int) (keep []int, dropped int) {
	keep = make([]int, len(issues))
	for i := range keep {
		keep[i] = i
	}
	if len(issues) <= n {
		return keep, 0
	}
	slices.SortStableFunc(keep, func(a, b int) int { return int(issues[b].Level) - int(issues[a].Level) })
	keep = keep[:n]
	slices.Sort(keep)
	return keep, len(issues) - n
}

func sarifLanguage(lang string) string {
	if lang == "zh" {
		return "zh-CN"
	}
	return "en-US"
}

func sarifLevel(s ruleset.Severity) string {
	switch s {
	case ruleset.Error:
		return "error"
	case ruleset.Warning:
		return "warning"
	}
	return "note"
}

// problemSeverity is GitHub's properties.problem.severity for a rule.
func problemSeverity(s ruleset.Severity) string {
	switch s {
	case ruleset.Error:
		return "error"
	case ruleset.Warning:
		return "warning"
	}
	return "recommendation"
}

func sarifRuleOf(r *ruleset.Rule, lang string) sarifRule {
	tags := r.Tags
	if len(tags) > maxTags {
		tags = tags[:maxTags]
	}
	return sarifRule{
		ID:                   r.ID,
		Name:                 pascalCase(r.Name),
		ShortDescription:     sarifMessage{Text: truncateText(r.Doc(lang).Title, MaxDescription)},
		FullDescription:      sarifMessage{Text: truncateText(r.Doc(lang).Text, MaxDescription)},
		Help:                 sarifMessage{Text: helpText(r, lang), Markdown: helpMarkdown(r, lang)},
		HelpURI:              r.HelpURI(),
		DefaultConfiguration: sarifConfig{Level: sarifLevel(r.Severity)},
		Properties:           sarifRuleProps{Tags: tags, Precision: r.Precision, ProblemSeverity: problemSeverity(r.Severity)},
	}
}

// pascalCase turns a kebab-case rule name into a SARIF rule name:
// "unalign-pre-in-loop" → "UnalignPreInLoop".
func pascalCase(kebab string) string {
	var b strings.Builder
	for part := range strings.SplitSeq(kebab, "-") {
		if part == "" {
			continue
		}
		b.WriteString(strings.ToUpper(part[:1]))
		b.WriteString(part[1:])
	}
	return b.String()
}

// truncateText shortens s to at most n characters, at the end of a
// sentence when there is one in the second half, and marks the cut with
// " …". The whole text stays in the rule's help.
func truncateText(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	cut := string([]rune(s)[:n-2])
	if i := strings.LastIndexAny(cut, ".。"); i >= len(cut)/2 {
		_, size := utf8.DecodeRuneInString(cut[i:])
		cut = cut[:i+size]
	}
	return strings.TrimRight(cut, " ") + " …"
}

func sarifResultOf(is *Issue, index map[string]int, bases *sarifBases) sarifResult {
	loc := bases.location(is.Pos.Filename)
	res := sarifResult{
		RuleID:       is.RuleID(),
		Level:        sarifLevel(is.Level),
		Kind:         "fail",
		Locations:    []sarifLocation{{PhysicalLocation: sarifPhysical{ArtifactLocation: loc, Region: lineRegion(is.Pos, is.End, is.Line)}}},
		Suppressions: []sarifSuppression{},
	}
	if i, ok := index[res.RuleID]; ok {
		res.RuleIndex = &i
	}
	msg := is.Message
	if msg == "" {
		msg = is.Diagnostic.Message
	}
	text := escapeMessage(msg)
	for i, rel := range issueRelated(is) {
		id := i + 1
		text += fmt.Sprintf("\n[%s](%d)", escapeMessage(rel.Message), id)
		res.RelatedLocations = append(res.RelatedLocations, sarifLocation{
			ID:               id,
			PhysicalLocation: sarifPhysical{ArtifactLocation: bases.location(rel.Pos.Filename), Region: lineRegion(rel.Pos, rel.End, rel.Line)},
			Message:          &sarifMessage{Text: rel.Message},
		})
	}
	res.Message = sarifMessage{Text: text}
	if is.LineHash != "" || is.Fingerprint != "" {
		res.PartialFingerprints = map[string]string{}
		if is.LineHash != "" {
			res.PartialFingerprints["primaryLocationLineHash"] = is.LineHash
		}
		if is.Fingerprint != "" {
			res.PartialFingerprints["ascvet/v1"] = is.Fingerprint
		}
	}
	for _, f := range is.Fixes {
		res.Fixes = append(res.Fixes, sarifFixOf(f, loc))
	}
	for _, s := range is.Suppressed {
		res.Suppressions = append(res.Suppressions, sarifSuppression{Kind: s.Kind, Status: "accepted", Justification: s.Justification})
	}
	if c := is.Cost; c != nil {
		saved, _ := c.Saving()
		res.Properties = &sarifResultProps{CyclesBefore: c.Before, CyclesAfter: c.After, CyclesSaved: saved, Iterations: c.Iterations, Trip: c.Trip, Bound: c.Bound, CallBefore: c.CallBefore, CallAfter: c.CallAfter}
	}
	return res
}

func sarifFixOf(f fixes.Fix, loc sarifArtifactLoc) sarifFix {
	change := sarifArtifactChange{ArtifactLocation: loc}
	for _, e := range f.Edits {
		off, n := e.Start, e.End-e.Start
		rep := sarifReplacement{DeletedRegion: sarifRegion{ByteOffset: &off, ByteLength: &n}}
		switch {
		case len(e.New) == 0:
		case utf8.Valid(e.New):
			rep.InsertedContent = &sarifContent{Text: string(e.New)}
		default:
			rep.InsertedContent = &sarifContent{Binary: base64.StdEncoding.EncodeToString(e.New)}
		}
		change.Replacements = append(change.Replacements, rep)
	}
	desc := f.Message
	if desc == "" {
		desc = "apply the suggested fix"
	}
	return sarifFix{Description: sarifMessage{Text: desc}, ArtifactChanges: []sarifArtifactChange{change}}
}

// lineRegion is the region from pos to end, columns converted to UTF-16
// code units with line, the text of pos's line. When end is on a later
// line, whose text is unknown, endColumn is left out: the region then runs
// to the end of that line, which is wider than the finding but never wrong.
func lineRegion(pos, end token.Position, line string) sarifRegion {
	reg := sarifRegion{StartLine: max(pos.Line, 1), StartColumn: utf16Col(line, pos.Column)}
	switch {
	case end.Line > pos.Line:
		reg.EndLine = end.Line
	case end.Line == pos.Line && end.Column > pos.Column:
		reg.EndLine, reg.EndColumn = reg.StartLine, utf16Col(line, end.Column)
	default: // empty, or end unknown
		reg.EndLine, reg.EndColumn = reg.StartLine, reg.StartColumn
	}
	return reg
}

// utf16Col converts col, a 1-based byte column on line, to a 1-based column
// in UTF-16 code units. Bytes past the end of line (the line ending, or
// all of them when line is unknown) count one unit each; so does each byte
// of invalid UTF-8. The result is at least 1.
func utf16Col(line string, col int) int {
	if col < 1 {
		return 1
	}
	k := min(col-1, len(line))
	n := 0
	for _, r := range line[:k] {
		if r >= 0x10000 {
			n += 2
		} else {
			n++
		}
	}
	return 1 + n + (col - 1 - k)
}

// escapeMessage escapes the characters a SARIF plain-text message gives a
// meaning (§3.11.6, embedded links): "[" and "]", and "\" itself.
func escapeMessage(s string) string {
	if !strings.ContainsAny(s, `[]\`) {
		return s
	}
	return strings.NewReplacer(`\`, `\\`, `[`, `\[`, `]`, `\]`).Replace(s)
}

// sarifBases are the run's originalUriBaseIds: the repository roots (see
// repo.Roots) of the files of the results, each a base id that the results'
// URIs are relative to, so that a log holds no absolute path of the
// machine that ran ascvet but in originalUriBaseIds itself. The root of
// most files is %SRCROOT%, the id GitHub code scanning knows; when the
// files come from several repositories, the others are %SRCROOT2%,
// %SRCROOT3%, ... in order of their number of files, then of path.
type sarifBases struct {
	rf    *repo.Roots
	roots []string          // in order of base id
	ids   map[string]string // base id by root
}

// rootFinder returns the report's Roots, or Roots that make WorkDir the
// root of every file (a report made by hand).
func (r *Report) rootFinder() *repo.Roots {
	if r.Roots != nil {
		return r.Roots
	}
	return repo.Fixed(r.WorkDir)
}

// SARIFRoot returns the first of the roots the SARIF URIs of r are
// relative to (the one whose git checkout versionControlProvenance
// describes), "" when there is none.
func SARIFRoot(r *Report) string {
	if b := newSARIFBases(r); len(b.roots) > 0 {
		return b.roots[0]
	}
	return ""
}

// newSARIFBases finds the roots of the files the results of r name, or,
// when there are none, the root of the working directory.
func newSARIFBases(r *Report) *sarifBases {
	b := &sarifBases{rf: r.rootFinder(), ids: map[string]string{}}
	if r.WorkDir == "" && r.Roots == nil {
		return b // nothing to resolve against: relative names stay relative
	}
	count := map[string]int{}
	vote := func(name string, n int) {
		root := b.rf.RootOf(name)
		if _, ok := repo.RelUnder(root, b.rf.Abs(name)); ok {
			count[root] += n
		}
	}
	for i := range r.Issues {
		vote(r.Issues[i].Pos.Filename, 1)
		for _, rel := range issueRelated(&r.Issues[i]) {
			if rel.Pos.Filename != "" {
				vote(rel.Pos.Filename, 0) // a root, but not the place of a result
			}
		}
	}
	if len(count) == 0 && r.WorkDir != "" {
		count[b.rf.RootOfDir(filepath.Clean(r.WorkDir))] = 0
	}
	for root := range count {
		b.roots = append(b.roots, root)
	}
	slices.SortFunc(b.roots, func(x, y string) int {
		if c := count[y] - count[x]; c != 0 {
			return c
		}
		return strings.Compare(x, y)
	})
	for i, root := range b.roots {
		id := SrcRoot
		if i > 0 {
			id = fmt.Sprintf("%%SRCROOT%d%%", i+1)
		}
		b.ids[root] = id
	}
	return b
}

// originals is the run's originalUriBaseIds.
func (b *sarifBases) originals() map[string]sarifArtifactLoc {
	if len(b.roots) == 0 {
		return nil
	}
	m := make(map[string]sarifArtifactLoc, len(b.roots))
	for _, root := range b.roots {
		m[b.ids[root]] = sarifArtifactLoc{URI: DirURI(root)}
	}
	return m
}

// location returns the SARIF location of a file: its path from its root,
// with the root's base id.
func (b *sarifBases) location(name string) sarifArtifactLoc {
	if len(b.ids) == 0 {
		// No working directory to resolve against (a report made by
		// hand): a relative name is taken as relative to the root.
		rel := filepath.ToSlash(filepath.Clean(name))
		if filepath.IsAbs(name) {
			return sarifArtifactLoc{URI: FileURI(name)}
		}
		if rel == ".." || strings.HasPrefix(rel, "../") {
			return sarifArtifactLoc{URI: escapePath(rel)}
		}
		return sarifArtifactLoc{URI: escapePath(rel), URIBaseID: SrcRoot}
	}
	abs := b.rf.Abs(name)
	root := b.rf.RootOf(name)
	if id, ok := b.ids[root]; ok {
		if rel, ok := repo.RelUnder(root, abs); ok {
			return sarifArtifactLoc{URI: escapePath(rel), URIBaseID: id}
		}
	}
	// Outside its root: only when the root is the working directory (the
	// file is in no git work tree and under no ascvet.toml) and the file
	// is not below it, or, in a report made by hand, outside WorkDir.
	// Such a file keeps its absolute file:// URI, the one place a log
	// names a path of the machine that ran ascvet.
	return sarifArtifactLoc{URI: FileURI(abs)}
}

// invocation returns the run's working directory wd and its arguments
// args as the log holds them, without an absolute path of the machine:
//
//   - the working directory is a location relative to the base id of the
//     innermost root it is in ("kernels/" under %SRCROOT%, or "./" for the
//     root itself), and is left out when it is in none (ascvet ran above
//     the repository, on its path);
//   - an argument that is an absolute path, or a flag whose value after
//     "=" is one (-o=/x), is made relative to the working directory, when
//     both are in that root ("/repo/kernels" run in /repo is "kernels").
//     When one cannot be (no working directory in a root, or a path
//     outside it, such as -o /tmp/out.sarif), arguments is left out: a
//     command line with a path missing would mislead.
//
// SARIF's arguments are the strings the tool was given, with no base id;
// relative to workingDirectory they still say how to run it again.
func (b *sarifBases) invocation(wd string, args []string) (*sarifArtifactLoc, []string) {
	var loc *sarifArtifactLoc
	root := ""
	if wd != "" {
		wd = filepath.Clean(wd)
		for _, r := range b.roots {
			if _, ok := repo.RelUnder(r, wd); ok && len(r) > len(root) {
				root = r
			}
		}
	}
	if root != "" {
		rel, _ := repo.RelUnder(root, wd)
		uri := "./"
		if rel != "." {
			uri = escapePath(rel) + "/"
		}
		loc = &sarifArtifactLoc{URI: uri, URIBaseID: b.ids[root]}
	}
	out := make([]string, 0, len(args))
	for _, a := range args {
		flag, val := "", a
		if strings.HasPrefix(a, "-") {
			if k := strings.IndexByte(a, '='); k > 0 {
				flag, val = a[:k+1], a[k+1:]
			}
		}
		if !filepath.IsAbs(val) {
			out = append(out, a)
			continue
		}
		if root == "" {
			return loc, nil
		}
		p := filepath.Clean(val)
		if _, ok := repo.RelUnder(root, p); !ok {
			return loc, nil
		}
		rel, err := filepath.Rel(wd, p)
		if err != nil {
			return loc, nil
		}
		out = append(out, flag+rel)
	}
	return loc, out
}

// FileURI returns the file:// URI of an absolute path.
func FileURI(abs string) string {
	p := filepath.ToSlash(filepath.Clean(abs))
	if !strings.HasPrefix(p, "/") {
		p = "/" + p // C:/x → /C:/x
	}
	return (&url.URL{Scheme: "file", Path: p}).String()
}

// DirURI returns the file:// URI of an absolute directory, with the final
// slash SARIF wants of a base URI.
func DirURI(abs string) string {
	return strings.TrimSuffix(FileURI(abs), "/") + "/"
}

// escapePath percent-encodes a relative slash path as a URI reference:
// every byte except unreserved characters and "/", so that neither a ":"
// (which would read as a scheme), "%", "#", "?", "," nor a space or
// non-ASCII byte reaches a consumer raw.
func escapePath(p string) string {
	const hex = "0123456789ABCDEF"
	var b strings.Builder
	for i := 0; i < len(p); i++ {
		c := p[i]
		if 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.IndexByte("-._~/", c) >= 0 {
			b.WriteByte(c)
			continue
		}
		b.WriteByte('%')
		b.WriteByte(hex[c>>4])
		b.WriteByte(hex[c&15])
	}
	return b.String()
}

// helpText is a rule's documentation as plain text for SARIF help.text:
// the text, the example reported and the example fixed, indented, and
// the rule's options.
//
// It is not ruleset's FormatText: SARIF viewers show help.text as it is,
// without the terminal's wrapping, and help.markdown needs GitHub's
// escaping (see helpMarkdown). The texts are the rule's documentation in
// the output language (Rule.Doc).
func helpText(r *ruleset.Rule, lang string) string {
	l := helpLabels(lang)
	var b strings.Builder
	b.WriteString(strings.TrimSpace(r.Doc(lang).Text))
	code := func(label, src string) {
		if src == "" {
			return
		}
		fmt.Fprintf(&b, "\n\n%s\n\n", label)
		for i, line := range strings.Split(src, "\n") {
			if i > 0 {
				b.WriteByte('\n')
			}
			b.WriteString("    " + line)
		}
	}
	code(l.before, r.Before)
	code(l.after, r.After)
	if len(r.Options) > 0 {
		fmt.Fprintf(&b, "\n\n%s\n", l.options)
		for _, o := range r.Options {
			fmt.Fprintf(&b, "\n- %s", o.Name)
			if o.Default != "" {
				fmt.Fprintf(&b, " (%s %s)", l.dflt, o.Default)
			}
			fmt.Fprintf(&b, ": %s", o.Doc)
		}
	}
	fmt.Fprintf(&b, "\n\n"+l.footer, r.Severity, r.Since)
	return b.String()
}

// helpMarkdown is a rule's documentation as GitHub-flavoured Markdown for
// SARIF help.markdown, which GitHub shows on the alert page. GitHub turns
// every line break into a hard break, so paragraphs are single lines; the
// prose is escaped, so that "Reg<T>" or "a*b*c" stays as written.
func helpMarkdown(r *ruleset.Rule, lang string) string {
	l := helpLabels(lang)
	var b strings.Builder
	for i, para := range strings.Split(r.Doc(lang).Text, "\n\n") {
		if i > 0 {
			b.WriteString("\n\n")
		}
		b.WriteString(escapeProse(strings.Join(strings.Fields(para), " ")))
	}
	code := func(label, src string) {
		if src == "" {
			return
		}
		fence := "```"
		for strings.Contains(src, fence) {
			fence += "`"
		}
		fmt.Fprintf(&b, "\n\n**%s**\n\n%scpp\n%s\n%s", escapeMarkdown(label), fence, src, fence)
	}
	code(l.before, r.Before)
	code(l.after, r.After)
	if len(r.Options) > 0 {
		fmt.Fprintf(&b, "\n\n**%s**\n", escapeMarkdown(l.options))
		for _, o := range r.Options {
			fmt.Fprintf(&b, "\n- %s", codeSpan(o.Name))
			if o.Default != "" {
				fmt.Fprintf(&b, " (%s %s)", escapeMarkdown(l.dflt), codeSpan(o.Default))
			}
			fmt.Fprintf(&b, ": %s", escapeMarkdown(o.Doc))
		}
	}
	fmt.Fprintf(&b, "\n\n"+escapeMarkdown(l.footer), r.Severity, escapeMarkdown(r.Since))
	return b.String()
}

// codeSpan is s as Markdown inline code, its delimiters longer than any
// run of backticks in s.
func codeSpan(s string) string {
	fence := "`"
	for strings.Contains(s, fence) {
		fence += "`"
	}
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") {
		s = " " + s + " "
	}
	return fence + s + fence
}

type labels struct{ before, after, options, dflt, footer string }

// helpLabels are the headings of rule help in the output language (the
// rule texts themselves are English).
func helpLabels(lang string) labels {
	if lang == "zh" {
		return labels{"会报告的写法：", "修正后：", "选项：", "默认值", "默认严重级别：%s。自 ascvet %s 起提供。"}
	}
	return labels{"Reported:", "Fixed:", "Options:", "default", "Default severity: %s. Since ascvet %s."}
}

// escapeMarkdown backslash-escapes the characters that GitHub Markdown
// would read as markup or HTML in running text.
func escapeMarkdown(s string) string {
	var b strings.Builder
	for _, r := range s {
		if strings.ContainsRune("\\`*_[]<>|~&", r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// escapeProse is escapeMarkdown for a rule's text, whose words that are
// URLs (the addresses of its sources) stay as written: GitHub links them,
// and an escaped "_" would change the address.
func escapeProse(s string) string {
	words := strings.Split(s, " ")
	for i, w := range words {
		isURL := strings.HasPrefix(w, "https://") || strings.HasPrefix(w, "http://")
		if !isURL || strings.ContainsAny(w, "\\`[]<>|") {
			words[i] = escapeMarkdown(w)
		}
	}
	return strings.Join(words, " ")
}

// automationID is the run's automationDetails.id: "category/", as
// upload-sarif forms it, "ascvet/" by default.
func automationID(category string) string {
	category = strings.TrimSpace(category)
	if category == "" {
		return "ascvet/"
	}
	if !strings.HasSuffix(category, "/") {
		category += "/"
	}
	return category
}

// vcsOf is the run's versionControlProvenance: only a repository with a
// URI the schema accepts is recorded.
func vcsOf(v *VCSInfo) []sarifVCS {
	if v == nil || v.URI == "" {
		return nil
	}
	return []sarifVCS{{RepositoryURI: v.URI, RevisionID: v.Revision, Branch: v.Branch}}
}
