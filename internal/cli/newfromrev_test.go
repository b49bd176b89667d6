package cli

import (
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ascvet/ascvet/internal/report"
	"github.com/ascvet/ascvet/internal/testfs"
)

// TestNewFromRevOtherRepos: -new-from-rev diffs each file in its own
// repository, whatever the working directory: run from a directory in no
// repository on paths into two, it reports the new files of each and
// nothing of their committed ones.
func TestNewFromRevOtherRepos(t *testing.T) {
	parent, sub := scratchRepo(t)
	sub2 := filepath.Join(parent, "sub2")
	if err := os.MkdirAll(sub2, 0o755); err != nil {
		t.Fatal(err)
	}
	copyFile(t, "../../testdata/kernels/unaligned_copy.asc", filepath.Join(sub2, "copy.asc"))
	testfs.Git(t, sub2, "init", "-q")
	testfs.Git(t, sub2, "add", ".")
	testfs.Git(t, sub2, "commit", "-q", "-m", "k")
	copyFile(t, "../../testdata/kernels/unaligned_bugs.asc", filepath.Join(sub, "new.asc"))
	copyFile(t, "../../testdata/kernels/masks.asc", filepath.Join(sub2, "m.asc"))

	elsewhere := t.TempDir()
	code, out, errs := inDir(t, elsewhere, "-f", "json", "-new-from-rev", "HEAD", sub, filepath.Join(parent, "sub2", "..."))
	if code != exitFindings || errs != "" {
		t.Fatalf("exit %d, stderr %q; want 1 and nothing", code, errs)
	}
	var rep report.JSONReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	findings := rep.Findings
	files := map[string]bool{}
	for _, f := range findings {
		files[filepath.Base(f.File)] = true
	}
	if want := []string{"m.asc", "new.asc"}; !slices.Equal(slices.Sorted(maps.Keys(files)), want) {
		t.Errorf("findings in %v; want in %v only", slices.Sorted(maps.Keys(files)), want)
	}
	// A path in no repository cannot be diffed.
	copyFile(t, "../../testdata/kernels/masks.asc", filepath.Join(elsewhere, "m.asc"))
	if code, _, errs := inDir(t, elsewhere, "-new-from-rev", "HEAD", "m.asc"); code != exitUsage || !strings.Contains(errs, "m.asc is not in a git work tree") {
		t.Errorf("outside a repository: exit %d, stderr %q; want 2 and why", code, errs)
	}
}

// TestNewFromRevShallow: in a shallow clone that lacks REV, -new-from-rev
// fails with a message that says so and how deep to fetch.
func TestNewFromRevShallow(t *testing.T) {
	_, sub := scratchRepo(t)
	copyFile(t, "../../testdata/kernels/unaligned_bugs.asc", filepath.Join(sub, "new.asc"))
	testfs.Git(t, sub, "add", ".")
	testfs.Git(t, sub, "commit", "-q", "-m", "second")
	clone := filepath.Join(t.TempDir(), "clone")
	testfs.Git(t, sub, "clone", "-q", "--depth", "1", "file://"+filepath.ToSlash(sub), clone)

	code, _, errs := inDir(t, t.TempDir(), "-new-from-rev", "HEAD~1", clone)
	want := "-new-from-rev HEAD~1: HEAD~1 is not in this shallow clone of " + clone + "; fetch with depth >= 2, for example actions/checkout with fetch-depth: 0"
	if code != exitUsage || !strings.Contains(errs, want) {
		t.Errorf("exit %d, stderr %q; want 2 and %q", code, errs, want)
	}
	// The full repository has HEAD~1: only the second commit's file.
	code, out, errs := inDir(t, sub, "-new-from-rev", "HEAD~1", ".")
	if code != exitFindings || errs != "" || !strings.Contains(out, "new.asc") || strings.Contains(out, "copy.asc") {
		t.Errorf("full clone: exit %d, stderr %q\n%s", code, errs, out)
	}
}

// TestNewFromRevUnborn: in a repository with no commit yet (a first commit
// under the ascvet-new hook), -new-from-rev HEAD counts every line of every
// file, staged or untracked, as new; another revision is still an error.
func TestNewFromRevUnborn(t *testing.T) {
	testfs.NeedGit(t, "git not found")
	dir := t.TempDir()
	testfs.Git(t, dir, "init", "-q")
	copyFile(t, "../../testdata/kernels/unaligned_bugs.asc", filepath.Join(dir, "staged.asc"))
	testfs.Git(t, dir, "add", "staged.asc")
	copyFile(t, "../../testdata/kernels/masks.asc", filepath.Join(dir, "untracked.asc"))
	code, out, errs := inDir(t, dir, "-new-from-rev", "HEAD", ".")
	if code != exitFindings || errs != "" || !strings.Contains(out, "staged.asc") || !strings.Contains(out, "untracked.asc") {
		t.Errorf("unborn HEAD: exit %d, stderr %q\n%s", code, errs, out)
	}
	if code, _, errs := inDir(t, dir, "-new-from-rev", "HEAD~1", "."); code != exitUsage || !strings.Contains(errs, "is not a commit") {
		t.Errorf("unborn HEAD~1: exit %d, stderr %q; want 2, not a commit", code, errs)
	}
}
