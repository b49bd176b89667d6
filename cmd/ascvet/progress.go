package main

import (
	"fmt"
	"io"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/term"
)

// progress shows how far a long run is, as other modern tools do: on a
// terminal, once a run has taken progressDelay, one line on stderr that
// says how many files are done of how many and the time spent, redrawn in
// place and cleared at the end. Never when stderr is not a terminal, with
// TERM=dumb, or with -q.
type progress struct {
	w            io.Writer
	delay, every time.Duration
	start        time.Time
	total, done  atomic.Int64
	stop         chan struct{}
	wg           sync.WaitGroup
	shown        bool // a line was drawn (only the drawing goroutine and finish, after it ended, touch it)
}

const (
	progressDelay = 2 * time.Second
	progressEvery = 250 * time.Millisecond
)

// newProgress starts the progress line of a long command (a check,
// ascvet stats, ascvet sim over paths) on stderr, when wantProgress says
// so; tests replace it to see the line without a terminal.
var newProgress = func(stderr io.Writer, quiet bool) *progress {
	return startProgress(stderr, wantProgress(stderr, quiet, os.Getenv), progressDelay, progressEvery)
}

// wantProgress reports whether a run with stderr w shows progress.
func wantProgress(w io.Writer, quiet bool, getenv func(string) string) bool {
	if quiet || getenv("TERM") == "dumb" {
		return false
	}
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// startProgress starts showing progress on w; nil (which does nothing)
// when on is false.
func startProgress(w io.Writer, on bool, delay, every time.Duration) *progress {
	if !on {
		return nil
	}
	p := &progress{w: w, delay: delay, every: every, start: time.Now(), stop: make(chan struct{})}
	p.wg.Add(1)
	go p.loop()
	return p
}

func (p *progress) loop() {
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

func (p *progress) draw() {
	p.shown = true
	el := time.Since(p.start).Truncate(100 * time.Millisecond)
	fmt.Fprintf(p.w, "\rascvet: %d of %d files, %v\x1b[K", p.done.Load(), p.total.Load(), el)
}

// setTotal sets how many files the run checks.
func (p *progress) setTotal(n int) {
	if p != nil {
		p.total.Store(int64(n))
	}
}

// add counts n more files done.
func (p *progress) add(n int) {
	if p != nil {
		p.done.Add(int64(n))
	}
}

// finish stops the display and clears its line, so that what follows
// starts on a clean line.
func (p *progress) finish() {
	if p == nil {
		return
	}
	close(p.stop)
	p.wg.Wait()
	if p.shown {
		fmt.Fprint(p.w, "\r\x1b[K")
	}
}
