package cli

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/ascvet/ascvet/internal/testfs"
)

// repoRoot returns the top of the git work tree this package is in.
func repoRoot(t *testing.T) string {
	t.Helper()
	out, err := exec.Command("git", "rev-parse", "--show-toplevel").Output()
	if err != nil {
		t.Skipf("not in a git work tree (git rev-parse --show-toplevel: %v)", err)
	}
	return strings.TrimSpace(string(out))
}

// cloneRepo clones this repository into a new directory under the system's
// temporary directory, outside the work tree, and returns it. The clone
// has the committed HEAD; with dirty set, the work tree's uncommitted
// changes (tracked and untracked, not ignored) are committed on top, so
// that a test can see what is being edited.
func cloneRepo(t *testing.T, dirty bool) string {
	t.Helper()
	top := repoRoot(t)
	tmp, err := os.MkdirTemp("", "ascvet-clone-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(tmp) })
	dir := filepath.Join(tmp, "ascvet")
	if out, err := exec.Command("git", "clone", "--no-hardlinks", "--quiet", top, dir).CombinedOutput(); err != nil {
		t.Fatalf("git clone %s: %v\n%s", top, err, out)
	}
	if !dirty {
		return dir
	}
	var changed []string
	for _, args := range [][]string{
		{"diff", "--name-only", "--no-renames", "HEAD"},
		{"ls-files", "--others", "--exclude-standard"},
	} {
		changed = append(changed, strings.Fields(testfs.Git(t, top, args...))...)
	}
	if len(changed) == 0 {
		return dir
	}
	for _, f := range changed {
		if _, err := os.Stat(filepath.Join(top, f)); errors.Is(err, os.ErrNotExist) {
			if err := os.Remove(filepath.Join(dir, f)); err != nil && !errors.Is(err, os.ErrNotExist) {
				t.Fatal(err)
			}
			continue
		}
		copyFile(t, filepath.Join(top, f), filepath.Join(dir, f))
	}
	testfs.Git(t, dir, "add", "-A")
	testfs.Git(t, dir, "commit", "-q", "--no-verify", "-m", "uncommitted changes of "+top)
	return dir
}

// readmeCommands returns the commands of README.md's first fenced sh
// block, one a line, without their trailing # comments.
func readmeCommands(t *testing.T, readme string) []string {
	t.Helper()
	m := regexp.MustCompile("(?s)```sh\\n(.*?)```").FindStringSubmatch(readme)
	if m == nil {
		t.Fatal("README.md has no ```sh block")
	}
	var cmds []string
	for _, line := range strings.Split(m[1], "\n") {
		line = regexp.MustCompile(`(^|\s)#.*$`).ReplaceAllString(line, "")
		if line = strings.TrimSpace(line); line != "" {
			cmds = append(cmds, line)
		}
	}
	return cmds
}

// runShell runs cmd with bash in dir and returns its exit code and
// output (stdout and stderr together).
func runShell(t *testing.T, dir, cmd string, env ...string) (int, string) {
	t.Helper()
	c := exec.Command("bash", "-c", cmd)
	c.Dir = dir
	c.Env = append(os.Environ(), env...)
	return exitAndOutput(t, c)
}

// exitAndOutput runs c and returns its exit code and its stdout and stderr
// together; a command that cannot run fails the test.
func exitAndOutput(t *testing.T, c *exec.Cmd) (int, string) {
	t.Helper()
	var out bytes.Buffer
	c.Stdout, c.Stderr = &out, &out
	err := c.Run()
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return ee.ExitCode(), out.String()
	} else if err != nil {
		t.Fatalf("%s: %v", strings.Join(c.Args, " "), err)
	}
	return 0, out.String()
}

// summaryLine matches the last line of ascvet's text output.
var summaryLine = regexp.MustCompile(`(?m)^(no findings|\d+ findings? \([^)]*\))(, \d+ ignored)? in \d+ files?$`)

// freshCloneInner is set in the environment of the go test that
// TestFreshClone runs in the clone, so that that run does not clone again.
const freshCloneInner = "ASCVET_FRESH_CLONE_INNER"

// TestFreshClone: a fresh clone of the repository runs the two commands
// README.md opens with: the first checks the example kernels and exits 1
// (they have findings, as the README says), the second, go test ./...,
// passes. The clone has the committed HEAD. The run takes as long as the
// rest of the suite, so it needs ASCVET_FRESH_CLONE=1 or CI=true.
func TestFreshClone(t *testing.T) {
	if os.Getenv(freshCloneInner) != "" {
		t.Skip("this is the fresh clone's go test ./...; it does not clone again")
	}
	if os.Getenv("ASCVET_FRESH_CLONE") != "1" && os.Getenv("CI") != "true" {
		t.Skip("clones the repository and runs go test ./... in it; set ASCVET_FRESH_CLONE=1 (or CI=true) to run it")
	}
	if raceEnabled {
		t.Skip("runs go test ./... in a clone; the run without -race covers it")
	}
	testfs.NeedGit(t, "git is not installed; cannot clone the repository")
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	cmds := readmeCommands(t, string(readme))
	if len(cmds) != 2 {
		t.Fatalf("README.md's first sh block has %d commands %q; want 2 (run ascvet on the examples, go test ./...)", len(cmds), cmds)
	}
	gocache, err := exec.Command("go", "env", "GOCACHE").Output()
	if err != nil {
		t.Fatalf("go env GOCACHE: %v", err)
	}
	dir := cloneRepo(t, false)
	env := []string{freshCloneInner + "=1", "GOCACHE=" + strings.TrimSpace(string(gocache))}

	code, out := runShell(t, dir, cmds[0], env...)
	if code != 1 || !summaryLine.MatchString(out) {
		t.Errorf("in a fresh clone, %s: exit %d, want 1 with the findings of the example kernels\n%s", cmds[0], code, out)
	}
	code, out = runShell(t, dir, cmds[1], env...)
	if code != 0 {
		t.Errorf("in a fresh clone, %s: exit %d, want 0\n%s", cmds[1], code, out)
	}
}
