package report

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ascvet/ascvet/internal/repo"
	"github.com/ascvet/ascvet/internal/report/reporttest"
	"github.com/ascvet/ascvet/ruleset"
)

// TestSARIFBases: results name their files relative to the repository
// root of each, one base id per root (%SRCROOT% for the root of most
// files); only a file outside its root, the working directory, keeps an
// absolute URI; and the log validates.
func TestSARIFBases(t *testing.T) {
	tmp := t.TempDir()
	wd, a, b, stray := filepath.Join(tmp, "wd"), filepath.Join(tmp, "a"), filepath.Join(tmp, "b"), filepath.Join(tmp, "stray")
	for _, d := range []string{filepath.Join(wd, ".git"), filepath.Join(a, ".git"), filepath.Join(a, "k"), filepath.Join(b, ".git"), stray} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	r := lookupRule(t, "ASC1001")
	mk := func(file string, line int) Issue {
		is := mkIssue(r, at(file, line, 1, 0), at(file, line, 5, 4), "m", "LoadUnAlignPre(u, src);")
		is.Fingerprint = "fp"
		return is
	}
	rep := &Report{
		Issues: []Issue{mk(filepath.Join(a, "k", "x y.asc"), 3), mk("../a/k/z.asc", 4), mk(filepath.Join(b, "q.asc"), 5), mk(filepath.Join(stray, "s.asc"), 6)},
		Rules:  []*ruleset.Rule{r}, Lang: "en", WorkDir: wd, Exit: 1, Completed: true, Version: "0.2.0", Roots: repo.NewRoots(wd),
	}
	var buf strings.Builder
	if err := WriteSARIF(&buf, rep); err != nil {
		t.Fatal(err)
	}
	reporttest.ValidateSARIF(t, buf.String())
	s := reporttest.ParseSARIF(t, buf.String())
	reporttest.CheckSARIF(t, s, MaxDescription)
	run := s.Runs[0]
	wantBases := map[string]string{SrcRoot: DirURI(a), "%SRCROOT2%": DirURI(b)}
	if len(run.OriginalURIBaseIDs) != len(wantBases) {
		t.Errorf("originalUriBaseIds %v; want %v", run.OriginalURIBaseIDs, wantBases)
	}
	for id, uri := range wantBases {
		if got := run.OriginalURIBaseIDs[id].URI; got != uri {
			t.Errorf("originalUriBaseIds[%s] = %q; want %q", id, got, uri)
		}
	}
	want := []string{SrcRoot + " k/x%20y.asc", SrcRoot + " k/z.asc", "%SRCROOT2% q.asc", " " + FileURI(filepath.Join(stray, "s.asc"))}
	for i, res := range run.Results {
		loc := res.Locations[0].PhysicalLocation.ArtifactLocation
		if got := loc.URIBaseID + " " + loc.URI; got != want[i] {
			t.Errorf("result %d: %q; want %q", i, got, want[i])
		}
	}
}
