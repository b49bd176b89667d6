package main

import (
	"bytes"
	"os"
	"strings"
	"sync"
	"testing"
	"time"
)

// lockedBuffer is a bytes.Buffer safe for the drawing goroutine and the test.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// TestProgress: past its delay the line shows files done of the total and
// the time, is redrawn in place, and is cleared at the end; a run shorter
// than the delay draws nothing.
func TestProgress(t *testing.T) {
	var out lockedBuffer
	p := startProgress(&out, true, 0, 5*time.Millisecond)
	p.setTotal(5)
	p.add(3)
	deadline := time.Now().Add(5 * time.Second)
	for !strings.Contains(out.String(), "3 of 5 files") && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	p.add(2)
	for !strings.Contains(out.String(), "5 of 5 files") && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	p.finish()
	got := out.String()
	if !strings.HasPrefix(got, "\rascvet: ") || !strings.Contains(got, "3 of 5 files") || !strings.Contains(got, "5 of 5 files") || !strings.HasSuffix(got, "\r\x1b[K") {
		t.Errorf("progress wrote %q", got)
	}

	var quiet lockedBuffer
	p = startProgress(&quiet, true, time.Hour, time.Millisecond)
	p.setTotal(1)
	p.add(1)
	p.finish()
	if quiet.String() != "" {
		t.Errorf("a run shorter than the delay drew %q", quiet.String())
	}
	var none *progress // off: every method is a no-op
	none.setTotal(1)
	none.add(1)
	none.finish()
}

// TestWantProgress: never into a buffer or a pipe, with -q, or with
// TERM=dumb (the terminal case itself needs a terminal).
func TestWantProgress(t *testing.T) {
	env := func(term string) func(string) string {
		return func(k string) string {
			if k == "TERM" {
				return term
			}
			return ""
		}
	}
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	for _, tc := range []struct {
		name string
		on   bool
	}{
		{"buffer", wantProgress(&bytes.Buffer{}, false, env("xterm"))},
		{"pipe", wantProgress(w, false, env("xterm"))},
		{"quiet", wantProgress(w, true, env("xterm"))},
		{"dumb", wantProgress(w, false, env("dumb"))},
	} {
		if tc.on {
			t.Errorf("%s: progress on", tc.name)
		}
	}
	if tty, err := os.OpenFile("/dev/tty", os.O_WRONLY, 0); err == nil {
		defer tty.Close()
		if !wantProgress(tty, false, env("xterm")) || wantProgress(tty, true, env("xterm")) {
			t.Error("/dev/tty: want progress unless -q")
		}
	}
	if code, _, errs := ascvet(t, "-q", "../../testdata/kernels/clean.asc"); code != exitOK || errs != "" {
		t.Errorf("-q: exit %d, stderr %q", code, errs)
	}
}
