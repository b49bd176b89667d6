package git

import (
	"errors"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ascvet/ascvet/internal/testfs"
)

func numbered(prefix string, n int) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "%s%d\n", prefix, i)
	}
	return b.String()
}

// writeFiles writes each file under dir.
func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		testfs.Put(t, dir, filepath.FromSlash(name), content)
	}
}

// describeLines renders a LineSet as "all" or "2,5-6".
func describeLines(s *LineSet) string {
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
	testfs.NeedGit(t, "git not found")
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
	testfs.Git(t, repo, "init", "-q")
	testfs.Git(t, repo, "add", ".")
	testfs.Git(t, repo, "commit", "-q", "-m", "base")
	// A committed change since the base.
	writeFiles(t, repo, map[string]string{"a.cpp": strings.Replace(numbered("l", 10), "l2\n", "L2\n", 1)})
	testfs.Git(t, repo, "commit", "-q", "-am", "second")

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
	testfs.Git(t, repo, "mv", "old.cpp", "renamed.cpp")
	writeFiles(t, repo, map[string]string{"renamed.cpp": "o1\no2\nO3\no4\no5\n"})
	testfs.Git(t, repo, "add", "renamed.cpp", "staged.cpp")
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
		got, err := ChangedLines(tc.dir, tc.rev)
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
			if got := s.Overlaps(o.start, o.end); got != o.want {
				t.Errorf("a.cpp overlaps(%d, %d) = %v; want %v", o.start, o.end, got, o.want)
			}
		}
		if !got[filepath.Join(top, "new.cpp")].Overlaps(1000, 1000) || got[filepath.Join(top, "gone.cpp")].Overlaps(1, 2) {
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
		if _, err := ChangedLines(tc.dir, tc.rev); err == nil || !strings.Contains(err.Error(), tc.want) {
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
	s := &LineSet{}
	for _, r := range [][2]int{{10, 12}, {1, 1}, {13, 13}, {5, 7}, {6, 8}, {20, 20}} {
		s.Add(r[0], r[1])
	}
	s.normalize()
	if got := describeLines(s); got != "1,5-8,10-13,20" {
		t.Errorf("normalized %s", got)
	}
	for _, o := range []struct {
		start, end int
		want       bool
	}{{0, 0, false}, {1, 1, true}, {2, 4, false}, {2, 5, true}, {9, 9, false}, {14, 19, false}, {14, 25, true}, {21, 30, false}, {13, 2, true}} {
		if got := s.Overlaps(o.start, o.end); got != o.want {
			t.Errorf("overlaps(%d, %d) = %v", o.start, o.end, got)
		}
	}
	var none *LineSet
	if none.Overlaps(1, 100) {
		t.Error("nil set overlaps")
	}
}

func TestAncestry(t *testing.T) {
	for rev, want := range map[string]int{"HEAD": 0, "HEAD~": 1, "HEAD~1": 1, "HEAD~3": 3, "HEAD^": 1, "HEAD^^": 2, "@~2": 2, "HEAD~2^2": 3, "HEAD^0": 0, "main": -1, "HEAD~x": -1,
		"HEAD~99999999999999999999": -1, "HEAD^99999999999999999999": -1, "HEAD@{1}": -1, "@{u}": -1} {
		n, ok := ancestry(rev)
		if !ok {
			n = -1
		}
		if n != want {
			t.Errorf("ancestry(%q) = %d; want %d", rev, n, want)
		}
	}
}

// gitRoot returns a folder for repositories that git does not search above
// and a run of git that reads no system or user configuration; the test is
// skipped without git (why says what it cannot check), except under CI.
func gitRoot(t *testing.T, why string) string {
	t.Helper()
	testfs.NeedGit(t, why)
	root := t.TempDir()
	t.Setenv("GIT_CEILING_DIRECTORIES", root)
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	t.Setenv("GIT_CONFIG_GLOBAL", os.DevNull)
	return root
}

// changedRel renders ChangedLines(dir, rev) by path relative to top, as
// describeLines does each set.
func changedRel(t *testing.T, top, dir, rev string) (map[string]string, error) {
	t.Helper()
	got, err := ChangedLines(dir, rev)
	if err != nil {
		return nil, err
	}
	rendered := map[string]string{}
	for p, s := range got {
		rel, err := filepath.Rel(top, p)
		if err != nil {
			t.Fatal(err)
		}
		rendered[filepath.ToSlash(rel)] = describeLines(s)
	}
	return rendered, nil
}

// TestChangedLinesNoGit: without git on the PATH, ChangedLines says that
// it needs git.
func TestChangedLinesNoGit(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	got, err := ChangedLines(t.TempDir(), "HEAD")
	if err == nil || !strings.HasPrefix(err.Error(), "needs git, which was not found: ") || !errors.Is(err, exec.ErrNotFound) || got != nil {
		t.Errorf("ChangedLines without git = %v, %v; want an error wrapping exec.ErrNotFound", got, err)
	}
}

// TestChangedLinesUnborn: in a repository without a commit yet (as a
// pre-commit hook of the first commit sees it), every line of HEAD is new:
// those of a staged file as the work tree has it, and an untracked file
// whole. Any other revision is no commit there.
func TestChangedLinesUnborn(t *testing.T) {
	repo := filepath.Join(gitRoot(t, "git not found: cannot check a repository without commits"), "repo")
	testfs.Put(t, repo, "a.cpp", numbered("a", 3))
	testfs.Git(t, repo, "init", "-q")
	testfs.Git(t, repo, "add", "a.cpp")
	testfs.Put(t, repo, "a.cpp", numbered("a", 4)) // unstaged: a line more
	testfs.Put(t, repo, "sub/b.h", "b\n")
	got, err := changedRel(t, repo, repo, "HEAD")
	if want := map[string]string{"a.cpp": "1-4", "sub/b.h": "all"}; err != nil || !maps.Equal(got, want) {
		t.Errorf("ChangedLines(HEAD) before the first commit = %v, %v; want %v", got, err, want)
	}
	for _, rev := range []string{"HEAD~1", "main"} {
		if _, err := ChangedLines(repo, rev); err == nil || err.Error() != fmt.Sprintf("%q is not a commit of the repository at %s; give a commit, branch or tag (HEAD~1, main, a hash)", rev, repo) {
			t.Errorf("ChangedLines(%s) before the first commit: %v", rev, err)
		}
	}
	if got := testfs.Read(t, filepath.Join(repo, "a.cpp")); got != numbered("a", 4) {
		t.Errorf("a.cpp changed: %q", got)
	}
}

// TestChangedLinesMissingHEAD: a detached HEAD that names a commit the
// repository lacks is not taken for a repository without commits (whose
// every line would be new): it is no commit.
func TestChangedLinesMissingHEAD(t *testing.T) {
	repo := filepath.Join(gitRoot(t, "git not found: cannot check a HEAD that names no commit"), "repo")
	testfs.Put(t, repo, "a.cpp", "a\n")
	testfs.Git(t, repo, "init", "-q")
	testfs.Put(t, repo, ".git/HEAD", strings.Repeat("0123456789", 4)+"\n")
	got, err := ChangedLines(repo, "HEAD")
	if want := `"HEAD" is not a commit of the repository at ` + repo + ";"; err == nil || !strings.HasPrefix(err.Error(), want) || got != nil {
		t.Errorf("ChangedLines(HEAD) = %v, %v; want %q", got, err, want)
	}
}

// TestChangedLinesShallow: a revision missing from a shallow clone is
// told as such, with the depth to fetch when it counts back from HEAD,
// and the clone's top as the user sees it; a revision the clone holds
// diffs as in a full clone.
func TestChangedLinesShallow(t *testing.T) {
	root := gitRoot(t, "git not found: cannot check a shallow clone")
	repo, clone := filepath.Join(root, "repo"), filepath.Join(root, "clone")
	testfs.Put(t, repo, "a.cpp", "")
	testfs.Git(t, repo, "init", "-q")
	for i := 1; i <= 3; i++ {
		testfs.Put(t, repo, "a.cpp", numbered("a", i))
		testfs.Git(t, repo, "add", ".")
		testfs.Git(t, repo, "commit", "-q", "-m", fmt.Sprint(i))
	}
	testfs.Git(t, root, "clone", "-q", "--depth", "1", "file://"+filepath.ToSlash(repo), clone)
	testfs.Put(t, clone, "sub/b.h", "b\n")
	const ci = "for example actions/checkout with fetch-depth: 0"
	for _, c := range []struct{ dir, rev, want string }{
		{clone, "HEAD~2", "HEAD~2 is not in this shallow clone of " + clone + "; fetch with depth >= 3, " + ci},
		{filepath.Join(clone, "sub"), "@^^", "@^^ is not in this shallow clone of " + clone + "; fetch with depth >= 3, " + ci},
		{clone, "main~1", "main~1 is not in this shallow clone of " + clone + "; fetch the history that holds it (git fetch --unshallow, or " + ci + ")"},
	} {
		if got, err := ChangedLines(c.dir, c.rev); err == nil || err.Error() != c.want || got != nil {
			t.Errorf("ChangedLines(%s, %s) = %v, %v; want %q", c.dir, c.rev, got, err, c.want)
		}
	}
	testfs.Put(t, clone, "a.cpp", numbered("a", 3)+"a4\n")
	got, err := changedRel(t, clone, clone, "HEAD")
	if want := map[string]string{"a.cpp": "4", "sub/b.h": "all"}; err != nil || !maps.Equal(got, want) {
		t.Errorf("ChangedLines(HEAD) in the shallow clone = %v, %v; want %v", got, err, want)
	}
}

// TestChangedLinesCorrupt: when git cannot diff (the blob of a changed
// file is missing), the error says so with git's complaint; the work tree
// is left as it was.
func TestChangedLinesCorrupt(t *testing.T) {
	repo := filepath.Join(gitRoot(t, "git not found: cannot check a diff that fails"), "repo")
	testfs.Put(t, repo, "a.cpp", "a\nb\n")
	testfs.Git(t, repo, "init", "-q")
	testfs.Git(t, repo, "add", ".")
	testfs.Git(t, repo, "commit", "-q", "-m", "a")
	blob := strings.TrimSpace(testfs.Git(t, repo, "rev-parse", "HEAD:a.cpp"))
	if err := os.Remove(filepath.Join(repo, ".git", "objects", blob[:2], blob[2:])); err != nil {
		t.Fatal(err)
	}
	testfs.Put(t, repo, "a.cpp", "a\nB\n")
	got, err := ChangedLines(repo, "HEAD")
	if want := "cannot diff the work tree against HEAD: git: "; err == nil || !strings.HasPrefix(err.Error(), want) || !strings.Contains(err.Error(), blob) || got != nil {
		t.Errorf("ChangedLines with the blob %s missing = %v, %v; want %q and the blob", blob, got, err, want)
	}
	if got := testfs.Read(t, filepath.Join(repo, "a.cpp")); got != "a\nB\n" {
		t.Errorf("a.cpp changed: %q", got)
	}
}

// TestParseDiffHunkBody: within a hunk, "\ No newline at end of file"
// between the old and the new line counts for neither, so an added line
// after it that reads "++ b/evil" is no header; context lines (a diff with
// -U1), an empty one too, count for both, so the next hunk's header is
// read; a diff whose last line has no newline is read to its end.
func TestParseDiffHunkBody(t *testing.T) {
	for _, c := range []struct{ diff, want string }{
		{"+++ b/x.cpp\n@@ -3 +3 @@\n-a\n\\ No newline at end of file\n+++ b/evil\n\\ No newline at end of file\n@@ -9,0 +10 @@\n+c\n", "3,10"},
		{"+++ b/x.cpp\n@@ -1,4 +1,4 @@\n \n-a\n+b\n ++ b/evil\n\n@@ -9 +9,2 @@\n+d\n e\n", "1-4,9-10"},
		{"+++ b/x.cpp\n@@ -1 +1 @@\n-a\n+b", "1"},
		{"+++ b/x.cpp\n@@ -1 +1,2 @@", "1-2"},
	} {
		got, err := parseDiff([]byte(c.diff))
		if err != nil {
			t.Errorf("parseDiff(%q): %v", c.diff, err)
			continue
		}
		rendered := map[string]string{}
		for p, s := range got {
			s.normalize()
			rendered[p] = describeLines(s)
		}
		if want := map[string]string{"x.cpp": c.want}; !maps.Equal(rendered, want) {
			t.Errorf("parseDiff(%q) = %q, want %q", c.diff, rendered, want)
		}
	}
}
