package cppfront

import (
	"go/token"
	"os"
	"path/filepath"
	"testing"

	"github.com/ascvet/ascvet/cppfront/ir"
)

// FuzzParseFile: no input panics the front end, and the IR it produces
// always verifies. Seeds are the fixtures.
func FuzzParseFile(f *testing.F) {
	m, _ := filepath.Glob("testdata/*.asc")
	for _, p := range m {
		if src, err := os.ReadFile(p); err == nil {
			f.Add(src)
		}
	}
	f.Add([]byte("__simd_vf__ void f() { for (;;) { Reg::LoadAlign(x, y); } }"))
	f.Add([]byte("__VEC_SCOPE__ { if ASC_IS_AIV { obj.template F(x); } }"))
	f.Fuzz(func(t *testing.T, src []byte) {
		fset := token.NewFileSet()
		file, err := ParseFile(fset, "fuzz.asc", src)
		if err != nil {
			return
		}
		for _, e := range ir.Verify(file) {
			t.Fatalf("Verify: %v", e)
		}
	})
}
