package cli

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// TestActionManifest: action.yml offers the inputs docs/integrations.md documents,
// builds ascvet only when the cached binary is missing, and its shell
// steps parse (bash -n; shellcheck too where it is installed).
func TestActionManifest(t *testing.T) {
	action := readAction(t)
	doc, err := os.ReadFile("../../docs/integrations.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, in := range []string{"paths", "args", "sarif", "category", "version", "working-directory", "only-new-issues", "go-version"} {
		if _, ok := action.Inputs[in]; !ok {
			t.Errorf("action.yml has no input %s", in)
		}
		if !strings.Contains(string(doc), "| `"+in+"` |") {
			t.Errorf("docs/integrations.md's table of the action's inputs has no row for %s", in)
		}
	}
	var restore, build, setupGo *actionStep
	for i := range action.Runs.Steps {
		s := &action.Runs.Steps[i]
		switch {
		case strings.HasPrefix(s.Uses, "actions/cache/restore@") && restore == nil:
			restore = s
		case strings.HasPrefix(s.Uses, "actions/setup-go@"):
			setupGo = s
		case s.Name == "Build ascvet":
			build = s
		}
	}
	if restore == nil || restore.ID == "" || !strings.Contains(restore.With["path"], "ascvet-bin") {
		t.Fatal("action.yml has no actions/cache/restore step, with an id, for the ascvet binary")
	}
	hit := "steps." + restore.ID + ".outputs.cache-hit != 'true'"
	if build == nil || !strings.Contains(build.If, hit) {
		t.Errorf("the Build ascvet step should run only on a cache miss (if: %s)", hit)
	}
	if setupGo == nil || !strings.Contains(setupGo.If, hit) {
		t.Errorf("setup-go should run only on a cache miss (if: %s)", hit)
	}
	saved := false
	for _, s := range action.Runs.Steps {
		saved = saved || strings.HasPrefix(s.Uses, "actions/cache/save@") && s.With["path"] == restore.With["path"]
	}
	if !saved {
		t.Error("action.yml restores the ascvet binary but never saves it (actions/cache/save)")
	}

	// ascvet's result cache is kept from one run to the next: restored
	// before the run, given to it by ASCVET_CACHE, saved even when the run
	// fails on findings.
	var results, runStep, saveResults *actionStep
	for i := range action.Runs.Steps {
		s := &action.Runs.Steps[i]
		switch {
		case strings.HasPrefix(s.Uses, "actions/cache/restore@") && strings.Contains(s.With["path"], "ascvet-results"):
			results = s
		case s.ID == "ascvet":
			runStep = s
		case strings.HasPrefix(s.Uses, "actions/cache/save@") && strings.Contains(s.With["path"], "ascvet-results"):
			saveResults = s
		}
	}
	switch {
	case results == nil || results.ID == "" || results.With["restore-keys"] == "" || !strings.Contains(results.With["key"], "github.sha"):
		t.Error("action.yml should restore ascvet's result cache, keyed on the commit with a restore-keys prefix")
	case runStep == nil || runStep.Env["ASCVET_CACHE"] != results.With["path"]:
		t.Error("the Run ascvet step should point ASCVET_CACHE at the restored result cache")
	case saveResults == nil || !strings.Contains(saveResults.If, "always()"):
		t.Error("action.yml should save ascvet's result cache even when the run fails (if: always())")
	}

	_, shellcheckErr := exec.LookPath("shellcheck")
	if shellcheckErr != nil {
		t.Log("shellcheck is not installed: the run blocks get bash -n only")
	}
	for _, s := range action.Runs.Steps {
		if s.Run == "" {
			continue
		}
		// The runner substitutes ${{ expressions }} before the shell sees
		// the script; a word stands in for them.
		script := actionExpr.ReplaceAllString(s.Run, "EXPR")
		if out, err := exec.Command("bash", "-n", "-c", script).CombinedOutput(); err != nil {
			t.Errorf("step %q: bash -n: %v\n%s", s.Name+s.ID, err, out)
		}
		if shellcheckErr == nil {
			cmd := exec.Command("shellcheck", "-s", "bash", "-")
			cmd.Stdin = strings.NewReader(script)
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Errorf("step %q: shellcheck: %v\n%s", s.Name+s.ID, err, out)
			}
		}
	}
}
