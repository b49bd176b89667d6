package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// The VS Code extension in editors/vscode is plain JavaScript that starts
// ascvet lsp. These tests hold it to what its README and the server expect:
// TestVSCodeManifest reads package.json; TestVSCodeExtensionSyntax has node
// parse extension.js; TestVSCodeExtensionStarts runs it under node against
// stand-ins for the vscode and vscode-languageclient modules and checks the
// command it starts, the documents it routes to the server, and its error
// messages; TestVSCodeNPM installs the real client library (opt-in).

const vscodeDir = "../../editors/vscode"

// vscodeManifest is the part of editors/vscode/package.json the tests read.
type vscodeManifest struct {
	Name             string            `json:"name"`
	DisplayName      string            `json:"displayName"`
	Publisher        string            `json:"publisher"`
	Main             string            `json:"main"`
	Engines          map[string]string `json:"engines"`
	ActivationEvents []string          `json:"activationEvents"`
	Dependencies     map[string]string `json:"dependencies"`
	Capabilities     struct {
		UntrustedWorkspaces struct {
			Supported                string   `json:"supported"`
			RestrictedConfigurations []string `json:"restrictedConfigurations"`
		} `json:"untrustedWorkspaces"`
	} `json:"capabilities"`
	Contributes struct {
		Languages []struct {
			ID            string   `json:"id"`
			Extensions    []string `json:"extensions"`
			Configuration string   `json:"configuration"`
		} `json:"languages"`
		Grammars []struct {
			Language  string `json:"language"`
			ScopeName string `json:"scopeName"`
			Path      string `json:"path"`
		} `json:"grammars"`
		Configuration struct {
			Properties map[string]struct {
				Type    string          `json:"type"`
				Default json.RawMessage `json:"default"`
				Enum    []string        `json:"enum"`
			} `json:"properties"`
		} `json:"configuration"`
		Commands []struct {
			Command  string `json:"command"`
			Title    string `json:"title"`
			Category string `json:"category"`
		} `json:"commands"`
	} `json:"contributes"`
}

func readVSCodeManifest(t *testing.T) vscodeManifest {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(vscodeDir, "package.json"))
	if err != nil {
		t.Fatal(err)
	}
	var m vscodeManifest
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatalf("editors/vscode/package.json: %v", err)
	}
	return m
}

