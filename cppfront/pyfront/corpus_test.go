package pyfront

import (
	"bytes"
	"cmp"
	"fmt"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/ascvet/ascvet/cppfront/ir"
)

// TestCorpus lowers every .py file of a pypto checkout and reports what it
// understood. It runs only when ASCVET_PYPTO_DIR names the checkout:
//
//	ASCVET_PYPTO_DIR=/work/corpus-pypto go test ./cppfront/pyfront -run TestCorpus -v
//
// It fails when a vector function is missed (against a lexical count of the
// @pl.vector_function decorators outside strings and comments), when a
// kernel has a parse error or IR that does not verify, or when unknown
// calls reach 2% of the calls, as the stats command counts them.
func TestCorpus(t *testing.T) {
	dir := os.Getenv("ASCVET_PYPTO_DIR")
	if dir == "" {
		t.Skip("set ASCVET_PYPTO_DIR to a pypto checkout to run")
	}
	var st corpusStats
	unknown := map[string]int{}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".py") {
			return err
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		st.files++
		if !HasVFMarker(src) {
			return nil
		}
		st.vfFiles++
		want := countDecorators(src)
		st.want += want
		fset := token.NewFileSet()
		f, err := ParseFile(fset, path, src)
		if err != nil {
			t.Errorf("%s: %v", path, err)
			return nil
		}
		for _, e := range verifyAll(f) {
			t.Errorf("Verify: %v", e)
		}
		got := 0
		for _, fn := range f.Funcs {
			got++
			if !fn.Kind.Analysed() {
				st.simt++
				continue
			}
			st.kernels++
			if len(fn.Errors) > 0 {
				st.withErrors++
				t.Errorf("%s: %s: parse error at %v", path, fn.Name, fset.Position(fn.Errors[0]))
			}
			st.add(fn, unknown)
		}
		st.helpers += len(f.Helpers) // lowered, but not counted: stats reads File.Funcs
		if got != want {
			t.Errorf("%s: %d vector functions lowered, %d decorators in the text", path, got, want)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	pct := 0.0
	if st.calls > 0 {
		pct = 100 * float64(st.unknown) / float64(st.calls)
	}
	t.Logf("files %d, with the marker %d", st.files, st.vfFiles)
	t.Logf("vector functions %d (decorators in the text: %d), SIMT %d, helpers lowered %d", st.kernels+st.simt, st.want, st.simt, st.helpers)
	t.Logf("kernels with parse errors %d", st.withErrors)
	t.Logf("loops %d (trip folded %d), instructions %d, calls %d, helper calls %d", st.loops, st.folded, st.instrs, st.calls, st.helperCalls)
	t.Logf("unknown calls %d (%.2f%%), unknown vf calls %d", st.unknown, pct, st.unknownVF)
	type nc struct {
		name string
		n    int
	}
	var top []nc
	for k, v := range unknown {
		top = append(top, nc{k, v})
	}
	slices.SortFunc(top, func(a, b nc) int { return cmp.Or(b.n-a.n, strings.Compare(a.name, b.name)) })
	for k, x := range top {
		if k == 20 {
			break
		}
		t.Logf("  unknown %-40s %d", x.name, x.n)
	}
	if st.kernels == 0 {
		t.Errorf("no vector function found under %s", dir)
	}
	if pct >= 2 {
		t.Errorf("unknown calls are %.2f%% of the calls, want < 2%%", pct)
	}
}

type corpusStats struct {
	files, vfFiles, want, kernels, simt, helpers, withErrors      int
	loops, folded, instrs, calls, helperCalls, unknown, unknownVF int
}

// add counts fn as the stats command does: calls are the instructions that
// are not calls of same-file helpers; unknown calls are OpUnknown.
func (st *corpusStats) add(fn *ir.Func, unknown map[string]int) {
	st.loops += len(fn.Loops)
	for _, l := range fn.Loops {
		if l.TripKnown {
			st.folded++
		}
	}
	st.instrs += len(fn.Instrs)
	for _, in := range fn.Instrs {
		switch in.Op {
		case ir.OpCall:
			st.helperCalls++
			continue
		case ir.OpUnknown:
			st.unknown++
			unknown[in.Callee]++
			if strings.HasPrefix(in.Callee, "vf.") || strings.Contains(in.Callee, ".vf.") {
				st.unknownVF++
			}
		}
		st.calls++
	}
}

// verifyAll verifies the regions and the helpers of f.
func verifyAll(f *ir.File) []error {
	errs := ir.Verify(f)
	if len(f.Helpers) > 0 {
		h := *f
		h.Funcs = f.Helpers
		errs = append(errs, ir.Verify(&h)...)
	}
	return errs
}

var decoratorLine = regexp.MustCompile(`^[ \t]*@[ \t]*(?:[A-Za-z_][A-Za-z_0-9]*[ \t]*\.[ \t]*)?vector_function\b`)

// countDecorators counts, without a parser, the lines of Python source src
// that start with a vector_function decorator outside any string literal:
// the figure the front end must reach.
func countDecorators(src []byte) int {
	n := 0
	lineStart := true
	for i := 0; i < len(src); {
		c := src[i]
		switch {
		case lineStart && decoratorLine.Match(src[i:min(len(src), i+200)]):
			n++
			lineStart = false
			i++
		case c == '#':
			for i < len(src) && src[i] != '\n' {
				i++
			}
		case c == '"' || c == '\'':
			i = skipString(src, i)
			lineStart = false
		case c == '\n':
			lineStart = true
			i++
		default:
			if c != ' ' && c != '\t' && c != '\r' {
				lineStart = false
			}
			i++
		}
	}
	return n
}

func TestCountDecorators(t *testing.T) {
	src := []byte("@pl.vector_function\ndef a(): pass\n" +
		"x = '''\n@pl.vector_function\ndef b(): pass\n'''\n" +
		"# @pl.vector_function\n" +
		"class C:\n    @pl.vector_function(mode=\"simt\")\n    def c(self): pass\n" +
		"s = \"@pl.vector_function\"\n")
	if got := countDecorators(src); got != 2 {
		t.Errorf("countDecorators = %d, want 2", got)
	}
	if !bytes.Contains(src, marker) {
		t.Fatal("fixture lacks the marker")
	}
	_ = fmt.Sprint()
}
