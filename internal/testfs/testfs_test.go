package testfs

import (
	"os"
	"slices"
	"testing"
	"time"
)

// TestHelpers: Put makes folders and the file, Read and Names see it, Aged
// moves its time back.
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
	Aged(t, p, time.Hour)
	if fi, err := os.Stat(p); err != nil || time.Since(fi.ModTime()) < 59*time.Minute {
		t.Errorf("Aged: %v, %v", fi.ModTime(), err)
	}
}
