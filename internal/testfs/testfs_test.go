package testfs

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestHelpers: Put makes folders and the file, Read and Names see it,
// Files finds the regular files below, Aged moves its time back.
func TestHelpers(t *testing.T) {
	dir := t.TempDir()
	p := Put(t, dir, "a/b.txt", "x")
	Put(t, dir, "c.txt", "y")
	if Read(t, p) != "x" {
		t.Errorf("Read(%s) = %q", p, Read(t, p))
	}
	if got := Names(t, dir); !slices.Equal(got, []string{"a", "c.txt"}) {
		t.Errorf("Names = %q", got)
	}
	if err := os.Symlink(p, dir+"/link"); err != nil {
		t.Fatal(err)
	}
	if got := Files(t, dir); !slices.Equal(got, []string{p, dir + "/c.txt"}) {
		t.Errorf("Files = %q, want the two regular files", got)
	}
	Aged(t, p, time.Hour)
	if fi, err := os.Stat(p); err != nil || time.Since(fi.ModTime()) < 59*time.Minute {
		t.Errorf("Aged: %v, %v", fi.ModTime(), err)
	}
}

// TestKernel: an example kernel is found from a folder below the module
// root.
func TestKernel(t *testing.T) {
	if k := Kernel(t, "masks.asc"); !strings.Contains(k, "__simd_vf__") && !strings.Contains(k, "__VEC_SCOPE__") {
		t.Errorf("masks.asc holds no VF code:\n%s", k)
	}
}

// TestGit runs git with its own identity: a commit is made and read back.
func TestGit(t *testing.T) {
	NeedGit(t, "git not installed")
	dir := t.TempDir()
	Git(t, dir, "init", "-q")
	Put(t, dir, "k.asc", "x")
	Git(t, dir, "add", ".")
	Git(t, dir, "commit", "-q", "-m", "first")
	if got := Git(t, dir, "log", "--format=%an %s"); got != "t first\n" {
		t.Errorf("git log: %q", got)
	}
	if got := strings.TrimSpace(Git(t, dir, "branch", "--show-current")); got != "main" {
		t.Errorf("branch %q, want main", got)
	}
}

// recorder is a testing.TB that keeps how a helper gave up: Fatal, Fatalf,
// Skip and Skipf record the call and stop the goroutine, as testing.T's do.
type recorder struct {
	testing.TB
	stops []stop
}

// stop is a call that ended a test: its method, its message, and the
// arguments of Fatal and Skip.
type stop struct {
	method, msg string
	args        []any
}

func (r *recorder) Helper()                        {}
func (r *recorder) Fatal(args ...any)              { r.stop("Fatal", fmt.Sprint(args...), args) }
func (r *recorder) Fatalf(format string, a ...any) { r.stop("Fatalf", fmt.Sprintf(format, a...), nil) }
func (r *recorder) Skip(args ...any)               { r.stop("Skip", fmt.Sprint(args...), args) }
func (r *recorder) Skipf(format string, a ...any)  { r.stop("Skipf", fmt.Sprintf(format, a...), nil) }

func (r *recorder) stop(method, msg string, args []any) {
	r.stops = append(r.stops, stop{method, msg, args})
	runtime.Goexit()
}

// err is the error a Fatal(err) stopped with, or nil.
func (s stop) err() error {
	if s.method != "Fatal" || len(s.args) != 1 {
		return nil
	}
	err, _ := s.args[0].(error)
	return err
}

// stopped runs f with a recorder on a goroutine of its own, as the testing
// package runs a test, and returns the call that stopped it; the test fails
// when f returned instead, or stopped other than once.
func stopped(t *testing.T, f func(tb testing.TB)) stop {
	t.Helper()
	r := &recorder{TB: t}
	returned := false
	done := make(chan struct{})
	go func() {
		defer close(done)
		f(r)
		returned = true
	}()
	<-done
	if returned || len(r.stops) != 1 {
		t.Fatalf("returned %v, stopped by %q; want one stop", returned, r.stops)
	}
	return r.stops[0]
}

// TestHelpersFatal: a file helper that fails stops the test with the error
// of the file or folder it could not make, read or date, and changes
// nothing on disk: Put makes no folder over a file and writes no file over
// a folder.
func TestHelpersFatal(t *testing.T) {
	dir := t.TempDir()
	file := Put(t, dir, "f.txt", "user data")
	Put(t, dir, "sub/keep.txt", "kept")
	sub := filepath.Join(dir, "sub")
	missing := filepath.Join(dir, "missing")
	before := Snapshot(t, dir)
	for _, c := range []struct {
		name string
		f    func(tb testing.TB)
		path string // the path of the error
		kind error  // its kind; nil: any
	}{
		{"Put below a file", func(tb testing.TB) { Put(tb, file, "a/b.txt", "x") }, file, nil},
		{"Put over a folder", func(tb testing.TB) { Put(tb, dir, "sub", "x") }, sub, nil},
		{"Aged", func(tb testing.TB) { Aged(tb, missing, time.Hour) }, missing, fs.ErrNotExist},
		{"Read", func(tb testing.TB) { Read(tb, missing) }, missing, fs.ErrNotExist},
		{"Names", func(tb testing.TB) { Names(tb, missing) }, missing, fs.ErrNotExist},
		{"Files", func(tb testing.TB) { Files(tb, missing) }, missing, fs.ErrNotExist},
	} {
		s := stopped(t, c.f)
		var pe *fs.PathError
		if err := s.err(); !errors.As(err, &pe) || pe.Path != c.path || c.kind != nil && !errors.Is(err, c.kind) {
			t.Errorf("%s: stopped by %s(%s); want the error of %s (%v)", c.name, s.method, s.msg, c.path, c.kind)
		}
		if after := Snapshot(t, dir); !slices.Equal(after, before) {
			t.Errorf("%s: %s held\n%q\nand holds\n%q", c.name, dir, before, after)
		}
	}
}

