package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ascvet/ascvet/internal/report"
	"github.com/ascvet/ascvet/internal/testfs"
	"github.com/ascvet/ascvet/ruleset/baseline"
)

// partialTree makes a committed git repository of three kernels in two
// folders, with 9 findings: a/copy.asc 2 (ASC1001, ASC1002), a/masks.asc 3
// (ASC3002, ASC3004, ASC3005), b/bugs.asc 4. It writes their baseline from
// a run on the whole tree to a file outside the repository, and returns
// the repository and the baseline.
func partialTree(t *testing.T) (repo, base string) {
	t.Helper()
	needGit(t)
	parent := t.TempDir()
	t.Setenv("GIT_CEILING_DIRECTORIES", parent)
	repo = filepath.Join(parent, "repo")
	copyFile(t, "../../testdata/kernels/unaligned_copy.asc", filepath.Join(repo, "a", "copy.asc"))
	copyFile(t, "../../testdata/kernels/masks.asc", filepath.Join(repo, "a", "masks.asc"))
	copyFile(t, "../../testdata/kernels/unaligned_bugs.asc", filepath.Join(repo, "b", "bugs.asc"))
	testfs.Git(t, repo, "init", "-q")
	testfs.Git(t, repo, "add", ".")
	testfs.Git(t, repo, "commit", "-q", "-m", "kernels")
	base = filepath.Join(parent, "baseline.json")
	if code, _, errs := inDir(t, repo, "-write-baseline", base, "."); code != exitOK || !strings.Contains(errs, "wrote 9 findings") {
		t.Fatalf("-write-baseline .: exit %d, stderr %q", code, errs)
	}
	return repo, base
}

// baselinePaths returns the path of each entry of the baseline file, in
// the file's order.
func baselinePaths(t *testing.T, file string) []string {
	t.Helper()
	b, err := baseline.Read(file)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range b.Entries {
		out = append(out, e.Path)
	}
	return out
}

