package resultcache

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// This file builds on Linux only: the build ID is read from ELF
// executables; elsewhere the executable is hashed (TestBuildIDContent).

// TestGoBuildID: an ELF executable the go command built (the test binary)
// is known by its build ID, not hashed; another build ID gives another
// salt, and one of another shape (a build system's fixed one) or none
// has the executable hashed.
func TestGoBuildID(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(exe)
	if err != nil {
		t.Fatal(err)
	}
	id := goBuildID(exe)
	if id == nil {
		t.Fatal("the test binary has no Go build ID of the go command's shape")
	}
	hash, _ := hashFile(exe)
	if own, _ := exeID(exe); bytes.Equal(own, hash) {
		t.Fatal("the test binary was hashed, not known by its build ID")
	}
	k := bytes.Index(data, id)
	if k < 0 {
		t.Fatal("the build ID is not in the executable's bytes")
	}
	dir := t.TempDir()
	variant := func(name string, change func(b []byte)) string {
		b := bytes.Clone(data)
		change(b[k : k+len(id)])
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, b, 0o755); err != nil {
			t.Fatal(err)
		}
		return p
	}
	other := variant("other", func(b []byte) { // another base64 character
		if b[len(b)-1] == 'A' {
			b[len(b)-1] = 'B'
		} else {
			b[len(b)-1] = 'A'
		}
	})
	if goBuildID(other) == nil {
		t.Fatal("a build ID changed in its last character no longer reads")
	}
	a, _ := exeID(exe)
	if b, _ := exeID(other); bytes.Equal(a, b) {
		t.Error("another build ID gives the same salt")
	}
	fixed := variant("fixed", func(b []byte) { copy(b, bytes.Repeat([]byte("redacted"), len(b))) })
	if goBuildID(fixed) != nil {
		t.Error("a build ID of another shape is taken as the go command's")
	}
	if got, want := must(t, exeID, fixed), must(t, hashFile, fixed); !bytes.Equal(got, want) {
		t.Error("an executable with a build ID of another shape is not hashed")
	}
}

// must returns what f gives for the file at p, failing t on an error.
func must(t *testing.T, f func(string) ([]byte, error), p string) []byte {
	t.Helper()
	b, err := f(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
