package cli

import (
	"bytes"
	"encoding/xml"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ascvet/ascvet/internal/gitquote"
	"github.com/ascvet/ascvet/internal/gitquote/gitquotetest"
	"github.com/ascvet/ascvet/internal/report"
	"github.com/ascvet/ascvet/internal/testfs"
)

// copyDir copies the regular files of src into a new directory.
func copyDir(t *testing.T, src string) string {
	t.Helper()
	dst := t.TempDir()
	entries, err := os.ReadDir(src)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		data, err := os.ReadFile(filepath.Join(src, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dst, e.Name()), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dst
}

// TestDiffOddNamesApply writes fixable kernels under the odd names, takes
// ascvet -diff, and applies it with git apply and with patch -p1 to fresh
// copies: each must end as -fix leaves the files.
func TestDiffOddNamesApply(t *testing.T) {
	orig := t.TempDir()
	k := copyKernel(t)
	for i, c := range gitquotetest.OddNames {
		gitquotetest.MakeOdd(t, orig, c.Name, k+strings.Repeat("// pad\n", i))
	}
	before := readTree(t, orig)
	want := readTree(t, copyDirFixed(t, orig))

	t.Chdir(orig)
	code, diff, errs := ascvet(t, "-diff", ".")
	if code != exitFindings || errs != "" || strings.Count(diff, "\n--- ")+1 != len(gitquotetest.OddNames) {
		t.Fatalf("-diff: exit %d, stderr %q\n%s", code, errs, diff)
	}
	for rel, data := range readTree(t, orig) {
		if !bytes.Equal(data, before[rel]) {
			t.Fatalf("-diff wrote %q", rel)
		}
	}

	tools := []struct {
		name string
		args []string
	}{
		{"git", []string{"git", "apply", "-"}},
		{"patch", []string{"patch", "-p1", "--batch", "--no-backup-if-mismatch"}},
	}
	for _, tool := range tools {
		t.Run(tool.name, func(t *testing.T) {
			if _, err := exec.LookPath(tool.args[0]); err != nil {
				t.Skipf("%s is not installed: cannot check that it applies the diff", tool.args[0])
			}
			dir := copyDir(t, orig)
			if tool.name == "git" {
				// A repository of its own, so that git apply works from
				// its top whatever holds the temporary directory.
				if out, err := exec.Command("git", "init", "-q", dir).CombinedOutput(); err != nil {
					t.Fatalf("git init: %v\n%s", err, out)
				}
			}
			cmd := exec.Command(tool.args[0], tool.args[1:]...)
			cmd.Dir = dir
			cmd.Stdin = strings.NewReader(diff)
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("%s: %v\n%s\ndiff:\n%s", strings.Join(tool.args, " "), err, out, diff)
			}
			got := readTree(t, dir)
			for rel := range got {
				if strings.HasPrefix(rel, ".git"+string(filepath.Separator)) {
					delete(got, rel)
				}
			}
			for rel, data := range want {
				if !bytes.Equal(got[rel], data) {
					t.Errorf("%s: after %s, %q differs from what -fix writes", tool.name, tool.args[0], rel)
				}
			}
			if len(got) != len(want) {
				t.Errorf("after %s the directory holds %d files, want %d", tool.args[0], len(got), len(want))
			}
		})
	}
}

// copyDirFixed returns a copy of dir that ascvet -fix has fixed.
func copyDirFixed(t *testing.T, dir string) string {
	t.Helper()
	fixed := copyDir(t, dir)
	if code, _, errs := ascvet(t, "-fix", fixed); code != exitOK || strings.Count(errs, "ascvet: fixed") != len(gitquotetest.OddNames) {
		t.Fatalf("-fix: exit %d\n%s", code, errs)
	}
	return fixed
}

// TestOddNamesInReports checks that a file name holding a newline, a tab or
// a quote keeps every text line whole (quoted), and that the machine
// formats carry it exactly where they can.
func TestOddNamesInReports(t *testing.T) {
	withAnalyzers(t, noBad)
	dir := t.TempDir()
	var names []string
	for _, n := range []string{"nl\nk.cpp", "tab\tk.cpp", `q"k.cpp`, "ctl\x01k.cpp"} {
		p := gitquotetest.MakeOdd(t, dir, n, "__simd_vf__ void f() {\nBAD\n}\n")
		names = append(names, p)
	}

	// text: one line per finding, the name quoted.
	_, out, _ := ascvet(t, dir)
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) != len(names)+1 {
		t.Fatalf("text output has %d lines, want %d findings and the summary:\n%s", len(lines), len(names), out)
	}
	for _, p := range names {
		want := gitquote.DisplayName(p) + ":2:1: "
		if !strings.HasPrefix(want, `"`) {
			t.Errorf("%q is not quoted", p)
		}
		if !slices.ContainsFunc(lines, func(l string) bool { return strings.HasPrefix(l, want) }) {
			t.Errorf("no line starts with %s:\n%s", want, out)
		}
	}

	// checkstyle: the name whole, unless XML cannot carry it.
	_, out, _ = ascvet(t, "-f", "checkstyle", dir)
	var cs struct {
		Files []struct {
			Name string `xml:"name,attr"`
		} `xml:"file"`
	}
	if err := xml.Unmarshal([]byte(out), &cs); err != nil {
		t.Fatalf("checkstyle: %v\n%s", err, out)
	}
	var got []string
	for _, f := range cs.Files {
		got = append(got, f.Name)
	}
	want := []string{names[0], names[1], names[2], gitquote.Quote(names[3], true)}
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("checkstyle files %q, want %q", got, want)
	}

	// github: each annotation one line, its file property the name whole;
	// the step summary quotes it.
	summary := filepath.Join(t.TempDir(), "summary.md")
	t.Setenv("GITHUB_STEP_SUMMARY", summary)
	_, out, _ = ascvet(t, "-f", "github", dir)
	lines = strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) != len(names) {
		t.Fatalf("github output has %d lines, want %d:\n%s", len(lines), len(names), out)
	}
	unescape := strings.NewReplacer("%0D", "\r", "%0A", "\n", "%3A", ":", "%2C", ",", "%25", "%")
	got = nil
	for _, l := range lines {
		prop, _, _ := strings.Cut(strings.TrimPrefix(l, "::warning file="), ",line=")
		got = append(got, unescape.Replace(prop))
	}
	want = slices.Clone(names)
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("github file properties %q, want %q", got, want)
	}
	md := testfs.Read(t, summary)
	for _, p := range names {
		if !strings.Contains(md, report.EscapeCell(gitquote.DisplayName(p))+":2:1 |") {
			t.Errorf("step summary does not locate %q quoted:\n%s", p, md)
		}
	}
}
