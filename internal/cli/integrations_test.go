package cli

import (
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/ascvet/ascvet/internal/testfs"
)

// The integration snippets of docs/integrations.md are the ones these
// tests run: each is a fenced block after a "<!-- snippet: NAME -->" line
// (docSnippet, docs_test.go). TestPreCommit runs
// the hooks as pre-commit would from .pre-commit-hooks.yaml, without it:
// the staged files that match the hook's regex, passed to its entry and
// args in the repository root; TestPreCommitReal (precommit_test.go) runs
// pre-commit itself, where it is installed. The GitHub Actions test runs the action's own
// ascvet step; the GitLab CI test runs the job's script.

// buildAscvet builds the command once per test binary into a temporary
// directory and returns that directory, for PATH.
func buildAscvet(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds the ascvet binary; skipped with -short")
	}
	dir := t.TempDir()
	cmd := exec.Command("go", "build", "-o", filepath.Join(dir, "ascvet"), "../../cmd/ascvet")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return dir
}

type hook struct {
	ID            string   `yaml:"id"`
	Entry         string   `yaml:"entry"`
	Args          []string `yaml:"args"`
	Language      string   `yaml:"language"`
	Files         string   `yaml:"files"`
	PassFilenames *bool    `yaml:"pass_filenames"`
	RequireSerial bool     `yaml:"require_serial"`
}

