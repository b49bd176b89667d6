package fixes

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// write creates dir/name with data and mode and returns its path.
func write(t *testing.T, dir, name, data string, mode os.FileMode) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(data), mode); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(p, mode); err != nil { // past the umask
		t.Fatal(err)
	}
	return p
}

// expect checks the contents and mode of path.
func expect(t *testing.T, path, data string, mode os.FileMode) {
	t.Helper()
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != data {
		t.Errorf("%s holds %q, want %q", path, got, data)
	}
	info, err := os.Lstat(path)
	if err != nil {
		t.Fatal(err)
	}
	if info.Mode() != mode {
		t.Errorf("%s has mode %v, want %v", path, info.Mode(), mode)
	}
}

// noLeftovers checks that dir holds exactly the names given.
func noLeftovers(t *testing.T, dir string, names ...string) {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range entries {
		got = append(got, e.Name())
	}
	if strings.Join(got, " ") != strings.Join(names, " ") {
		t.Errorf("%s holds %v, want %v", dir, got, names)
	}
}

func TestReplaceFile(t *testing.T) {
	dir := t.TempDir()
	p := write(t, dir, "k.cpp", "old\r\n", 0o640)
	if err := ReplaceFile(p, []byte("old\r\n"), []byte("new\r\n")); err != nil {
		t.Fatal(err)
	}
	expect(t, p, "new\r\n", 0o640)
	noLeftovers(t, dir, "k.cpp")

	// Odd permission bits are kept too.
	q := write(t, dir, "x.cpp", "a", 0o751)
	if err := ReplaceFile(q, []byte("a"), []byte("b")); err != nil {
		t.Fatal(err)
	}
	expect(t, q, "b", 0o751)
}

func TestReplaceFileKeepsSymlink(t *testing.T) {
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "real"), 0o755); err != nil {
		t.Fatal(err)
	}
	target := write(t, filepath.Join(dir, "real"), "k.cpp", "old", 0o644)
	link := filepath.Join(dir, "link.cpp")
	if err := os.Symlink(filepath.Join("real", "k.cpp"), link); err != nil {
		t.Fatal(err)
	}
	if err := ReplaceFile(link, []byte("old"), []byte("new")); err != nil {
		t.Fatal(err)
	}
	info, err := os.Lstat(link)
	if err != nil {
		t.Fatal(err)
	}
	if info.Mode()&os.ModeSymlink == 0 {
		t.Errorf("%s is no longer a symlink: %v", link, info.Mode())
	}
	expect(t, target, "new", 0o644)
	noLeftovers(t, dir, "link.cpp", "real")
	noLeftovers(t, filepath.Join(dir, "real"), "k.cpp")
}

// TestReplaceFileReadOnly runs as root too: the check reads the mode bits
// rather than counting on the OS, which lets root write anything.
func TestReplaceFileReadOnly(t *testing.T) {
	dir := t.TempDir()
	p := write(t, dir, "ro.cpp", "old", 0o444)
	err := ReplaceFile(p, []byte("old"), []byte("new"))
	if err == nil || err.Error() != p+": file is read-only; not fixed (ascvet does not change permissions)" {
		t.Errorf("ReplaceFile = %v, want a read-only error naming %s", err, p)
	}
	expect(t, p, "old", 0o444)
	noLeftovers(t, dir, "ro.cpp")
}

// TestReplaceFileNotWritable needs a user the permission bits bind: the
// owner may write, but the file belongs to root.
func TestReplaceFileNotWritable(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root may write any file")
	}
	p := "/etc/hostname"
	if _, err := os.Stat(p); err != nil {
		t.Skip(err)
	}
	old, err := os.ReadFile(p)
	if err != nil {
		t.Skip(err)
	}
	err = ReplaceFile(p, old, []byte("x"))
	if err == nil || !strings.HasPrefix(err.Error(), p+": not writable") {
		t.Errorf("ReplaceFile = %v, want a not-writable error", err)
	}
}

func TestReplaceFileReadOnlyDir(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root may write any directory")
	}
	dir := t.TempDir()
	p := write(t, dir, "k.cpp", "old", 0o644)
	if err := os.Chmod(dir, 0o555); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := os.Chmod(dir, 0o755); err != nil {
			t.Error(err)
		}
	})
	err := ReplaceFile(p, []byte("old"), []byte("new"))
	if err == nil || !strings.Contains(err.Error(), "cannot create a temporary file") {
		t.Errorf("ReplaceFile = %v", err)
	}
	expect(t, p, "old", 0o644)
}

func TestReplaceFileChanged(t *testing.T) {
	dir := t.TempDir()
	p := write(t, dir, "k.cpp", "edited meanwhile", 0o644)
	err := ReplaceFile(p, []byte("old"), []byte("new"))
	if err == nil || err.Error() != p+": file changed since ascvet read it; not fixed" {
		t.Errorf("ReplaceFile = %v", err)
	}
	expect(t, p, "edited meanwhile", 0o644)
	noLeftovers(t, dir, "k.cpp")
}

