package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ascvet/ascvet/internal/report"
	"github.com/ascvet/ascvet/internal/report/reporttest"
	"github.com/ascvet/ascvet/internal/testfs"
	"github.com/ascvet/ascvet/ruleset/baseline"
)

// needGit skips a test that needs a git repository when there is no git
// (and fails it under CI=true: testfs.NeedGit).
func needGit(t *testing.T) {
	t.Helper()
	testfs.NeedGit(t, "git not found: this test needs a git repository")
}

// inDir runs the driver in dir and returns to the test's directory (so
// a test that calls it must not be parallel).
func inDir(t *testing.T, dir string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	old, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Chdir(dir); err != nil {
		t.Fatal(err)
	}
	defer func() {
		if err := os.Chdir(old); err != nil {
			t.Fatal(err)
		}
	}()
	return ascvet(t, args...)
}

// scratchRepo makes parent/sub a git repository holding two kernels with
// findings, one in a subdirectory, committed, and returns parent and sub.
func scratchRepo(t *testing.T) (parent, sub string) {
	t.Helper()
	needGit(t)
	parent = t.TempDir()
	t.Setenv("GIT_CEILING_DIRECTORIES", parent)
	sub = filepath.Join(parent, "sub")
	if err := os.MkdirAll(filepath.Join(sub, "k"), 0o755); err != nil {
		t.Fatal(err)
	}
	copyFile(t, "../../testdata/kernels/unaligned_copy.asc", filepath.Join(sub, "copy.asc"))
	copyFile(t, "../../testdata/kernels/masks.asc", filepath.Join(sub, "k", "masks.asc"))
	testfs.Git(t, sub, "init", "-q")
	testfs.Git(t, sub, "add", ".")
	testfs.Git(t, sub, "commit", "-q", "-m", "kernels")
	return parent, sub
}

// keys is what must not depend on the working directory: per finding, in
// order, its rule and fingerprints, and its SARIF location.
type keys struct {
	JSON  []string // rule fingerprint
	SARIF []string // rule uriBaseId uri line ascvet/v1 primaryLocationLineHash
	Base  string   // originalUriBaseIds[%SRCROOT%]
}

