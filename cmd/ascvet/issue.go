package main

import (
	"github.com/ascvet/ascvet/analyzers/runner"
	"github.com/ascvet/ascvet/analyzers/simcost"
	"github.com/ascvet/ascvet/ruleset"
)

// issue is one finding as the driver reports it, in every format: the
// analyzer's finding with the severity the config gives it, the message in
// the output language, its fingerprints and, when a directive or the
// baseline suppressed it, why.
type issue struct {
	runner.Finding
	Level       ruleset.Severity // effective severity (config overrides applied); use it, not Finding.Severity()
	Message     string           // the message in the output language (-lang)
	Line        string           // the source line of Pos, without its line ending ("" when unknown)
	LineHash    string           // SARIF partialFingerprints.primaryLocationLineHash, "hex:occurrence"
	Key         string           // the file's path from its repository root, slash-separated (see root.go)
	Fingerprint string           // line-independent fingerprint: rule, Key, normalised snippet (baseline key)
	snippet     string           // the source lines the fingerprint hashes (baseline.SnippetLines)
	Cost        *simcost.Cost    // simulated cycles before/after the fix, for performance findings
	Related     []related        // related locations (the cost entry left out), messages in the output language
	Suppressed  []suppression    // why the finding is suppressed; empty when it is reported
}

// suppression is why an issue is not reported.
type suppression struct {
	Kind          string `json:"kind"`          // "inSource" (a directive in the file) or "external" (the baseline)
	Justification string `json:"justification"` // the directive's reason, or "baseline FILE"
}

// report is what a format writes: the issues of one run (suppressed ones
// included only with -show-ignored), in order.
type report struct {
	Issues   []issue
	Files    int               // files read
	Rules    []*ruleset.Rule   // every rule, sorted by ID (SARIF tool.driver.rules)
	Lang     string            // "en" or "zh"
	Args     []string          // the command line, without the program name (SARIF invocations)
	WorkDir  string            // working directory (SARIF invocations)
	roots    *rootFinder       // the repository roots SARIF URIs are relative to; nil: WorkDir is the root of every file
	Exit     int               // the exit code of the run, as decided before writing
	Failing  func(*issue) bool // whether an issue fails the run (-fail); nil: none does
	Spared   func(*issue) bool // whether an issue would fail but measures no saving (failPolicy.spared); nil: none
	Category string            // SARIF automationDetails.id category (-sarif-category); "" for "ascvet/"
	VCS      *vcsInfo          // the git checkout of the files (of the first root in SARIF); nil outside one
	Color    bool              // colour the text format on stdout (-color)
}

// vcsInfo is the git checkout ascvet ran in (SARIF versionControlProvenance).
type vcsInfo struct {
	URI      string // remote "origin", as an https URI ("" when there is none)
	Revision string // HEAD's commit
	Branch   string // the branch checked out ("" when detached)
}
