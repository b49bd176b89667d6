package cppfront

import (
	"bytes"
	"fmt"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ascvet/ascvet/cppfront/ir"
)

// TestParallelLoweringScope: the functions of a file lowered in parallel
// (a file parsed in segments: lowerParallel) share the file's project
// scope, whose memo of values all of them fill at once (go test -race
// catches an unguarded one: CI did, in the language server's tests); the
// IR is the IR of lowering one function at a time, with the header's
// constants folded.
func TestParallelLoweringScope(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "consts.h"), []byte("constexpr uint32_t ROW = 64;\nconstexpr uint32_t COLS = 8;\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	b.WriteString("#include \"consts.h\"\n")
	for i := range 300 {
		fmt.Fprintf(&b, `__simd_vf__ inline void K%d(__ubuf__ float* dst)
{
    AscendC::Reg::RegTensor<float> v;
    AscendC::Reg::MaskReg m = AscendC::Reg::CreateMask<float>();
    for (uint16_t i = 0; i < COLS; i++) {
        AscendC::Reg::LoadAlign(v, dst + i * ROW + %d);
        AscendC::Reg::StoreAlign(dst + i * ROW, v, m);
    }
}
`, i, i)
	}
	src := []byte(b.String())
	name := filepath.Join(dir, "k.asc")
	lower := func() string {
		t.Helper()
		fset := token.NewFileSet()
		f, err := ParseFileOptions(fset, name, src, Options{Index: NewIndex()})
		if err != nil {
			t.Fatal(err)
		}
		var out bytes.Buffer
		if err := ir.Fprint(&out, fset, f); err != nil {
			t.Fatal(err)
		}
		return out.String()
	}
	serial := lower() // under segmentMin: parsed whole, lowered one function at a time
	defer SetSegments(SetSegments(8<<10, 4<<10))
	if segs := splitSegments(lexText(src), segmentSize); len(segs) < 8 {
		t.Fatalf("%d segments, want many (the functions lowered in parallel)", len(segs))
	}
	parallel := lower()
	if parallel != serial {
		t.Errorf("the IR lowered in parallel differs:\n%s", firstDiff(serial, parallel))
	}
	if n := strings.Count(serial, "i < 8"); n != 300 {
		t.Errorf("%d loops bounded by COLS = 8 from consts.h, want 300", n)
	}
}
