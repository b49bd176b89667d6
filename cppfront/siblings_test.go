package cppfront

import (
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/ascvet/ascvet/cppfront/ir"
)

// siblingHeader is a header whose helper only the files of its folder
// call.
const siblingHeader = `#pragma once
__simd_callee__ inline void Step(Reg::RegTensor<float>& y, Reg::RegTensor<float>& x, Reg::MaskReg& m)
{
    Reg::RegTensor<float> t;
    Reg::Mul(t, x, x, m);
    Reg::Add(y, t, t, m);
}
`

// TestExpandForeign: Expand inlines a helper of a header, its copies at
// the call with Origin naming the line of the header; a call that passes
// a register parameter something the front end did not read as a
// register (a macro it did not expand) stays a call.
func TestExpandForeign(t *testing.T) {
	dir := t.TempDir()
	kernel := `#include "common.h"
__simd_vf__ inline void K(__ubuf__ float* dst, __ubuf__ float* src, uint16_t n)
{
    Reg::RegTensor<float> x, y;
    Reg::MaskReg m = Reg::CreateMask<float>();
    for (uint16_t i = 0; i < n; i++) {
        Reg::LoadAlign(x, src + i * 64);
        Step(y, x, m);
        Step(y, OTHER_REG(x), m);
        Reg::StoreAlign(dst + i * 64, y, m);
    }
}
`
	write(t, filepath.Join(dir, "common.h"), siblingHeader)
	name := filepath.Join(dir, "k.asc")
	f, err := ParseFileOptions(token.NewFileSet(), name, []byte(kernel), Options{Index: NewIndex()})
	if err != nil {
		t.Fatal(err)
	}
	e := f.Func("K").Expand(ir.Bindings{})
	var mul, calls int
	for _, in := range e.Instrs {
		switch {
		case in.Name == "Mul":
			mul++
			p := in.Origin.Position()
			if filepath.Base(p.Filename) != "common.h" || p.Line != 5 {
				t.Errorf("Mul's origin %v, want common.h:5", p)
			}
			if f.Tok.Line(in.Pos) != 8 {
				t.Errorf("Mul copied at line %d, want the call's, 8", f.Tok.Line(in.Pos))
			}
		case in.Op == ir.OpCall:
			calls++
		}
	}
	if mul != 1 || calls != 1 {
		t.Errorf("%d Mul inlined, %d calls left; want 1 and 1 (the call through OTHER_REG stays a call)", mul, calls)
	}
}

// TestCalledFrom: a helper that a file of its folder includes and calls
// lists that file; one its folder does not call lists none, and neither
// does a file of another folder that includes it.
func TestCalledFrom(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "common.h"), siblingHeader+`
__simd_callee__ inline void Unused(Reg::RegTensor<float>& y, Reg::MaskReg& m)
{
    Reg::Abs(y, y, m);
}
`)
	caller := `#include "common.h"
__simd_vf__ inline void K(__ubuf__ float* dst, uint16_t n)
{
    Reg::RegTensor<float> x, y;
    Reg::MaskReg m = Reg::CreateMask<float>();
    Step(y, x, m);
    Reg::StoreAlign(dst, y, m);
}
`
	write(t, filepath.Join(dir, "update.h"), caller)
	write(t, filepath.Join(dir, "sub", "other.h"), `#include "../common.h"
__simd_vf__ inline void J(__ubuf__ float* dst) { Reg::RegTensor<float> x; Reg::MaskReg m; Unused(x, m); }
`)
	write(t, filepath.Join(dir, "notes.h"), "// Step( is mentioned, common.h is not included\n__simd_vf__ void Z() {}\n")
	// A file over the index's size limit is not read, though it includes
	// the header and calls the helper.
	write(t, filepath.Join(dir, "huge.h"), caller+strings.Repeat("// padding\n", indexMaxHeader/11+1))
	name := filepath.Join(dir, "common.h")
	src, _ := os.ReadFile(name)
	ix := NewIndex()
	f, err := ParseFileOptions(token.NewFileSet(), name, src, Options{Index: ix})
	if err != nil {
		t.Fatal(err)
	}
	if got := f.Func("Step").CalledFrom; len(got) != 1 || filepath.Base(got[0]) != "update.h" {
		t.Errorf("Step called from %v, want update.h", got)
	}
	if got := f.Func("Unused").CalledFrom; len(got) != 0 {
		t.Errorf("Unused called from %v, want none (its caller is in another folder)", got)
	}
	deps := ix.Consulted(name)
	if !slices.ContainsFunc(deps, func(d Dep) bool { return filepath.Base(d.Path) == "update.h" }) {
		t.Errorf("update.h is no dependency of common.h: %v", deps)
	}
}

