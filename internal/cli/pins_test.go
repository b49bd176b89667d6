package cli

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/ascvet/ascvet/internal/testfs"
)

// The pre-commit, GitHub Actions and GitLab CI snippets of
// docs/integrations.md pin ascvet to a commit. TestSnippetPins reads each
// snippet's pin and the ascvet command lines it runs, and checks them
// against that commit's sources (git show REV:...): every flag used is
// defined there, every -f format and ASCVET_* variable is known there,
// every hook and action input exists there. A snippet that starts using
// something newer than its pin fails until the pin moves.

// revSources holds what a commit's cmd/ascvet defines: the names of its
// flags (of every flag set: the main command's and the subcommands') and
// every string literal of its code (format names, environment variables).
type revSources struct {
	rev     string
	flags   map[string]bool
	strings map[string]bool
}

// flagMethods are the flag.FlagSet methods that define a flag, with the
// index of the argument that names it.
var flagMethods = map[string]int{
	"Bool": 0, "String": 0, "Int": 0, "Int64": 0, "Uint": 0, "Uint64": 0,
	"Float64": 0, "Duration": 0, "Func": 0, "BoolFunc": 0,
	"BoolVar": 1, "StringVar": 1, "IntVar": 1, "Int64Var": 1, "UintVar": 1,
	"Uint64Var": 1, "Float64Var": 1, "DurationVar": 1, "TextVar": 1, "Var": 1,
}

// pinnedGit returns the git command's output in the repository, and whether
// git ran; it skips the test when there is no git or no repository.
func pinnedGit(t *testing.T, args ...string) (string, bool) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("git is not installed: CI must check the snippets' pinned commit")
		}
		t.Skip("git is not installed: cannot read the sources of the snippets' pinned commit")
	}
	out, err := exec.Command("git", append([]string{"-C", "../.."}, args...)...).Output()
	return string(out), err == nil
}

// sourcesAt parses the non-test Go files of cmd/ascvet at rev. It skips
// the test when the checkout cannot show rev (no .git, a shallow clone).
func sourcesAt(t *testing.T, rev string) *revSources {
	t.Helper()
	if _, ok := pinnedGit(t, "rev-parse", "--git-dir"); !ok {
		if os.Getenv("CI") == "true" {
			t.Fatal("not in a git checkout (no .git): CI must check the snippets' pinned commit")
		}
		t.Skip("not in a git checkout (no .git): cannot read the sources of the snippets' pinned commit")
	}
	if _, ok := pinnedGit(t, "cat-file", "-e", rev+"^{commit}"); !ok {
		if shallow, _ := pinnedGit(t, "rev-parse", "--is-shallow-repository"); strings.TrimSpace(shallow) == "true" {
			t.Skipf("shallow clone without %s: cannot read the sources of the pinned commit (fetch the whole history)", rev)
		}
		t.Fatalf("the pinned %s is not a commit of this repository", rev)
	}
	// The command and the driver packages it grew into (internal/report
	// holds the -f formats since 4b9c7e7).
	list, ok := pinnedGit(t, "ls-tree", "-r", "--name-only", rev, "cmd/ascvet/", "internal/")
	if !ok {
		t.Fatalf("git ls-tree %s cmd/ascvet/ internal/ failed", rev)
	}
	src := &revSources{rev: rev, flags: map[string]bool{}, strings: map[string]bool{}}
	fset := token.NewFileSet()
	for _, name := range strings.Fields(list) {
		if path.Ext(name) != ".go" || strings.HasSuffix(name, "_test.go") || strings.Contains(name, "/testdata/") {
			continue
		}
		text, ok := pinnedGit(t, "show", rev+":"+name)
		if !ok {
			t.Fatalf("git show %s:%s failed", rev, name)
		}
		f, err := parser.ParseFile(fset, name, text, parser.SkipObjectResolution)
		if err != nil {
			t.Fatalf("%s at %s: %v", name, rev, err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.BasicLit:
				if s, err := strconv.Unquote(n.Value); err == nil && n.Kind == token.STRING {
					src.strings[s] = true
				}
			case *ast.CallExpr:
				sel, ok := n.Fun.(*ast.SelectorExpr)
				if !ok {
					break
				}
				i, ok := flagMethods[sel.Sel.Name]
				if !ok || len(n.Args) <= i {
					break
				}
				if lit, ok := n.Args[i].(*ast.BasicLit); ok && lit.Kind == token.STRING {
					if s, err := strconv.Unquote(lit.Value); err == nil {
						src.flags[s] = true
					}
				}
			}
			return true
		})
	}
	if !src.flags["f"] || !src.flags["fail"] {
		t.Fatalf("found no flag -f or -fail in cmd/ascvet at %s (flags %v): the flag definitions moved; teach sourcesAt where", rev, src.sortedFlags())
	}
	return src
}

