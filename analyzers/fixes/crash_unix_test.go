//go:build unix

package fixes

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// crashEnv makes the test binary a child that fixes files and kills itself
// (see crashChild); its value is "dir|stage|k".
const crashEnv = "ASCVET_FIXES_CRASH"

// TestReplaceFileCrash kills a process with SIGKILL in the middle of
// ReplaceFile, at each of its stages, and checks that every file is
// either its old or its new self, never a mix, and that nothing is left
// but, at worst, the hidden temporary file of the file being written.
func TestReplaceFileCrash(t *testing.T) {
	if v := os.Getenv(crashEnv); v != "" {
		crashChild(v)
		return
	}
	const files = 3
	for _, stage := range []string{stageCreated, stageWritten, stageSynced, stageRenamed} {
		for _, k := range []int{0, files - 1} {
			t.Run(fmt.Sprintf("%s/%d", stage, k), func(t *testing.T) {
				dir := t.TempDir()
				var names []string
				for i := range files {
					names = append(names, filepath.Base(write(t, dir, fmt.Sprintf("k%d.cpp", i), oldText(i), 0o640)))
				}
				cmd := exec.Command(os.Args[0], "-test.run=^TestReplaceFileCrash$")
				cmd.Env = append(os.Environ(), fmt.Sprintf("%s=%s|%s|%d", crashEnv, dir, stage, k))
				out, err := cmd.CombinedOutput()
				var ee *exec.ExitError
				if !errors.As(err, &ee) || ee.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
					t.Fatalf("child was not killed: %v\n%s", err, out)
				}
				for i := range files {
					// Files before k were replaced; k is new only once renamed.
					want := oldText(i)
					if i < k || i == k && stage == stageRenamed {
						want = newText(i)
					}
					expect(t, filepath.Join(dir, names[i]), want, 0o640)
				}
				entries, err := os.ReadDir(dir)
				if err != nil {
					t.Fatal(err)
				}
				left := 0
				for _, e := range entries {
					if strings.HasPrefix(e.Name(), "k") {
						continue
					}
					left++
					if !strings.HasPrefix(e.Name(), fmt.Sprintf(".k%d.cpp.ascvet-", k)) || stage == stageRenamed {
						t.Errorf("left behind: %s", e.Name())
					}
				}
				if stage != stageRenamed && left != 1 {
					t.Errorf("%d temporary files left, want the one being written", left)
				}
			})
		}
	}
}

func oldText(i int) string { return fmt.Sprintf("old %d\n%s", i, strings.Repeat("o", 5000)) }
func newText(i int) string { return fmt.Sprintf("new %d\n%s", i, strings.Repeat("n", 7000)) }

// crashChild replaces k0.cpp, k1.cpp, ... of dir in order and kills itself
// when ReplaceFile reaches stage on file k.
func crashChild(v string) {
	parts := strings.Split(v, "|")
	dir, stage := parts[0], parts[1]
	k, _ := strconv.Atoi(parts[2])
	file := 0
	reached = func(s, tmp string) {
		if s == stage && file == k {
			_ = syscall.Kill(os.Getpid(), syscall.SIGKILL)
			time.Sleep(time.Minute) // the signal is on its way
		}
	}
	for ; ; file++ {
		p := filepath.Join(dir, fmt.Sprintf("k%d.cpp", file))
		if _, err := os.Stat(p); err != nil {
			break
		}
		if err := ReplaceFile(p, []byte(oldText(file)), []byte(newText(file))); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
	}
	os.Exit(0) // not killed: the parent reports it
}