func write(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestExpandReturned: x = Helper(...) inlined writes x where the helper
// writes the register it returns; a helper whose returns differ stays a
// call.
func TestExpandReturned(t *testing.T) {
	src := `template <typename T2>
__aicore__ inline Reg::MaskReg GenMask(uint32_t& n)
{
    Reg::MaskReg reg;
    reg = Reg::UpdateMask<T2>(n);
    return reg;
}
__aicore__ inline Reg::MaskReg Either(uint32_t& n, bool b)
{
    Reg::MaskReg a = Reg::UpdateMask<float>(n);
    Reg::MaskReg c = Reg::UpdateMask<half>(n);
    if (b) { return a; }
    return c;
}
__simd_vf__ inline void K(__ubuf__ float* y, __ubuf__ float* g, uint32_t cnt)
{
    Reg::RegTensor<float> v;
    uint32_t m = cnt;
    Reg::MaskReg p = GenMask<int32_t>(m);
    Reg::MaskReg q = Either(m, true);
    Reg::LoadAlign(v, g, p);
    Reg::StoreAlign(y, v, q);
}
`
	f, err := ParseFile(token.NewFileSet(), "k.asc", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	k := f.Func("K")
	p := ir.NoReg
	for _, r := range k.Regs {
		if r.Name == "p" {
			p = r.ID
		}
	}
	e := k.Expand(ir.Bindings{})
	var writesP, calls int
	for _, in := range e.Instrs {
		if in.Name == "UpdateMask" && slices.Contains(in.Defs, p) {
			writesP++
		}
		if in.Op == ir.OpCall {
			calls++
		}
	}
	if writesP != 1 || calls != 1 {
		t.Errorf("%d UpdateMask write p, %d calls left; want 1 and 1 (Either returns one of two registers: a call)", writesP, calls)
	}
}

// TestInlineConcurrent: two analyses inline the same call at once (the
// simulator and the stream rules run side by side on one function): each
// gets its own registers, even when the caller's slice has room to grow.
func TestInlineConcurrent(t *testing.T) {
	src := `__simd_callee__ inline void Twice(Reg::RegTensor<float>& y, Reg::RegTensor<float>& x, Reg::MaskReg& m)
{
    Reg::RegTensor<float> t;
    Reg::Mul(t, x, x, m);
    Reg::Add(y, t, t, m);
}
__simd_vf__ inline void K(__ubuf__ float* dst, __ubuf__ float* src)
{
    Reg::RegTensor<float> x, y;
    Reg::MaskReg m = Reg::CreateMask<float>();
    Reg::LoadAlign(x, src);
    Twice(y, x, m);
    Reg::StoreAlign(dst, y, m);
}
`
	f, err := ParseFile(token.NewFileSet(), "k.asc", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	k := f.Func("K")
	k.Regs = append(make([]*ir.Reg, 0, len(k.Regs)+16), k.Regs...) // room to grow
	var call *ir.Instr
	for _, in := range k.Instrs {
		if in.Op == ir.OpCall {
			call = in
		}
	}
	if call == nil || call.Target == nil {
		t.Fatal("Twice not linked")
	}
	const n = 8
	results := make([][]*ir.Reg, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			_, regs, _, ok := ir.Inline(call, k.Regs, ir.Bindings{})
			if ok {
				results[i] = regs
			}
		})
	}
	wg.Wait()
	for i, regs := range results {
		if len(regs) != len(k.Regs)+1 || regs[len(regs)-1].Name != "t" {
			t.Fatalf("inline %d: %d registers, want %d ending with t", i, len(regs), len(k.Regs)+1)
		}
		for j := range i {
			if results[j][len(regs)-1] == regs[len(regs)-1] {
				t.Errorf("inlines %d and %d share the helper's register", j, i)
			}
		}
	}
}

// TestThisMemberLinked: this->template LoadData<float>(...) calls a member
// of a base class defined in a header: linked, its register argument
// exactly written, so that it carries no false dependence.
func TestThisMemberLinked(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "base.h"), `#pragma once
template <typename T>
class Base {
public:
    template <typename C>
    __aicore__ inline void LoadData(__ubuf__ T* x, uint64_t off, Reg::RegTensor<C>& v, Reg::MaskReg& m);
};
template <typename T>
template <typename C>
__aicore__ inline void Base<T>::LoadData(__ubuf__ T* x, uint64_t off, Reg::RegTensor<C>& v, Reg::MaskReg& m)
{
    Reg::LoadAlign(v, x + off, m);
}
`)
	kernel := `#include "base.h"
template <typename T>
class K : public Base<T> {
public:
    __aicore__ inline void Run(__ubuf__ T* x, __ubuf__ float* y, uint16_t n) {
        __VEC_SCOPE__ {
            Reg::RegTensor<float> v;
            Reg::MaskReg m = Reg::CreateMask<float>();
            for (uint16_t i = 0; i < n; i++) {
                this->template LoadData<float>(x, i * 64, v, m);
                Reg::StoreAlign(y + i * 64, v, m);
            }
        }
    }
};
`
	name := filepath.Join(dir, "k.asc")
	f, err := ParseFileOptions(token.NewFileSet(), name, []byte(kernel), Options{Index: NewIndex()})
	if err != nil {
		t.Fatal(err)
	}
	for _, fn := range f.Funcs {
		for _, in := range fn.Instrs {
			if in.Name != "LoadData" {
				continue
			}
			if in.Op != ir.OpCall || in.Target == nil || !in.Target.Foreign {
				t.Fatalf("this->template LoadData not linked: %v %q", in.Op, in.Callee)
			}
			if len(in.Uses) != 1 || len(in.Defs) != 1 {
				t.Errorf("LoadData reads %v and writes %v; want the mask read and v written", in.Uses, in.Defs)
			}
			return
		}
	}
	t.Fatal("no LoadData call")
}