func (s *revSources) sortedFlags() []string {
	var names []string
	for n := range s.flags {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// unknown returns what an ascvet command line (args, after the program
// name) uses that the pinned commit does not have: flags it does not
// define, -f formats it does not name.
func (s *revSources) unknown(args []string) []string {
	var missing []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			break
		}
		if !strings.HasPrefix(a, "-") || a == "-" {
			continue
		}
		name, value, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if !s.flags[name] {
			missing = append(missing, "-"+name)
			continue
		}
		if name == "f" {
			if !hasValue && i+1 < len(args) {
				value = args[i+1]
			}
			if !s.strings[value] {
				missing = append(missing, "-f "+value)
			}
		}
	}
	return missing
}

// checkArgs reports what an ascvet command line uses that the pinned
// commit does not have.
func (s *revSources) checkArgs(t *testing.T, what string, args []string) {
	t.Helper()
	for _, m := range s.unknown(args) {
		t.Errorf("%s uses %s, which ascvet at the pinned %s does not have; pin a newer commit", what, m, s.rev)
	}
}

// commandArgs returns the arguments of each ascvet command in a shell
// script's lines (a line that starts with ascvet), up to a shell operator.
func commandArgs(lines []string) [][]string {
	var cmds [][]string
	for _, line := range lines {
		fields := strings.Fields(line)
		if len(fields) == 0 || fields[0] != "ascvet" {
			continue
		}
		var args []string
		for _, f := range fields[1:] {
			if strings.ContainsAny(f[:1], "|&;><") {
				break
			}
			args = append(args, strings.Trim(f, `"'`))
		}
		cmds = append(cmds, args)
	}
	return cmds
}

// TestSnippetPins: each integration snippet runs, at its pinned commit,
// only what that commit has.
func TestSnippetPins(t *testing.T) {
	t.Run("pre-commit", func(t *testing.T) {
		var cfg struct {
			Repos []struct {
				Rev   string `yaml:"rev"`
				Hooks []struct {
					ID string `yaml:"id"`
				} `yaml:"hooks"`
			} `yaml:"repos"`
		}
		if err := yaml.Unmarshal([]byte(docSnippet(t, "pre-commit")), &cfg); err != nil || len(cfg.Repos) != 1 {
			t.Fatalf("the pre-commit snippet: %v, %d repos; want 1", err, len(cfg.Repos))
		}
		src := sourcesAt(t, cfg.Repos[0].Rev)
		text, ok := pinnedGit(t, "show", src.rev+":.pre-commit-hooks.yaml")
		if !ok {
			t.Fatalf("the pinned %s has no .pre-commit-hooks.yaml", src.rev)
		}
		var pinned []hook
		if err := yaml.Unmarshal([]byte(text), &pinned); err != nil {
			t.Fatalf(".pre-commit-hooks.yaml at %s: %v", src.rev, err)
		}
		current := hooks(t)
		for _, used := range cfg.Repos[0].Hooks {
			i := slices.IndexFunc(pinned, func(h hook) bool { return h.ID == used.ID })
			if i < 0 {
				t.Errorf("the snippet uses hook %s, which the pinned %s does not define", used.ID, src.rev)
				continue
			}
			if pinned[i].Entry != "ascvet" {
				t.Errorf("hook %s at %s runs %q, not ascvet", used.ID, src.rev, pinned[i].Entry)
			}
			src.checkArgs(t, "hook "+used.ID+" at the pinned commit", pinned[i].Args)
			// The hooks this checkout documents run at the pin too.
			src.checkArgs(t, "hook "+used.ID+" of .pre-commit-hooks.yaml", current[used.ID].Args)
		}
	})
	t.Run("github-actions", func(t *testing.T) {
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
		n := 0
		for _, job := range wf.Jobs {
			for _, step := range job.Steps {
				rev, ok := strings.CutPrefix(step.Uses, "ascvet/ascvet@")
				if !ok {
					continue
				}
				n++
				src := sourcesAt(t, rev)
				text, ok := pinnedGit(t, "show", rev+":action.yml")
				if !ok {
					t.Fatalf("the pinned %s has no action.yml", rev)
				}
				var action struct {
					Inputs map[string]any `yaml:"inputs"`
				}
				if err := yaml.Unmarshal([]byte(text), &action); err != nil {
					t.Fatalf("action.yml at %s: %v", rev, err)
				}
				for in, v := range step.With {
					if _, ok := action.Inputs[in]; !ok {
						t.Errorf("the workflow passes input %s, which the action at the pinned %s does not declare", in, rev)
					}
					if in == "args" {
						src.checkArgs(t, "the workflow's args", strings.Fields(v))
					}
				}
			}
		}
		if n == 0 {
			t.Fatal("the GitHub Actions snippet has no step that uses ascvet/ascvet@REV")
		}
	})
	t.Run("gitlab-ci", func(t *testing.T) {
		var ci map[string]struct {
			Variables map[string]string `yaml:"variables"`
			Script    []string          `yaml:"script"`
		}
		if err := yaml.Unmarshal([]byte(docSnippet(t, "gitlab-ci")), &ci); err != nil {
			t.Fatal(err)
		}
		job := ci["ascvet"]
		var rev string
		for _, line := range job.Script {
			if m := regexp.MustCompile(`^go install github\.com/ascvet/ascvet/cmd/ascvet@(\S+)$`).FindStringSubmatch(line); m != nil {
				rev = m[1]
			}
		}
		if rev == "" {
			t.Fatalf("the GitLab job installs no github.com/ascvet/ascvet/cmd/ascvet@REV: %q", job.Script)
		}
		src := sourcesAt(t, rev)
		cmds := commandArgs(job.Script)
		if len(cmds) == 0 {
			t.Fatalf("the GitLab job runs no ascvet command: %q", job.Script)
		}
		for _, args := range cmds {
			src.checkArgs(t, "the GitLab job", args)
		}
		for v := range job.Variables {
			if strings.HasPrefix(v, "ASCVET_") && !src.strings[v] {
				t.Errorf("the GitLab job sets %s, which ascvet at the pinned %s does not read; pin a newer commit", v, rev)
			}
		}
	})
}

