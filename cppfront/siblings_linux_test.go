package cppfront

import (
	"go/token"
	"os"
	"path/filepath"
	"testing"

	"github.com/ascvet/ascvet/cppfront/internal/tsutil"
)

// This file builds on Linux only: tsutil.CountCPU counts there, where a
// thread's CPU clock can be read.

// TestForeignFromSharesFlats: the header's second lowering, for the
// index's helpers, reads the flat trees its own lowering made instead of
// flattening the same trees again: analysing the header costs as many
// flattenings when it gives the index its helpers as when the index has
// them already.
func TestForeignFromSharesFlats(t *testing.T) {
	dir := t.TempDir()
	hdr := filepath.Join(dir, "common.h")
	write(t, hdr, siblingHeader)
	other := "#include \"common.h\"\n__simd_vf__ inline void O(__ubuf__ float* dst)\n{\n    Reg::RegTensor<float> y;\n    Reg::MaskReg m = Reg::CreateMask<float>();\n    Reg::StoreAlign(dst, y, m);\n    Elsewhere(y);\n}\n"
	ix := NewIndex()
	if _, err := ParseFileOptions(token.NewFileSet(), filepath.Join(dir, "o.asc"), []byte(other), Options{Index: ix}); err != nil {
		t.Fatal(err)
	}
	src, err := os.ReadFile(hdr)
	if err != nil {
		t.Fatal(err)
	}
	flattens := func() int64 {
		tsutil.CountCPU(true)
		defer tsutil.CountCPU(false)
		if _, err := ParseFileOptions(token.NewFileSet(), hdr, src, Options{Index: ix}); err != nil {
			t.Fatal(err)
		}
		return tsutil.CountedCPU().Flattens
	}
	giving := flattens() // the index takes the helpers from this analysis
	if h := ix.headers[hdr]; h == nil || len(h.foreign.funcs) != 1 {
		t.Fatal("the header's analysis gave the index no helper")
	}
	again := flattens() // the index has them: no second lowering
	if giving == 0 || giving != again {
		t.Errorf("the header's analysis flattened %d trees when it gave the index its helpers, %d when the index had them", giving, again)
	}
}