// TestKernelNearest: the kernel comes from the testdata of the nearest
// module above the folder, not from an outer one.
func TestKernelNearest(t *testing.T) {
	root := t.TempDir()
	Put(t, root, "go.mod", "module outer\n")
	Put(t, root, "testdata/kernels/k.asc", "outer kernel")
	Put(t, root, "inner/go.mod", "module inner\n")
	Put(t, root, "inner/testdata/kernels/k.asc", "inner kernel")
	deep := filepath.Join(root, "inner", "a", "b")
	if err := os.MkdirAll(deep, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Chdir(deep)
	if got := Kernel(t, "k.asc"); got != "inner kernel" {
		t.Errorf("Kernel from %s = %q, want the inner module's", deep, got)
	}
	t.Chdir(root)
	if got := Kernel(t, "k.asc"); got != "outer kernel" {
		t.Errorf("Kernel from %s = %q, want the outer module's", root, got)
	}
}

// TestKernelFatal: a kernel missing from the module's testdata stops the
// test with the error of its path, and so does a folder with no module
// above it, saying which kernel it looked for.
func TestKernelFatal(t *testing.T) {
	root := t.TempDir()
	for d := root; ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			t.Skipf("%s holds a go.mod above the temporary folder %s", d, root)
		}
		if filepath.Dir(d) == d {
			break
		}
	}
	t.Chdir(root)
	want := "no go.mod above the test's folder: cannot find testdata/kernels/k.asc"
	if s := stopped(t, func(tb testing.TB) { Kernel(tb, "k.asc") }); s.method != "Fatalf" || s.msg != want {
		t.Errorf("no module: stopped by %s(%q), want Fatalf(%q)", s.method, s.msg, want)
	}
	Put(t, root, "go.mod", "module m\n")
	path := filepath.Join(root, "testdata", "kernels", "none.asc")
	s := stopped(t, func(tb testing.TB) { Kernel(tb, "none.asc") })
	var pe *fs.PathError
	if err := s.err(); !errors.Is(err, fs.ErrNotExist) || !errors.As(err, &pe) || pe.Path != path {
		t.Errorf("missing kernel: stopped by %s(%s), want the error of %s", s.method, s.msg, path)
	}
}

// TestNeedGitMissing: without git on PATH the test is skipped, saying
// why; under CI=true it fails instead, naming the lookup's error.
func TestNeedGitMissing(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	t.Setenv("CI", "")
	const why = "checks a diff against git"
	if s := stopped(t, func(tb testing.TB) { NeedGit(tb, why) }); s.method != "Skip" || s.msg != why {
		t.Errorf("without git: stopped by %s(%q), want Skip(%q)", s.method, s.msg, why)
	}
	t.Setenv("CI", "true")
	_, lookErr := exec.LookPath("git")
	if lookErr == nil {
		t.Fatal("git found on an empty PATH")
	}
	want := "git is not installed, and CI must run this test: " + lookErr.Error()
	if s := stopped(t, func(tb testing.TB) { NeedGit(tb, why) }); s.method != "Fatalf" || s.msg != want {
		t.Errorf("without git under CI: stopped by %s(%q), want Fatalf(%q)", s.method, s.msg, want)
	}
}

// TestGitFails: a git command that fails stops the test with its
// arguments, its exit status and what git printed.
func TestGitFails(t *testing.T) {
	NeedGit(t, "runs a failing git command")
	dir := t.TempDir()
	Git(t, dir, "init", "-q")
	s := stopped(t, func(tb testing.TB) { Git(tb, dir, "rev-parse", "--verify", "-q", "no-such-ref") })
	if want := "git rev-parse --verify -q no-such-ref: exit status 1\n"; s.method != "Fatalf" || s.msg != want {
		t.Errorf("stopped by %s(%q), want Fatalf(%q)", s.method, s.msg, want)
	}
	s = stopped(t, func(tb testing.TB) { Git(tb, dir, "no-such-command") })
	if s.method != "Fatalf" || !strings.HasPrefix(s.msg, "git no-such-command: exit status 1\n") ||
		!strings.Contains(s.msg, "'no-such-command' is not a git command") {
		t.Errorf("stopped by %s(%q), want Fatalf with git's complaint", s.method, s.msg)
	}
}
