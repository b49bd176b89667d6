package layers

import (
	"encoding/json"
	"errors"
	"io"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// pkg is what go list says of one package.
type pkg struct {
	ImportPath string
	Imports    []string
	Standard   bool
	CgoFiles   []string
}

// listModule runs go list over the module and returns its packages.
func listModule(t *testing.T) []pkg {
	t.Helper()
	if _, err := exec.LookPath("go"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("no go command: CI must check the package map")
		}
		t.Skip("no go command: the package map is checked where the module builds")
	}
	// -pgo=off: with cmd/ascvet/default.pgo, go list names the packages a
	// main package imports by their profile-guided variants
	// ("internal/cli [github.com/ascvet/ascvet/cmd/ascvet]"); the layers
	// are about imports, one package whatever its build.
	cmd := exec.Command("go", "list", "-pgo=off", "-json", Module+"/...")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var pkgs []pkg
	dec := json.NewDecoder(out)
	for {
		var p pkg
		if err := dec.Decode(&p); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		pkgs = append(pkgs, p)
	}
	if err := cmd.Wait(); err != nil {
		t.Fatal(err)
	}
	return pkgs
}

// TestLayers holds every package of the module to the package map: each
// is in a layer, imports of the module go down the layers, the base layer
// uses the standard library only, the core never sees the analysis
// framework, and only the C++ front end uses cgo.
func TestLayers(t *testing.T) {
	pkgs := listModule(t)
	if len(pkgs) < 20 {
		t.Fatalf("go list found %d packages of the module", len(pkgs))
	}
	for _, p := range pkgs {
		from, ok := Of(p.ImportPath)
		if !ok {
			t.Errorf("%s is in no layer: add it to the table in layers.go and to docs/architecture.md", p.ImportPath)
			continue
		}
		for _, imp := range p.Imports {
			switch {
			case strings.HasPrefix(imp, Module+"/"):
				if !Allowed(p.ImportPath, imp) {
					to, _ := Of(imp)
					t.Errorf("%s (%s) imports %s (%s): imports go down the layers", p.ImportPath, from, imp, to)
				}
			case from == Base && !isStd(imp):
				t.Errorf("%s is in the base layer and imports %s, outside the standard library", p.ImportPath, imp)
			case from == Core && strings.HasPrefix(imp, "golang.org/x/tools/go/analysis"):
				t.Errorf("%s is core and imports the analysis framework (%s)", p.ImportPath, imp)
			}
		}
		if len(p.CgoFiles) > 0 && tree(p.ImportPath) != "cppfront" {
			t.Errorf("%s uses cgo: only the front end (cppfront) may", p.ImportPath)
		}
	}
}

// isStd reports whether an import path is the standard library's (no dot
// in its first element) or cgo's "C".
func isStd(path string) bool {
	first, _, _ := strings.Cut(path, "/")
	return !strings.Contains(first, ".")
}

// TestAllowed: the rule on examples, both ways.
func TestAllowed(t *testing.T) {
	m := func(p string) string { return Module + "/" + p }
	for _, c := range []struct {
		from, to string
		ok       bool
	}{
		{"cmd/ascvet", "internal/report", true},
		{"cmd/ascvet", "internal/cli", true},
		{"internal/cli", "internal/lsp", true},
		{"internal/cli", "cmd/ascvet", false},
		{"internal/lsp", "internal/cli", false},
		{"internal/report", "analyzers/runner", true},
		{"internal/report", "internal/repo", true},
		{"analyzers/asc1001", "analyzers/internal/stream", true},
		{"analyzers/simcost", "simcheck", true},
		{"simcheck", "ruleset/config", true},
		{"cppfront/pyfront", "cppfront", true},
		{"cppfront", "cppfront/ir", true},
		{"cppfront", "internal/regfile", true},
		{"cppfront/ir", "cppfront", false},
		{"simcheck", "analyzers/simcost", false},
		{"cppfront", "ruleset", false}, // peers in one layer, different trees
		{"analyzers/runner", "internal/report", false},
		{"internal/report", "cmd/ascvet", false},
		{"regalloc", "simcheck", false},
		{"cppfront", "golang.org/x/tools", false},
	} {
		if got := Allowed(m(c.from), m(c.to)); got != c.ok {
			t.Errorf("Allowed(%s, %s) = %v, want %v", c.from, c.to, got, c.ok)
		}
	}
	if _, ok := Of("github.com/other/x"); ok {
		t.Error("a package of another module has a layer")
	}
	if l, _ := Of(m("cppfront/ir/irtest")); l != Base {
		t.Errorf("cppfront/ir/irtest is %s, want base (with cppfront/ir)", l)
	}
	if !slices.Contains(names[:], Command.String()) || Main.String() != "main" {
		t.Error("layer names")
	}
}
