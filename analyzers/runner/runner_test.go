package runner

import (
	"bytes"
	"errors"
	"fmt"
	"go/token"
	"reflect"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"golang.org/x/tools/go/analysis"

	"github.com/ascvet/ascvet/analyzers/stop"
)

// load adds the pass's file to its FileSet, as cppir does, and returns it.
var load = &analysis.Analyzer{
	Name:       "load",
	Doc:        "add the file to the FileSet",
	ResultType: reflect.TypeFor[*token.File](),
	Run: func(pass *analysis.Pass) (any, error) {
		name := pass.OtherFiles[0]
		src, err := pass.ReadFile(name)
		if err != nil {
			return nil, err
		}
		if bytes.Contains(src, []byte("LOADFAIL")) {
			return nil, errors.New("cannot load")
		}
		tf := pass.Fset.AddFile(name, -1, len(src))
		tf.SetLinesForContent(src)
		return tf, nil
	},
}

// words reports every occurrence of BAD, panics on PANIC and reports a
// position-less diagnostic on NOPOS.
var words = &analysis.Analyzer{
	Name:     "words",
	Doc:      "report BAD",
	Requires: []*analysis.Analyzer{load},
	Run: func(pass *analysis.Pass) (any, error) {
		tf := pass.ResultOf[load].(*token.File)
		src, _ := pass.ReadFile(pass.OtherFiles[0])
		if bytes.Contains(src, []byte("PANIC")) {
			panic("boom")
		}
		if bytes.Contains(src, []byte("NOPOS")) {
			pass.Report(analysis.Diagnostic{Message: "nowhere"})
		}
		for off := 0; ; {
			i := bytes.Index(src[off:], []byte("BAD"))
			if i < 0 {
				break
			}
			off += i
			pass.Report(analysis.Diagnostic{Pos: tf.Pos(off), End: tf.Pos(off + 3), Message: "bad word"})
			off += 3
		}
		return nil, nil
	},
}

func TestRun(t *testing.T) {
	files := []File{
		{Name: "b.cpp", Src: []byte("x\n  BAD BAD\n")},
		{Name: "a.cpp", Src: []byte("BAD\n")},
		{Name: "c.cpp", Src: []byte("fine\n")},
	}
	var mu sync.Mutex
	visited := map[string]bool{}
	res, err := Run([]*analysis.Analyzer{words}, files, Options{Jobs: 3, Visit: func(f File, results map[*analysis.Analyzer]any) {
		mu.Lock()
		defer mu.Unlock()
		if _, ok := results[load].(*token.File); !ok {
			t.Errorf("Visit(%s): no load result", f.Name)
		}
		visited[f.Name] = true
	}})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Errors) != 0 {
		t.Errorf("errors: %v", res.Errors)
	}
	var got []string
	for _, f := range res.Findings {
		got = append(got, fmt.Sprintf("%s:%d:%d-%d:%d %s %s", f.Pos.Filename, f.Pos.Line, f.Pos.Column, f.End.Line, f.End.Column, f.RuleID(), f.Diagnostic.Message))
	}
	want := []string{
		"a.cpp:1:1-1:4 words bad word",
		"b.cpp:2:3-2:6 words bad word",
		"b.cpp:2:7-2:10 words bad word",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("findings:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if len(visited) != 3 {
		t.Errorf("visited %v, want all three files", visited)
	}
}

func TestInternalErrors(t *testing.T) {
	files := []File{
		{Name: "panic.cpp", Src: []byte("PANIC BAD\n")},
		{Name: "load.cpp", Src: []byte("LOADFAIL\n")},
		{Name: "nopos.cpp", Src: []byte("NOPOS\n")},
		{Name: "ok.cpp", Src: []byte("BAD\n")},
	}
	res, err := Run([]*analysis.Analyzer{words}, files, Options{Jobs: 2})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Findings) != 1 || res.Findings[0].Pos.Filename != "ok.cpp" {
		t.Errorf("findings = %v, want only the one in ok.cpp", res.Findings)
	}
	var got []string
	for _, e := range res.Errors {
		got = append(got, e.Error())
	}
	want := []string{
		"load.cpp: internal error in analyzer load: cannot load",
		"nopos.cpp: internal error in analyzer words: diagnostic \"nowhere\" has no position",
		"panic.cpp: internal error in analyzer words: panic: boom",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("errors:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	for _, e := range res.Errors {
		if e.File == "panic.cpp" && len(e.Stack) == 0 {
			t.Error("panic without a stack")
		}
	}
}

func TestWrongResultType(t *testing.T) {
	bad := &analysis.Analyzer{
		Name: "bad", Doc: "returns the wrong type", ResultType: reflect.TypeFor[int](),
		Run: func(*analysis.Pass) (any, error) { return "string", nil },
	}
	res, err := Run([]*analysis.Analyzer{bad}, []File{{Name: "x.cpp"}}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Errors) != 1 || !strings.Contains(res.Errors[0].Error(), "result of type string") {
		t.Errorf("errors = %v", res.Errors)
	}
}