// TestForeignFromOwnAnalysis: a header analysed on its own (after a file
// of the run included it) gives the index its helpers from the trees its
// analysis parsed, and a kernel that calls one inlines the same code as
// when the index lowers the header itself.
func TestForeignFromOwnAnalysis(t *testing.T) {
	dir := t.TempDir()
	hdr := filepath.Join(dir, "common.h")
	write(t, hdr, siblingHeader)
	kernel := `#include "common.h"
__simd_vf__ inline void K(__ubuf__ float* dst, __ubuf__ float* src, uint16_t n)
{
    Reg::RegTensor<float> x, y;
    Reg::MaskReg m = Reg::CreateMask<float>();
    for (uint16_t i = 0; i < n; i++) {
        Reg::LoadAlign(x, src + i * 64);
        Step(y, x, m);
        Reg::StoreAlign(dst + i * 64, y, m);
    }
}
`
	other := "#include \"common.h\"\n__simd_vf__ inline void O(__ubuf__ float* dst)\n{\n    Reg::RegTensor<float> y;\n    Reg::MaskReg m = Reg::CreateMask<float>();\n    Reg::StoreAlign(dst, y, m);\n    Elsewhere(y);\n}\n"
	expanded := func(ix *Index, first func()) string {
		first()
		fset := token.NewFileSet()
		f, err := ParseFileOptions(fset, filepath.Join(dir, "k.asc"), []byte(kernel), Options{Index: ix})
		if err != nil {
			t.Fatal(err)
		}
		return f.Func("K").Expand(ir.Bindings{}).String(fset)
	}
	fresh := NewIndex()
	want := expanded(fresh, func() {})

	ix := NewIndex()
	got := expanded(ix, func() {
		if _, err := ParseFileOptions(token.NewFileSet(), filepath.Join(dir, "o.asc"), []byte(other), Options{Index: ix}); err != nil {
			t.Fatal(err)
		}
		h := ix.headers[hdr]
		if h == nil || h.foreign == nil {
			t.Fatalf("the index does not hold %s after a file included it", hdr)
		}
		if h.foreign.funcs != nil {
			t.Fatal("the header's helpers were lowered before any file called one")
		}
		src, err := os.ReadFile(hdr)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := ParseFileOptions(token.NewFileSet(), hdr, src, Options{Index: ix}); err != nil {
			t.Fatal(err)
		}
		if len(h.foreign.funcs) != 1 || h.foreign.funcs[0].Name != "Step" {
			t.Fatalf("the header's own analysis gave the index %d helpers, want Step", len(h.foreign.funcs))
		}
	})
	if !strings.Contains(want, "Mul") {
		t.Fatalf("Step is not inlined:\n%s", want)
	}
	if got != want {
		t.Errorf("inlined from the header's own trees:\n%s\nlowered by the index:\n%s", got, want)
	}
}

// TestIncluderSrcGeneration: the index reads an includer file once per
// generation (the lowerings of a folder's headers share it) and again
// after Refresh, when it may have changed; a file it cannot read is no
// text.
func TestIncluderSrcGeneration(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "k.cpp")
	write(t, p, "one")
	ix := NewIndex()
	if got := ix.includerSrc(p); !got.ok || string(got.src) != "one" {
		t.Fatalf("first read: %q %v", got.src, got.ok)
	}
	write(t, p, "two")
	if got := ix.includerSrc(p); string(got.src) != "one" {
		t.Errorf("same generation: %q, want the text read first", got.src)
	}
	ix.Refresh()
	if got := ix.includerSrc(p); string(got.src) != "two" {
		t.Errorf("after Refresh: %q, want two", got.src)
	}
	if got := ix.includerSrc(filepath.Join(dir, "missing.cpp")); got.ok {
		t.Error("a missing file reads as a text")
	}
}
