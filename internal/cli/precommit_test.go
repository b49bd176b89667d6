package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/ascvet/ascvet/internal/testfs"
)

// TestPreCommitReal runs pre-commit itself on a scratch repository whose
// .pre-commit-config.yaml is the snippet of docs/integrations.md, pointed at a clone of
// this repository (with the work tree's uncommitted changes) at a commit
// hash: pre-commit clones it, builds ascvet with go install as
// .pre-commit-hooks.yaml says (language: golang uses the Go on PATH), and
// runs the hooks from git commit. A good kernel commits; a bad one is
// blocked; many files at once print one summary; and ascvet-new, run as the
// page says, reports the staged changes and not the unstaged ones.
//
// The test needs pre-commit (Debian's package: apt-get install pre-commit;
// .ci/run installs it in CI). Without it the test skips, except under
// CI=true, where it fails.
func TestPreCommitReal(t *testing.T) {
	if testing.Short() {
		t.Skip("builds ascvet through pre-commit; skipped with -short")
	}
	if raceEnabled {
		t.Skip("runs pre-commit, which builds ascvet without -race; the run without -race covers it")
	}
	testfs.NeedGit(t, "git is not installed")
	// Debian's package, as CI installs it (.ci/run does it first).
	debianTool(t, "pre-commit", "pre-commit", "pipx install pre-commit")
	goEnv := func(name string) string {
		out, err := exec.Command("go", "env", name).Output()
		if err != nil {
			t.Fatalf("go env %s: %v", name, err)
		}
		return strings.TrimSpace(string(out))
	}
	// pre-commit builds with GOPATH set to its environment directory;
	// keeping the module and build caches makes the build offline and warm.
	env := []string{
		"PRE_COMMIT_HOME=" + t.TempDir(),
		"GOMODCACHE=" + goEnv("GOMODCACHE"),
		"GOCACHE=" + goEnv("GOCACHE"),
		"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com",
		"GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com",
	}

	src := cloneRepo(t, true)
	rev := strings.TrimSpace(testfs.Git(t, src, "rev-parse", "HEAD"))
	var cfg map[string]any
	if err := yaml.Unmarshal([]byte(docSnippet(t, "pre-commit")), &cfg); err != nil {
		t.Fatal(err)
	}
	repos, _ := cfg["repos"].([]any)
	if len(repos) != 1 {
		t.Fatalf("the pre-commit snippet: %d repos, want 1", len(repos))
	}
	r, _ := repos[0].(map[string]any)
	if r == nil {
		t.Fatal("the pre-commit snippet: repos[0] is not a mapping")
	}
	r["repo"], r["rev"] = src, rev
	data, err := yaml.Marshal(cfg)
	if err != nil {
		t.Fatal(err)
	}

	repo := t.TempDir()
	testfs.Git(t, repo, "init", "-q")
	if err := os.WriteFile(filepath.Join(repo, ".pre-commit-config.yaml"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	if code, out := runShell(t, repo, "pre-commit install", env...); code != 0 {
		t.Fatalf("pre-commit install: exit %d\n%s", code, out)
	}
	commit := func() (int, string) {
		t.Helper()
		return runShell(t, repo, "git -c commit.gpgsign=false commit -q -m change", env...)
	}
	commits := func() string {
		return strings.TrimSpace(testfs.Git(t, repo, "rev-list", "--count", "--all"))
	}

	// A good kernel commits (the first commit also builds the hooks).
	copyFile(t, "../../testdata/kernels/clean.asc", filepath.Join(repo, "k", "clean.asc"))
	testfs.Git(t, repo, "add", ".")
	code, out := commit()
	if code != 0 || !regexp.MustCompile(`(?m)^ascvet\.+Passed$`).MatchString(out) {
		t.Fatalf("git commit of a good kernel through pre-commit: exit %d, want 0 with ascvet Passed\n%s", code, out)
	}

	// A bad kernel is blocked.
	copyFile(t, "../../testdata/kernels/unaligned_copy.asc", filepath.Join(repo, "k", "copy.asc"))
	testfs.Git(t, repo, "add", "k/copy.asc")
	code, out = commit()
	if code == 0 || !strings.Contains(out, "k/copy.asc:17:9: warning:") || !strings.Contains(out, "[ASC1001]") || commits() != "1" {
		t.Errorf("git commit of a bad kernel through pre-commit: exit %d, %s commits; want it blocked with ASC1001 on k/copy.asc\n%s", code, commits(), out)
	}

	// ascvet-new at commit time: pre-commit stashes the unstaged change to
	// clean.asc, so only the staged copy.asc is new.
	copyFile(t, "../../testdata/kernels/unaligned_bugs.asc", filepath.Join(repo, "k", "clean.asc"))
	code, out = runShell(t, repo, "pre-commit run --hook-stage manual ascvet-new", env...)
	if code != 1 || !strings.Contains(out, "k/copy.asc:17:9:") || strings.Contains(out, "k/clean.asc:") {
		t.Errorf("pre-commit run --hook-stage manual ascvet-new: exit %d; want 1 with the staged k/copy.asc's findings and not the unstaged k/clean.asc's\n%s", code, out)
	}
	testfs.Git(t, repo, "checkout", "k/clean.asc")

	// Many files at once: one ascvet process, one summary. pre-commit
	// would otherwise split them over a process per CPU (4 files at least
	// each).
	kernels, err := filepath.Glob("../../testdata/kernels/*")
	if err != nil || len(kernels) < 9 {
		t.Fatalf("testdata/kernels: %d files (%v); want 9 or more", len(kernels), err)
	}
	for _, k := range kernels {
		copyFile(t, k, filepath.Join(repo, "many", filepath.Base(k)))
	}
	testfs.Git(t, repo, "add", "many")
	code, out = commit()
	if n := len(summaryLine.FindAllString(out, -1)); code == 0 || n != 1 {
		t.Errorf("git commit of %d more files through pre-commit: exit %d, %d summaries; want it blocked with one summary\n%s", len(kernels), code, n, out)
	}
}
