package main

import (
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ascvet/ascvet/internal/report"
)

// scratchGit runs git in dir with a private configuration and fails the test if git fails.
func scratchGit(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir, "-c", "user.name=t", "-c", "user.email=t@example.com",
		"-c", "commit.gpgsign=false", "-c", "init.defaultBranch=main"}, args...)...)
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL="+os.DevNull)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}

func numbered(prefix string, n int) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "%s%d\n", prefix, i)
	}
	return b.String()
}

func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// describe renders a lineSet as "all" or "2,5-6".
func describeLines(s *lineSet) string {
	if s.all {
		return "all"
	}
	var parts []string
	for _, r := range s.ranges {
		if r[0] == r[1] {
			parts = append(parts, fmt.Sprint(r[0]))
		} else {
			parts = append(parts, fmt.Sprintf("%d-%d", r[0], r[1]))
		}
	}
	return strings.Join(parts, ",")
}

func TestChangedLines(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not found")
	}
	root := t.TempDir()
	t.Setenv("GIT_CEILING_DIRECTORIES", root)
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	t.Setenv("GIT_CONFIG_GLOBAL", os.DevNull)
	// A user's configuration that changes what git diff prints must not
	// change what changedLines reads.
	hostile := [][2]string{
		{"diff.renames", "false"}, {"diff.noprefix", "true"}, {"diff.mnemonicPrefix", "true"}, {"color.ui", "always"},
		{"diff.relative", "true"}, {"core.quotePath", "true"}, {"diff.external", "false"}, {"diff.context", "5"},
	}
	t.Setenv("GIT_CONFIG_COUNT", fmt.Sprint(len(hostile)))
	for i, kv := range hostile {
		t.Setenv(fmt.Sprintf("GIT_CONFIG_KEY_%d", i), kv[0])
		t.Setenv(fmt.Sprintf("GIT_CONFIG_VALUE_%d", i), kv[1])
	}
	repo := filepath.Join(root, "repo")
	writeFiles(t, repo, map[string]string{
		"a.cpp":        numbered("l", 10),
		"old.cpp":      numbered("o", 5),
		"sp ace.cpp":   numbered("s", 3),
		`we"ird.cpp`:   numbered("w", 3),
		"ünïcode.cpp":  numbered("u", 2),
		"sub/deep.cpp": numbered("d", 4),
		"gone.cpp":     numbered("g", 2),
		".gitignore":   "*.log\n",
	})
	scratchGit(t, repo, "init", "-q")
	scratchGit(t, repo, "add", ".")
	scratchGit(t, repo, "commit", "-q", "-m", "base")
	// A committed change since the base.
	writeFiles(t, repo, map[string]string{"a.cpp": strings.Replace(numbered("l", 10), "l2\n", "L2\n", 1)})
	scratchGit(t, repo, "commit", "-q", "-am", "second")

	// The working tree: unstaged edits, a pure deletion, added lines that
	// look like diff headers, a staged rename with an edit, a staged new
	// file, a deleted file, untracked files (one ignored).
	a := strings.NewReplacer("l5\n", "L5\n", "l9\n", "").Replace(strings.Replace(numbered("l", 10), "l2\n", "L2\n", 1))
	writeFiles(t, repo, map[string]string{
		"a.cpp":        a + "++ tricky\n@@ -1 +1 @@\n",
		"sp ace.cpp":   "S1\ns2\ns3\n",
		`we"ird.cpp`:   "w1\nW2\nw3\n",
		"ünïcode.cpp":  "U1\nu2\n",
		"sub/deep.cpp": "d1\nd2\nd3\nD4\n",
		"staged.cpp":   numbered("n", 3),
		"new.cpp":      "x\n",
		"sub/new.h":    "y\n",
		"x.log":        "ignored\n",
	})
	scratchGit(t, repo, "mv", "old.cpp", "renamed.cpp")
	writeFiles(t, repo, map[string]string{"renamed.cpp": "o1\no2\nO3\no4\no5\n"})
	scratchGit(t, repo, "add", "renamed.cpp", "staged.cpp")
	if err := os.Remove(filepath.Join(repo, "gone.cpp")); err != nil {
		t.Fatal(err)
	}

	// Through a symbolic link, from a subdirectory: the paths keep the
	// link, as filepath.Abs of a path under the working directory would.
	link := filepath.Join(root, "link")
	if err := os.Symlink(repo, link); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		dir, rev string
		want     map[string]string
	}{
		{repo, "HEAD~1", map[string]string{
			"a.cpp": "2,5,10-11", "renamed.cpp": "3", "sp ace.cpp": "1", `we"ird.cpp`: "2", "ünïcode.cpp": "1",
			"sub/deep.cpp": "4", "staged.cpp": "1-3", "new.cpp": "all", "sub/new.h": "all",
		}},
		{filepath.Join(link, "sub"), "HEAD", map[string]string{
			"a.cpp": "5,10-11", "renamed.cpp": "3", "sp ace.cpp": "1", `we"ird.cpp`: "2", "ünïcode.cpp": "1",
			"sub/deep.cpp": "4", "staged.cpp": "1-3", "new.cpp": "all", "sub/new.h": "all",
		}},
	} {
		got, err := changedLines(tc.dir, tc.rev)
		if err != nil {
			t.Fatalf("changedLines(%s, %s): %v", tc.dir, tc.rev, err)
		}
		top := repo
		if strings.HasPrefix(tc.dir, link) {
			top = link
		}
		rendered := map[string]string{}
		for p, s := range got {
			rel, err := filepath.Rel(top, p)
			if err != nil || strings.HasPrefix(rel, "..") || !filepath.IsAbs(p) || filepath.Clean(p) != p {
				t.Errorf("key %s is not a clean absolute path under %s", p, top)
			}
			rendered[filepath.ToSlash(rel)] = describeLines(s)
		}
		if !maps.Equal(rendered, tc.want) {
			keys := slices.Sorted(maps.Keys(rendered))
			var b strings.Builder
			for _, k := range keys {
				fmt.Fprintf(&b, "  %q: %s\n", k, rendered[k])
			}
			t.Errorf("changedLines(%s, %s) =\n%swant %v", tc.dir, tc.rev, b.String(), tc.want)
		}
		if tc.rev != "HEAD~1" {
			continue
		}
		s := got[filepath.Join(top, "a.cpp")]
		for _, o := range []struct {
			start, end int
			want       bool
		}{
			{1, 1, false}, {1, 2, true}, {2, 2, true}, {3, 4, false}, {4, 6, true}, {6, 9, false}, {8, 0, false},
			{9, 10, true}, {11, 11, true}, {12, 20, false},
		} {
			if got := s.overlaps(o.start, o.end); got != o.want {
				t.Errorf("a.cpp overlaps(%d, %d) = %v; want %v", o.start, o.end, got, o.want)
			}
		}
		if !got[filepath.Join(top, "new.cpp")].overlaps(1000, 1000) || got[filepath.Join(top, "gone.cpp")].overlaps(1, 2) {
			t.Error("untracked files must overlap every line, absent files none")
		}
	}

	for _, tc := range []struct{ dir, rev, want string }{
		{repo, "nosuchrev", `"nosuchrev" is not a commit of the repository at `},
		{repo, "HEAD~5", `"HEAD~5" is not a commit`},
		{repo, "--output=/tmp/x", `"--output=/tmp/x" is not a revision`},
		{repo, "", `"" is not a revision`},
		{root, "HEAD", root + " is not in a git work tree (git: fatal: not a git repository"},
		{filepath.Join(root, "missing"), "HEAD", " is not in a git work tree"},
	} {
		if _, err := changedLines(tc.dir, tc.rev); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("changedLines(%s, %q) error %v; want %q", tc.dir, tc.rev, err, tc.want)
		}
	}
}