// TestVSCodeManifest: package.json names the extension, its entry point,
// settings with their defaults, the restart command, the activation events
// and the client library, and every file it points to exists; the README
// documents the settings, the command and the setup step.
func TestVSCodeManifest(t *testing.T) {
	m := readVSCodeManifest(t)
	for field, got := range map[string][2]string{
		"name":           {m.Name, "ascvet"},
		"publisher":      {m.Publisher, "ascvet"},
		"displayName":    {m.DisplayName, "ascvet — Ascend C VF linter"},
		"main":           {m.Main, "./extension.js"},
		"engines.vscode": {m.Engines["vscode"], ">=1.82.0"},
	} {
		if got[0] != got[1] {
			t.Errorf("package.json %s is %q, want %q", field, got[0], got[1])
		}
	}
	if _, err := os.Stat(filepath.Join(vscodeDir, m.Main)); err != nil {
		t.Errorf("package.json main: %v", err)
	}

	props := m.Contributes.Configuration.Properties
	for name, want := range map[string]struct{ typ, def string }{
		"ascvet.path":         {"string", `"ascvet"`},
		"ascvet.args":         {"array", `[]`},
		"ascvet.trace.server": {"string", `"off"`},
	} {
		p, ok := props[name]
		if !ok {
			t.Errorf("package.json contributes no setting %s", name)
			continue
		}
		var def bytes.Buffer
		if err := json.Compact(&def, p.Default); err != nil || p.Type != want.typ || def.String() != want.def {
			t.Errorf("setting %s has type %q and default %s, want %q and %s", name, p.Type, p.Default, want.typ, want.def)
		}
	}
	if enum := props["ascvet.trace.server"].Enum; !slices.Equal(enum, []string{"off", "messages", "verbose"}) {
		t.Errorf("ascvet.trace.server takes %q, want off, messages, verbose (the client reads these)", enum)
	}
	// A workspace must not choose the executable VS Code runs unless it is trusted.
	if r := m.Capabilities.UntrustedWorkspaces.RestrictedConfigurations; !slices.Contains(r, "ascvet.path") || !slices.Contains(r, "ascvet.args") {
		t.Errorf("untrustedWorkspaces.restrictedConfigurations is %q; it should hold ascvet.path and ascvet.args", r)
	}

	restart := false
	for _, c := range m.Contributes.Commands {
		restart = restart || c.Command == "ascvet.restartServer" && c.Category+": "+c.Title == "ascvet: Restart language server"
	}
	if !restart {
		t.Errorf("package.json contributes no command ascvet.restartServer shown as \"ascvet: Restart language server\": %+v", m.Contributes.Commands)
	}

	for _, ev := range []string{"onLanguage:cpp", "onLanguage:c", "onLanguage:ascendc", "workspaceContains:**/*.asc", "workspaceContains:**/ascvet.toml"} {
		if !slices.Contains(m.ActivationEvents, ev) {
			t.Errorf("activationEvents %q lack %s", m.ActivationEvents, ev)
		}
	}
	if v := m.Dependencies["vscode-languageclient"]; !strings.HasPrefix(strings.TrimLeft(v, "^~"), "9.") {
		t.Errorf("dependencies name vscode-languageclient %q, want 9.x", v)
	}

	// .asc is the language ascendc, highlighted by a grammar that exists.
	asc := false
	for _, l := range m.Contributes.Languages {
		asc = asc || l.ID == "ascendc" && slices.Contains(l.Extensions, ".asc")
		if _, err := os.Stat(filepath.Join(vscodeDir, l.Configuration)); l.Configuration != "" && err != nil {
			t.Errorf("language %s: %v", l.ID, err)
		}
	}
	if !asc {
		t.Error("package.json contributes no language ascendc for .asc files")
	}
	for _, g := range m.Contributes.Grammars {
		data, err := os.ReadFile(filepath.Join(vscodeDir, g.Path))
		if err != nil {
			t.Errorf("grammar for %s: %v", g.Language, err)
			continue
		}
		var grammar struct {
			ScopeName string `json:"scopeName"`
		}
		if err := json.Unmarshal(data, &grammar); err != nil || grammar.ScopeName != g.ScopeName {
			t.Errorf("grammar %s has scopeName %q (%v), package.json says %q", g.Path, grammar.ScopeName, err, g.ScopeName)
		}
	}

	readme, err := os.ReadFile(filepath.Join(vscodeDir, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	for name := range props {
		if !strings.Contains(string(readme), "`"+name+"`") {
			t.Errorf("editors/vscode/README.md does not document the setting %s", name)
		}
	}
	for _, s := range []string{"npm install", "ascvet.restartServer", "--install-extension", vscodeInstallCommand(t)} {
		if !strings.Contains(string(readme), s) {
			t.Errorf("editors/vscode/README.md does not say %q", s)
		}
	}
}

// TestVSCodeActivation: the extension starts where there are kernels, not
// on every Python file. VS Code's activation is simulated from
// package.json's activationEvents: a workspace of files, and the language
// of the file opened. A Python project without kernels does not start it;
// a .py kernel in a project with an ascvet.toml or .asc files does, as do
// the C++ kinds. (Once started, the server gets the .py documents too:
// TestVSCodeExtensionStarts.)
func TestVSCodeActivation(t *testing.T) {
	m := readVSCodeManifest(t)
	for _, ev := range m.ActivationEvents {
		switch {
		case ev == "*", ev == "onStartupFinished", ev == "onLanguage:python":
			t.Errorf("activation event %s starts the extension in every (Python) workspace", ev)
		case strings.HasPrefix(ev, "workspaceContains:"):
			if g := strings.TrimPrefix(ev, "workspaceContains:"); !strings.HasPrefix(g, "**/") || strings.ContainsAny(g[3:], "/{") {
				t.Errorf("activation event %s: the simulation below knows only **/NAME globs", ev)
			}
		case strings.HasPrefix(ev, "onLanguage:"):
		default:
			t.Errorf("activation event %s: the simulation below does not know it", ev)
		}
	}
	activates := func(files []string, lang string) bool {
		for _, ev := range m.ActivationEvents {
			if l, ok := strings.CutPrefix(ev, "onLanguage:"); ok && l == lang {
				return true
			}
			if g, ok := strings.CutPrefix(ev, "workspaceContains:**/"); ok {
				for _, f := range files {
					if ok, _ := path.Match(g, path.Base(f)); ok {
						return true
					}
				}
			}
		}
		return false
	}
	for _, tc := range []struct {
		name  string
		files []string // the workspace
		lang  string   // the language of the file opened
		want  bool
	}{
		{"a Python project without kernels", []string{"app.py", "lib/util.py", "setup.cfg"}, "python", false},
		{"a .py kernel beside an ascvet.toml", []string{"ascvet.toml", "kernels/scale_rows.py"}, "python", true},
		{"a .py kernel under a nested ascvet.toml", []string{"README.md", "ops/vf/ascvet.toml", "ops/vf/scale_rows.py"}, "python", true},
		{"a .py kernel beside .asc kernels", []string{"k/add.asc", "k/scale_rows.py"}, "python", true},
		{"a C++ file", []string{"src/k.cpp"}, "cpp", true},
		{"a header opened as C", []string{"inc/k.h"}, "c", true},
		{"an .asc file", []string{"k.asc"}, "ascendc", true},
	} {
		if got := activates(tc.files, tc.lang); got != tc.want {
			t.Errorf("%s (%q, opening %s): activates %v, want %v", tc.name, tc.files, tc.lang, got, tc.want)
		}
	}

	// The README says how a Python-only project starts it.
	readme, err := os.ReadFile(filepath.Join(vscodeDir, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(readme), "ascvet.toml") || !strings.Contains(string(readme), "## Activation") {
		t.Error("editors/vscode/README.md does not say when the extension starts (## Activation, ascvet.toml)")
	}
}

// vscodeInstallCommand is the go install command the extension and its
// README give when ascvet is missing, from the module path in go.mod.
func vscodeInstallCommand(t *testing.T) string {
	t.Helper()
	gomod, err := os.ReadFile("../../go.mod")
	if err != nil {
		t.Fatal(err)
	}
	line, _, _ := strings.Cut(string(gomod), "\n")
	module, ok := strings.CutPrefix(line, "module ")
	if !ok {
		t.Fatalf("go.mod starts with %q, not module", line)
	}
	return "go install " + strings.TrimSpace(module) + "/cmd/ascvet@latest"
}

// needNode returns the node executable; without one the test skips, except
// under CI=true, where it fails (CI's machines have Node.js).
func needNode(t *testing.T) string {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("node is not installed, and CI=true: CI checks editors/vscode/extension.js with it")
		}
		t.Skip("node is not installed: install Node.js to check editors/vscode/extension.js")
	}
	return node
}

// TestVSCodeExtensionSyntax: node parses extension.js.
func TestVSCodeExtensionSyntax(t *testing.T) {
	node := needNode(t)
	if out, err := exec.Command(node, "--check", filepath.Join(vscodeDir, "extension.js")).CombinedOutput(); err != nil {
		t.Fatalf("node --check extension.js: %v\n%s", err, out)
	}
}

// vscodeStub stands in for VS Code's API: settings from the scenario,
// and a log of what the extension asks of it. The scenario's steps
// change settings (firing onDidChangeConfiguration) and run commands.
const vscodeStub = `'use strict';
const log = [];
const state = { config: {}, folder: undefined, failStart: false, commands: {}, listeners: [] };
function disposable() { return { dispose() {} }; }
module.exports = {
  _log: log,
  _state: state,
  window: {
    createOutputChannel() { return { appendLine() {}, append() {}, show() {}, dispose() {} }; },
    showErrorMessage(message, ...items) { log.push({ kind: 'error', message, items }); return Promise.resolve(undefined); },
  },
  commands: {
    registerCommand(id, fn) { state.commands[id] = fn; log.push({ kind: 'register', command: id }); return disposable(); },
    executeCommand() { return Promise.resolve(); },
  },
  workspace: {
    getConfiguration() { return { get(key) { return state.config[key]; } }; },
    get workspaceFolders() { return state.folder === undefined ? undefined : [{ uri: { scheme: 'file', fsPath: state.folder } }]; },
    onDidChangeConfiguration(fn) { state.listeners.push(fn); return disposable(); },
  },
};
`

// languageClientStub stands in for vscode-languageclient/node: it logs the
// clients made, started and disposed.
const languageClientStub = `'use strict';
const vscode = require('vscode');
let made = 0;
class LanguageClient {
  constructor(id, name, serverOptions, clientOptions) {
    this.n = ++made;
    vscode._log.push({ kind: 'client', n: this.n, id, name, server: serverOptions,
      selector: clientOptions.documentSelector, output: clientOptions.outputChannel !== undefined });
  }
  start() {
    vscode._log.push({ kind: 'start', n: this.n });
    return vscode._state.failStart ? Promise.reject(new Error('connection closed')) : Promise.resolve();
  }
  dispose() {
    vscode._log.push({ kind: 'dispose', n: this.n });
    return vscode._state.failStart ? Promise.reject(new Error('Client is not running')) : Promise.resolve();
  }
}
module.exports = { LanguageClient };
`

// vscodeDriver activates the extension, runs the scenario's steps,
// deactivates it and prints the log.
const vscodeDriver = `'use strict';
const fs = require('fs');
const vscode = require('vscode');
const scenario = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
Object.assign(vscode._state, { config: scenario.config || {}, folder: scenario.folder, failStart: !!scenario.failStart });
const ext = require('./extension.js');
(async () => {
  await ext.activate({ subscriptions: [] });
  for (const step of scenario.steps || []) {
    if (step.command) {
      await vscode._state.commands[step.command]();
    }
    if (step.set) {
      Object.assign(vscode._state.config, step.set);
      const changed = Object.keys(step.set);
      const e = { affectsConfiguration: (s) => changed.some((k) => k === s || k.startsWith(s + '.')) };
      vscode._state.listeners.forEach((fn) => fn(e));
    }
  }
  await ext.deactivate();
  await new Promise((resolve) => setTimeout(resolve, 10));
  process.stdout.write(JSON.stringify(vscode._log));
})().catch((err) => { console.error(err); process.exit(1); });
`

type vscodeScenario struct {
	Config    map[string]any `json:"config,omitempty"`
	Folder    string         `json:"folder,omitempty"`
	FailStart bool           `json:"failStart,omitempty"`
	Steps     []vscodeStep   `json:"steps,omitempty"`
}

type vscodeStep struct {
	Command string         `json:"command,omitempty"`
	Set     map[string]any `json:"set,omitempty"`
}

// vscodeEvent is one entry of the stubs' log.
type vscodeEvent struct {
	Kind     string         `json:"kind"`
	N        int            `json:"n"`
	ID       string         `json:"id"`
	Command  string         `json:"command"`
	Message  string         `json:"message"`
	Server   map[string]any `json:"server"`
	Selector []struct {
		Scheme   string `json:"scheme"`
		Language string `json:"language"`
		Pattern  string `json:"pattern"`
	} `json:"selector"`
	Output bool `json:"output"`
}

// runVSCodeExtension runs extension.js through the scenario with the
// stubs, under the environment env (PATH, HOME, GOPATH), and returns the log.
func runVSCodeExtension(t *testing.T, node string, sc vscodeScenario, env []string) []vscodeEvent {
	t.Helper()
	dir := t.TempDir()
	ext, err := os.ReadFile(filepath.Join(vscodeDir, "extension.js"))
	if err != nil {
		t.Fatal(err)
	}
	scenario, err := json.Marshal(sc)
	if err != nil {
		t.Fatal(err)
	}
	for name, text := range map[string]string{
		"extension.js":                 string(ext),
		"driver.js":                    vscodeDriver,
		"scenario.json":                string(scenario),
		"node_modules/vscode/index.js": vscodeStub,
		"node_modules/vscode-languageclient/node.js": languageClientStub,
	} {
		file := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(file, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command(node, "driver.js", "scenario.json")
	cmd.Dir = dir
	cmd.Env = env
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node driver.js: %v\n%s", err, stderr.Bytes())
	}
	var events []vscodeEvent
	if err := json.Unmarshal(out, &events); err != nil {
		t.Fatalf("the driver's log: %v\n%s", err, out)
	}
	return events
}

// fakeExecutable writes an executable file (never run: the client is a
// stub) at dir/rel and returns its path.
func fakeExecutable(t *testing.T, dir, rel string) string {
	t.Helper()
	file := filepath.Join(dir, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, []byte("#!/bin/sh\nexit 1\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return file
}

// vscodeClients returns the command and arguments of each client made,
// and the error messages shown, in order; it checks that every client
// was started and disposed (deactivate ends the last one).
func vscodeClients(t *testing.T, events []vscodeEvent) (servers [][]string, errs []string) {
	t.Helper()
	started, disposed := map[int]bool{}, map[int]bool{}
	for _, e := range events {
		switch e.Kind {
		case "client":
			if e.ID != "ascvet" || !e.Output {
				t.Errorf("client %d has id %q (the trace setting is read as ID.trace.server) and output channel %v", e.N, e.ID, e.Output)
			}
			if _, ok := e.Server["transport"]; ok {
				t.Errorf("client %d sets a transport, %v; the client then appends --stdio to ascvet lsp's arguments", e.N, e.Server["transport"])
			}
			cmd, _ := e.Server["command"].(string)
			line := []string{cmd}
			args, _ := e.Server["args"].([]any)
			for _, a := range args {
				s, _ := a.(string)
				line = append(line, s)
			}
			servers = append(servers, line)
		case "start":
			started[e.N] = true
		case "dispose":
			disposed[e.N] = true
		case "error":
			errs = append(errs, e.Message)
		}
	}
	for n := 1; n <= len(servers); n++ {
		if !started[n] || !disposed[n] {
			t.Errorf("client %d: started %v, disposed %v; want both", n, started[n], disposed[n])
		}
	}
	return servers, errs
}

// TestVSCodeExtensionStarts runs extension.js against stand-ins for VS
// Code and the client library: it starts ascvet lsp with ascvet.args from
// ascvet.path, found as a path, on PATH, in GOPATH/bin or from the
// workspace folder; restarts on the command and on a change of ascvet.path
// or ascvet.args, not of the trace; says how to install ascvet when there
// is none; and routes the kernels' files, and only those, to the server.
func TestVSCodeExtensionStarts(t *testing.T) {
	node := needNode(t)
	install := vscodeInstallCommand(t)
	empty := t.TempDir()
	env := func(dirs, gopath string) []string {
		return []string{"PATH=" + dirs, "GOPATH=" + gopath, "HOME=" + empty}
	}

	t.Run("path and restarts", func(t *testing.T) {
		exe := fakeExecutable(t, t.TempDir(), "tools/ascvet")
		events := runVSCodeExtension(t, node, vscodeScenario{
			Config: map[string]any{"ascvet.path": exe, "ascvet.args": []string{"-x", "--flag=y"}},
			Steps: []vscodeStep{
				{Set: map[string]any{"ascvet.trace.server": "verbose"}},
				{Command: "ascvet.restartServer"},
				{Set: map[string]any{"ascvet.args": []string{"-v"}}},
			},
		}, env(empty, empty))
		servers, errs := vscodeClients(t, events)
		want := [][]string{{exe, "lsp", "-x", "--flag=y"}, {exe, "lsp", "-x", "--flag=y"}, {exe, "lsp", "-v"}}
		if !slices.EqualFunc(servers, want, slices.Equal) {
			t.Errorf("servers started:\n%q\nwant (the first, one for ascvet.restartServer, one for the new ascvet.args, none for the trace):\n%q", servers, want)
		}
		if len(errs) > 0 {
			t.Errorf("error messages: %q", errs)
		}
		if events[0].Kind != "register" || events[0].Command != "ascvet.restartServer" {
			t.Errorf("the first thing the extension does is %+v, not registering ascvet.restartServer", events[0])
		}
		checkVSCodeSelector(t, events)
	})

	t.Run("lookup", func(t *testing.T) {
		bin := t.TempDir()
		onPath := fakeExecutable(t, bin, "ascvet")
		gopath := t.TempDir()
		inGopath := fakeExecutable(t, gopath, "bin/ascvet")
		ws := t.TempDir()
		inWorkspace := fakeExecutable(t, ws, "build/ascvet")
		for _, c := range []struct {
			name, dirs, gopath, setting, folder, want string
		}{
			{"on PATH first", empty + string(os.PathListSeparator) + bin, gopath, "", "", onPath},
			{"in GOPATH/bin", empty, gopath, "ascvet", "", inGopath},
			{"relative to the workspace folder", bin, gopath, "build/ascvet", ws, inWorkspace},
		} {
			config := map[string]any{}
			if c.setting != "" {
				config["ascvet.path"] = c.setting
			}
			servers, errs := vscodeClients(t, runVSCodeExtension(t, node, vscodeScenario{Config: config, Folder: c.folder}, env(c.dirs, c.gopath)))
			if len(servers) != 1 || servers[0][0] != c.want || len(errs) > 0 {
				t.Errorf("%s: servers %q, errors %q; want %s lsp", c.name, servers, errs, c.want)
			}
		}
	})

	t.Run("not found", func(t *testing.T) {
		dir := t.TempDir()
		cases := []struct{ name, setting, want string }{
			{"nowhere", "", "ascvet not found: set ascvet.path to the ascvet executable, or install it with `" + install + "`."},
			{"no such file", filepath.Join(dir, "ascvet"), "ascvet not found at " + filepath.Join(dir, "ascvet") + ": set ascvet.path"},
		}
		if runtime.GOOS != "windows" {
			plain := filepath.Join(dir, "plain")
			if err := os.WriteFile(plain, nil, 0o644); err != nil {
				t.Fatal(err)
			}
			cases = append(cases, struct{ name, setting, want string }{"not executable", plain, "ascvet not found at " + plain})
		}
		for _, c := range cases {
			config := map[string]any{}
			if c.setting != "" {
				config["ascvet.path"] = c.setting
			}
			servers, errs := vscodeClients(t, runVSCodeExtension(t, node, vscodeScenario{Config: config}, env(empty, empty)))
			if len(servers) != 0 || len(errs) != 1 || !strings.HasPrefix(errs[0], c.want) || !strings.Contains(errs[0], install) {
				t.Errorf("%s: servers %q, errors %q; want no server and one error starting %q and naming %s", c.name, servers, errs, c.want, install)
			}
		}
	})

	t.Run("start fails", func(t *testing.T) {
		exe := fakeExecutable(t, t.TempDir(), "ascvet")
		servers, errs := vscodeClients(t, runVSCodeExtension(t, node, vscodeScenario{
			Config: map[string]any{"ascvet.path": exe}, FailStart: true,
		}, env(empty, empty)))
		want := exe + " lsp did not start (connection closed)"
		if len(servers) != 1 || len(errs) != 1 || !strings.HasPrefix(errs[0], want) || !strings.Contains(errs[0], install) {
			t.Errorf("servers %q, errors %q; want one server that failed, disposed, and one error starting %q and naming %s", servers, errs, want, install)
		}
	})
}

// checkVSCodeSelector: the first client's document selector sends the
// server every file kind ascvet reads, under the language ids VS Code
// gives them, and no other file.
func checkVSCodeSelector(t *testing.T, events []vscodeEvent) {
	t.Helper()
	var client *vscodeEvent
	for i := range events {
		if events[i].Kind == "client" {
			client = &events[i]
			break
		}
	}
	if client == nil {
		t.Fatal("no client made")
	}
	routes := func(file, lang string) bool {
		for _, f := range client.Selector {
			if f.Scheme == "file" && (f.Language == "" || f.Language == lang) && (f.Pattern == "" || vscodeGlob(t, f.Pattern, file)) {
				return true
			}
		}
		return false
	}
	for _, c := range []struct {
		file, lang string
		want       bool
	}{
		{"k.asc", "ascendc", true},
		{"k.asc", "cpp", true},
		{"k.asc", "asciidoc", true},
		{"k.cpp", "cpp", true},
		{"k.cc", "cpp", true},
		{"k.cxx", "cpp", true},
		{"k.h", "cpp", true},
		{"k.h", "c", true},
		{"k.hh", "cpp", true},
		{"k.hpp", "cpp", true},
		{"k.hxx", "cpp", true},
		{"k.py", "python", true},
		{"k.c", "c", false},
		{"k.ino", "cpp", false},
		{"k.pyi", "python", false},
		{"notes.md", "markdown", false},
	} {
		if got := routes("/src/kernels/"+c.file, c.lang); got != c.want {
			t.Errorf("a %s file %s goes to the server: %v, want %v (selector %+v)", c.lang, c.file, got, c.want, client.Selector)
		}
	}
}

// vscodeGlob matches the document filter patterns the extension uses,
// "**/" and a file name pattern with at most one {a,b} group, against a
// slash-separated path.
func vscodeGlob(t *testing.T, pattern, file string) bool {
	t.Helper()
	name, ok := strings.CutPrefix(pattern, "**/")
	if !ok || strings.Contains(name, "/") {
		t.Fatalf("document filter pattern %q is not **/NAME; vscodeGlob cannot read it", pattern)
	}
	alts := []string{name}
	if open := strings.Index(name, "{"); open >= 0 {
		end := strings.Index(name, "}")
		if end < open {
			t.Fatalf("document filter pattern %q: unbalanced {", pattern)
		}
		alts = nil
		for _, a := range strings.Split(name[open+1:end], ",") {
			alts = append(alts, name[:open]+a+name[end+1:])
		}
	}
	for _, a := range alts {
		if ok, err := path.Match(a, path.Base(file)); err != nil {
			t.Fatalf("document filter pattern %q: %v", pattern, err)
		} else if ok {
			return true
		}
	}
	return false
}

// TestVSCodeNPM installs the extension's dependencies with npm in a copy of
// editors/vscode and loads the client library it requires. It reaches the
// npm registry, so it runs only with ASCVET_VSCODE_NPM=1.
func TestVSCodeNPM(t *testing.T) {
	if os.Getenv("ASCVET_VSCODE_NPM") != "1" {
		t.Skip("runs npm install; set ASCVET_VSCODE_NPM=1 to run it")
	}
	node := needNode(t)
	npm, err := exec.LookPath("npm")
	if err != nil {
		t.Skip("npm is not installed")
	}
	dir := t.TempDir()
	for _, name := range []string{"package.json", "package-lock.json", "extension.js"} {
		copyFile(t, filepath.Join(vscodeDir, name), filepath.Join(dir, name))
	}
	cmd := exec.Command(npm, "install", "--no-audit", "--no-fund")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("npm install: %v\n%s", err, out)
	}
	// The library requires the vscode module, which only VS Code provides:
	// a stand-in whose every member is a callable object lets it load.
	stub := `function stub() { return new Proxy(function () {}, { get: (t, k) => k === 'then' ? undefined : stub(), construct: () => stub(), apply: () => stub() }); }
module.exports = stub();
`
	if err := os.MkdirAll(filepath.Join(dir, "node_modules", "vscode"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "node_modules", "vscode", "index.js"), []byte(stub), 0o644); err != nil {
		t.Fatal(err)
	}
	load := exec.Command(node, "-e", `const lc = require('vscode-languageclient/node');
if (typeof lc.LanguageClient !== 'function') { throw new Error('no LanguageClient'); }
process.stdout.write(require('vscode-languageclient/package.json').version);`)
	load.Dir = dir
	out, err := load.CombinedOutput()
	if err != nil {
		t.Fatalf("loading vscode-languageclient/node: %v\n%s", err, out)
	}
	if !strings.HasPrefix(string(out), "9.") {
		t.Errorf("npm installed vscode-languageclient %s, want 9.x", out)
	}
}
