package pyfront

import (
	"bytes"
	"flag"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ascvet/ascvet/cppfront/ir"
)

var update = flag.Bool("update", false, "rewrite golden files")

// parse lowers src and fails the test on an error or IR that does not verify.
func parse(t testing.TB, name string, src []byte) (*token.FileSet, *ir.File) {
	t.Helper()
	fset := token.NewFileSet()
	f, err := ParseFile(fset, name, src)
	if err != nil {
		t.Fatalf("ParseFile(%s): %v", name, err)
	}
	if f.Lang != ir.Python {
		t.Errorf("%s: Lang = %v, want python", name, f.Lang)
	}
	for _, e := range verifyAll(f) {
		t.Errorf("Verify: %v", e)
	}
	return fset, f
}

func fixtures(t testing.TB) []string {
	t.Helper()
	m, err := filepath.Glob("testdata/*.py")
	if err != nil || len(m) == 0 {
		t.Fatalf("no fixtures: %v", err)
	}
	return m
}

// dump prints f as the goldens hold it: the regions, then the helpers.
func dump(t testing.TB, fset *token.FileSet, f *ir.File) string {
	t.Helper()
	var b bytes.Buffer
	if err := ir.Fprint(&b, fset, f); err != nil {
		t.Fatal(err)
	}
	for _, h := range f.Helpers {
		b.WriteString("helper ")
		b.WriteString(h.String(fset))
	}
	return b.String()
}

// TestGolden compares the IR of every fixture with its .ir golden file.
// Run with -update to rewrite them after an intended change.
func TestGolden(t *testing.T) {
	for _, path := range fixtures(t) {
		t.Run(filepath.Base(path), func(t *testing.T) {
			src, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			fset, f := parse(t, filepath.Base(path), src)
			got := dump(t, fset, f)
			golden := strings.TrimSuffix(path, ".py") + ".ir"
			if *update {
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test ./cppfront/pyfront -update)", err)
			}
			if got != string(want) {
				t.Errorf("IR of %s differs from %s (run with -update after checking):\n%s", path, golden, lineDiff(string(want), got))
			}
		})
	}
}

func lineDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	var b strings.Builder
	for i := 0; i < len(w) || i < len(g); i++ {
		var wl, gl string
		if i < len(w) {
			wl = w[i]
		}
		if i < len(g) {
			gl = g[i]
		}
		if wl != gl {
			b.WriteString("- " + wl + "\n+ " + gl + "\n")
		}
	}
	return b.String()
}

// TestSpans checks that the positions of every fixture are byte-exact: a
// region starts at its decorator or def, a loop at for/while, an if at
// if/elif, an instruction is exactly its call expression, and an operand
// is its argument's text (or, for a returned register, empty at the call).
func TestSpans(t *testing.T) {
	for _, path := range fixtures(t) {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		_, f := parse(t, filepath.Base(path), src)
		text := func(p, e token.Pos) string { return string(src[f.Tok.Offset(p):f.Tok.Offset(e)]) }
		for _, fn := range append(append([]*ir.Func{}, f.Funcs...), f.Helpers...) {
			if s := text(fn.Pos, fn.End); !strings.HasPrefix(s, "@") && !strings.HasPrefix(s, "def ") {
				t.Errorf("%s: region %s starts with %.20q", path, fn.Name, s)
			}
			for _, l := range fn.Loops {
				if s := text(l.Pos, l.End); !strings.HasPrefix(s, "for ") && !strings.HasPrefix(s, "while ") {
					t.Errorf("%s: loop L%d of %s is %.20q", path, l.ID, fn.Name, s)
				}
			}
			for _, in := range fn.Instrs {
				s := text(in.Pos, in.End)
				if !strings.HasPrefix(s, in.Callee) && !strings.HasPrefix(strings.Join(strings.Fields(s), ""), in.Callee) || !strings.HasSuffix(s, ")") {
					t.Errorf("%s: %s i%d (%s) spans %q", path, fn.Name, in.ID, in.Callee, s)
				}
				for k, a := range in.Args {
					at := text(a.Pos, a.End)
					switch {
					case a.Pos == a.End:
						if a.Pos != in.Pos || a.Reg == ir.NoReg || a.Role != ir.ArgW && a.Role != ir.ArgRW {
							t.Errorf("%s: %s i%d arg %d is empty but not a returned register", path, fn.Name, in.ID, k)
						}
					case (a.Role == ir.ArgPtr || a.Role == ir.ArgPtrRW) && (strings.Contains(at, ",") || strings.HasPrefix(a.Text, at+" + ")):
						// A tile and its offset argument: the operand spans
						// both (or the tile, when they are apart), its text
						// is the address tile + offset.
						if tile, _, _ := strings.Cut(at, ","); !strings.HasPrefix(a.Text, tile) {
							t.Errorf("%s: %s i%d arg %d text %q, span %q", path, fn.Name, in.ID, k, a.Text, at)
						}
					case strings.Join(strings.Fields(at), " ") != a.Text:
						t.Errorf("%s: %s i%d arg %d text %q, span %q", path, fn.Name, in.ID, k, a.Text, at)
					}
				}
			}
		}
	}
}