// TestSourcesAt: the flags and strings sourcesAt finds at HEAD are the
// ones ascvet -h lists, and the commit the snippets pinned before the
// progress line and the result cache has neither -q nor ASCVET_CACHE.
func TestSourcesAt(t *testing.T) {
	head := sourcesAt(t, "HEAD")
	fs, _ := mainFlags(nil)
	for _, name := range []string{"q", "cache", "fail", "new-from-rev", "baseline", "sarif-category", "o"} {
		if fs.Lookup(name) != nil && !head.flags[name] {
			t.Errorf("sourcesAt(HEAD) misses the flag -%s", name)
		}
	}
	for _, s := range []string{"sarif", "checkstyle", "ASCVET_CACHE"} {
		if !head.strings[s] {
			t.Errorf("sourcesAt(HEAD) misses the string %q", s)
		}
	}
	const old = "f716eabefd3c2f3dd8ee27a3d6732f89b927dd47"
	if _, ok := pinnedGit(t, "cat-file", "-e", old+"^{commit}"); !ok {
		t.Skipf("%s is not in this checkout", old)
	}
	src := sourcesAt(t, old)
	if src.flags["q"] || src.flags["cache"] || src.strings["ASCVET_CACHE"] {
		t.Errorf("at %s sourcesAt finds -q %v, -cache %v, ASCVET_CACHE %v; want none", old, src.flags["q"], src.flags["cache"], src.strings["ASCVET_CACHE"])
	}
	// The GitLab job of then, with the flags of now.
	got := src.unknown([]string{"-q", "-f", "text", "-f", "codequality", "-o", "gl.json", "-cache", "off", "kernels"})
	if want := []string{"-q", "-f codequality", "-cache"}; !slices.Equal(got, want) {
		t.Errorf("at %s unknown reports %q; want %q", old, got, want)
	}
}