func TestParseDiff(t *testing.T) {
	diff := "diff --git a/x.cpp b/x.cpp\n--- a/x.cpp\n+++ b/x.cpp\n@@ -3 +3 @@ void f()\n-a\n+b\n@@ -7,2 +6,0 @@\n-c\n-d\n" +
		"@@ -20,0 +19,3 @@\n+--- a/y\n++++ b/evil\n+@@ -1 +1 @@\n\\ No newline at end of file\n" +
		"diff --git a/old b/new\nsimilarity index 100%\nrename from old\nrename to new\n" +
		"diff --git \"a/t\\303\\251\\\"st.cpp\" \"b/t\\303\\251\\\"st.cpp\"\n--- \"a/t\\303\\251\\\"st.cpp\"\n+++ \"b/t\\303\\251\\\"st.cpp\"\n@@ -1,0 +2,2 @@\n+x\n+y\n" +
		"diff --git a/my file b/my file\n--- a/my file\t\n+++ b/my file\t\n@@ -1 +1 @@\n-p\n+q\n" +
		"diff --git a/del b/del\ndeleted file mode 100644\n--- a/del\n+++ /dev/null\n@@ -1,2 +0,0 @@\n-a\n-b\n" +
		"diff --git a/bin b/bin\nBinary files a/bin and b/bin differ\n"
	got, err := parseDiff([]byte(diff))
	if err != nil {
		t.Fatal(err)
	}
	rendered := map[string]string{}
	for p, s := range got {
		s.normalize()
		rendered[p] = describeLines(s)
	}
	want := map[string]string{"x.cpp": "3,19-21", "té\"st.cpp": "2-3", "my file": "1"}
	if !maps.Equal(rendered, want) {
		t.Errorf("parseDiff = %q; want %q", rendered, want)
	}
	for _, bad := range []string{"+++ b/x\n@@ -1 +x @@\n", "+++ b/x\n@@ nonsense\n", "+++ \"b/unterminated\n", "+++ c/x\n"} {
		if _, err := parseDiff([]byte(bad)); err == nil {
			t.Errorf("parseDiff(%q) succeeded", bad)
		}
	}
}

