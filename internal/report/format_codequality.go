package report

// -f codequality writes the Code Quality report that GitLab shows in a merge
// request's widget and changes view (declare the file as the job's
// artifacts:reports:codequality). Its shape is the subset of the
// CodeClimate issue format that GitLab documents ("Code Quality report
// format", docs.gitlab.com/ci/testing/code_quality): one JSON array whose
// objects all have
//
//	{
//	  "description": "LoadUnAlignPre re-primes ... [ASC1001]",
//	  "check_name": "ASC1001",
//	  "fingerprint": "5f0c...",
//	  "severity": "major",
//	  "location": {"path": "kernels/add.asc", "lines": {"begin": 12, "end": 12}}
//	}
//
//   - description is the message in the output language (-lang), with the
//     rule ID in brackets as in the text output, so that `ascvet explain`
//     is one copy away;
//   - check_name is the rule ID;
//   - fingerprint is the finding's line-independent fingerprint, the
//     baseline's key (rule, path from the repository root, normalised
//     source lines): a finding keeps it when lines are added above it, so
//     GitLab does not report it as fixed in one place and new in another.
//     GitLab shows findings with equal fingerprints as one, so the second
//     and later of identical findings (same rule, file and lines) get a
//     hash of the fingerprint and their occurrence number, in report order;
//   - severity maps ascvet's three onto GitLab's five (info, minor, major,
//     critical, blocker): error → critical (the kernel computes a wrong
//     result or loses data), warning → major (the default -fail-on
//     level: a finding that fails the run), info → info. minor and blocker
//     are not used;
//   - location.path is the file's path from the repository root of the
//     working directory (see repo.Roots: the git top-level, else the nearest
//     ascvet.toml's directory, else the working directory), slash-separated
//     and never absolute: in a GitLab job, which runs in the checkout
//     ($CI_PROJECT_DIR), that is the path GitLab resolves. A file outside
//     that root keeps a relative path that climbs out of it ("../other.asc"),
//     which GitLab cannot show but which names the file; a name that is not
//     UTF-8 is quoted as git quotes it, rather than made another file's;
//   - location.lines are the finding's first and last lines.
//
// Suppressed findings (listed with -show-ignored) are left out, as in the
// checkstyle and github formats: the format has no way to mark them. The
// output has no byte order mark, which GitLab's parser rejects, and is
// deterministic: the findings in report order (file, line, column, rule).

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"path/filepath"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/ascvet/ascvet/internal/gitquote"
	"github.com/ascvet/ascvet/internal/repo"
	"github.com/ascvet/ascvet/ruleset"
	"github.com/ascvet/ascvet/ruleset/baseline"
)

// CodeQualityIssue is one object of the report.
type CodeQualityIssue struct {
	Description string              `json:"description"`
	CheckName   string              `json:"check_name"`
	Fingerprint string              `json:"fingerprint"`
	Severity    string              `json:"severity"`
	Location    CodeQualityLocation `json:"location"`
}

// CodeQualityLocation is where an issue is: a file from the repository
// root and its lines.
type CodeQualityLocation struct {
	Path  string           `json:"path"`
	Lines CodeQualityLines `json:"lines"`
}

// CodeQualityLines are the lines of an issue.
type CodeQualityLines struct {
	Begin int `json:"begin"` // 1-based
	End   int `json:"end"`   // 1-based, at least Begin
}

// CodeQualitySeverity is GitLab's severity of an ascvet severity (see the
// mapping above).
func CodeQualitySeverity(s ruleset.Severity) string {
	switch s {
	case ruleset.Error:
		return "critical"
	case ruleset.Warning:
		return "major"
	}
	return "info"
}

// WriteCodeQuality writes r's unsuppressed issues as a GitLab Code Quality
// report.
func WriteCodeQuality(w io.Writer, r *Report) error {
	paths := newCodeQualityPaths(r)
	seen := map[string]int{} // occurrences of each fingerprint so far
	out := []CodeQualityIssue{}
	for i := range r.Issues {
		is := &r.Issues[i]
		if len(is.Suppressed) > 0 {
			continue
		}
		path := paths.path(is.Pos.Filename)
		msg := is.Message
		if msg == "" {
			msg = is.Diagnostic.Message
		}
		begin := max(is.Pos.Line, 1)
		out = append(out, CodeQualityIssue{
			Description: msg + " [" + is.RuleID() + "]",
			CheckName:   is.RuleID(),
			Fingerprint: codeQualityFingerprint(is, path, seen),
			Severity:    CodeQualitySeverity(is.Level),
			Location:    CodeQualityLocation{Path: path, Lines: CodeQualityLines{Begin: begin, End: max(is.End.Line, begin)}},
		})
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false) // keep "Reg<T>" readable; JSON needs no HTML escaping
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

// codeQualityFingerprint is the fingerprint of is, unique in the report:
// the finding's own (or, for an issue made by hand without one, that of
// its rule, path and line), and for its n-th occurrence, n > 1, a hash of
// that and n. seen counts the occurrences.
func codeQualityFingerprint(is *Issue, path string, seen map[string]int) string {
	fp := is.Fingerprint
	if fp == "" {
		fp = baseline.Fingerprint(is.RuleID(), path, is.Line)
	}
	seen[fp]++
	if n := seen[fp]; n > 1 {
		sum := sha256.Sum256([]byte(fp + "\x00" + strconv.Itoa(n)))
		return hex.EncodeToString(sum[:16])
	}
	return fp
}

// codeQualityPaths makes the location paths of a report: relative to base,
// the repository root of the working directory.
type codeQualityPaths struct {
	rf   *repo.Roots // nil for a report made by hand without a working directory
	base string
}

func newCodeQualityPaths(r *Report) *codeQualityPaths {
	if r.WorkDir == "" && r.Roots == nil {
		return &codeQualityPaths{}
	}
	rf := r.rootFinder()
	return &codeQualityPaths{rf: rf, base: rf.RootOfDir(filepath.Clean(rf.WorkDir()))}
}

// path returns the location path of the file name, as found from the
// arguments.
func (p *codeQualityPaths) path(name string) string {
	rel := filepath.ToSlash(filepath.Clean(name)) // without a working directory, relative names are taken as from the root
	if p.rf != nil {
		abs := p.rf.Abs(name)
		if r, ok := repo.RelUnder(p.base, abs); ok {
			rel = r
		} else if r, err := filepath.Rel(p.base, abs); err == nil {
			rel = filepath.ToSlash(r)
		} else {
			rel = filepath.ToSlash(abs) // another volume: made relative below
		}
	}
	// Never absolute: a volume or a leading slash is dropped.
	rel = strings.TrimLeft(filepath.ToSlash(strings.TrimPrefix(rel, filepath.VolumeName(rel))), "/")
	if !utf8.ValidString(rel) {
		return gitquote.Quote(rel, true)
	}
	return rel
}
