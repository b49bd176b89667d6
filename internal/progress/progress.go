// Package progress shows how far a long run is: one line on a terminal,
// redrawn in place.
package progress

import (
	"fmt"
	"io"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/term"
)

// Line shows how far a long run is, as other modern tools do: on a
// terminal, once a run has taken Delay, one line on stderr that
// says how many files are done of how many and the time spent, redrawn in
// place and cleared at the end. Never when stderr is not a terminal, with
// TERM=dumb, or with -q.
type Line struct {
	w            io.Writer
	delay, every time.Duration
	start        time.Time
	total, done  atomic.Int64
	stop         chan struct{}
	wg           sync.WaitGroup
	shown        bool // a line was drawn (only the drawing goroutine and finish, after it ended, touch it)
}

const (
	Delay = 2 * time.Second
	Every = 250 * time.Millisecond
)

// New starts the progress line of a long command (a check,
// ascvet stats, ascvet sim over paths) on stderr, when wantProgress says
// so; tests replace it to see the line without a terminal.
var New = func(stderr io.Writer, quiet bool) *Line {
	return Start(stderr, Want(stderr, quiet, os.Getenv), Delay, Every)
}

// Want reports whether a run with stderr w shows progress.
func Want(w io.Writer, quiet bool, getenv func(string) string) bool {
	if quiet || getenv("TERM") == "dumb" {
		return false
	}
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// Start starts showing progress on w; nil (which does nothing)
// when on is false.
func Start(w io.Writer, on bool, delay, every time.Duration) *Line {
	if !on {
		return nil
	}
	p := &Line{w: w, delay: delay, every: every, start: time.Now(), stop: make(chan struct{})}
	p.wg.Add(1)
	go p.loop()
	return p
}

func (p *Line) loop() {
	defer p.wg.Done()
	wait := time.NewTimer(p.delay)
	defer wait.Stop()
	select {
	case <-p.stop:
		return
	case <-wait.C:
	}
	tick := time.NewTicker(p.every)
	defer tick.Stop()
	for {
		p.draw()
		select {
		case <-p.stop:
			return
		case <-tick.C:
		}
	}
}

func (p *Line) draw() {
	p.shown = true
	el := time.Since(p.start).Truncate(100 * time.Millisecond)
	fmt.Fprintf(p.w, "\rascvet: %d of %d files, %v\x1b[K", p.done.Load(), p.total.Load(), el)
}

// SetTotal sets how many files the run checks.
func (p *Line) SetTotal(n int) {
	if p != nil {
		p.total.Store(int64(n))
	}
}

// Add counts n more files done.
func (p *Line) Add(n int) {
	if p != nil {
		p.done.Add(int64(n))
	}
}

// Finish stops the display and clears its line, so that what follows
// starts on a clean line.
func (p *Line) Finish() {
	if p == nil {
		return
	}
	close(p.stop)
	p.wg.Wait()
	if p.shown {
		fmt.Fprint(p.w, "\r\x1b[K")
	}
}