func hooks(t *testing.T) map[string]hook {
	t.Helper()
	data, err := os.ReadFile("../../.pre-commit-hooks.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var list []hook
	if err := yaml.Unmarshal(data, &list); err != nil {
		t.Fatal(err)
	}
	out := map[string]hook{}
	for _, h := range list {
		if h.Language != "golang" || h.Entry == "" {
			t.Errorf("hook %s: language %q, entry %q; want golang and an entry", h.ID, h.Language, h.Entry)
		}
		out[h.ID] = h
	}
	return out
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	data, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// runHook runs a hook in repo as pre-commit does and returns its exit
// code and output.
func runHook(t *testing.T, bin, repo string, h hook) (int, string) {
	t.Helper()
	args := slices.Clone(h.Args)
	if h.PassFilenames == nil || *h.PassFilenames {
		re := regexp.MustCompile(h.Files)
		for _, f := range strings.Split(strings.TrimSpace(testfs.Git(t, repo, "diff", "--staged", "--name-only", "--no-ext-diff", "--diff-filter=ACMRTUXB")), "\n") {
			if f != "" && re.MatchString(f) {
				args = append(args, f)
			}
		}
	}
	fields := strings.Fields(h.Entry)
	cmd := exec.Command(filepath.Join(bin, fields[0]), append(fields[1:], args...)...)
	cmd.Dir = repo
	return exitAndOutput(t, cmd)
}

// TestPreCommit: the .pre-commit-config.yaml of docs/integrations.md names hooks of the
// manifest; run in a scratch repository, the ascvet hook fails on a staged
// bad kernel and passes on a staged good one, and ascvet-new reports only
// what the change brought.
func TestPreCommit(t *testing.T) {
	testfs.NeedGit(t, "git not installed")
	bin := buildAscvet(t)
	var cfg struct {
		Repos []struct {
			Repo  string `yaml:"repo"`
			Hooks []struct {
				ID string `yaml:"id"`
			} `yaml:"hooks"`
		} `yaml:"repos"`
	}
	if err := yaml.Unmarshal([]byte(docSnippet(t, "pre-commit")), &cfg); err != nil {
		t.Fatal(err)
	}
	manifest := hooks(t)
	var ids []string
	for _, r := range cfg.Repos {
		for _, h := range r.Hooks {
			if _, ok := manifest[h.ID]; !ok {
				t.Errorf("docs/integrations.md names hook %q, which .pre-commit-hooks.yaml does not define", h.ID)
			}
			ids = append(ids, h.ID)
		}
	}
	if !slices.Contains(ids, "ascvet") || !slices.Contains(ids, "ascvet-new") {
		t.Fatalf("docs/integrations.md's pre-commit snippet hooks %v; want ascvet and ascvet-new", ids)
	}
	h := manifest["ascvet"]
	if !regexp.MustCompile(h.Files).MatchString("kernels/add.asc") {
		t.Errorf("hook ascvet: files %q does not match .asc", h.Files)
	}

	// A staged bad kernel fails the hook.
	repo := t.TempDir()
	testfs.Git(t, repo, "init", "-q")
	copyFile(t, "../../testdata/kernels/unaligned_copy.asc", filepath.Join(repo, "kernels", "copy.asc"))
	copyFile(t, "../../testdata/kernels/clean.asc", filepath.Join(repo, "kernels", "clean.asc"))
	testfs.Git(t, repo, "add", ".")
	code, out := runHook(t, bin, repo, h)
	if code != 1 || !strings.Contains(out, "kernels/copy.asc") || !strings.Contains(out, "[ASC1001]") {
		t.Errorf("hook ascvet on a staged bad kernel: exit %d\n%s", code, out)
	}

	// A staged good kernel passes; the bad one, committed earlier and not
	// staged now, is not checked.
	testfs.Git(t, repo, "commit", "-q", "-m", "kernels")
	copyFile(t, "../../testdata/kernels/unaligned_copy_fixed.asc", filepath.Join(repo, "kernels", "copy_fixed.asc"))
	testfs.Git(t, repo, "add", "kernels/copy_fixed.asc")
	if code, out := runHook(t, bin, repo, h); code != 0 || strings.Contains(out, "copy.asc:") {
		t.Errorf("hook ascvet on a staged good kernel: exit %d\n%s", code, out)
	}

	// ascvet-new: the committed bad kernel is old news; a new bad line is not.
	testfs.Git(t, repo, "commit", "-q", "-m", "fixed copy")
	hn := manifest["ascvet-new"]
	if code, out := runHook(t, bin, repo, hn); code != 0 {
		t.Errorf("hook ascvet-new with no change: exit %d\n%s", code, out)
	}
	copyFile(t, "../../testdata/kernels/unaligned_bugs.asc", filepath.Join(repo, "kernels", "bugs.asc"))
	testfs.Git(t, repo, "add", "kernels/bugs.asc")
	code, out = runHook(t, bin, repo, hn)
	if code != 1 || !strings.Contains(out, "kernels/bugs.asc") || strings.Contains(out, "kernels/copy.asc") {
		t.Errorf("hook ascvet-new after adding a bad kernel: exit %d, want 1 with bugs.asc only\n%s", code, out)
	}
}

// actionStep is a step of action.yml.
type actionStep struct {
	ID               string            `yaml:"id"`
	Name             string            `yaml:"name"`
	If               string            `yaml:"if"`
	Uses             string            `yaml:"uses"`
	With             map[string]string `yaml:"with"`
	Run              string            `yaml:"run"`
	Env              map[string]string `yaml:"env"`
	WorkingDirectory string            `yaml:"working-directory"`
}

// actionManifest is action.yml.
type actionManifest struct {
	Inputs map[string]struct {
		Default string `yaml:"default"`
	} `yaml:"inputs"`
	Runs struct {
		Steps []actionStep `yaml:"steps"`
	} `yaml:"runs"`
}

func readAction(t *testing.T) actionManifest {
	t.Helper()
	data, err := os.ReadFile("../../action.yml")
	if err != nil {
		t.Fatal(err)
	}
	var action actionManifest
	if err := yaml.Unmarshal(data, &action); err != nil {
		t.Fatal(err)
	}
	return action
}

// actionExpr matches a ${{ expression }} of a workflow.
var actionExpr = regexp.MustCompile(`\$\{\{\s*([^}]*?)\s*\}\}`)

// actionRun is one run of the action's ascvet step.
type actionRun struct {
	out     string            // stdout and stderr
	outputs map[string]string // GITHUB_OUTPUT
	summary string            // GITHUB_STEP_SUMMARY
}

// runActionStep runs step s as the runner would, in workspace, with the
// ascvet binary of dir bin where the build step puts it; ctx gives the
// value of every expression in the step's env and working-directory.
func runActionStep(t *testing.T, s actionStep, bin, workspace string, ctx map[string]string) actionRun {
	t.Helper()
	expand := func(v string) string {
		return actionExpr.ReplaceAllStringFunc(v, func(m string) string {
			e := actionExpr.FindStringSubmatch(m)[1]
			val, ok := ctx[e]
			if !ok {
				t.Fatalf("step %s: no value for ${{ %s }}", s.ID, e)
			}
			return val
		})
	}
	tmp := t.TempDir()
	ctx["runner.temp"] = tmp
	copyFile(t, filepath.Join(bin, "ascvet"), filepath.Join(tmp, "ascvet-bin", "ascvet"))
	if err := os.Chmod(filepath.Join(tmp, "ascvet-bin", "ascvet"), 0o755); err != nil {
		t.Fatal(err)
	}
	outFile, summary := filepath.Join(tmp, "output"), filepath.Join(tmp, "summary.md")
	cmd := exec.Command("bash", "-e", "-c", s.Run)
	cmd.Dir = workspace
	if s.WorkingDirectory != "" {
		cmd.Dir = filepath.Join(workspace, expand(s.WorkingDirectory))
	}
	cmd.Env = append(os.Environ(), "RUNNER_TEMP="+tmp, "GITHUB_OUTPUT="+outFile, "GITHUB_STEP_SUMMARY="+summary, "GITHUB_WORKSPACE="+workspace)
	for k, v := range s.Env {
		cmd.Env = append(cmd.Env, k+"="+expand(v))
	}
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("the action's ascvet step failed: %v\n%s", err, out)
	}
	if dir := s.Env["ASCVET_CACHE"]; dir != "" {
		if entries, err := os.ReadDir(expand(dir)); err != nil || len(entries) == 0 {
			t.Errorf("the run left no result cache in %s (%v) for the next run", expand(dir), err)
		}
	}
	r := actionRun{out: string(out), outputs: map[string]string{}}
	got, _ := os.ReadFile(outFile)
	for _, line := range strings.Split(strings.TrimSpace(string(got)), "\n") {
		if k, v, ok := strings.Cut(line, "="); ok {
			r.outputs[k] = v
		}
	}
	sum, _ := os.ReadFile(summary)
	r.summary = string(sum)
	return r
}

// TestGitHubAction: the workflow of docs/integrations.md uses the action with inputs it
// declares, and the action's ascvet step, run as the runner would, writes
// annotations, a SARIF log and the exit code output; with
// working-directory and only-new-issues on a push, it reports the pushed
// changes only, with file names relative to the workspace.
func TestGitHubAction(t *testing.T) {
	bin := buildAscvet(t)
	var wf struct {
		Jobs map[string]struct {
			Steps []struct {
				Uses string            `yaml:"uses"`
				With map[string]string `yaml:"with"`
			} `yaml:"steps"`
		} `yaml:"jobs"`
	}
	if err := yaml.Unmarshal([]byte(docSnippet(t, "github-actions")), &wf); err != nil {
		t.Fatal(err)
	}
	action := readAction(t)
	var with map[string]string
	for _, j := range wf.Jobs {
		for _, s := range j.Steps {
			if strings.HasPrefix(s.Uses, "ascvet/ascvet@") {
				with = s.With
			}
		}
	}
	if with == nil {
		t.Fatal("the workflow of docs/integrations.md has no step that uses ascvet/ascvet@...")
	}
	ctx := map[string]string{"github.event_name": "pull_request", "github.event.pull_request.base.sha": "", "github.event.before": ""}
	for k, v := range action.Inputs {
		ctx["inputs."+k] = v.Default
	}
	for k, v := range with {
		if _, ok := action.Inputs[k]; !ok {
			t.Errorf("the workflow of docs/integrations.md passes input %q, which action.yml does not declare", k)
		}
		ctx["inputs."+k] = v
	}
	i := slices.IndexFunc(action.Runs.Steps, func(s actionStep) bool { return s.ID == "ascvet" })
	if i < 0 {
		t.Fatal("action.yml has no step with id ascvet")
	}
	step := action.Runs.Steps[i]

	work := t.TempDir()
	for _, k := range []string{"unaligned_copy.asc", "clean.asc"} {
		copyFile(t, filepath.Join("../../testdata/kernels", k), filepath.Join(work, "kernels", k))
	}
	ctx["inputs.paths"] = "kernels" // the snippet's paths are the user's tree
	r := runActionStep(t, step, bin, work, ctx)
	if !strings.Contains(r.out, "::warning file=kernels/unaligned_copy.asc,line=") {
		t.Errorf("no annotation for the bad kernel:\n%s", r.out)
	}
	if r.outputs["exit-code"] != "1" {
		t.Errorf("GITHUB_OUTPUT %q; want exit-code=1", r.outputs)
	}
	if !strings.Contains(r.summary, "ASC1001") {
		t.Errorf("step summary has no table of findings:\n%s", r.summary)
	}
	if _, err := os.Stat(filepath.Join(work, "ascvet.sarif")); err != nil && ctx["inputs.sarif"] == "true" {
		t.Errorf("no ascvet.sarif: %v", err)
	}

	// A monorepo: the kernels under sub/, a push that added a bad kernel.
	testfs.NeedGit(t, "git not installed: not checking only-new-issues")
	mono := t.TempDir()
	for _, k := range []string{"unaligned_copy.asc", "clean.asc"} {
		copyFile(t, filepath.Join("../../testdata/kernels", k), filepath.Join(mono, "sub", "kernels", k))
	}
	testfs.Git(t, mono, "init", "-q")
	testfs.Git(t, mono, "add", ".")
	testfs.Git(t, mono, "commit", "-q", "-m", "old kernels")
	before := strings.TrimSpace(testfs.Git(t, mono, "rev-parse", "HEAD"))
	copyFile(t, "../../testdata/kernels/unaligned_bugs.asc", filepath.Join(mono, "sub", "kernels", "bugs.asc"))
	testfs.Git(t, mono, "add", ".")
	testfs.Git(t, mono, "commit", "-q", "-m", "a new kernel")
	ctx["inputs.working-directory"] = "sub"
	ctx["inputs.only-new-issues"] = "true"
	ctx["inputs.sarif"] = "true"
	ctx["github.event_name"], ctx["github.event.before"] = "push", before
	r = runActionStep(t, step, bin, mono, ctx)
	if !strings.Contains(r.out, "::error file=sub/kernels/bugs.asc,line=22,") || strings.Contains(r.out, "unaligned_copy.asc") {
		t.Errorf("working-directory sub, only-new-issues on a push: want annotations on sub/kernels/bugs.asc only\n%s", r.out)
	}
	if r.outputs["exit-code"] != "1" || r.outputs["sarif-file"] != "sub/ascvet.sarif" {
		t.Errorf("GITHUB_OUTPUT %q; want exit-code=1 and sarif-file=sub/ascvet.sarif", r.outputs)
	}
	sarif, err := os.ReadFile(filepath.Join(mono, "sub", "ascvet.sarif"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(sarif), `"uri": "sub/kernels/bugs.asc"`) || strings.Contains(string(sarif), `"uri": "kernels/bugs.asc"`) {
		t.Errorf("ascvet.sarif should name sub/kernels/bugs.asc, relative to the workspace:\n%.2000s", sarif)
	}
}

// TestGitLabCI: the GitLab job script of docs/integrations.md, run in a shell on a copy
// of a kernel tree, fails on findings and leaves its reports as artifacts.
func TestGitLabCI(t *testing.T) {
	bin := buildAscvet(t)
	var ci map[string]struct {
		Variables map[string]string `yaml:"variables"`
		Cache     struct {
			Paths []string `yaml:"paths"`
		} `yaml:"cache"`
		Script    []string `yaml:"script"`
		Artifacts struct {
			Paths   []string          `yaml:"paths"`
			Reports map[string]string `yaml:"reports"`
		} `yaml:"artifacts"`
	}
	if err := yaml.Unmarshal([]byte(docSnippet(t, "gitlab-ci")), &ci); err != nil {
		t.Fatal(err)
	}
	job, ok := ci["ascvet"]
	if !ok || len(job.Script) == 0 {
		t.Fatalf("the GitLab snippet of docs/integrations.md has no ascvet job with a script")
	}
	work := t.TempDir()
	for _, k := range []string{"unaligned_copy.asc", "clean.asc"} {
		copyFile(t, filepath.Join("../../testdata/kernels", k), filepath.Join(work, "kernels", k))
	}
	var script []string
	for _, line := range job.Script {
		if strings.HasPrefix(line, "go install ") {
			continue // the binary built above is on PATH
		}
		script = append(script, line)
	}
	cmd := exec.Command("bash", "-e", "-c", strings.Join(script, "\n"))
	cmd.Dir = work
	cmd.Env = append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	for k, v := range job.Variables {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	out, err := cmd.CombinedOutput()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 1 {
		t.Errorf("the job's script: %v, want exit 1 on findings\n%s", err, out)
	}
	// The result cache the job keeps between pipelines is where ascvet
	// wrote it.
	if c := job.Variables["ASCVET_CACHE"]; c == "" || !slices.Contains(job.Cache.Paths, c) {
		t.Errorf("the job should keep ascvet's result cache (ASCVET_CACHE %q, cache paths %v)", c, job.Cache.Paths)
	} else if entries, err := os.ReadDir(filepath.Join(work, c)); err != nil || len(entries) == 0 {
		t.Errorf("the job's script left no result cache in %s: %v", c, err)
	}
	for _, p := range job.Artifacts.Paths {
		if _, err := os.Stat(filepath.Join(work, p)); err != nil {
			t.Errorf("artifact %s: %v", p, err)
		}
	}
	// The merge request widget reads the Code Quality report: a JSON array
	// of issues whose paths are relative to the checkout.
	report, ok := job.Artifacts.Reports["codequality"]
	if !ok {
		t.Fatalf("the job declares no artifacts: reports: codequality: (reports %v); GitLab shows nothing in the merge request", job.Artifacts.Reports)
	}
	data, err := os.ReadFile(filepath.Join(work, report))
	if err != nil {
		t.Fatalf("the Code Quality report: %v", err)
	}
	var issues []struct {
		CheckName string `json:"check_name"`
		Location  struct {
			Path string `json:"path"`
		} `json:"location"`
	}
	if err := json.Unmarshal(data, &issues); err != nil || len(issues) == 0 {
		t.Fatalf("the Code Quality report %s: %v, %d issues; want the findings of kernels/unaligned_copy.asc\n%s", report, err, len(issues), data)
	}
	for _, is := range issues {
		if is.Location.Path != "kernels/unaligned_copy.asc" || !strings.HasPrefix(is.CheckName, "ASC") {
			t.Errorf("Code Quality issue %+v; want a rule of kernels/unaligned_copy.asc", is)
		}
	}
}

// TestReadmeConfig: the ascvet.toml of docs/configuration.md loads, and does what its
// comments say, through the driver.
func TestReadmeConfig(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "ascvet.toml"), []byte(docSnippet(t, "config")), 0o644); err != nil {
		t.Fatal(err)
	}
	copyFile(t, "../../testdata/kernels/masks.asc", filepath.Join(dir, "masks.asc"))
	copyFile(t, "../../testdata/kernels/unaligned_copy.asc", filepath.Join(dir, "legacy", "copy.asc"))
	code, out, errs := ascvet(t, "config", "print", "-f", "json", filepath.Join(dir, "masks.asc"))
	if code != exitOK || errs != "" || !strings.Contains(out, "ascvet.toml") {
		t.Fatalf("config print: exit %d, stderr %q\n%s", code, errs, out)
	}
	code, out, errs = ascvet(t, "-fail", "info", dir)
	if code != exitFindings || errs != "" {
		t.Errorf("exit %d, stderr %q", code, errs)
	}
	if strings.Contains(out, "[ASC3004]") || !strings.Contains(out, "[ASC3005]") || strings.Contains(out, "legacy/copy.asc") {
		t.Errorf("the config of docs/configuration.md should drop ASC3004 everywhere and ASC1* under legacy/:\n%s", out)
	}
}

// TestPreCommitRev: the pre-commit snippet of docs/integrations.md (and its GitHub and
// GitLab ones) pins a rev that can be fetched, a full commit hash of this
// repository or one of its tags, so that it cannot name a release that was
// never made; and both hooks run as one process, so that a commit prints
// one summary.
func TestPreCommitRev(t *testing.T) {
	for id, h := range hooks(t) {
		if !h.RequireSerial {
			t.Errorf("hook %s: require_serial is false; pre-commit would split the files over several ascvet processes, each printing a summary", id)
		}
	}
	var cfg struct {
		Repos []struct {
			Repo string `yaml:"repo"`
			Rev  string `yaml:"rev"`
		} `yaml:"repos"`
	}
	if err := yaml.Unmarshal([]byte(docSnippet(t, "pre-commit")), &cfg); err != nil {
		t.Fatal(err)
	}
	if len(cfg.Repos) != 1 {
		t.Fatalf("the pre-commit snippet has %d repos; want 1", len(cfg.Repos))
	}
	checkRev(t, "pre-commit rev", cfg.Repos[0].Rev)
	// The other snippets pin ascvet the same way.
	if m := regexp.MustCompile(`uses: ascvet/ascvet@(\S+)`).FindStringSubmatch(docSnippet(t, "github-actions")); m == nil {
		t.Error("the GitHub Actions snippet does not use ascvet/ascvet@REV")
	} else {
		checkRev(t, "GitHub Actions uses", m[1])
	}
	if m := regexp.MustCompile(`cmd/ascvet@(\S+)`).FindStringSubmatch(docSnippet(t, "gitlab-ci")); m == nil {
		t.Error("the GitLab CI snippet does not go install ascvet@REV")
	} else {
		checkRev(t, "GitLab CI go install", m[1])
	}
}

// checkRev checks that rev, pinned by the snippet what, is a tag
// of this repository or the full hash of one of its commits that has
// .pre-commit-hooks.yaml.
func checkRev(t *testing.T, what, rev string) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		if !regexp.MustCompile(`^[0-9a-f]{40}$`).MatchString(rev) {
			t.Errorf("the %s %q is not a full commit hash (git is not installed, so tags cannot be checked)", what, rev)
		}
		return
	}
	if slices.Contains(strings.Fields(testfs.Git(t, ".", "tag")), rev) {
		return
	}
	if !regexp.MustCompile(`^[0-9a-f]{40}$`).MatchString(rev) {
		t.Errorf("the %s %q is neither a full commit hash nor a tag of this repository (git tag)", what, rev)
		return
	}
	if strings.TrimSpace(testfs.Git(t, ".", "rev-parse", "--is-shallow-repository")) == "true" {
		t.Logf("shallow clone: not checking that %s is a commit of this repository", rev)
		return
	}
	if err := exec.Command("git", "cat-file", "-e", rev+"^{commit}").Run(); err != nil {
		t.Errorf("the %s %s is not a commit of this repository", what, rev)
		return
	}
	if out, err := exec.Command("git", "cat-file", "-e", rev+":.pre-commit-hooks.yaml").CombinedOutput(); err != nil {
		t.Errorf("the %s %s has no .pre-commit-hooks.yaml: %s", what, rev, out)
	}
}
