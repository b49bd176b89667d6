//go:build unix

package git

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/ascvet/ascvet/internal/testfs"
)

// TestChangedLinesDeletedFolder: run in a folder that was removed,
// ChangedLines(".") fails with the error of finding where it is, before it
// runs git.
func TestChangedLinesDeletedFolder(t *testing.T) {
	testfs.NeedGit(t, "git not found: ChangedLines stops before it looks for the folder")
	dir := filepath.Join(t.TempDir(), "gone")
	testfs.Put(t, dir, "a.cpp", "a\n")
	t.Chdir(dir)
	if err := os.RemoveAll(dir); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Getwd(); err == nil {
		t.Skip("the removed working folder still has a path here")
	}
	if got, err := ChangedLines(".", "HEAD"); !errors.Is(err, fs.ErrNotExist) || got != nil {
		t.Errorf("ChangedLines(.) in a removed folder = %v, %v; want fs.ErrNotExist", got, err)
	}
}