// TestSnippetPinsBuild builds each pinned commit (git archive, go build)
// and runs the snippets' ascvet command lines with it on a copy of two
// example kernels, in a git repository as CI and pre-commit run them:
// each must check the kernels (exit 0 or 1), not stop at a usage error.
// It takes a build per pinned commit, so it runs under CI=true or
// ASCVET_PIN_BUILD=1; TestSnippetPins checks the same from the sources.
func TestSnippetPinsBuild(t *testing.T) {
	if os.Getenv("CI") != "true" && os.Getenv("ASCVET_PIN_BUILD") != "1" {
		t.Skip("builds the snippets' pinned commits; set ASCVET_PIN_BUILD=1 (or CI=true) to run it")
	}
	if testing.Short() || raceEnabled {
		t.Skip("builds ascvet; skipped with -short and -race")
	}
	type run struct {
		what, rev string
		args, env []string
	}
	var runs []run
	var pc struct {
		Repos []struct {
			Rev   string `yaml:"rev"`
			Hooks []struct {
				ID string `yaml:"id"`
			} `yaml:"hooks"`
		} `yaml:"repos"`
	}
	if err := yaml.Unmarshal([]byte(docSnippet(t, "pre-commit")), &pc); err != nil || len(pc.Repos) != 1 {
		t.Fatalf("the pre-commit snippet: %v", err)
	}
	rev := pc.Repos[0].Rev
	sourcesAt(t, rev) // skips without the commit
	text, _ := pinnedGit(t, "show", rev+":.pre-commit-hooks.yaml")
	var pinned []hook
	if err := yaml.Unmarshal([]byte(text), &pinned); err != nil {
		t.Fatal(err)
	}
	for _, used := range pc.Repos[0].Hooks {
		for _, h := range pinned {
			if h.ID == used.ID {
				args := slices.Clone(h.Args)
				if h.PassFilenames == nil || *h.PassFilenames {
					args = append(args, "kernels/copy.asc")
				}
				runs = append(runs, run{"pre-commit hook " + h.ID, rev, args, nil})
			}
		}
	}
	if m := regexp.MustCompile(`uses: ascvet/ascvet@(\S+)(?s:.*?)args: ([^\n]*)`).FindStringSubmatch(docSnippet(t, "github-actions")); m != nil {
		runs = append(runs, run{"GitHub Actions args", m[1], append(strings.Fields(m[2]), "kernels"), nil})
	}
	var ci map[string]struct {
		Variables map[string]string `yaml:"variables"`
		Script    []string          `yaml:"script"`
	}
	if err := yaml.Unmarshal([]byte(docSnippet(t, "gitlab-ci")), &ci); err != nil {
		t.Fatal(err)
	}
	if m := regexp.MustCompile(`cmd/ascvet@(\S+)`).FindStringSubmatch(strings.Join(ci["ascvet"].Script, "\n")); m != nil {
		var env []string
		for k, v := range ci["ascvet"].Variables {
			env = append(env, k+"="+v)
		}
		for _, args := range commandArgs(ci["ascvet"].Script) {
			runs = append(runs, run{"GitLab job", m[1], args, env})
		}
	}
	if len(runs) < 4 {
		t.Fatalf("found %d snippet command lines; want the two hooks, the action's args and the GitLab job", len(runs))
	}
	bins := map[string]string{}
	for _, r := range runs {
		if bins[r.rev] != "" {
			continue
		}
		src := t.TempDir()
		if out, err := exec.Command("bash", "-c", `git -C ../.. archive "$1" | tar -x -C "$2"`, "archive", r.rev, src).CombinedOutput(); err != nil {
			t.Fatalf("git archive %s: %v\n%s", r.rev, err, out)
		}
		bin := filepath.Join(t.TempDir(), "ascvet")
		build := exec.Command("go", "build", "-o", bin, "./cmd/ascvet")
		build.Dir = src
		if out, err := build.CombinedOutput(); err != nil {
			t.Fatalf("the pinned %s does not build: %v\n%s", r.rev, err, out)
		}
		bins[r.rev] = bin
	}
	for _, r := range runs {
		work := t.TempDir()
		copyFile(t, "../../testdata/kernels/clean.asc", filepath.Join(work, "kernels", "clean.asc"))
		testfs.Git(t, work, "init", "-q")
		testfs.Git(t, work, "add", ".")
		testfs.Git(t, work, "commit", "-q", "-m", "clean")
		copyFile(t, "../../testdata/kernels/unaligned_copy.asc", filepath.Join(work, "kernels", "copy.asc"))
		cmd := exec.Command(bins[r.rev], r.args...)
		cmd.Dir = work
		cmd.Env = append(os.Environ(), r.env...)
		code, out := exitAndOutput(t, cmd)
		if code != 1 || !strings.Contains(out, "copy.asc:17:9:") {
			t.Errorf("%s at the pinned %s: ascvet %s: exit %d; want 1 with the findings of copy.asc\n%s", r.what, r.rev, strings.Join(r.args, " "), code, out)
		}
	}
}
