package cli

import (
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"
)

// The tests in this file hold what a newcomer meets before ascvet runs:
// the Go version and C compiler the README asks for, and the message a
// build without cgo stops with.

// TestBuildWithoutCgo: without a C compiler (or with CGO_ENABLED=0) the
// build names the fix rather than only "undefined: sitter.Language".
func TestBuildWithoutCgo(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go build; skipped with -short")
	}
	cmd := exec.Command("go", "build", "-o", os.DevNull, "../../cmd/ascvet")
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	out, err := cmd.CombinedOutput()
	if err == nil {
		t.Fatalf("CGO_ENABLED=0 go build succeeded; ascvet needs cgo:\n%s", out)
	}
	const msg = "ascvet_needs_cgo__install_a_C_compiler_and_set_CGO_ENABLED_1"
	if !strings.Contains(string(out), msg) {
		t.Errorf("CGO_ENABLED=0 go build does not say %s:\n%s", msg, out)
	}
}

// TestReadmeGoVersion: the Go version the README asks for is go.mod's.
func TestReadmeGoVersion(t *testing.T) {
	mod, err := os.ReadFile("../../go.mod")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^go (\S+)$`).FindSubmatch(mod)
	if m == nil {
		t.Fatal("go.mod has no go directive")
	}
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	want := "It needs Go " + string(m[1]) + " or newer and a C compiler, gcc or clang"
	if !strings.Contains(string(readme), want) {
		t.Errorf("README.md should say %q (go.mod says go %s)", want, m[1])
	}
}
