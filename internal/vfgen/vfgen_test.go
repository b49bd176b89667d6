package vfgen

import (
	"flag"
	"go/token"
	"os"
	"strings"
	"testing"

	"github.com/ascvet/ascvet/cppfront"
	"github.com/ascvet/ascvet/cppfront/ir"
	"github.com/ascvet/ascvet/internal/source"
)

var (
	hugeGenPath = flag.String("hugegen", "", "TestHuge also writes a generated VF file of -hugegen-size bytes to this path, e.g. to time the ascvet binary on it")
	hugeGenSize source.SizeFlag
)

func init() {
	hugeGenSize = 10 << 20
	flag.Var(&hugeGenSize, "hugegen-size", "size of the -hugegen file (bytes or with a unit, as -max-file-size)")
}

// TestHuge: the generated file is deterministic, about the size asked
// for, marked as VF code, and parses without errors in every function.
// With -hugegen PATH it also writes a file there for measurements by hand.
func TestHuge(t *testing.T) {
	if *hugeGenPath != "" {
		if err := os.WriteFile(*hugeGenPath, Huge(int(hugeGenSize)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	src := Huge(300 << 10)
	if string(src) != string(Huge(300<<10)) {
		t.Fatal("two generations of the same size differ")
	}
	if n := len(src); n < 300<<10 || n > 300<<10+64<<10 {
		t.Errorf("%d bytes, want about %d", n, 300<<10)
	}
	if !cppfront.HasVFMarker(src) {
		t.Fatal("no VF marker")
	}
	funcs, giant := strings.Count(string(src), "VF("), strings.Count(string(src), "void Giant")
	if funcs-giant < 50 || giant < 2 {
		t.Errorf("%d functions, %d giant ones; want both shapes", funcs, giant)
	}
	f, err := cppfront.ParseFile(token.NewFileSet(), "huge.asc", src)
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Funcs) != funcs {
		t.Errorf("%d regions lowered, want %d", len(f.Funcs), funcs)
	}
	for _, fn := range f.Funcs {
		if len(fn.Errors) > 0 {
			t.Errorf("%s: %d parse errors, first at %v", fn.Name, len(fn.Errors), f.Tok.Position(fn.Errors[0]))
		}
		for _, in := range fn.Instrs {
			if in.Op == ir.OpUnknown {
				t.Errorf("%s: unknown call %s at %v", fn.Name, in.Callee, f.Tok.Position(in.Pos))
			}
		}
	}
}
