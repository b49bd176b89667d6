// Package report holds what one run of ascvet reports (Issue, Report)
// and writes it in each output format, one file per format: text, json,
// sarif, github, checkstyle and codequality. The driver decides which
// issues there are; this package only prints them.
package report

import (
	"github.com/ascvet/ascvet/analyzers/runner"
	"github.com/ascvet/ascvet/analyzers/simcost"
	"github.com/ascvet/ascvet/internal/repo"
	"github.com/ascvet/ascvet/ruleset"
)

// Issue is one finding as the driver reports it, in every format: the
// analyzer's finding with the severity the config gives it, the message in
// the output language, its fingerprints and, when a directive or the
// baseline suppressed it, why.
type Issue struct {
	runner.Finding
	Level       ruleset.Severity // effective severity (config overrides applied); use it, not Finding.Severity()
	Message     string           // the message in the output language (-lang)
	Line        string           // the source line of Pos, without its line ending ("" when unknown)
	LineHash    string           // SARIF partialFingerprints.primaryLocationLineHash, "hex:occurrence"
	Key         string           // the file's path from its repository root, slash-separated (see repo.Roots)
	Fingerprint string           // line-independent fingerprint: rule, Key, normalised snippet (baseline key)
	Snippet     string           // the source lines the fingerprint hashes (baseline.SnippetLines)
	Cost        *simcost.Cost    // simulated cycles before/after the fix, for performance findings
	Related     []Related        // related locations (the cost entry left out), messages in the output language
	Suppressed  []Suppression    // why the finding is suppressed; empty when it is reported
}

// Suppression is why an issue is not reported.
type Suppression struct {
	Kind          string `json:"kind"`          // "inSource" (a directive in the file) or "external" (the baseline)
	Justification string `json:"justification"` // the directive's reason, or "baseline FILE"
}

// Report is what a format writes: the issues of one run (suppressed ones
// included only with -show-ignored), in order.
type Report struct {
	Issues    []Issue
	Files     int               // files read
	Rules     []*ruleset.Rule   // every rule, sorted by ID (SARIF tool.driver.rules)
	Lang      string            // "en" or "zh"
	Args      []string          // the command line, without the program name (SARIF invocations)
	WorkDir   string            // working directory (SARIF invocations)
	Roots     *repo.Roots       // the repository roots SARIF URIs are relative to; nil: WorkDir is the root of every file
	Exit      int               // the exit code of the run, as decided before writing
	Completed bool              // the run finished, with or without findings (exit code 0 or 1): SARIF executionSuccessful
	Version   string            // the ascvet release (SARIF tool.driver.version)
	Failing   func(*Issue) bool // whether an issue fails the run (-fail); nil: none does
	Spared    func(*Issue) bool // whether an issue would fail but measures no saving (failPolicy.spared); nil: none
	Category  string            // SARIF automationDetails.id category (-sarif-category); "" for "ascvet/"
	VCS       *VCSInfo          // the git checkout of the files (of the first root in SARIF); nil outside one
	Color     bool              // colour the text format on stdout (-color)
}

// VCSInfo is the git checkout ascvet ran in (SARIF versionControlProvenance).
type VCSInfo struct {
	URI      string // remote "origin", as an https URI ("" when there is none)
	Revision string // HEAD's commit
	Branch   string // the branch checked out ("" when detached)
}