func TestLineSet(t *testing.T) {
	s := &lineSet{}
	for _, r := range [][2]int{{10, 12}, {1, 1}, {13, 13}, {5, 7}, {6, 8}, {20, 20}} {
		s.add(r[0], r[1])
	}
	s.normalize()
	if got := describeLines(s); got != "1,5-8,10-13,20" {
		t.Errorf("normalized %s", got)
	}
	for _, o := range []struct {
		start, end int
		want       bool
	}{{0, 0, false}, {1, 1, true}, {2, 4, false}, {2, 5, true}, {9, 9, false}, {14, 19, false}, {14, 25, true}, {21, 30, false}, {13, 2, true}} {
		if got := s.overlaps(o.start, o.end); got != o.want {
			t.Errorf("overlaps(%d, %d) = %v", o.start, o.end, got)
		}
	}
	var none *lineSet
	if none.overlaps(1, 100) {
		t.Error("nil set overlaps")
	}
}

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
	scratchGit(t, sub2, "init", "-q")
	scratchGit(t, sub2, "add", ".")
	scratchGit(t, sub2, "commit", "-q", "-m", "k")
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
	scratchGit(t, sub, "add", ".")
	scratchGit(t, sub, "commit", "-q", "-m", "second")
	clone := filepath.Join(t.TempDir(), "clone")
	scratchGit(t, sub, "clone", "-q", "--depth", "1", "file://"+filepath.ToSlash(sub), clone)

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

func TestAncestry(t *testing.T) {
	for rev, want := range map[string]int{"HEAD": 0, "HEAD~": 1, "HEAD~1": 1, "HEAD~3": 3, "HEAD^": 1, "HEAD^^": 2, "@~2": 2, "HEAD~2^2": 3, "HEAD^0": 0, "main": -1, "HEAD~x": -1} {
		n, ok := ancestry(rev)
		if !ok {
			n = -1
		}
		if n != want {
			t.Errorf("ancestry(%q) = %d; want %d", rev, n, want)
		}
	}
}

// TestNewFromRevUnborn: in a repository with no commit yet (a first commit
// under the ascvet-new hook), -new-from-rev HEAD counts every line of every
// file, staged or untracked, as new; another revision is still an error.
func TestNewFromRevUnborn(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not found")
	}
	dir := t.TempDir()
	scratchGit(t, dir, "init", "-q")
	copyFile(t, "../../testdata/kernels/unaligned_bugs.asc", filepath.Join(dir, "staged.asc"))
	scratchGit(t, dir, "add", "staged.asc")
	copyFile(t, "../../testdata/kernels/masks.asc", filepath.Join(dir, "untracked.asc"))
	code, out, errs := inDir(t, dir, "-new-from-rev", "HEAD", ".")
	if code != exitFindings || errs != "" || !strings.Contains(out, "staged.asc") || !strings.Contains(out, "untracked.asc") {
		t.Errorf("unborn HEAD: exit %d, stderr %q\n%s", code, errs, out)
	}
	if code, _, errs := inDir(t, dir, "-new-from-rev", "HEAD~1", "."); code != exitUsage || !strings.Contains(errs, "is not a commit") {
		t.Errorf("unborn HEAD~1: exit %d, stderr %q; want 2, not a commit", code, errs)
	}
}
