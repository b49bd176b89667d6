//go:build unix

package tempfile

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/ascvet/ascvet/internal/testfs"
)

// TestRemoveStaleTempsDeadPid checks the rule for ascvet's temporary files:
// removed when their process is gone and their file is beside them; kept
// while it lives, and kept when not a regular file or when their file is
// not there.
func TestRemoveStaleTempsDeadPid(t *testing.T) {
	dir := t.TempDir()
	dead := testfs.DeadPid(t)
	testfs.Put(t, dir, "k.asc", "kernel")
	testfs.Put(t, dir, "tab\there.asc", "kernel")
	stale := testfs.Put(t, dir, Name("k.asc", dead, 0xdeadbeef), "half")
	staleOdd := testfs.Put(t, dir, Name("tab\there.asc", dead, 1), "half")
	mine := testfs.Put(t, dir, Name("k.asc", os.Getpid(), 2), "ours, being written")
	parent := testfs.Put(t, dir, Name("k.asc", os.Getppid(), 3), "the go command's, say")
	orphan := testfs.Put(t, dir, Name("gone.asc", dead, 4), "whose file is gone")
	user := testfs.Put(t, dir, ".foo.ascvet-notes", "a user's file")
	if err := os.Mkdir(filepath.Join(dir, Name("k.asc", dead, 5)), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("k.asc", filepath.Join(dir, Name("k.asc", dead, 6))); err != nil {
		t.Fatal(err)
	}
	before := testfs.Names(t, dir)

	var stderr bytes.Buffer
	RemoveStale(&stderr, dir, time.Now())
	want := slices.DeleteFunc(slices.Clone(before), func(n string) bool {
		return n == filepath.Base(stale) || n == filepath.Base(staleOdd)
	})
	if got := testfs.Names(t, dir); !slices.Equal(got, want) {
		t.Errorf("after removing stale files %s holds\n%q\nwant\n%q", dir, got, want)
	}
	for _, kept := range []string{mine, parent, orphan, user} {
		if _, err := os.Lstat(kept); err != nil {
			t.Errorf("%s was removed", kept)
		}
	}
	msg := fmt.Sprintf(", a temporary file left by ascvet process %d, which is gone\n", dead)
	if got := stderr.String(); strings.Count(got, msg) != 2 || !strings.Contains(got, "ascvet: removed "+stale+msg) {
		t.Errorf("stderr %q; want the two removals named", got)
	}
}

// otherSignal is an os.Signal that is no syscall.Signal.
type otherSignal struct{}

func (otherSignal) String() string { return "other" }
func (otherSignal) Signal()        {}

// TestSignalStatus: the exit status on a signal is the shell's, 128 plus
// its number; on a signal that has no number, SIGTERM's.
func TestSignalStatus(t *testing.T) {
	for s, want := range map[os.Signal]int{
		syscall.SIGHUP:  129,
		os.Interrupt:    130,
		syscall.SIGQUIT: 131,
		syscall.SIGTERM: 143,
		otherSignal{}:   143,
	} {
		if got := signalStatus(s); got != want {
			t.Errorf("signalStatus(%v) = %d, want %d", s, got, want)
		}
	}
	for _, s := range exitSignals {
		if got := signalStatus(s); got <= 128 || got > 128+64 {
			t.Errorf("signalStatus(%v) = %d, not a signal's status", s, got)
		}
	}
}
