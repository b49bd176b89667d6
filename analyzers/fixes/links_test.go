package fixes

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReplaceFileSymlinkChain: a chain of links across directories is
// resolved to its end; that file is replaced, its temporary file is made
// beside it (a rename cannot cross file systems), and every link stays a
// link.
func TestReplaceFileSymlinkChain(t *testing.T) {
	dir := t.TempDir()
	for _, d := range []string{"a", "b", "real"} {
		if err := os.Mkdir(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	target := write(t, filepath.Join(dir, "real"), "k.cpp", "old", 0o600)
	link2 := filepath.Join(dir, "b", "k2.cpp")
	link1 := filepath.Join(dir, "a", "k1.cpp")
	if err := os.Symlink(filepath.Join("..", "real", "k.cpp"), link2); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(link2, link1); err != nil { // absolute
		t.Fatal(err)
	}
	var tmpDir string
	defer func(saved func(string, string)) { reached = saved }(reached)
	reached = func(stage, tmp string) { tmpDir = filepath.Dir(tmp) }
	if err := ReplaceFile(link1, []byte("old"), []byte("new")); err != nil {
		t.Fatal(err)
	}
	if tmpDir != filepath.Join(dir, "real") {
		t.Errorf("temporary file made in %s, want beside the target", tmpDir)
	}
	expect(t, target, "new", 0o600)
	for _, l := range []string{link1, link2} {
		if info, err := os.Lstat(l); err != nil || info.Mode()&os.ModeSymlink == 0 {
			t.Errorf("%s is no longer a link: %v %v", l, info, err)
		}
	}
	noLeftovers(t, filepath.Join(dir, "a"), "k1.cpp")
	noLeftovers(t, filepath.Join(dir, "b"), "k2.cpp")
	noLeftovers(t, filepath.Join(dir, "real"), "k.cpp")
}

// TestReplaceFileSymlinkToReadOnly: the target's mode decides, not the
// link's (a link's own mode is always 0777); the refusal names the link as
// given.
func TestReplaceFileSymlinkToReadOnly(t *testing.T) {
	dir := t.TempDir()
	target := write(t, dir, "ro.cpp", "old", 0o444)
	link := filepath.Join(dir, "link.cpp")
	if err := os.Symlink("ro.cpp", link); err != nil {
		t.Fatal(err)
	}
	err := ReplaceFile(link, []byte("old"), []byte("new"))
	if err == nil || !strings.HasPrefix(err.Error(), link+": file is read-only") {
		t.Errorf("ReplaceFile = %v, want a read-only error naming the link", err)
	}
	expect(t, target, "old", 0o444)
	noLeftovers(t, dir, "link.cpp", "ro.cpp")
}