func runKeys(t *testing.T, dir string, path string) keys {
	t.Helper()
	jsonOut := filepath.Join(t.TempDir(), "out.json")
	code, out, errs := inDir(t, dir, "-f", "json", "-o", jsonOut, "-f", "sarif", path)
	if code != exitFindings || errs != "" {
		t.Fatalf("in %s, ascvet %s: exit %d, stderr %q", dir, path, code, errs)
	}
	reporttest.ValidateSARIF(t, out)
	var k keys
	var log struct {
		Runs []struct {
			Bases   map[string]struct{ URI string } `json:"originalUriBaseIds"`
			Results []struct {
				RuleID    string `json:"ruleId"`
				Locations []struct {
					PhysicalLocation struct {
						ArtifactLocation struct {
							URI       string `json:"uri"`
							URIBaseID string `json:"uriBaseId"`
						} `json:"artifactLocation"`
						Region struct {
							StartLine int `json:"startLine"`
						} `json:"region"`
					} `json:"physicalLocation"`
				} `json:"locations"`
				Partial map[string]string `json:"partialFingerprints"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal([]byte(out), &log); err != nil {
		t.Fatal(err)
	}
	run := log.Runs[0]
	k.Base = run.Bases[report.SrcRoot].URI
	for _, r := range run.Results {
		loc := r.Locations[0].PhysicalLocation
		k.SARIF = append(k.SARIF, strings.Join([]string{r.RuleID, loc.ArtifactLocation.URIBaseID, loc.ArtifactLocation.URI,
			itoa(loc.Region.StartLine), r.Partial["ascvet/v1"], r.Partial["primaryLocationLineHash"]}, " "))
	}
	data, err := os.ReadFile(jsonOut)
	if err != nil {
		t.Fatal(err)
	}
	var rep report.JSONReport
	if err := json.Unmarshal(data, &rep); err != nil {
		t.Fatal(err)
	}
	findings := rep.Findings
	for _, f := range findings {
		k.JSON = append(k.JSON, f.Rule+" "+f.Fingerprint)
	}
	return k
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}

// TestKeysIndependentOfWorkDir: the same findings have the same
// fingerprints, SARIF URIs and baseline entries whether ascvet runs in the
// repository on ".", in its parent on "sub", or elsewhere on an absolute
// path; a baseline written from one place suppresses everything from the
// others; and a version 1 baseline, keyed on paths from the directory that
// wrote it, still matches.
func TestKeysIndependentOfWorkDir(t *testing.T) {
	parent, sub := scratchRepo(t)
	elsewhere := t.TempDir()
	runs := []struct{ dir, path string }{{sub, "."}, {parent, "sub"}, {elsewhere, sub}}

	var first keys
	for i, r := range runs {
		k := runKeys(t, r.dir, r.path)
		if len(k.JSON) == 0 || len(k.SARIF) != len(k.JSON) {
			t.Fatalf("in %s, %s: %d JSON findings, %d SARIF results", r.dir, r.path, len(k.JSON), len(k.SARIF))
		}
		if k.Base != report.DirURI(sub) {
			t.Errorf("in %s, %s: %%SRCROOT%% is %q; want the repository root %q", r.dir, r.path, k.Base, report.DirURI(sub))
		}
		for _, s := range k.SARIF {
			if f := strings.Fields(s); f[1] != report.SrcRoot || strings.Contains(f[2], ":") || strings.HasPrefix(f[2], "sub/") {
				t.Errorf("in %s, %s: result %q; want a URI relative to %%SRCROOT%%", r.dir, r.path, s)
			}
		}
		if i == 0 {
			first = k
			continue
		}
		if !slices.Equal(k.JSON, first.JSON) || !slices.Equal(k.SARIF, first.SARIF) {
			t.Errorf("in %s, %s the keys differ from those in %s, %s:\n%q\n%q\nwant\n%q\n%q",
				r.dir, r.path, runs[0].dir, runs[0].path, k.JSON, k.SARIF, first.JSON, first.SARIF)
		}
	}

	// A baseline written from any of the three places suppresses every
	// finding from the other two, with no stale entry.
	for i, w := range runs {
		base := filepath.Join(elsewhere, "baseline.json")
		if code, _, errs := inDir(t, w.dir, "-write-baseline", base, w.path); code != exitOK || !strings.Contains(errs, "wrote") {
			t.Fatalf("in %s, -write-baseline %s: exit %d, stderr %q", w.dir, w.path, code, errs)
		}
		for j, r := range runs {
			if i == j {
				continue
			}
			code, out, errs := inDir(t, r.dir, "-baseline", base, r.path)
			if code != exitOK || errs != "" || !strings.HasPrefix(out, "no findings") {
				t.Errorf("baseline written in %s on %s, read in %s on %s: exit %d, stderr %q\n%s", w.dir, w.path, r.dir, r.path, code, errs, out)
			}
		}
	}
	b, err := baseline.Read(filepath.Join(elsewhere, "baseline.json"))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range b.Entries {
		if e.Path != "copy.asc" && e.Path != "k/masks.asc" {
			t.Errorf("baseline entry path %q; want it from the repository root", e.Path)
		}
	}

	// A version 1 baseline written from the parent directory on "sub":
	// its paths ("sub/copy.asc") are relative to the parent, where the
	// baseline file is, and still match from the repository itself.
	_, out, _ := inDir(t, parent, "-f", "json", "sub")
	var rep report.JSONReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	findings := rep.Findings
	var old []baseline.Entry
	for _, f := range findings {
		src, err := os.ReadFile(filepath.Join(parent, f.File))
		if err != nil {
			t.Fatal(err)
		}
		snippet := baseline.Snippet(src, f.Line, f.EndLine)
		rel, _ := filepath.Rel(sub, filepath.Join(parent, f.File))
		if baseline.Fingerprint(f.Rule, filepath.ToSlash(rel), snippet) != f.Fingerprint {
			t.Fatalf("%s:%d: cannot recompute the fingerprint", f.File, f.Line)
		}
		old = append(old, baseline.Entry{Rule: f.Rule, Path: filepath.ToSlash(f.File), Fingerprint: baseline.Fingerprint(f.Rule, f.File, snippet), Message: f.Message, Line: f.Line})
	}
	data, err := json.MarshalIndent(baseline.Baseline{Version: baseline.LegacyVersion, Tool: baseline.Tool, Entries: old}, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	legacy := filepath.Join(parent, "old-baseline.json")
	if err := os.WriteFile(legacy, data, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, r := range runs {
		code, out, errs := inDir(t, r.dir, "-baseline", legacy, r.path)
		if code != exitOK || errs != "" || !strings.HasPrefix(out, "no findings") {
			t.Errorf("version 1 baseline, in %s on %s: exit %d, stderr %q\n%s", r.dir, r.path, code, errs, out)
		}
	}
}

// TestConfigStopsAtRepoRoot: an ascvet.toml above a git repository that
// disables a rule is ignored in the repository (and config print names
// it); root = false in the repository's topmost ascvet.toml inherits it;
// root = true below the repository root stops the walk there.
func TestConfigStopsAtRepoRoot(t *testing.T) {
	parent, sub := scratchRepo(t)
	testfs.Put(t, parent, "ascvet.toml", "checks = [\"all\", \"-ASC1001\"]\n")
	has := func(out, what string) bool { return strings.Contains(out, what) }

	code, out, errs := inDir(t, sub, ".")
	if code != exitFindings || errs != "" || !has(out, "copy.asc:17:") || !has(out, "[ASC1001]") {
		t.Errorf("stray ascvet.toml above the repository: exit %d, stderr %q; want ASC1001 reported\n%s", code, errs, out)
	}
	_, out, _ = inDir(t, parent, "config", "print", "sub/copy.asc")
	if !has(out, "configuration files: none") || !has(out, "not read, above sub ") || !has(out, "  ascvet.toml\n") {
		t.Errorf("config print does not say the stray file was not read:\n%s", out)
	}

	testfs.Put(t, sub, "ascvet.toml", "root = false\n")
	if _, out, _ := inDir(t, sub, "."); has(out, "[ASC1001]") {
		t.Errorf("root = false at the repository root: ASC1001 still reported\n%s", out)
	}
	_, out, _ = inDir(t, sub, "config", "print", "copy.asc")
	if !has(out, filepath.Join(parent, "ascvet.toml")) || has(out, "not read") {
		t.Errorf("root = false: config print does not list the inherited file:\n%s", out)
	}

	copyFile(t, "../../testdata/kernels/unaligned_copy.asc", filepath.Join(sub, "k", "copy.asc"))
	testfs.Put(t, sub, "k/ascvet.toml", "root = true\n")
	_, out, _ = inDir(t, sub, ".")
	if !has(out, filepath.Join("k", "copy.asc")+":17:") || !has(out, "[ASC1001]") || has(out, "\ncopy.asc:17:") || strings.HasPrefix(out, "copy.asc:17:") {
		t.Errorf("root = true in k: want ASC1001 in k/copy.asc only\n%s", out)
	}
}

// TestSARIFInvocation: the invocation names no absolute path, as no other
// part of the log does but originalUriBaseIds: the working directory is
// relative to the base id of its root, the arguments' absolute paths
// relative to it, and what cannot be expressed so is left out; the log
// validates.
func TestSARIFInvocation(t *testing.T) {
	parent, sub := scratchRepo(t)
	elsewhere := t.TempDir()
	out := filepath.Join(sub, "k", "out.sarif")
	for _, tc := range []struct {
		dir  string
		args []string
		wd   string   // uriBaseId and uri of workingDirectory, "" for none
		argv []string // the arguments, nil for none
	}{
		{sub, []string{"-f", "sarif", "."}, report.SrcRoot + " ./", []string{"-f", "sarif", "."}},
		{filepath.Join(sub, "k"), []string{"-f", "sarif", "-o=" + out, filepath.Join(sub, "copy.asc"), "masks.asc"},
			report.SrcRoot + " k/", []string{"-f", "sarif", "-o=out.sarif", filepath.Join("..", "copy.asc"), "masks.asc"}},
		{sub, []string{"-f", "sarif", "-o", filepath.Join(elsewhere, "out.sarif"), "."}, report.SrcRoot + " ./", nil},
		{parent, []string{"-f", "sarif", "sub"}, "", []string{"-f", "sarif", "sub"}},
		{elsewhere, []string{"-f", "sarif", sub}, "", nil},
	} {
		name := "in " + tc.dir + ", ascvet " + strings.Join(tc.args, " ")
		code, stdout, errs := inDir(t, tc.dir, tc.args...)
		if code != exitFindings || errs != "" {
			t.Fatalf("%s: exit %d, stderr %q", name, code, errs)
		}
		for i, a := range tc.args {
			file, ok := strings.CutPrefix(a, "-o=")
			if a == "-o" {
				file, ok = tc.args[i+1], true
			}
			if ok {
				data, err := os.ReadFile(file)
				if err != nil {
					t.Fatal(err)
				}
				stdout = string(data)
			}
		}
		reporttest.ValidateSARIF(t, stdout)
		var doc any
		if err := json.Unmarshal([]byte(stdout), &doc); err != nil {
			t.Fatal(err)
		}
		// No string of the log names the scratch directories, but the
		// base ids.
		var walk func(path string, v any)
		walk = func(path string, v any) {
			switch v := v.(type) {
			case map[string]any:
				for k, e := range v {
					if path == "/runs/0" && k == "originalUriBaseIds" {
						continue
					}
					walk(path+"/"+k, e)
				}
			case []any:
				for i, e := range v {
					walk(path+"/"+itoa(i), e)
				}
			case string:
				if strings.Contains(v, parent) || strings.Contains(v, elsewhere) || strings.HasPrefix(v, "file:") {
					t.Errorf("%s: %s is %q, an absolute path", name, path, v)
				}
			}
		}
		walk("", doc)

		var log struct {
			Runs []struct {
				Invocations []struct {
					Arguments        []string `json:"arguments"`
					WorkingDirectory *struct {
						URI       string `json:"uri"`
						URIBaseID string `json:"uriBaseId"`
					} `json:"workingDirectory"`
				} `json:"invocations"`
			} `json:"runs"`
		}
		if err := json.Unmarshal([]byte(stdout), &log); err != nil {
			t.Fatal(err)
		}
		inv := log.Runs[0].Invocations[0]
		wd := ""
		if w := inv.WorkingDirectory; w != nil {
			wd = w.URIBaseID + " " + w.URI
		}
		if wd != tc.wd || !slices.Equal(inv.Arguments, tc.argv) {
			t.Errorf("%s: workingDirectory %q, arguments %q; want %q, %q", name, wd, inv.Arguments, tc.wd, tc.argv)
		}
	}
}
