package simcheck_test

import (
	"encoding/json"
	"go/token"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ascvet/ascvet/cppfront"
	"github.com/ascvet/ascvet/cppfront/ir"
	"github.com/ascvet/ascvet/regalloc"
	"github.com/ascvet/ascvet/simcheck"
)

// pair is a VF function as written (templates, helpers, if constexpr)
// and a copy written out by hand for one of its instantiations: every
// helper inlined, every if constexpr resolved, every type spelled
// (simcheck/testdata/pairs/*.json). The original is a file of the
// repository, or of a public CANN repository under $ASCVET_CORPUS (the
// copy is always ours).
type pair struct {
	ID       string    `json:"id"`
	What     string    `json:"what"`
	Original pairSide  `json:"original"`
	Copy     pairSide  `json:"copy"`
	Bind     pairBinds `json:"bind"` // the instantiation of the original the copy writes out
}

type pairSide struct {
	File   string `json:"file"`   // under testdata/pairs
	Corpus string `json:"corpus"` // under $ASCVET_CORPUS
	Func   string `json:"func"`
	Line   int    `json:"line"` // of the definition, when the name is overloaded
}

type pairBinds map[string]string

// bindings reads the instantiation: an integer or true/false is a value,
// anything else a type (ir.Bindings.Set).
func (p pairBinds) bindings() ir.Bindings {
	var b ir.Bindings
	for k, v := range p {
		b.Set(k, v)
	}
	return b
}

// pairBound is how far the original's simulated cycles may be from the
// copy's.
const pairBound = 0.05

func loadSide(t *testing.T, s pairSide) (*ir.File, *ir.Func, bool) {
	t.Helper()
	path := filepath.Join("testdata", "pairs", s.File)
	if s.Corpus != "" {
		dir := os.Getenv("ASCVET_CORPUS")
		if dir == "" {
			return nil, nil, false
		}
		path = filepath.Join(dir, s.Corpus)
	}
	src, err := os.ReadFile(path)
	if err != nil {
		if s.Corpus != "" {
			t.Logf("%s: %v (a corpus without it?)", path, err)
			return nil, nil, false
		}
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	f, err := cppfront.ParseFile(fset, path, src)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	for _, fn := range f.Funcs {
		if fn.Name != s.Func && !strings.HasSuffix(fn.Name, "::"+s.Func) {
			continue
		}
		if s.Line != 0 && fset.Position(fn.Pos).Line != s.Line {
			continue
		}
		return f, fn, true
	}
	t.Fatalf("%s: no function %s (line %d)", path, s.Func, s.Line)
	return nil, nil, false
}

// TestInlinePairs simulates each pair's original for the instantiation
// named and its hand-written copy: the cycles must agree within pairBound,
// and so must the register pressure peaks of every class.
func TestInlinePairs(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "pairs", "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no pairs: %v", err)
	}
	var pairs []pair
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var ps []pair
		if err := json.Unmarshal(data, &ps); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		pairs = append(pairs, ps...)
	}
	m, err := simcheck.Chip("ascend950")
	if err != nil {
		t.Fatal(err)
	}
	ran := 0
	for _, p := range pairs {
		t.Run(p.ID, func(t *testing.T) {
			cf, copyFn, _ := loadSide(t, p.Copy)
			of, orig, ok := loadSide(t, p.Original)
			if !ok {
				t.Skipf("the original is in a public repository: set ASCVET_CORPUS to run %s", p.ID)
			}
			ran++
			bind := p.Bind.bindings()
			got := m.RunInstance(orig, bind, simcheck.DefaultIterations, nil)
			want := m.RunRegion(copyFn, simcheck.DefaultIterations, nil)
			off := float64(got.Cycles-want.Cycles) / float64(want.Cycles)
			t.Logf("%s [%s]: original %d cycles, copy %d (%+.1f%%)", p.ID, bind, got.Cycles, want.Cycles, 100*off)
			if math.Abs(off) > pairBound {
				t.Errorf("original %d cycles, hand-inlined copy %d: %+.1f%%, beyond %.0f%%", got.Cycles, want.Cycles, 100*off, 100*pairBound)
			}
			// Register pressure as the compiler builds the function: its
			// helpers inlined, its if constexpr folded.
			rg := regalloc.New(of).Analyze(orig.Expand(bind))
			rc := regalloc.New(cf).Analyze(copyFn.Expand(copyFn.SoleInstance()))
			for c := range regalloc.NumClasses {
				if g, w := rg.Classes[c].Peak, rc.Classes[c].Peak; g != w {
					t.Errorf("%v peak: original %d, copy %d", c, g, w)
				}
			}
		})
	}
	if ran == 0 {
		t.Error("no pair ran: the pairs whose originals are ours must always run")
	}
}
