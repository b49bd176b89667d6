package cppfront

import (
	"fmt"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ascvet/ascvet/cppfront/ir"
)

// writeTree writes files (path -> content) under a temporary directory.
func writeTree(t testing.TB, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for p, c := range files {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

const indexKernel = `#include "kernel_operator.h"
#include "../inc/lens.h"
#include "local.h"
__simd_vf__ inline void K(__ubuf__ float* dst, __ubuf__ float* src, uint16_t n)
{
    Reg::RegTensor<float> v;
    Reg::UnalignRegForLoad u;
    for (uint16_t i = 0; i < n; ++i) {
        Reg::LoadUnAlignPre(u, src + i * STRIDE);
        Reg::LoadUnAlign(v, u, src + i * LANES_F);
        Reg::LoadUnAlign(v, u, src + i * HALF_LANES);
        Reg::LoadUnAlign(v, u, src + i * Lanes<half>());
        Reg::LoadUnAlign(v, u, src + i * TWICE);
        Reg::LoadUnAlign(v, u, src + i * SHADOWED);
        Reg::LoadUnAlign(v, u, src + i * BLOCKS);
    }
}
`

// TestIndex checks the project index: includes next to the file and in
// the include folders of its ancestors, transitively; #defines, constants,
// aliases and constexpr helpers; names defined twice; and a header changed
// on disk between two parses.
func TestIndex(t *testing.T) {
	dir := writeTree(t, map[string]string{
		"op/op_kernel/arch35/k.asc": indexKernel,
		"op/op_kernel/arch35/local.h": `#pragma once
#define STRIDE (LANES_F * 2)   // a define built on a header constant
#if defined(A)
constexpr int TWICE = 1;
#else
constexpr int TWICE = 2;
#endif
`,
		// "../inc/lens.h" is not next to the file's folder's parent: it
		// is found in the ancestors' common/inc/op_kernel folder.
		"common/inc/op_kernel/inc/lens.h": `#include "deeper.h"
using elem_t = float;
constexpr uint32_t LANES_F = VECTOR_REG_WIDTH / sizeof(elem_t);
static constexpr uint32_t HALF_LANES{LANES_F / 2};
template <typename T> __aicore__ inline constexpr uint32_t Lanes() { return GetVecLen() / sizeof(T); }
`,
		"common/inc/op_kernel/inc/deeper.h": "#define BLOCKS (Ops::Base::GetUbBlockSize() << 1)\n",
	})
	ix := NewIndex()
	parse := func() map[string]string {
		f := parseIndexed(t, ix, filepath.Join(dir, "op/op_kernel/arch35/k.asc"))
		got := map[string]string{}
		for _, in := range f.Funcs[0].Instrs {
			if in.Op != ir.OpLoadUnAlign && in.Op != ir.OpLoadUnAlignPre {
				continue
			}
			a := in.Args[len(in.Args)-1]
			got[strings.TrimPrefix(a.Text, "src + i * ")] = a.Expr.String()
		}
		return got
	}
	want := map[string]string{
		"STRIDE":        "src + (i * 128)",
		"LANES_F":       "src + (i * 64)",
		"HALF_LANES":    "src + (i * 32)",
		"Lanes<half>()": "src + (i * 128)",
		"TWICE":         "src + (i * TWICE)", // defined twice (#if branches): no value
		"SHADOWED":      "src + (i * SHADOWED)",
		"BLOCKS":        "src + (i * 64)",
	}
	got := parse()
	for k, w := range want {
		if got[k] != w {
			t.Errorf("%s: %s, want %s", k, got[k], w)
		}
	}
	// Within a generation a header is read once; after Refresh a header
	// changed on disk is read again.
	p := filepath.Join(dir, "common/inc/op_kernel/inc/deeper.h")
	if err := os.WriteFile(p, []byte("#define BLOCKS 3\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	later := time.Now().Add(time.Minute)
	if err := os.Chtimes(p, later, later); err != nil {
		t.Fatal(err)
	}
	if got := parse()["BLOCKS"]; got != "src + (i * 64)" {
		t.Errorf("before Refresh: %s, want the value read first, src + (i * 64)", got)
	}
	ix.Refresh()
	if got := parse()["BLOCKS"]; got != "src + (i * 3)" {
		t.Errorf("after the header changed: %s, want src + (i * 3)", got)
	}
}

// TestIndexFromOwnFolder: a file named from its own folder ("k.asc")
// finds the headers of its ancestors' include folders as when it is named
// from the top of the tree: the folders searched do not depend on the
// working directory.
func TestIndexFromOwnFolder(t *testing.T) {
	dir := writeTree(t, map[string]string{
		"op/include/lens.h": "constexpr uint32_t LANES = 64;\n",
		"op/op_kernel/arch35/k.asc": `#include "lens.h"
__simd_vf__ inline void K(__ubuf__ float* src)
{
    Reg::RegTensor<float> v;
    for (uint16_t i = 0; i < 4; ++i) {
        Reg::LoadAlign(v, src + i * LANES);
    }
}
`,
	})
	addr := func(name string) string {
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		f, err := ParseFileOptions(token.NewFileSet(), name, src, Options{Index: NewIndex()})
		if err != nil {
			t.Fatal(err)
		}
		return f.Funcs[0].Instrs[0].Args[1].Expr.String()
	}
	if got := addr(filepath.Join(dir, "op/op_kernel/arch35/k.asc")); got != "src + (i * 64)" {
		t.Errorf("named from the top: %s, want src + (i * 64)", got)
	}
	t.Chdir(filepath.Join(dir, "op/op_kernel/arch35"))
	if got := addr("k.asc"); got != "src + (i * 64)" {
		t.Errorf("named from its folder: %s, want src + (i * 64)", got)
	}
}

// TestIndexExprs checks the evaluator of definition texts.
func TestIndexExprs(t *testing.T) {
	h := newHeader()
	h.defs["A"] = "8"
	h.defs["B"] = "(A << 2) | 1"
	h.defs["C"] = "static_cast<uint32_t>(B) - sizeof(half)"
	h.defs["D"] = "(uint32_t)A * -2"
	h.defs["E"] = "A +"
	h.defs["F"] = "1.5"
	h.defs["L"] = "L + 1"
	h.defs["S"] = "GetVRegSize() / sizeof(T)"
	ev := &evaluator{hs: []*header{h}}
	for name, want := range map[string]string{"A": "8", "B": "33", "C": "31", "D": "-16", "E": "<nil>", "F": "<nil>", "L": "<nil>"} {
		got := "<nil>"
		if v := ev.name(name, nil); v != nil {
			got = v.String()
		}
		if got != want {
			t.Errorf("%s = %s, want %s", name, got, want)
		}
	}
	if v := ev.name("S", map[string]string{"T": "U"}); v == nil || v.String() != "256 / sizeof(U)" {
		t.Errorf("S = %v, want 256 / sizeof(U)", v)
	}
	if v := ev.name("S", map[string]string{"T": "int64_t"}); v == nil || v.String() != "32" {
		t.Errorf("S with T = int64_t: %v, want 32", v)
	}
}

// BenchmarkIndex measures the index on a generated tree of 20,000 headers,
// 1,000 of them VF kernels that each include a chain of 4 headers and look
// up 10 names: the scope of each kernel and its lookups. Memory is what the
// index holds: the headers the kernels include, not the tree.
func BenchmarkIndex(b *testing.B) {
	files := map[string]string{}
	for op := range 1000 {
		d := fmt.Sprintf("op%04d/op_kernel", op)
		files[d+"/k.h"] = "#include \"a.h\"\n"
		files[d+"/a.h"] = "#include \"b.h\"\n#define A_LEN 64\n"
		files[d+"/b.h"] = "#include \"c.h\"\nconstexpr uint32_t B_LEN = A_LEN * 2;\n"
		files[d+"/c.h"] = "#include \"../../common/inc/op_kernel/d.h\"\n"
		for k := range 15 {
			files[fmt.Sprintf("%s/unrelated%02d.h", d, k)] = "constexpr int X = 1;\n"
		}
	}
	files["common/inc/op_kernel/d.h"] = "#define D_LEN (VECTOR_REG_WIDTH / sizeof(float))\n"
	dir := writeTree(b, files)
	names := []string{"A_LEN", "B_LEN", "D_LEN", "MISSING", "A_LEN", "B_LEN", "D_LEN", "X", "Y", "Z"}
	b.ReportAllocs()
	for b.Loop() {
		ix := NewIndex()
		for op := range 1000 {
			d := filepath.Join(dir, fmt.Sprintf("op%04d/op_kernel", op))
			sc := ix.Scope(d+"/f.asc", d, newHeader(), []string{"k.h"})
			for _, n := range names {
				sc.Value(n)
			}
		}
	}
	var ix = NewIndex()
	sc := ix.Scope(filepath.Join(dir, "op0000/op_kernel/f.asc"), filepath.Join(dir, "op0000/op_kernel"), newHeader(), []string{"k.h"})
	if v, ok := sc.Value("B_LEN"); !ok || v.String() != "128" {
		b.Fatalf("B_LEN = %v", v)
	}
}

// TestIndexEdgesRefresh: a header's includes are resolved once a
// generation (Index.edgesOf), for every closure that reaches it; after
// Refresh an include of a header that a new file now shadows resolves to
// that file.
func TestIndexEdgesRefresh(t *testing.T) {
	dir := writeTree(t, map[string]string{
		"include/rows.h": "constexpr uint32_t ROW = 64;\n",
		"op/mid.h":       "#include \"rows.h\"\n",
		"op/k.asc":       "#include \"mid.h\"\n__simd_vf__ inline void K(__ubuf__ float* src) { Reg::RegTensor<float> v; for (uint16_t i = 0; i < 8; ++i) { Reg::LoadAlign(v, src + i * ROW); } }\n",
		"op/j.asc":       "#include \"mid.h\"\n__simd_vf__ inline void J(__ubuf__ float* src) { Reg::RegTensor<float> v; for (uint16_t i = 0; i < 8; ++i) { Reg::LoadAlign(v, src + i * ROW); } }\n",
	})
	ix := NewIndex()
	addr := func(file string) string {
		t.Helper()
		f := parseIndexed(t, ix, filepath.Join(dir, "op", file))
		for _, fn := range f.Funcs {
			for _, in := range fn.Instrs {
				if in.Name == "LoadAlign" {
					for _, a := range in.Args {
						if a.Role == ir.ArgPtr && a.Expr != nil {
							return a.Expr.String()
						}
					}
				}
			}
		}
		return ""
	}
	if got, want := addr("k.asc"), "src + (i * 64)"; got != want {
		t.Fatalf("k.asc: %s, want %s", got, want)
	}
	if got, want := addr("j.asc"), "src + (i * 64)"; got != want {
		t.Fatalf("j.asc, through mid.h's includes resolved once: %s, want %s", got, want)
	}
	write(t, filepath.Join(dir, "op", "rows.h"), "constexpr uint32_t ROW = 68;\n")
	ix.Refresh()
	if got, want := addr("j.asc"), "src + (i * 68)"; got != want {
		t.Errorf("after Refresh, op/rows.h shadowing include/rows.h: %s, want %s", got, want)
	}
}

// parseIndexed reads the file name and lowers it with the index ix.
func parseIndexed(t *testing.T, ix *Index, name string) *ir.File {
	t.Helper()
	src, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	f, err := ParseFileOptions(token.NewFileSet(), name, src, Options{Index: ix})
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// TestHeaderIfZero: without -D, a header's #if 0 (#if false) groups are
// dropped as the compiler drops them, so a constant the other group
// defines folds; a chain the header does not decide alone stays whole
// (its constant, defined in both groups, has no value).
func TestHeaderIfZero(t *testing.T) {
	dir := writeTree(t, map[string]string{
		"op/include/lens.h": `#pragma once
#if 0
constexpr uint32_t LANES = 32;
#else
constexpr uint32_t LANES = 64;
#endif
  #  if false
constexpr uint32_t WIDE = 1;
#endif
#if defined(__NPU_ARCH__)
constexpr uint32_t ARCH = 1;
#else
constexpr uint32_t ARCH = 2;
#endif
`,
		"op/op_kernel/k.asc": `#include "kernel_operator.h"
#include "lens.h"
__simd_vf__ inline void K(__ubuf__ float* src)
{
    AscendC::Reg::RegTensor<float> v;
    AscendC::Reg::UnalignRegForLoad u;
    for (uint16_t i = 0; i < 4; ++i) {
        AscendC::Reg::LoadUnAlign(v, u, src + i * LANES);
        AscendC::Reg::LoadUnAlign(v, u, src + i * ARCH);
    }
}
`,
	})
	f := parseIndexed(t, NewIndex(), filepath.Join(dir, "op/op_kernel/k.asc"))
	var got []string
	for _, in := range f.Funcs[0].Instrs {
		if in.Op == ir.OpLoadUnAlign {
			got = append(got, in.Args[len(in.Args)-1].Expr.String())
		}
	}
	if want := "src + (i * 64) src + (i * ARCH)"; strings.Join(got, " ") != want {
		t.Errorf("addresses %q, want %q", strings.Join(got, " "), want)
	}
	for src, want := range map[string]bool{"#if 0\n": true, "x\n  # if  false // off\n": true, "#if 01\n": false, "#ifdef 0\n": false, "a #if 0\n": false, "#if 0x1\n": false} {
		if got := hasIfZero([]byte(src)); got != want {
			t.Errorf("hasIfZero(%q) = %v, want %v", src, got, want)
		}
	}
}

// TestIndexRegular: the include lookups' test of a path from its folder's
// listing says what a stat says: a file, a link to one, a folder, a link
// to a folder, a missing name, a missing folder, a path through "..";
// and a file made after the listing is seen once the index is refreshed.
func TestIndexRegular(t *testing.T) {
	dir := t.TempDir()
	inc := filepath.Join(dir, "include")
	if err := os.MkdirAll(filepath.Join(inc, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	f := filepath.Join(inc, "a.h")
	if err := os.WriteFile(f, []byte("#define A 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for link, target := range map[string]string{"l.h": f, "ld": filepath.Join(inc, "sub"), "dangling.h": filepath.Join(dir, "none.h")} {
		if err := os.Symlink(target, filepath.Join(inc, link)); err != nil {
			t.Fatal(err)
		}
	}
	ix := NewIndex()
	paths := []string{f, filepath.Join(inc, "l.h"), filepath.Join(inc, "sub"), filepath.Join(inc, "ld"),
		filepath.Join(inc, "dangling.h"), filepath.Join(inc, "b.h"), filepath.Join(dir, "nodir", "a.h"),
		filepath.Join(inc, "sub", "..", "a.h"), filepath.Join(f, "x.h")}
	for _, p := range paths {
		if got, want := ix.regular(p), regular(p); got != want {
			t.Errorf("%s: %v, a stat says %v", p, got, want)
		}
	}
	late := filepath.Join(inc, "late.h")
	if err := os.WriteFile(late, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if ix.regular(late) {
		t.Error("a file made after the listing is seen in the same generation")
	}
	ix.Refresh()
	if !ix.regular(late) {
		t.Error("a file made after the listing is not seen after Refresh")
	}
	// A folder of more than maxListed entries is not held: its files are
	// stat'ed one by one.
	big := filepath.Join(dir, "big")
	if err := os.Mkdir(big, 0o755); err != nil {
		t.Fatal(err)
	}
	for k := range maxListed + 1 {
		if err := os.WriteFile(filepath.Join(big, fmt.Sprintf("f%d.h", k)), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if !ix.regular(filepath.Join(big, "f7.h")) || ix.regular(filepath.Join(big, "g.h")) {
		t.Error("a big folder's files are not told apart")
	}
	if _, listed := ix.dirEntries(big); listed {
		t.Errorf("a folder of %d entries is held", maxListed+1)
	}
	if ents, listed := ix.dirEntries(inc); !listed || len(ents) == 0 {
		t.Error("a small folder is not held")
	}
}
