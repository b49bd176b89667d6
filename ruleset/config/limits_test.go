package config

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// deepConfigs are 64 KB configuration files nested 16,000 to 32,000
// levels deep, each with the line the error names.
var deepConfigs = []struct {
	name, src string
	line      int
}{
	{"arrays", "root = true\nchecks = " + strings.Repeat("[", 32000) + strings.Repeat("]", 32000) + "\n", 2},
	{"inline tables", "\n\nchecks = " + strings.Repeat("{a=", 16000) + "1" + strings.Repeat("}", 16000) + "\n", 3},
	{"dotted key", strings.Repeat("a.", 32000) + "a = 1\n", 1},
	{"table", "root = true\n[" + strings.Repeat("a.", 32000) + "a]\n", 2},
	{"array of tables", "[[" + strings.Repeat("a.", 32000) + "a]]\n", 1},
	{"tables and arrays", "[" + strings.Repeat("a.", 32) + "a]\nb = " + strings.Repeat("[", 32) + strings.Repeat("]", 32) + "\n", 2},
}

// TestDeepConfig: a configuration file nested deeper than maxDepth is
// refused with one error naming its file and line, without the decoder
// or the key scanner going deep: each 64 KB file takes less than 4 MB
// (the TOML decoder alone takes 39 GB and 52 s for the dotted key, and
// the key scanner took 7-20 GB for the others).
func TestDeepConfig(t *testing.T) {
	for _, tc := range deepConfigs {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "ascvet.toml")
			if err := os.WriteFile(path, []byte(tc.src), 0o644); err != nil {
				t.Fatal(err)
			}
			alloc, err := loadWithin(t, path)
			want := fmt.Sprintf("%s:%d: keys, tables and arrays nested more than %d levels deep; an ascvet.toml needs at most 4", path, tc.line, maxDepth)
			var list ErrorList
			if !errors.As(err, &list) || len(list) != 1 || list[0].Error() != want {
				t.Errorf("error %v, want %s", err, want)
			}
			if alloc > 4<<20 {
				t.Errorf("%d KB file: allocated %.1f MB, want at most 4", len(tc.src)>>10, float64(alloc)/(1<<20))
			}
		})
	}
}

// TestDepthLimit: a file exactly maxDepth deep is read (and its values
// checked as usual); one level more is refused.
func TestDepthLimit(t *testing.T) {
	for _, tc := range []struct {
		src  string
		want string
	}{
		{"checks = " + strings.Repeat("[", maxDepth-1) + strings.Repeat("]", maxDepth-1) + "\n", "checks: want strings, not an array"},
		{"checks = " + strings.Repeat("[", maxDepth) + strings.Repeat("]", maxDepth) + "\n", "nested more than 64 levels deep"},
		{strings.Repeat("a.", maxDepth-1) + "a = 1\n", "unknown key a"},
		{strings.Repeat("a.", maxDepth) + "a = 1\n", "nested more than 64 levels deep"},
		{"[[overrides]]\npaths = [\"x\"]\nseverity = { ASC1003 = \"info\" }\n", ""},
	} {
		path := filepath.Join(t.TempDir(), "ascvet.toml")
		if err := os.WriteFile(path, []byte(tc.src), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := NewLoader(Options{File: path})
		if tc.want == "" && err != nil || tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)) {
			t.Errorf("%.40q...: error %v, want %q", tc.src, err, tc.want)
		}
	}
}

// loadWithin loads the configuration file at path in a goroutine, so that
// a load that never ends fails the test after 20 s instead of hanging it,
// and returns the bytes allocated meanwhile and its error.
func loadWithin(t *testing.T, path string) (uint64, error) {
	t.Helper()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	done := make(chan error, 1)
	go func() {
		_, err := NewLoader(Options{File: path})
		done <- err
	}()
	select {
	case err := <-done:
		runtime.ReadMemStats(&after)
		return after.TotalAlloc - before.TotalAlloc, err
	case <-time.After(20 * time.Second):
		t.Fatalf("%s: still loading after 20 s", path)
		return 0, nil
	}
}

// BenchmarkDeepConfig loads each 64 KB deep configuration file.
func BenchmarkDeepConfig(b *testing.B) {
	for _, tc := range deepConfigs {
		b.Run(tc.name, func(b *testing.B) {
			path := filepath.Join(b.TempDir(), "ascvet.toml")
			if err := os.WriteFile(path, []byte(tc.src), 0o644); err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			b.SetBytes(int64(len(tc.src)))
			for b.Loop() {
				if _, err := NewLoader(Options{File: path}); err == nil {
					b.Fatal("loaded")
				}
			}
		})
	}
}

// TestBigConfig: a configuration file over MaxFileSize is an error, and
// is not read.
func TestBigConfig(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ascvet.toml")
	if err := os.WriteFile(path, []byte("# "+strings.Repeat("x", MaxFileSize)+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	alloc, err := loadWithin(t, path)
	want := path + ": over the limit of 4 MiB for this file (4194307 bytes)"
	if err == nil || err.Error() != want {
		t.Errorf("error %v, want %s", err, want)
	}
	if alloc > 1<<20 {
		t.Errorf("allocated %d bytes", alloc)
	}
}
