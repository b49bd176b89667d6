//go:build unix

package config

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"syscall"
	"testing"
	"time"
)

// TestSpecialConfig: an ascvet.toml that is a link to /dev/zero or a FIFO,
// found by the walk up or named by -config, is an error at once, without
// being read (the link took 6-16 GB, the FIFO blocked forever).
func TestSpecialConfig(t *testing.T) {
	for _, kind := range []string{"a character device", "a FIFO"} {
		root := tempRoot(t)
		writeTree(t, root, map[string]string{"a/k.cpp": ""})
		path := filepath.Join(root, "ascvet.toml")
		if kind == "a FIFO" {
			if err := syscall.Mkfifo(path, 0o600); err != nil {
				t.Skipf("mkfifo: %v", err)
			}
		} else if err := os.Symlink("/dev/zero", path); err != nil {
			t.Fatal(err)
		}
		want := path + ": not a regular file (" + kind + ")"
		for _, how := range []string{"found", "-config"} {
			alloc, err := within(t, func() error {
				if how == "-config" {
					_, err := NewLoader(Options{File: path})
					return err
				}
				l, err := NewLoader(Options{})
				if err != nil {
					return err
				}
				_, err = l.For(filepath.Join(root, "a", "k.cpp"))
				return err
			})
			var list ErrorList
			if !errors.As(err, &list) || len(list) != 1 || list[0].Error() != want {
				t.Errorf("%s, %s: error %v, want %s", kind, how, err, want)
			}
			if alloc > 1<<20 {
				t.Errorf("%s, %s: allocated %d bytes", kind, how, alloc)
			}
		}
	}
}

// within runs f in a goroutine, so that a read that blocks fails the test
// after 10 s instead of hanging it, and returns the bytes allocated
// meanwhile and f's error.
func within(t *testing.T, f func() error) (uint64, error) {
	t.Helper()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	done := make(chan error, 1)
	go func() { done <- f() }()
	select {
	case err := <-done:
		runtime.ReadMemStats(&after)
		return after.TotalAlloc - before.TotalAlloc, err
	case <-time.After(10 * time.Second):
		t.Fatal("still reading after 10 s")
		return 0, nil
	}
}
