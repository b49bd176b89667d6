package reporttest

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// CodeQualitySeverities are the severities GitLab's Code Quality report
// format accepts.
// CodeQualitySeverities are the severities GitLab Code Quality knows.
var CodeQualitySeverities = []string{"info", "minor", "major", "critical", "blocker"}

// CheckCodeQuality returns what out lacks of GitLab's Code Quality report
// format (docs.gitlab.com/ci/testing/code_quality, "Code Quality report
// format"): a JSON array, without a byte order mark, of objects that each
// have a description, a check_name, a fingerprint unique in the report, a
// severity GitLab knows, a location.path relative to the repository root
// and a location.lines.begin (or location.positions.begin.line) that is a
// line number. It returns nil for a valid
func CheckCodeQuality(out string) []string {
	var errs []string
	bad := func(format string, args ...any) { errs = append(errs, fmt.Sprintf(format, args...)) }
	if strings.HasPrefix(out, "\uFEFF") {
		bad("the report starts with a byte order mark")
	}
	dec := json.NewDecoder(strings.NewReader(out))
	dec.UseNumber()
	var doc any
	if err := dec.Decode(&doc); err != nil {
		return append(errs, "not JSON: "+err.Error())
	}
	if dec.More() {
		bad("more than one JSON value")
	}
	list, ok := doc.([]any)
	if !ok {
		return append(errs, fmt.Sprintf("the report is a %T, not an array", doc))
	}
	fingerprints := map[string]int{}
	for i, v := range list {
		obj, ok := v.(map[string]any)
		if !ok {
			bad("[%d] is a %T, not an object", i, v)
			continue
		}
		str := func(m map[string]any, key string) string {
			s, ok := m[key].(string)
			if !ok || s == "" {
				bad("[%d]: %s is %v, not a non-empty string", i, key, m[key])
			}
			return s
		}
		str(obj, "description")
		str(obj, "check_name")
		if fp := str(obj, "fingerprint"); fp != "" {
			if j, dup := fingerprints[fp]; dup {
				bad("[%d]: fingerprint %s is that of [%d] too (GitLab shows them as one finding)", i, fp, j)
			}
			fingerprints[fp] = i
		}
		if sev := str(obj, "severity"); sev != "" && !slices.Contains(CodeQualitySeverities, sev) {
			bad("[%d]: severity %q is not one of %v", i, sev, CodeQualitySeverities)
		}
		loc, ok := obj["location"].(map[string]any)
		if !ok {
			bad("[%d]: no location object", i)
			continue
		}
		if p := str(loc, "path"); p != "" && !relativeRepoPath(p) {
			bad("[%d]: location.path %q is not a relative slash path in the repository", i, p)
		}
		line := func(m map[string]any, keys ...string) (json.Number, bool) {
			for _, k := range keys[:len(keys)-1] {
				if m, _ = m[k].(map[string]any); m == nil {
					return "", false
				}
			}
			n, ok := m[keys[len(keys)-1]].(json.Number)
			return n, ok
		}
		n, ok := line(loc, "lines", "begin")
		if !ok {
			n, ok = line(loc, "positions", "begin", "line")
		}
		if v, err := n.Int64(); !ok || err != nil || v < 1 {
			bad("[%d]: neither location.lines.begin nor location.positions.begin.line is a line number (%v)", i, loc)
		}
	}
	return errs
}

// relativeRepoPath reports whether p is a path GitLab can take as relative
// to the repository: no leading slash or drive, no backslash, no "./".
var absPathRE = regexp.MustCompile(`^(/|[A-Za-z]:|\\)`)

func relativeRepoPath(p string) bool {
	return !absPathRE.MatchString(p) && !strings.Contains(p, `\`) && !strings.HasPrefix(p, "./") && !strings.Contains(p, "//")
}

// validateCodeQuality fails t unless out is a valid Code Quality report,
// and returns its issues.
func DecodeCodeQuality[Issue any](t testing.TB, out string) []Issue {
	t.Helper()
	for _, e := range CheckCodeQuality(out) {
		t.Errorf("-f codequality: %s", e)
	}
	var issues []Issue
	if err := json.Unmarshal([]byte(out), &issues); err != nil {
		t.Fatalf("-f codequality: %v\n%s", err, out)
	}
	return issues
}
