package cppfront

import (
	"bytes"
	"errors"
	"go/token"
	"runtime"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ascvet/ascvet/cppfront/ir"
)

// irOf is the IR ParseFileOptions makes of src with opts, as text, and its
// error.
func irOf(t *testing.T, src []byte, opts Options) (string, error) {
	t.Helper()
	fset := token.NewFileSet()
	f, err := ParseFileOptions(fset, "big.asc", src, opts)
	var b bytes.Buffer
	if err := ir.Fprint(&b, fset, f); err != nil {
		t.Fatal(err)
	}
	return b.String(), err
}

// TestStop: a parse whose Options.Stop is set ends with ErrStopped (not the
// timeout's *LimitError, even past a deadline too) and no region; one
// stopped while its segments are parsed parses no segment more than those
// under way, and the IR of a parse whose flag stays unset is the IR
// without one (the command line's).
func TestStop(t *testing.T) {
	defer SetSegments(SetSegments(32<<10, 12<<10)) // the language server's sizes: many segments
	src := bigSrc(1 << 20)
	clean, _ := prepass(src)
	total := len(splitSegments(lexText(clean), segmentSize))
	if total < 64 {
		t.Fatalf("%d segments, want at least 64", total)
	}

	want, err := irOf(t, src, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got, err := irOf(t, src, Options{Stop: new(atomic.Bool)}); err != nil || got != want {
		t.Errorf("with a flag never set: err %v, IR differs: %s", err, firstDiff(want, got))
	}

	set := new(atomic.Bool)
	set.Store(true)
	for _, opts := range []Options{{Stop: set}, {Stop: set, Timeout: time.Nanosecond}} {
		f, err := ParseFileOptions(token.NewFileSet(), "big.asc", src, opts)
		var le *LimitError
		if !errors.Is(err, ErrStopped) || errors.As(err, &le) || len(f.Funcs) != 0 {
			t.Errorf("flag set before the parse, timeout %v: err %v, %d functions; want ErrStopped and none", opts.Timeout, err, len(f.Funcs))
		}
	}

	// Stopped after the third segment parsed: each goroutine finishes the
	// segment under way, and takes no other.
	var parsed atomic.Int64
	stop := new(atomic.Bool)
	segmentParsed = func() {
		if parsed.Add(1) == 3 {
			stop.Store(true)
		}
	}
	defer func() { segmentParsed = nil }()
	f, err := ParseFileOptions(token.NewFileSet(), "big.asc", src, Options{Stop: stop})
	if !errors.Is(err, ErrStopped) || len(f.Funcs) != 0 {
		t.Errorf("stopped during the parse: err %v, %d functions; want ErrStopped and none", err, len(f.Funcs))
	}
	if n, most := parsed.Load(), int64(3+runtime.GOMAXPROCS(0)); n > most {
		t.Errorf("%d segments parsed (of about %d) after the stop at the third, want at most %d", n, total, most)
	}

	// The lowering's clock and the macro expander watch the flag too.
	bud := &budget{clock: clock{stop: set}, cut: 100}
	func() {
		defer func() {
			if _, ok := recover().(overTime); !ok {
				t.Error("tick does not stop a stopped lowering")
			}
		}()
		for range 1000 {
			bud.tick()
		}
	}()
	bomb := macroBomb(40)
	bclean, bblanks := prepass(bomb)
	runGuarded(t, 60*time.Second, func() {
		if m, late := expandMacrosBy(bomb, bclean, nil, bblanks, nil, clock{stop: set}, 1<<62); m != nil || !late {
			t.Errorf("stopped expansion = %v, late %v; want nil, late", m != nil, late)
		}
	})

	// The free list's parsers still work.
	if got, err := irOf(t, src, Options{}); err != nil || got != want {
		t.Errorf("after the stops: err %v, IR differs: %s", err, firstDiff(want, got))
	}
}
