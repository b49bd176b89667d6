package tempfile

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/ascvet/ascvet/internal/testfs"
)

// TestWriteAtomic: a new file, a file replaced, a file replaced through a
// link (the link stays), and no temporary file left beside them.
func TestWriteAtomic(t *testing.T) {
	dir := t.TempDir()
	fresh := filepath.Join(dir, "new.json")
	if err := WriteAtomic(fresh, []byte("one")); err != nil {
		t.Fatal(err)
	}
	old := testfs.Put(t, dir, "old.json", "old contents")
	if err := WriteAtomic(old, []byte("two")); err != nil {
		t.Fatal(err)
	}
	if got := testfs.Read(t, fresh) + testfs.Read(t, old); got != "onetwo" {
		t.Errorf("written %q", got)
	}
	if fi, err := os.Stat(old); err != nil || fi.Mode().Perm() != 0o644 {
		t.Errorf("mode %v, %v; want 0644", fi.Mode(), err)
	}
	if runtime.GOOS != "windows" {
		link := filepath.Join(dir, "link.json")
		if err := os.Symlink("old.json", link); err != nil {
			t.Fatal(err)
		}
		if err := WriteAtomic(link, []byte("three")); err != nil {
			t.Fatal(err)
		}
		if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
			t.Errorf("the link was replaced: %v, %v", fi.Mode(), err)
		}
		if got := testfs.Read(t, old); got != "three" {
			t.Errorf("through the link: %q", got)
		}
	}
	for _, n := range testfs.Names(t, dir) {
		if _, ok := IsTemp(n); ok {
			t.Errorf("temporary file %s left", n)
		}
	}
	if err := WriteAtomic(filepath.Join(dir, "no", "such", "dir", "x"), nil); err == nil {
		t.Error("writing into a missing folder did not fail")
	}
}

// TestCreateGone: Create makes a registered temporary file named for its
// target and this process; Gone forgets it; Live is the same registry.
func TestCreateGone(t *testing.T) {
	dir := t.TempDir()
	var made []string
	defer func(saved func(string)) { Created = saved }(Created)
	Created = func(path string) { made = append(made, path) }
	for _, reg := range []interface {
		Create(dir, base string) (*os.File, error)
		Gone(path string)
	}{Live{}, Live{}} {
		f, err := reg.Create(dir, "k.asc")
		if err != nil {
			t.Fatal(err)
		}
		f.Close()
		pid, ok := IsTemp(filepath.Base(f.Name()))
		if !ok || pid != os.Getpid() {
			t.Errorf("temporary file %s: pid %d, %v", f.Name(), pid, ok)
		}
		temps.mu.Lock()
		live := temps.live[f.Name()]
		temps.mu.Unlock()
		if !live {
			t.Errorf("%s is not registered", f.Name())
		}
		os.Remove(f.Name())
		reg.Gone(f.Name())
		temps.mu.Lock()
		live = temps.live[f.Name()]
		temps.mu.Unlock()
		if live {
			t.Errorf("%s is still registered after Gone", f.Name())
		}
	}
	if len(made) != 2 {
		t.Errorf("Created heard of %d files, want 2", len(made))
	}
}

// TestWriteAtomicRenameFails: when the rename fails (the name is a
// folder), WriteAtomic returns its error, the folder and what it holds are
// kept, and the temporary file is removed and forgotten.
func TestWriteAtomicRenameFails(t *testing.T) {
	dir := t.TempDir()
	keep := testfs.Put(t, dir, "out.json/keep", "kept")
	name := filepath.Dir(keep)
	var made []string
	defer func(saved func(string)) { Created = saved }(Created)
	Created = func(path string) { made = append(made, path) }
	err := WriteAtomic(name, []byte("new"))
	var le *os.LinkError
	if !errors.As(err, &le) || le.Op != "rename" || le.New != name {
		t.Fatalf("WriteAtomic over a folder = %v, want the rename's error", err)
	}
	if len(made) != 1 || le.Old != made[0] || filepath.Dir(made[0]) != dir {
		t.Errorf("renamed %s; temporary files made %q, want one beside %s", le.Old, made, name)
	}
	if got := testfs.Names(t, dir); !slices.Equal(got, []string{"out.json"}) {
		t.Errorf("%s holds %q; want the folder alone, no temporary file", dir, got)
	}
	if got := testfs.Names(t, name); !slices.Equal(got, []string{"keep"}) || testfs.Read(t, keep) != "kept" {
		t.Errorf("the folder holds %q, keep %q", got, testfs.Read(t, keep))
	}
	temps.mu.Lock()
	defer temps.mu.Unlock()
	for path := range temps.live {
		if strings.HasPrefix(path, dir) {
			t.Errorf("%s is still registered", path)
		}
	}
}
