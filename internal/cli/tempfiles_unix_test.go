//go:build unix

package cli

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/ascvet/ascvet/internal/tempfile"
	"github.com/ascvet/ascvet/internal/testfs"
)

// TestFixSignals interrupts ascvet -fix during its write phase, many times:
// with SIGKILL in half the rounds, with a signal it catches (SIGTERM,
// SIGINT, SIGHUP, SIGQUIT in turn) in the others, at a random moment after
// it created its first temporary file. The helper pauses after creating
// each one (pauseEnv) so that the signal lands among the writes. After each
// round every file must be wholly its original or wholly its fixed self; a
// caught signal must leave no temporary file and exit 128+signal; and the
// next ordinary -fix must remove what SIGKILL left, and finish the job.
// isTemp reports whether rel names a temporary file of ascvet.
func isTemp(rel string) bool {
	_, ok := tempfile.IsTemp(filepath.Base(rel))
	return ok
}

func TestFixSignals(t *testing.T) {
	const (
		nFiles = 6
		pause  = 3 * time.Millisecond
	)
	base := t.TempDir()
	orig := filepath.Join(base, "orig")
	k := copyKernel(t)
	for i := range nFiles {
		// Lengths differ, so a mix of two files could not pass for one.
		testfs.Put(t, orig, fmt.Sprintf("k%d.asc", i), k+strings.Repeat("// pad\n", i))
	}
	old := readTree(t, orig)
	want := filepath.Join(base, "want")
	writeTree(t, want, old)
	if code, _, errs := ascvet(t, "-fix", want); code != exitOK || strings.Count(errs, "ascvet: fixed") != nFiles {
		t.Fatalf("-fix: exit %d\n%s", code, errs)
	}
	fixed := readTree(t, want)

	rounds := 30
	if testing.Short() || raceEnabled {
		rounds = 10
	}
	caught := []syscall.Signal{syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP, syscall.SIGQUIT}
	r := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 15))
	interrupted := map[syscall.Signal]int{}
	leftByKill := 0
	for round := range rounds {
		sig := syscall.SIGKILL
		if round%2 == 1 {
			sig = caught[round/2%len(caught)]
		}
		dir := filepath.Join(base, "run", fmt.Sprint(round))
		writeTree(t, dir, old)
		cmd := ascvetProcess("-fix", dir)
		cmd.Env = append(cmd.Env, pauseEnv+"="+pause.String())
		stderr, err := cmd.StderrPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		lines := bufio.NewReader(stderr)
		var first string
		for !strings.HasPrefix(first, "ascvet-test: created ") {
			if first, err = lines.ReadString('\n'); err != nil {
				t.Fatalf("round %d: the helper created no temporary file: %v", round, err)
			}
		}
		time.Sleep(time.Duration(r.Int64N(int64((nFiles - 1) * pause))))
		_ = cmd.Process.Signal(sig)
		rest, _ := io.ReadAll(lines)
		err = cmd.Wait()
		what := fmt.Sprintf("round %d (%v)", round, sig)

		// The exit: 128+signal for a caught one, death for SIGKILL; or
		// the run finished before the signal came.
		var ee *exec.ExitError
		switch {
		case err == nil:
		case !errors.As(err, &ee):
			t.Fatalf("%s: %v", what, err)
		case sig == syscall.SIGKILL && ee.Sys().(syscall.WaitStatus).Signal() == syscall.SIGKILL,
			sig != syscall.SIGKILL && ee.ExitCode() == 128+int(sig):
			interrupted[sig]++
		default:
			t.Errorf("%s: %v; want exit status %d\n%s%s", what, err, 128+int(sig), first, rest)
		}

		nOld, nNew := 0, 0
		var temps []string
		for rel, data := range readTree(t, dir) {
			switch {
			case isTemp(rel):
				if pid, _ := tempfile.IsTemp(filepath.Base(rel)); pid != cmd.Process.Pid {
					t.Errorf("%s: temporary file %s is not named after the process %d", what, rel, cmd.Process.Pid)
				}
				temps = append(temps, rel)
			case bytes.Equal(data, old[rel]):
				nOld++
			case bytes.Equal(data, fixed[rel]):
				nNew++
			default:
				t.Errorf("%s: %s is neither its original nor its fixed self (%d bytes)", what, rel, len(data))
			}
		}
		if nOld+nNew != nFiles {
			t.Errorf("%s: %d of %d files found", what, nOld+nNew, nFiles)
		}
		if sig != syscall.SIGKILL && len(temps) > 0 {
			t.Errorf("%s: temporary files left: %q", what, temps)
		}
		leftByKill += len(temps)

		// The next -fix removes what SIGKILL left and finishes the job.
		code, _, errs := ascvet(t, "-fix", dir)
		if code != exitOK || strings.Count(errs, "ascvet: removed ") != len(temps) {
			t.Errorf("%s: -fix after the signal: exit %d, %d temporary files to remove\n%s", what, code, len(temps), errs)
		}
		got := readTree(t, dir)
		for rel, data := range got {
			if w, ok := fixed[rel]; !ok {
				t.Errorf("%s: %s left after a second -fix", what, rel)
			} else if !bytes.Equal(data, w) {
				t.Errorf("%s: after a second -fix, %s differs from an uninterrupted run", what, rel)
			}
		}
	}
	for _, sig := range append([]syscall.Signal{syscall.SIGKILL}, caught...) {
		switch {
		case sig == syscall.SIGHUP && signal.Ignored(syscall.SIGHUP):
			// Started under nohup: ascvet inherits SIGHUP ignored and
			// keeps it so (tempfile.go), its runs finish whole.
			if interrupted[sig] != 0 {
				t.Errorf("SIGHUP is ignored here, yet %d runs were interrupted by it", interrupted[sig])
			}
		case interrupted[sig] == 0:
			t.Errorf("no run was interrupted by %v: the pause no longer holds the writes open", sig)
		}
	}
	if leftByKill == 0 {
		t.Error("no SIGKILL left a temporary file: their removal went untested")
	}
	t.Logf("%d rounds: interrupted %v; SIGKILL left %d temporary files, all removed by the next -fix", rounds, interrupted, leftByKill)
}

