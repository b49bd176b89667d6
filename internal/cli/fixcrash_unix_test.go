//go:build unix

package cli

import (
	"bytes"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/ascvet/ascvet/internal/tempfile"
	"github.com/ascvet/ascvet/internal/testfs"
)

// helperEnv makes the test binary run ascvet (TestHelperAscvet) with the
// arguments after "--".
const helperEnv = "ASCVET_TEST_HELPER"

// pauseEnv, set to a duration, makes the helper ascvet announce each
// temporary file it creates on stderr ("ascvet-test: created PATH") and
// then pause that long, which holds its write phase open for the signal
// test.
const pauseEnv = "ASCVET_TEST_WRITE_PAUSE"

// TestHelperAscvet is ascvet itself when the test binary is started with
// helperEnv set; otherwise it does nothing.
func TestHelperAscvet(t *testing.T) {
	if os.Getenv(helperEnv) == "" {
		return
	}
	if v := os.Getenv(pauseEnv); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil {
			t.Fatalf("%s=%s: %v", pauseEnv, v, err)
		}
		tempfile.Created = func(path string) {
			fmt.Fprintf(os.Stderr, "ascvet-test: created %s\n", path)
			time.Sleep(d)
		}
	}
	args := os.Args
	for len(args) > 0 && args[0] != "--" {
		args = args[1:]
	}
	os.Exit(run(args[1:], os.Stdout, os.Stderr))
}

// ascvetProcess returns a command that runs ascvet in a child process.
func ascvetProcess(args ...string) *exec.Cmd {
	cmd := exec.Command(os.Args[0], append([]string{"-test.run=^TestHelperAscvet$", "--"}, args...)...)
	cmd.Env = append(os.Environ(), helperEnv+"=1")
	return cmd
}

// readTree returns the files under dir by path relative to it.
func readTree(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	files := map[string][]byte{}
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		files[rel] = data
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// writeTree writes files under dir.
func writeTree(t *testing.T, dir string, files map[string][]byte) {
	t.Helper()
	for rel, data := range files {
		testfs.Put(t, dir, rel, string(data))
	}
}

// timedFix runs ascvet -fix on dir in a child process and returns how long
// it took and when it reported its first fixed file.
func timedFix(t *testing.T, dir string) (took, firstWrite time.Duration) {
	t.Helper()
	cmd := ascvetProcess("-fix", dir)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line := firstLine(stderr)
	firstWrite = time.Since(start)
	rest, _ := io.ReadAll(stderr)
	if err := cmd.Wait(); err != nil || !strings.HasPrefix(line, "ascvet: fixed") {
		t.Fatalf("-fix: %v\n%s%s", err, line, rest)
	}
	return time.Since(start), firstWrite
}

// firstLine reads the first line of r.
func firstLine(r io.Reader) string {
	var line []byte
	b := make([]byte, 1)
	for {
		if n, err := r.Read(b); n == 0 || err != nil || b[0] == '\n' {
			return string(line)
		}
		line = append(line, b[0])
	}
}

// TestFixKilled kills ascvet -fix with SIGKILL at random moments of its
// run, many times, and checks after each kill that every file holds either
// its old contents or its new ones, never a mix, and that nothing but
// hidden temporary files (".NAME.ascvet-*", which no walk reads) is left
// over. A -fix run afterwards finishes the job: the tree ends as an
// uninterrupted run leaves it.
func TestFixKilled(t *testing.T) {
	base := t.TempDir()
	orig := filepath.Join(base, "orig")
	k := copyKernel(t)
	const nFiles = 24
	for i := range nFiles {
		// Each file has its own length, so that a half-written file
		// could not pass for a whole one.
		testfs.Put(t, orig, filepath.Join("k", string(rune('a'+i%26))+strings.Repeat("x", i/26), "k.asc"), k+strings.Repeat("// pad\n", i))
	}
	testfs.Put(t, orig, "host/tiling.cpp", hostFile(1))
	old := readTree(t, orig)

	// The uninterrupted run: how long it takes, and when it writes.
	want := filepath.Join(base, "want")
	writeTree(t, want, old)
	took, firstWrite := timedFix(t, want)
	fixed := readTree(t, want)
	changed := 0
	for rel := range old {
		if !bytes.Equal(old[rel], fixed[rel]) {
			changed++
		}
	}
	if changed != nFiles {
		t.Fatalf("-fix changed %d files, want %d", changed, nFiles)
	}

	// Half the kills fall anywhere in the run, half while it writes
	// (after it reported its first fixed file).
	r := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 9))
	rounds, midway := 4, 0
	if testing.Short() || raceEnabled {
		rounds = 2
	}
	for round := range rounds {
		dir := filepath.Join(base, "run", string(rune('a'+round)))
		writeTree(t, dir, old)
		cmd := ascvetProcess("-fix", dir)
		stderr, err := cmd.StderrPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		if round%2 == 1 {
			firstLine(stderr)
			time.Sleep(time.Duration(r.Int64N(int64(took - firstWrite + 1))))
		} else {
			time.Sleep(time.Duration(r.Int64N(int64(took))))
		}
		_ = cmd.Process.Signal(syscall.SIGKILL)
		go io.Copy(io.Discard, stderr) //nolint:errcheck // drain until the pipe closes
		_ = cmd.Wait()

		got := readTree(t, dir)
		nOld, nNew := 0, 0
		for rel, data := range got {
			switch {
			case strings.HasPrefix(filepath.Base(rel), ".") && strings.Contains(rel, ".ascvet-"):
				// a temporary file, hidden: the walk skips it
			case bytes.Equal(data, old[rel]):
				nOld++
			case bytes.Equal(data, fixed[rel]):
				nNew++
			default:
				t.Errorf("round %d: %s is neither its old nor its new self (%d bytes)", round, rel, len(data))
			}
		}
		if nOld+nNew != len(old) {
			t.Errorf("round %d: %d of %d files found", round, nOld+nNew, len(old))
		}
		if nNew > 0 && nOld > 1 { // the unchanged host file is always old
			midway++
		}
		// Running again completes the fix.
		if code, _, errs := ascvet(t, "-fix", dir); code != exitOK && code != exitFindings {
			t.Fatalf("round %d: -fix after the kill: exit %d\n%s", round, code, errs)
		}
		for rel, data := range readTree(t, dir) {
			if w, ok := fixed[rel]; ok && !bytes.Equal(data, w) {
				t.Errorf("round %d: after a second -fix, %s differs from an uninterrupted run", round, rel)
			}
		}
	}
	t.Logf("%d rounds over a %v run (first file written at %v); %d killed midway through the writes",
		rounds, took.Round(time.Millisecond), firstWrite.Round(time.Millisecond), midway)
}
