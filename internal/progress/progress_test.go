package progress

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
	p := Start(&out, true, 0, 5*time.Millisecond)
	p.SetTotal(5)
	p.Add(3)
	deadline := time.Now().Add(5 * time.Second)
	for !strings.Contains(out.String(), "3 of 5 files") && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	p.Add(2)
	for !strings.Contains(out.String(), "5 of 5 files") && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	p.Finish()
	got := out.String()
	if !strings.HasPrefix(got, "\rascvet: ") || !strings.Contains(got, "3 of 5 files") || !strings.Contains(got, "5 of 5 files") || !strings.HasSuffix(got, "\r\x1b[K") {
		t.Errorf("progress wrote %q", got)
	}

	var quiet lockedBuffer
	p = Start(&quiet, true, time.Hour, time.Millisecond)
	p.SetTotal(1)
	p.Add(1)
	p.Finish()
	if quiet.String() != "" {
		t.Errorf("a run shorter than the delay drew %q", quiet.String())
	}
	var none *Line // off: every method is a no-op
	none.SetTotal(1)
	none.Add(1)
	none.Finish()
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
		{"buffer", Want(&bytes.Buffer{}, false, env("xterm"))},
		{"pipe", Want(w, false, env("xterm"))},
		{"quiet", Want(w, true, env("xterm"))},
		{"dumb", Want(w, false, env("dumb"))},
	} {
		if tc.on {
			t.Errorf("%s: progress on", tc.name)
		}
	}
	if tty, err := os.OpenFile("/dev/tty", os.O_WRONLY, 0); err == nil {
		defer tty.Close()
		if !Want(tty, false, env("xterm")) || Want(tty, true, env("xterm")) {
			t.Error("/dev/tty: want progress unless -q")
		}
	}
}