// TestWriteBaselineTemps: -write-baseline writes through ascvet's own
// temporary file (removed on a signal), and removes the temporary files a
// killed -write-baseline left beside the baseline, in both naming styles.
func TestWriteBaselineTemps(t *testing.T) {
	dir := t.TempDir()
	src, err := os.ReadFile(filepath.Join("..", "..", "testdata", "kernels", "unaligned_copy.asc"))
	if err != nil {
		t.Fatal(err)
	}
	k := testfs.Put(t, dir, "k.asc", string(src))
	bl := testfs.Put(t, dir, "b.json", "{\"version\":1,\"entries\":[]}\n")
	dead := testfs.DeadPid(t)
	stale := testfs.Put(t, dir, tempfile.Name("b.json", dead, 0xdeadbeef), "half a baseline")
	var seen []string
	defer func(saved func(string)) { tempfile.Created = saved }(tempfile.Created)
	tempfile.Created = func(path string) { seen = append(seen, path) }
	var stdout, stderr bytes.Buffer
	if code := run([]string{"-cache", "off", "-write-baseline", bl, k}, &stdout, &stderr); code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	if _, err := os.Lstat(stale); !os.IsNotExist(err) {
		t.Errorf("the stale temporary file %s is still there", stale)
	}
	if len(seen) != 1 || !strings.HasPrefix(filepath.Base(seen[0]), ".b.json.ascvet-tmp-") {
		t.Errorf("temporary files made: %q; want one of ascvet's, for b.json", seen)
	}
	if got := testfs.Names(t, dir); !slices.Equal(got, []string{"b.json", "k.asc"}) {
		t.Errorf("%s holds %q after -write-baseline", dir, got)
	}
}