func TestInvalidAnalyzers(t *testing.T) {
	if _, err := Run([]*analysis.Analyzer{{Name: "no doc", Run: words.Run}}, nil, Options{}); err == nil {
		t.Error("Run accepted an invalid analyzer")
	}
}

func TestOrder(t *testing.T) {
	a := &analysis.Analyzer{Name: "a"}
	b := &analysis.Analyzer{Name: "b", Requires: []*analysis.Analyzer{a}}
	c := &analysis.Analyzer{Name: "c", Requires: []*analysis.Analyzer{b, a}}
	var names []string
	for _, x := range Order([]*analysis.Analyzer{c, b}) {
		names = append(names, x.Name)
	}
	if got := strings.Join(names, ","); got != "a,b,c" {
		t.Errorf("Order = %s, want a,b,c", got)
	}
}

func TestIsSource(t *testing.T) {
	for name, want := range map[string]bool{
		"k.asc": true, "dir/k.cpp": true, "K.CC": true, "k.cxx": true, "k.h": true, "k.hh": true,
		"k.hpp": true, "k.hxx": true, "k.c": false, "k.py": true, "k.pyc": false, "asc": false, "k.cpp.orig": false,
	} {
		if IsSource(name) != want {
			t.Errorf("IsSource(%q) = %v, want %v", name, !want, want)
		}
	}
}

// TestProvided: a result given for a file replaces the analyzer's run for
// that file only; one of the wrong type is an internal error.
func TestProvided(t *testing.T) {
	calls := 0
	prov := &analysis.Analyzer{Name: "prov", Doc: "provider", ResultType: reflect.TypeOf(""), Run: func(*analysis.Pass) (any, error) {
		calls++
		return "ran", nil
	}}
	var seen []string
	user := &analysis.Analyzer{Name: "user", Doc: "user", Requires: []*analysis.Analyzer{prov}, Run: func(p *analysis.Pass) (any, error) {
		seen = append(seen, p.ResultOf[prov].(string))
		return nil, nil
	}}
	files := []File{{Name: "a.asc"}, {Name: "b.asc", Provided: map[*analysis.Analyzer]any{prov: "given"}}}
	res, err := Run([]*analysis.Analyzer{user}, files, Options{Jobs: 1})
	if err != nil || len(res.Errors) != 0 {
		t.Fatal(err, res.Errors)
	}
	if calls != 1 || len(seen) != 2 || seen[0] != "ran" || seen[1] != "given" {
		t.Errorf("provider ran %d times, user saw %q; want 1 run and [ran given]", calls, seen)
	}
	res, err = Run([]*analysis.Analyzer{user}, []File{{Name: "c.asc", Provided: map[*analysis.Analyzer]any{prov: 42}}}, Options{Jobs: 1})
	if err != nil || len(res.Errors) != 1 || !strings.Contains(res.Errors[0].Err.Error(), "provided result of type int") {
		t.Errorf("wrong provided type: %v %v", err, res.Errors)
	}
}

// TestParallel: with Parallel, analyzers that do not require each other
// run at the same time (two of them wait for each other here, which
// would deadlock one after the other), none starts before what it
// requires is done, and findings and errors are those of a sequential run.
func TestParallel(t *testing.T) {
	meet := make(chan struct{})
	var mu sync.Mutex
	doneAt := map[string]int{}
	var clock int
	step := func(name string, requires ...*analysis.Analyzer) *analysis.Analyzer {
		return &analysis.Analyzer{Name: name, Doc: name, Requires: append([]*analysis.Analyzer{load}, requires...), Run: func(pass *analysis.Pass) (any, error) {
			mu.Lock()
			for _, r := range pass.Analyzer.Requires {
				if _, ok := doneAt[r.Name]; !ok && r != load {
					t.Errorf("%s started before %s was done", name, r.Name)
				}
			}
			mu.Unlock()
			tf := pass.ResultOf[load].(*token.File)
			pass.Report(analysis.Diagnostic{Pos: tf.Pos(0), Message: name})
			mu.Lock()
			clock++
			doneAt[name] = clock
			mu.Unlock()
			return nil, nil
		}}
	}
	// a and b each wait until the other has started: only a parallel run gets past.
	var once sync.Once
	started := make(chan struct{}, 2)
	meeting := func(name string) *analysis.Analyzer {
		a := step(name)
		run := a.Run
		a.Run = func(pass *analysis.Pass) (any, error) {
			started <- struct{}{}
			once.Do(func() {
				for range 2 {
					select {
					case <-started:
					case <-time.After(10 * time.Second):
						t.Error("a and b did not run at the same time")
					}
				}
				close(meet)
			})
			<-meet
			return run(pass)
		}
		return a
	}
	a, b := meeting("a"), meeting("b")
	c := step("c", a, b)
	d := step("d", c)
	files := []File{{Name: "k.cpp", Src: []byte("BAD\n")}, {Name: "p.cpp", Src: []byte("PANIC\n")}}
	res, err := Run([]*analysis.Analyzer{d, words}, files[:1], Options{Parallel: 4})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range res.Findings {
		got = append(got, f.Diagnostic.Message)
	}
	if want := []string{"a", "b", "c", "d", "bad word"}; !reflect.DeepEqual(got, want) {
		t.Errorf("findings %v, want %v", got, want)
	}
	if doneAt["c"] < doneAt["a"] || doneAt["c"] < doneAt["b"] || doneAt["d"] < doneAt["c"] {
		t.Errorf("completion order %v", doneAt)
	}
	// Failures: the same errors as one after the other.
	seq, err := Run([]*analysis.Analyzer{words}, files[1:], Options{})
	if err != nil {
		t.Fatal(err)
	}
	par, err := Run([]*analysis.Analyzer{words}, files[1:], Options{Parallel: 3})
	if err != nil {
		t.Fatal(err)
	}
	if len(par.Errors) != 1 || len(seq.Errors) != 1 || par.Errors[0].Error() != seq.Errors[0].Error() || len(par.Findings) != len(seq.Findings) {
		t.Errorf("parallel: %v %v; sequential: %v %v", par.Errors, par.Findings, seq.Errors, seq.Findings)
	}
}

