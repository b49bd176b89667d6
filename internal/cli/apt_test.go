package cli

import (
	"os"
	"os/exec"
	"testing"
)

// debianTool returns the path of the command name, which a test runs for
// real (pre-commit, nvim). When it is missing it installs Debian's package
// pkg with apt-get, as .ci/run does in CI (apt-get update first when the
// install fails: the package lists may be missing or stale). Where it
// cannot be installed the test skips, saying how to get it: elsewhere,
// as an ordinary user, with other (say "pipx install pre-commit"). Under
// CI=true a command that apt-get could have installed and did not fails
// the test instead: CI must run these tests, not skip them.
func debianTool(t *testing.T, name, pkg, other string) string {
	t.Helper()
	if path, err := exec.LookPath(name); err == nil {
		return path
	}
	apt, aptErr := exec.LookPath("apt-get")
	switch {
	case aptErr != nil:
		t.Skipf("neither %s nor apt-get is installed; install %s (%s) to run this test", name, name, other)
	case os.Geteuid() != 0:
		if os.Getenv("CI") == "true" {
			t.Fatalf("%s is not installed and apt-get needs root to install it", name)
		}
		t.Skipf("%s is not installed, and apt-get needs root: apt-get install %s (as root) to run this test", name, pkg)
	}
	t.Logf("%s is not installed: apt-get install -y %s", name, pkg)
	install := func() error { return exec.Command(apt, "install", "-y", "-q", pkg).Run() }
	if install() != nil && exec.Command(apt, "update", "-q").Run() == nil {
		_ = install() // whether it worked, LookPath says
	}
	path, err := exec.LookPath(name)
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("%s could not be installed with apt-get: %v", name, err)
		}
		t.Skipf("%s could not be installed with apt-get (%v); install it to run this test", name, err)
	}
	return path
}
