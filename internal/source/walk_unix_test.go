//go:build unix

package source

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestWalkTakesOnce: a file reached through links and overlapping
// arguments is taken once, under the first name the walk meets, without the
// walker keeping every file's real path.
func TestWalkTakesOnce(t *testing.T) {
	dir := t.TempDir()
	mk := func(p string) {
		p = filepath.Join(dir, p)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("int x;\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	link := func(target, p string) {
		if err := os.Symlink(target, filepath.Join(dir, p)); err != nil {
			t.Fatal(err)
		}
	}
	mk("d/a.cpp")
	mk("d/sub/b.h")
	mk("d/.hid/c.h")
	mk("d/build/e.h")
	link("sub/b.h", "d/a_link.h")   // met before sub/b.h: taken under its name
	link(".hid/c.h", "d/l_hid.h")   // its target is in a directory the walk skips
	link("sub/b.h", "d/z_link.cpp") // met after sub/b.h
	if err := os.MkdirAll(filepath.Join(dir, "out"), 0o755); err != nil {
		t.Fatal(err)
	}
	link("../d/a.cpp", "out/x.cpp")   // into an argument walked before
	link("../d/build/e.h", "out/y.h") // into a directory the first walk skipped, an argument later
	t.Chdir(dir)
	got := Expand([]string{"d", "d/sub", "d/sub/b.h", "out", "d/build", "d/a.cpp"}, func(p string, err error) { t.Errorf("%s: %v", p, err) })
	want := []string{"d/a.cpp", "d/a_link.h", "d/l_hid.h", "out/y.h"}
	if !slices.Equal(got, want) {
		t.Errorf("expand = %q, want %q", got, want)
	}
}
