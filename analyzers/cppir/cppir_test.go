package cppir

import (
	"go/token"
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/tools/go/analysis"

	"github.com/ascvet/ascvet/cppfront/ir"
)

const kernel = `__simd_vf__ inline void Copy(__ubuf__ float* dst, __ubuf__ float* src)
{
    AscendC::Reg::RegTensor<float> v;
    AscendC::Reg::LoadAlign(v, src);
    AscendC::Reg::StoreAlign(dst, v, AscendC::Reg::CreateMask<float>());
}
`

func TestRunReadsFromDisk(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.asc"), filepath.Join(dir, "b.h")
	if err := os.WriteFile(a, []byte(kernel), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(b, []byte("int no_vf_here;\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	res, err := Analyzer.Run(&analysis.Pass{Analyzer: Analyzer, Fset: fset, OtherFiles: []string{a, b}})
	if err != nil {
		t.Fatal(err)
	}
	pkg := res.(*ir.Package)
	if pkg.Fset != fset || len(pkg.Files) != 2 || pkg.Files[0].Name != a || pkg.Files[1].Name != b {
		t.Fatalf("package = %+v", pkg)
	}
	if n := len(pkg.Files[0].Funcs); n != 1 {
		t.Fatalf("%d VF regions in a.asc, want 1", n)
	}
	if n := len(pkg.Files[1].Funcs); n != 0 {
		t.Errorf("%d VF regions in b.h, want 0", n)
	}
	fn := pkg.Files[0].Funcs[0]
	if p := fset.Position(fn.Pos); p.Filename != a || p.Line != 1 || p.Column != 1 {
		t.Errorf("Copy starts at %v, want %s:1:1", p, a)
	}
	if f := fset.File(token.Pos(pkg.Files[1].Tok.Base())); f == nil || f.Name() != b {
		t.Error("b.h is not in the FileSet")
	}
}

func TestRunUsesReadFile(t *testing.T) {
	read := func(name string) ([]byte, error) { return []byte(kernel), nil }
	res, err := Analyzer.Run(&analysis.Pass{Analyzer: Analyzer, Fset: token.NewFileSet(), OtherFiles: []string{"virtual.cpp"}, ReadFile: read})
	if err != nil {
		t.Fatal(err)
	}
	if pkg := res.(*ir.Package); len(pkg.Files) != 1 || len(pkg.Files[0].Funcs) != 1 {
		t.Errorf("package = %+v", pkg)
	}
}

func TestRunMissingFile(t *testing.T) {
	_, err := Analyzer.Run(&analysis.Pass{Analyzer: Analyzer, Fset: token.NewFileSet(), OtherFiles: []string{filepath.Join(t.TempDir(), "gone.cpp")}})
	if err == nil {
		t.Error("no error for a missing file")
	}
}
