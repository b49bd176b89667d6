package golden

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"testing"

	"github.com/ascvet/ascvet/internal/testfs"
)

// recorder is a testing.TB that keeps what Check reports. Fatal keeps its
// arguments and stops the goroutine, as testing.T's does: call Check
// through run then.
type recorder struct {
	testing.TB
	errs   []string
	fatals [][]any
}

func (r *recorder) Helper() {}

func (r *recorder) Errorf(format string, args ...any) {
	r.errs = append(r.errs, fmt.Sprintf(format, args...))
}

func (r *recorder) Fatal(args ...any) {
	r.fatals = append(r.fatals, args)
	runtime.Goexit()
}

// run calls f on a goroutine of its own, as the testing package runs a
// test, and reports whether f returned rather than stopped at a Fatal.
func (r *recorder) run(f func()) (returned bool) {
	done := make(chan struct{})
	go func() {
		defer close(done)
		f()
		returned = true
	}()
	<-done
	return returned
}

// TestCheck: the same text passes, a different one is reported with both,
// and -update rewrites the file.
func TestCheck(t *testing.T) {
	t.Chdir(t.TempDir())
	if err := os.MkdirAll("testdata", 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join("testdata", "a.golden"), []byte("want\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r := &recorder{TB: t}
	Check(r, "a.golden", "want\n")
	if len(r.errs) != 0 {
		t.Errorf("the same text reported: %q", r.errs)
	}
	Check(r, "a.golden", "got\n")
	if len(r.errs) != 1 {
		t.Fatalf("a different text: %d reports, want 1", len(r.errs))
	}
	old := *Update
	*Update = true
	t.Cleanup(func() { *Update = old })
	Check(r, "a.golden", "got\n")
	if data, err := os.ReadFile(filepath.Join("testdata", "a.golden")); err != nil || string(data) != "got\n" {
		t.Errorf("-update wrote %q, %v", data, err)
	}
}

// TestCheckFatal: a golden file that cannot be read, or with -update
// written, stops the test with the error for its path, reports no
// difference, and makes or changes no file.
func TestCheckFatal(t *testing.T) {
	t.Chdir(t.TempDir())
	old := *Update
	t.Cleanup(func() { *Update = old })
	for _, c := range []struct {
		name   string
		update bool
		setup  func() // what the folder holds before
		op     string
		kind   error // nil: any error
	}{
		// No golden file: it is not made up from the output.
		{"missing.golden", false, func() { mkdir(t, "testdata") }, "open", fs.ErrNotExist},
		// -update without a testdata folder: it is not made either.
		{"new.golden", true, func() {}, "open", fs.ErrNotExist},
		// -update over a folder of that name: the folder and what it
		// holds are kept.
		{"dir.golden", true, func() {
			mkdir(t, filepath.Join("testdata", "dir.golden"))
			put(t, filepath.Join("testdata", "dir.golden", "keep"), "kept")
		}, "open", nil},
	} {
		if err := os.RemoveAll("testdata"); err != nil {
			t.Fatal(err)
		}
		c.setup()
		before := testfs.Snapshot(t, ".")
		*Update = c.update
		r := &recorder{TB: t}
		if r.run(func() { Check(r, c.name, "output\n") }) {
			t.Errorf("%s (update %v): Check returned, want it stopped", c.name, c.update)
		}
		if len(r.fatals) != 1 || len(r.fatals[0]) != 1 {
			t.Fatalf("%s (update %v): Fatal called with %q, want one error", c.name, c.update, r.fatals)
		}
		var pe *fs.PathError
		if err, _ := r.fatals[0][0].(error); !errors.As(err, &pe) || pe.Op != c.op || pe.Path != filepath.Join("testdata", c.name) ||
			c.kind != nil && !errors.Is(err, c.kind) {
			t.Errorf("%s (update %v): Fatal(%v), want %s of testdata/%s failing (%v)", c.name, c.update, r.fatals[0][0], c.op, c.name, c.kind)
		}
		if len(r.errs) != 0 {
			t.Errorf("%s (update %v): also reported %q", c.name, c.update, r.errs)
		}
		if after := testfs.Snapshot(t, "."); !slices.Equal(after, before) {
			t.Errorf("%s (update %v): the folder held\n%q\nand holds\n%q", c.name, c.update, before, after)
		}
	}
}

func mkdir(t *testing.T, dir string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
}

func put(t *testing.T, path, data string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}