// TestBaselinePartialApply: a baseline of the whole tree, applied on part
// of it (one file, as pre-commit runs the hook on one staged file; one
// folder; pre-commit's list of files; -new-from-rev on the tree, which
// reports changed lines only), reports no entry of another file, nor of an
// unchanged line, as stale: only those of the files the run analysed whose
// finding is gone, whether the file changed, was deleted from a folder the
// run walked, or was skipped (not analysed: not stale), and only of the
// rules -checks ran. Before, every entry outside the run was "no longer
// found", and the advice to rewrite the baseline lost them.
func TestBaselinePartialApply(t *testing.T) {
	repo, base := partialTree(t)
	clean := func(what string, args ...string) {
		t.Helper()
		code, out, errs := inDir(t, repo, append([]string{"-baseline", base}, args...)...)
		if code != exitOK || errs != "" || !strings.HasPrefix(out, "no findings") {
			t.Errorf("%s: exit %d, stderr %q\n%s; want no finding and nothing on stderr", what, code, errs, out)
		}
	}
	clean("one file", "a/copy.asc")
	clean("one folder", "b")
	clean("one folder, dir/...", "b/...")
	clean("pre-commit's list of files", "a/copy.asc", "b/bugs.asc")
	clean("-new-from-rev, nothing changed", "-new-from-rev", "HEAD", ".")
	clean("-checks", "-checks", "ASC1001", ".")
	clean("-checks on a file", "-checks", "ASC1*,-ASC1002", "a/masks.asc", "a/copy.asc")

	// The stale entries are those of the files analysed, with the right count.
	stale := func(what string, want string, args ...string) {
		t.Helper()
		_, _, errs := inDir(t, repo, append([]string{"-baseline", base}, args...)...)
		if !strings.Contains(errs, want) || strings.Contains(errs, "bugs.asc") || strings.Contains(errs, "masks.asc") {
			t.Errorf("%s: stderr %q; want %q, and no entry of bugs.asc or masks.asc", what, errs, want)
		}
	}
	copyFile(t, "../../testdata/kernels/unaligned_copy_fixed.asc", filepath.Join(repo, "a", "copy.asc"))
	stale("one changed file", "2 entries no longer found", "a/copy.asc")
	stale("its folder", "2 entries no longer found", "a")
	stale("pre-commit's list", "2 entries no longer found", "a/copy.asc", "b/bugs.asc")
	stale("-new-from-rev", "2 entries no longer found", "-new-from-rev", "HEAD", ".")
	stale("-checks", "1 entry no longer found", "-checks", "ASC1001", ".")
	copyFile(t, "../../testdata/kernels/unaligned_copy.asc", filepath.Join(repo, "a", "copy.asc"))

	// A file deleted from a folder the run walks has its entries stale;
	// not when the run walks another folder or names another file.
	if err := os.Rename(filepath.Join(repo, "b", "bugs.asc"), filepath.Join(repo, "bugs.keep")); err != nil {
		t.Fatal(err)
	}
	clean("a file deleted in another folder", "a")
	clean("a file deleted, another named", "a/copy.asc")
	if _, _, errs := inDir(t, repo, "-baseline", base, "."); !strings.Contains(errs, "4 entries no longer found") || strings.Contains(errs, "copy.asc") {
		t.Errorf("a file deleted from the folder walked: stderr %q; want its 4 entries stale", errs)
	}
	if err := os.Rename(filepath.Join(repo, "bugs.keep"), filepath.Join(repo, "b", "bugs.asc")); err != nil {
		t.Fatal(err)
	}

	// A file skipped (binary here) was not analysed: its entries are kept,
	// walked or named.
	masks := filepath.Join(repo, "a", "masks.asc")
	src, err := os.ReadFile(masks)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(masks, append([]byte("\x00"), src...), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"."}, {"a/masks.asc", "a/copy.asc"}} {
		code, _, errs := inDir(t, repo, append([]string{"-baseline", base}, args...)...)
		if code != exitUsage || !strings.Contains(errs, "binary") || strings.Contains(errs, "no longer found") {
			t.Errorf("a binary file, ascvet %v: exit %d, stderr %q; want 2, it skipped, and no stale entry", args, code, errs)
		}
	}
	if err := os.WriteFile(masks, src, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestBaselinePartialWrite: -write-baseline on part of the tree (one file,
// one folder, pre-commit's list of files, -checks, or with a file skipped)
// replaces the entries of the files it analysed and keeps the others, so
// that the next run on the whole tree still has them; -new-from-rev
// narrows what is reported, not what is written. Before, the baseline
// held the run's findings alone: one file's 2 of 9, or with -new-from-rev
// none at all.
func TestBaselinePartialWrite(t *testing.T) {
	repo, full := partialTree(t)
	want, err := os.ReadFile(full)
	if err != nil {
		t.Fatal(err)
	}
	base := filepath.Join(filepath.Dir(full), "partial.json")
	for _, tc := range []struct {
		what   string
		args   []string
		report string // on stderr
	}{
		{"one file", []string{"a/copy.asc"}, "wrote 2 findings to " + base + ", and kept its 7 entries of files or rules outside this run"},
		{"one folder", []string{"b"}, "wrote 4 findings"},
		{"pre-commit's list of files", []string{"a/copy.asc", "b/bugs.asc"}, "wrote 6 findings"},
		{"-new-from-rev, nothing changed", []string{"-new-from-rev", "HEAD", "."}, "wrote 9 findings"},
		{"-checks", []string{"-checks", "ASC1001", "a"}, "wrote 1 finding"},
	} {
		if err := os.WriteFile(base, want, 0o644); err != nil {
			t.Fatal(err)
		}
		code, _, errs := inDir(t, repo, append([]string{"-write-baseline", base}, tc.args...)...)
		if code != exitOK || !strings.Contains(errs, tc.report) {
			t.Errorf("%s: exit %d, stderr %q; want %q", tc.what, code, errs, tc.report)
		}
		if got, _ := os.ReadFile(base); string(got) != string(want) {
			t.Errorf("%s: the baseline holds %q; want the whole tree's %q", tc.what, baselinePaths(t, base), baselinePaths(t, full))
		}
	}

	// A fixed file's entries go; the other files' stay, and the next run
	// on the whole tree finds everything else in the baseline.
	copyFile(t, "../../testdata/kernels/unaligned_copy_fixed.asc", filepath.Join(repo, "a", "copy.asc"))
	if err := os.WriteFile(base, want, 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, errs := inDir(t, repo, "-write-baseline", base, "a/copy.asc"); code != exitOK || !strings.Contains(errs, "wrote 0 findings") {
		t.Errorf("-write-baseline on the fixed file: exit %d, stderr %q", code, errs)
	}
	if got := baselinePaths(t, base); slices.Contains(got, "a/copy.asc") || len(got) != 7 {
		t.Errorf("after the fix, the baseline holds %q; want the 7 entries of the other files", got)
	}
	if code, out, errs := inDir(t, repo, "-baseline", base, "."); code != exitOK || errs != "" || !strings.HasPrefix(out, "no findings") {
		t.Errorf("whole tree after a partial write: exit %d, stderr %q\n%s", code, errs, out)
	}
	copyFile(t, "../../testdata/kernels/unaligned_copy.asc", filepath.Join(repo, "a", "copy.asc"))

	// With -new-from-rev, a copy of a baselined line made by the change
	// is the new finding, reported; the old line still matches its entry.
	k := filepath.Join(repo, "a", "copy.asc")
	src, err := os.ReadFile(k)
	if err != nil {
		t.Fatal(err)
	}
	at := strings.Index(string(src), "__simd_vf__")
	fn := string(src[at:])
	copied := string(src[:at]) + strings.Replace(fn, "ScaleRowVF", "ScaleRowVF2", 1) + "\n" + fn
	original := strings.Count(copied[:len(copied)-len(fn)], "\n") + 1 // the line the original kernel starts on
	if err := os.WriteFile(k, []byte(copied), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errs := inDir(t, repo, "-f", "json", "-baseline", full, "-new-from-rev", "HEAD", ".")
	var rep report.JSONReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	if code != exitFindings || errs != "" || len(rep.Findings) != 2 || rep.Findings[1].Line >= original {
		t.Errorf("a kernel copied by the change: exit %d, stderr %q, findings %+v; want the copy's 2", code, errs, rep.Findings)
	}
	if err := os.WriteFile(k, src, 0o644); err != nil {
		t.Fatal(err)
	}

	// A file skipped is not analysed: its entries are kept.
	masks := filepath.Join(repo, "a", "masks.asc")
	msrc, err := os.ReadFile(masks)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(masks, append([]byte("\x00"), msrc...), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, errs := inDir(t, repo, "-write-baseline", base, "."); code != exitUsage || !strings.Contains(errs, "wrote 6 findings") || !strings.Contains(errs, "kept its 3 entries") {
		t.Errorf("-write-baseline with a binary file: exit %d, stderr %q", code, errs)
	}
	if got, _ := os.ReadFile(base); string(got) != string(want) {
		t.Errorf("with a binary file, the baseline holds %q; want the whole tree's", baselinePaths(t, base))
	}
	if err := os.WriteFile(masks, msrc, 0o644); err != nil {
		t.Fatal(err)
	}

	// A version 1 baseline cannot be carried into version 2 in part: the
	// run says so and leaves it as it was; on the whole tree it is
	// rewritten. One that cannot be read is replaced, with a warning.
	b, err := baseline.Read(full)
	if err != nil {
		t.Fatal(err)
	}
	b.Version = baseline.LegacyVersion
	v1, err := json.MarshalIndent(b, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(base, v1, 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, errs = inDir(t, repo, "-write-baseline", base, "a/copy.asc")
	if got, _ := os.ReadFile(base); code != exitUsage || !strings.Contains(errs, "version 1 baseline") || !strings.Contains(errs, "does not cover 7 of its entries") || string(got) != string(v1) {
		t.Errorf("a version 1 baseline written in part: exit %d, stderr %q; want 2, why, and the file unchanged", code, errs)
	}
	if code, _, errs := inDir(t, repo, "-write-baseline", base, "."); code != exitOK {
		t.Errorf("a version 1 baseline written on the whole tree: exit %d, stderr %q", code, errs)
	}
	if got, _ := os.ReadFile(base); string(got) != string(want) {
		t.Errorf("a version 1 baseline rewritten: %s", got)
	}
	if err := os.WriteFile(base, []byte("{not json"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, errs := inDir(t, repo, "-write-baseline", base, "a/copy.asc"); code != exitOK || !strings.Contains(errs, "replacing "+base+", whose entries cannot be kept") {
		t.Errorf("a baseline that cannot be read: exit %d, stderr %q", code, errs)
	}
	if got := baselinePaths(t, base); !slices.Equal(got, []string{"a/copy.asc", "a/copy.asc"}) {
		t.Errorf("a baseline that could not be read, rewritten: %q", got)
	}
}
