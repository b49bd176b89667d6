package git

import (
	"fmt"
	"maps"
	"os"
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