// TestStop: a file whose File.Stop is set is named in Result.Stopped, with
// none of its findings or errors, and is not visited. The flag is
// stop.Analyzer's result for the file; set during an analyzer's run, no
// analyzer starts after it, and the error the stopped analyzer returns is
// not an internal error. A file without a flag, or whose flag stays
// unset, is analysed as before.
func TestStop(t *testing.T) {
	var mu sync.Mutex
	ran := map[string][]string{} // file: the analyzers that ran on it
	note := func(pass *analysis.Pass) {
		mu.Lock()
		defer mu.Unlock()
		ran[pass.OtherFiles[0]] = append(ran[pass.OtherFiles[0]], pass.Analyzer.Name)
	}
	// halt sets the flag of a file that says HALT, and fails as a stopped
	// analyzer does.
	halt := &analysis.Analyzer{
		Name:     "halt",
		Doc:      "stop on HALT",
		Requires: []*analysis.Analyzer{words, stop.Analyzer},
		Run: func(pass *analysis.Pass) (any, error) {
			note(pass)
			src, _ := pass.ReadFile(pass.OtherFiles[0])
			if bytes.Contains(src, []byte("HALT")) {
				stop.Of(pass).Store(true)
				return nil, stop.ErrStopped
			}
			if stop.Set(pass) {
				t.Errorf("%s: the flag is set", pass.OtherFiles[0])
			}
			return nil, nil
		},
	}
	after := &analysis.Analyzer{
		Name:     "after",
		Doc:      "report after, after halt",
		Requires: []*analysis.Analyzer{halt, load},
		Run: func(pass *analysis.Pass) (any, error) {
			note(pass)
			pass.Report(analysis.Diagnostic{Pos: pass.ResultOf[load].(*token.File).Pos(0), Message: "after"})
			return nil, nil
		},
	}
	set := new(atomic.Bool)
	set.Store(true)
	files := []File{
		{Name: "set.cpp", Src: []byte("BAD\n"), Stop: set},
		{Name: "halt.cpp", Src: []byte("BAD HALT\n"), Stop: new(atomic.Bool)},
		{Name: "unset.cpp", Src: []byte("BAD\n"), Stop: new(atomic.Bool)},
		{Name: "none.cpp", Src: []byte("BAD\n")},
	}
	for _, parallel := range []int{1, 4} {
		ran = map[string][]string{}
		files[1].Stop = new(atomic.Bool)
		var visited []string
		res, err := Run([]*analysis.Analyzer{after}, files, Options{Jobs: 1, Parallel: parallel, Visit: func(f File, _ map[*analysis.Analyzer]any) {
			visited = append(visited, f.Name)
		}})
		if err != nil {
			t.Fatal(err)
		}
		if want := []string{"set.cpp", "halt.cpp"}; !slices.Equal(res.Stopped, want) {
			t.Errorf("parallel %d: stopped %v, want %v", parallel, res.Stopped, want)
		}
		if len(res.Errors) != 0 {
			t.Errorf("parallel %d: errors %v, want none", parallel, res.Errors)
		}
		var got []string
		for _, f := range res.Findings {
			got = append(got, f.Pos.Filename+" "+f.Diagnostic.Message)
		}
		if want := []string{"none.cpp after", "none.cpp bad word", "unset.cpp after", "unset.cpp bad word"}; !slices.Equal(got, want) {
			t.Errorf("parallel %d: findings %q, want %q", parallel, got, want)
		}
		if want := []string{"unset.cpp", "none.cpp"}; !slices.Equal(visited, want) {
			t.Errorf("parallel %d: visited %v, want %v", parallel, visited, want)
		}
		if len(ran["set.cpp"]) != 0 || slices.Contains(ran["halt.cpp"], "after") || !slices.Contains(ran["unset.cpp"], "after") {
			t.Errorf("parallel %d: ran %v; want nothing on set.cpp, after not on halt.cpp", parallel, ran)
		}
	}
}