func TestReplaceFileNotRegular(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{dir, filepath.Join(dir, "missing.cpp")} {
		if err := ReplaceFile(name, nil, []byte("x")); err == nil || !strings.HasPrefix(err.Error(), name+": ") {
			t.Errorf("ReplaceFile(%s) = %v", name, err)
		}
	}
	if err := os.Symlink("missing.cpp", filepath.Join(dir, "dangling.cpp")); err != nil {
		t.Fatal(err)
	}
	if err := ReplaceFile(filepath.Join(dir, "dangling.cpp"), nil, []byte("x")); err == nil {
		t.Error("ReplaceFile wrote through a dangling symlink")
	}
	noLeftovers(t, dir, "dangling.cpp")
}

// TestReplaceFileFailsBeforeRename checks that a failure once the temporary
// file is complete leaves the original and removes the temporary file.
func TestReplaceFileFailsBeforeRename(t *testing.T) {
	dir := t.TempDir()
	p := write(t, dir, "k.cpp", "old", 0o600)
	var tmp string
	defer func(saved func(string) error) { beforeRename = saved }(beforeRename)
	beforeRename = func(name string) error {
		tmp = name
		data, err := os.ReadFile(name)
		if err != nil || string(data) != "new" {
			t.Errorf("temporary file %s holds %q, %v", name, data, err)
		}
		if !strings.HasPrefix(filepath.Base(name), ".k.cpp.ascvet-") {
			t.Errorf("temporary file %s", name)
		}
		return errors.New("stop")
	}
	if err := ReplaceFile(p, []byte("old"), []byte("new")); err == nil || err.Error() != p+": stop" {
		t.Errorf("ReplaceFile = %v", err)
	}
	if tmp == "" {
		t.Fatal("beforeRename was not called")
	}
	expect(t, p, "old", 0o600)
	noLeftovers(t, dir, "k.cpp")
}

// countingTemps creates temporary files named "tmp-N" and records which it
// was told are gone.
type countingTemps struct {
	created, gone []string
}

func (c *countingTemps) Create(dir, base string) (*os.File, error) {
	name := filepath.Join(dir, "tmp-"+base+"-"+string(rune('0'+len(c.created))))
	c.created = append(c.created, name)
	return os.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
}

func (c *countingTemps) Gone(name string) { c.gone = append(c.gone, name) }

// TestReplaceFileVia checks that ReplaceFileVia writes through the temporary
// file its TempFiles makes, gives it the original's mode, and says when it
// is gone: renamed, or removed after a failure.
func TestReplaceFileVia(t *testing.T) {
	dir := t.TempDir()
	p := write(t, dir, "k.cpp", "old", 0o640)
	var temps countingTemps
	var seen string
	defer func(saved func(string) error) { beforeRename = saved }(beforeRename)
	beforeRename = func(name string) error { seen = name; return nil }
	if err := ReplaceFileVia(p, []byte("old"), []byte("new"), &temps); err != nil {
		t.Fatal(err)
	}
	expect(t, p, "new", 0o640)
	noLeftovers(t, dir, "k.cpp")
	want := filepath.Join(dir, "tmp-k.cpp-0")
	if seen != want || strings.Join(temps.created, " ") != want || strings.Join(temps.gone, " ") != want {
		t.Errorf("renamed %q; created %v, gone %v; want %s for each", seen, temps.created, temps.gone, want)
	}

	beforeRename = func(string) error { return errors.New("stop") }
	if err := ReplaceFileVia(p, []byte("new"), []byte("newer"), &temps); err == nil {
		t.Error("ReplaceFileVia did not fail")
	}
	expect(t, p, "new", 0o640)
	noLeftovers(t, dir, "k.cpp")
	if len(temps.gone) != 2 || temps.gone[1] != temps.created[1] {
		t.Errorf("created %v, gone %v; want the second gone after the failure", temps.created, temps.gone)
	}
}

// TestReplaceFileChangedWhileWriting: an edit saved while the fixed copy is
// written and synced (here: just before the rename) is not lost under the
// rename; the file keeps the edit and the fix is refused.
func TestReplaceFileChangedWhileWriting(t *testing.T) {
	dir := t.TempDir()
	p := write(t, dir, "k.cpp", "old", 0o644)
	defer func(saved func(string) error) { beforeRename = saved }(beforeRename)
	beforeRename = func(string) error {
		return os.WriteFile(p, []byte("saved by the editor"), 0o644)
	}
	err := ReplaceFile(p, []byte("old"), []byte("new"))
	if err == nil || err.Error() != p+": file changed since ascvet read it; not fixed" {
		t.Errorf("ReplaceFile = %v", err)
	}
	expect(t, p, "saved by the editor", 0o644)
	noLeftovers(t, dir, "k.cpp")
}
