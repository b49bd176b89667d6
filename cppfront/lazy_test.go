package cppfront

import (
	"bytes"
	"fmt"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	sitter "github.com/tree-sitter/go-tree-sitter"

	"github.com/ascvet/ascvet/cppfront/ir"
)

// withWhole runs f with every file parsed whole, as before lazy.go.
func withWhole(f func()) {
	defer func(w bool) { parseWhole = w }(parseWhole)
	parseWhole = true
	f()
}

// lazyStats counts what the lazy parse did with some files.
type lazyStats struct {
	files, lazy, fellBack int // files compared; files with bodies blanked; of these, parsed again whole
	total, kept           int // bytes of the pre-passed text; bytes tree-sitter still parsed
}

// compareLazy lowers src both ways, reports a difference, and counts.
func compareLazy(t *testing.T, name string, src []byte, st *lazyStats) {
	t.Helper()
	st.files++
	clean, _ := prepass(src)
	st.total += len(clean)
	kept := len(clean)
	defer func() { lazyNote = nil }()
	lazyNote = func(total, k int, held bool) {
		st.lazy++
		if held {
			kept -= total - k
		} else {
			st.fellBack++
		}
	}
	lazy := irText(t, name, src)
	lazyNote = nil
	st.kept += kept
	var whole string
	withWhole(func() { whole = irText(t, name, src) })
	if lazy != whole {
		t.Errorf("%s: the IR differs when parsed lazily:\n%s", name, strings.Replace(firstDiff(whole, lazy), "segments:", "lazy:    ", 1))
	}
}

func (st lazyStats) String() string {
	return fmt.Sprintf("%d VF files, %d with bodies blanked (%d of them parsed again whole); %d of %d bytes parsed (%.0f%%)",
		st.files, st.lazy, st.fellBack, st.kept, st.total, 100*float64(st.kept)/float64(max(st.total, 1)))
}

// repoFiles lists the C++ and Ascend C files of the repository: every
// fixture.
func repoFiles(t *testing.T) []string {
	var files []string
	err := filepath.WalkDir("..", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == "node_modules") {
			return filepath.SkipDir
		}
		switch filepath.Ext(p) {
		case ".asc", ".cpp", ".cc", ".cxx", ".h", ".hh", ".hpp", ".hxx":
			files = append(files, p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// TestLazyLowersTheSame: every C++ file of the repository's test data
// lowers to the same IR parsed lazily as parsed whole.
func TestLazyLowersTheSame(t *testing.T) {
	var st lazyStats
	for _, p := range repoFiles(t) {
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if HasVFMarker(src) {
			compareLazy(t, p, src, &st)
		}
	}
	// The fixtures are mostly VF code alone: few have host code to blank
	// (TestLazyBlanks and TestLazyCorpus have plenty).
	if st.lazy-st.fellBack < 3 {
		t.Errorf("only %d of %d files parsed lazily", st.lazy-st.fellBack, st.files)
	}
	t.Log(st)
}

// TestLazyCorpus is TestLazyLowersTheSame over a tree of real kernels,
// when ASCVET_CORPUS names one (the public CANN repositories):
//
//	ASCVET_CORPUS=/work/corpus go test ./cppfront -run LazyCorpus
func TestLazyCorpus(t *testing.T) {
	var st lazyStats
	eachCorpusVF(t, func(p string, src []byte) { compareLazy(t, p, src, &st) })
	t.Log(st)
}

// FuzzLazy: on any input the lazy parse never panics and changes no byte
// but to blank one (a space, or the empty statement a blanked body keeps), its IR verifies, and it is the IR a whole parse gives
// when tree-sitter parses every blanked body without an error. A body with
// an error (garbage such as "{+}", which a compiler refuses too) can
// reshape the whole parse's tree around it, which no lexical scan foresees;
// the kernels of the corpus compile, and TestLazyCorpus holds them all.
func FuzzLazy(f *testing.F) {
	addSeeds(f)
	f.Add([]byte(trickySrc))
	f.Add([]byte(lazySrc))
	f.Add([]byte(condKernel))
	f.Add([]byte(spliceKernel))
	f.Fuzz(func(t *testing.T, src []byte) {
		if len(src) > maxFuzzInput {
			return
		}
		clean, blanks := prepass(src)
		p := planLazy(lexText(clean), blanks, nil)
		if p != nil {
			if len(p.text) != len(clean) {
				t.Fatalf("the blanked text has %d bytes, the pre-passed %d", len(p.text), len(clean))
			}
			for i := range clean {
				if p.text[i] != clean[i] && (p.text[i] != ' ' && p.text[i] != ';' || clean[i] == '\n' || clean[i] == '\r') {
					t.Fatalf("byte %d: %q became %q", i, clean[i], p.text[i])
				}
			}
		}
		fset := token.NewFileSet()
		if file, err := ParseFile(fset, "fuzz.asc", src); err == nil {
			for _, e := range ir.Verify(file) {
				t.Fatalf("Verify: %v", e)
			}
			// RegionsOnly leaves unparsed only a text whose whole lowering
			// finds no region the rules analyse (noAnalysedRegion), where
			// tree-sitter reads the text as the compiler does: without an
			// error. (An unterminated /* is a comment to the end for the
			// compiler and the scan, and code to tree-sitter.)
			if slices.ContainsFunc(file.Funcs, func(fn *ir.Func) bool { return fn.Kind.Analysed() }) && errorFree(clean) {
				if only, err := ParseFileOptions(token.NewFileSet(), "fuzz.asc", src, Options{RegionsOnly: true}); err == nil && len(only.Funcs) == 0 {
					t.Fatalf("RegionsOnly lowered no region; the whole lowering finds %d", len(file.Funcs))
				}
			}
		}
		if p == nil || !cleanBodies(clean, p.bodies) || blanksMore(clean, p) && !errorFree(clean) {
			return
		}
		var whole string
		withWhole(func() { whole = irText(t, "fuzz.asc", src) })
		if lazy := irText(t, "fuzz.asc", src); lazy != whole {
			t.Errorf("the IR differs when parsed lazily:\n%s", firstDiff(whole, lazy))
		}
	})
}

// blanksMore reports whether p blanks more of clean than its bodies: a
// statement or a comment. Tree-sitter's recovery from an error anywhere
// can take another way when a comment or a statement is gone (a comment is
// a node of the tree, and the recovery counts nodes), so the IRs are
// compared then only where the whole parse has no error: the corpus's
// kernels, which TestLazyCorpus holds, compile.
func blanksMore(clean []byte, p *lazyPlan) bool {
	in := make([]bool, len(clean))
	for _, b := range p.bodies {
		for i := b[0]; i <= b[1]; i++ {
			in[i] = true
		}
	}
	for i := range clean {
		if !in[i] && p.text[i] != clean[i] {
			return true
		}
	}
	return false
}

// errorFree reports whether tree-sitter parses clean whole without an
// error.
func errorFree(clean []byte) bool {
	p := getParser()
	tree := p.Parse(clean, nil)
	putParser(p)
	defer tree.Close()
	return !tree.RootNode().HasError()
}

// cleanBodies reports whether tree-sitter, parsing clean whole, makes each
// of bodies (offsets of { and }) a function's body without an error in it.
func cleanBodies(clean []byte, bodies [][2]int) bool {
	p := getParser()
	tree := p.Parse(clean, nil)
	putParser(p)
	defer tree.Close()
	for _, b := range bodies {
		n := tree.RootNode().DescendantForByteRange(uint(b[0]), uint(b[1]+1))
		if n == nil || n.StartByte() != uint(b[0]) || n.EndByte() != uint(b[1]+1) || n.HasError() || n.Kind() != "compound_statement" {
			return false
		}
		if d := n.Parent(); d == nil || d.Kind() != "function_definition" {
			return false
		}
	}
	return true
}

// lazySrc is a kernel with the host code around its VF function that the
// lazy parse blanks, and the functions it must keep: the VF function, its
// caller, the constructor and Init method that set members once, a
// constexpr helper, a __VEC_SCOPE__ host; and shapes the scan must not
// take for a function body (a lambda, an initializer, a struct).
const lazySrc = `#include "kernel_operator.h"
constexpr uint32_t BUFFER_NUM = 2;
__aicore__ constexpr uint32_t Lanes() { return 256 / sizeof(float); }
struct Tiling { uint32_t total; uint32_t tile; };
auto twice = [](int x) { return 2 * x; };
int table[] = {1, 2, 3};

template <typename T, int N = 4>
__simd_vf__ inline void AddVF(__ubuf__ T *dst, __ubuf__ T *src, uint32_t n, uint32_t vl)
{
    AscendC::Reg::RegTensor<T> v;
    AscendC::Reg::MaskReg m = AscendC::Reg::CreateMask<T>();
    for (uint16_t i = 0; i < n / vl; ++i) {
        AscendC::Reg::LoadAlign(v, src + i * vl);
        AscendC::Reg::Adds(v, v, 1.0f, m);
        AscendC::Reg::StoreAlign(dst + i * vl, v, m);
    }
}

template <typename T>
class KernelAdd {
public:
    __aicore__ inline KernelAdd() : vl_(Lanes()) {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const Tiling &t)
    {
        tile_ = t.tile;
        xGm.SetGlobalBuffer((__gm__ T *)x, t.total);
        pipe.InitBuffer(inQueue, BUFFER_NUM, tile_ * sizeof(T));
    }
    __aicore__ inline void Process()
    {
        for (int32_t i = 0; i < 8; i++) {
            CopyIn(i);
            Compute(i);
            CopyOut(i);
        }
    }
    __aicore__ inline void Count() const { calls_++; }

private:
    __aicore__ inline void CopyIn(int32_t progress)
    {
        AscendC::LocalTensor<T> xLocal = inQueue.template AllocTensor<T>();
        AscendC::DataCopy(xLocal, xGm[progress * tile_], tile_);
        inQueue.EnQue(xLocal);
    }
    __aicore__ inline void Compute(int32_t progress)
    {
        AscendC::LocalTensor<T> xLocal = inQueue.template DeQue<T>();
        uint32_t vl = AscendC::GetVRegSize() / sizeof(T);
        AddVF<T>((__ubuf__ T *)xLocal.GetPhyAddr(), (__ubuf__ T *)xLocal.GetPhyAddr(), tile_, vl);
        inQueue.FreeTensor(xLocal);
    }
    __aicore__ inline void CopyOut(int32_t progress)
    {
        // nothing to copy back in this example
    }
    __aicore__ inline void Scope(__ubuf__ float *dst, uint32_t n)
    {
        uint32_t vl = vl_;
        __VEC_SCOPE__
        {
            AscendC::Reg::RegTensor<float> r;
            AscendC::Reg::LoadAlign(r, dst + vl);
        }
    }
    uint32_t tile_ = 0;
    uint32_t vl_;
    mutable uint32_t calls_ = 0;
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, BUFFER_NUM> inQueue;
    AscendC::GlobalTensor<T> xGm;
};

extern "C" __global__ __aicore__ void add_custom(GM_ADDR x, GM_ADDR y, GM_ADDR tiling)
{
    Tiling t{1024, 256};
    KernelAdd<float> op;
    op.Init(x, y, t);
    op.Process();
}

void HostCheck(int n) noexcept
{
    for (int i = 0; i < n; i++) {
        printf("%d\n", twice(i));
    }
}
`

// TestLazyBlanks: in lazySrc the scan blanks exactly the host bodies
// lowering never reads, and the IR is the whole parse's.
func TestLazyBlanks(t *testing.T) {
	clean, blanks := prepass([]byte(lazySrc))
	p := planLazy(lexText(clean), blanks, nil)
	if p == nil {
		t.Fatal("nothing blanked")
	}
	got := blankedNames(clean, p)
	want := []string{"Process", "Count", "CopyIn", "CopyOut", "add_custom", "HostCheck"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("blanked %v, want %v", got, want)
	}
	var whole string
	withWhole(func() { whole = irText(t, "lazy.asc", []byte(lazySrc)) })
	if lazy := irText(t, "lazy.asc", []byte(lazySrc)); lazy != whole {
		t.Errorf("the IR differs when parsed lazily:\n%s", firstDiff(whole, lazy))
	}
}

// blankedNames returns the names of the functions whose bodies p blanks.
func blankedNames(clean []byte, p *lazyPlan) []string {
	var got []string
	for _, b := range p.bodies {
		h := clean[:b[0]]
		k := bytes.LastIndexByte(h, '(')
		e := k
		for k > 0 && isIdentChar(h[k-1]) {
			k--
		}
		got = append(got, string(h[k:e]))
	}
	return got
}

// TestLazyCallers: a caller's body is kept only for a region that may take
// values from its calls (callSiteFacts): one with a parameter or a template
// parameter, or a function with one that holds a __VEC_SCOPE__ block, whose
// block sees what its callers pass (scopeCallerFacts). The callers of a
// region without either and of a SIMT function (a region that is not
// lowered) are blanked, and so is the SIMT function's body. The IR is the
// whole parse's, values from callers included.
func TestLazyCallers(t *testing.T) {
	const src = `__simd_vf__ inline void NoArgs()
{
    AscendC::Reg::RegTensor<float> v;
}
__aicore__ inline void CallsNoArgs() { uint32_t n = 1; NoArgs(); }
__simd_vf__ inline void WithLen(__ubuf__ float *dst, uint32_t n)
{
    AscendC::Reg::RegTensor<float> v;
    for (uint16_t i = 0; i < n; i++) {
        AscendC::Reg::LoadAlign(v, dst + i * 64);
    }
}
__aicore__ inline void CallsWithLen(__ubuf__ float *dst) { uint32_t n = 8; WithLen(dst, n); }
template <typename T>
__simd_vf__ inline void Tmpl()
{
    AscendC::Reg::RegTensor<T> v;
}
__aicore__ inline void CallsTmpl() { Tmpl<float>(); }
__aicore__ inline void Host(__ubuf__ float *dst, uint32_t n)
{
    __VEC_SCOPE__
    {
        AscendC::Reg::RegTensor<float> v;
        for (uint16_t j = 0; j < n; j++) {
            AscendC::Reg::LoadAlign(v, dst + j * 64);
        }
    }
}
__aicore__ inline void CallsHost(__ubuf__ float *dst) { Host(dst, 8); }
__simt_vf__ inline void Simt(int n)
{
    int k = n * 2;
}
__aicore__ inline void CallsSimt() { Simt(3); }
`
	clean, blanks := prepass([]byte(src))
	p := planLazy(lexText(clean), blanks, nil)
	if p == nil {
		t.Fatal("nothing blanked")
	}
	want := []string{"CallsNoArgs", "CallsSimt", "Simt"}
	if got := blankedNames(clean, p); strings.Join(slices.Sorted(slices.Values(got)), " ") != strings.Join(want, " ") {
		t.Errorf("blanked %v, want %v", got, want)
	}
	lazy := lazyHolds(t, "callers.asc", src)
	if !strings.Contains(lazy, "i < 8") {
		t.Errorf("WithLen's loop does not take n = 8 from its caller:\n%s", lazy)
	}
	if !strings.Contains(lazy, "j < 8") {
		t.Errorf("the loop of Host's __VEC_SCOPE__ block does not take n = 8 from Host's caller:\n%s", lazy)
	}
}

// TestLazySkipsBodies: parsing the lazy text with the blanked bodies and
// blank lines left out by included ranges gives the tree of parsing it
// whole: the same nodes at the same offsets.
func TestLazySkipsBodies(t *testing.T) {
	planned := 0
	for _, p := range repoFiles(t) {
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if skipsTheSame(t, p, src) {
			planned++
		}
	}
	if planned < 3 {
		t.Errorf("only %d files with bodies to skip", planned)
	}
}

// TestLazySkipsBodiesCorpus is TestLazySkipsBodies over the VF files of
// the tree ASCVET_CORPUS names (the public CANN repositories):
//
//	ASCVET_CORPUS=/work/corpus go test ./cppfront -run LazySkipsBodiesCorpus
func TestLazySkipsBodiesCorpus(t *testing.T) {
	planned := 0
	eachCorpusVF(t, func(p string, src []byte) {
		if skipsTheSame(t, p, src) {
			planned++
		}
	})
	t.Logf("%d files parsed with holes", planned)
}

// skipsTheSame compares, for the file p of source src, the trees of its
// lazy text parsed whole and parsed with its holes left out; false when
// it has no lazy text parsed with holes.
func skipsTheSame(t *testing.T, p string, src []byte) bool {
	t.Helper()
	clean, blanks := prepass(src)
	pl := planLazy(lexText(clean), blanks, nil)
	if pl == nil || len(clean) >= segmentMin {
		return false
	}
	whole, _ := parseTrees(pl.text, nil, clock{})
	skip, segs := parseTreesSkipping(pl.text, pl.holes, clock{})
	defer closeTrees(whole)
	defer closeTrees(skip)
	if len(whole) != 1 || len(skip) != 1 || segs != nil {
		t.Fatalf("%s: %d and %d trees", p, len(whole), len(skip))
	}
	if a, b := nodesOf(whole[0].RootNode()), nodesOf(skip[0].RootNode()); a != b {
		k := 0
		for k < len(a) && k < len(b) && a[k] == b[k] {
			k++
		}
		t.Errorf("%s: the trees differ:\n%.300s\n%.300s", p, a[max(k-100, 0):], b[max(k-100, 0):])
	}
	return true
}

// nodesOf lists every node of the tree under n: kind and byte range.
func nodesOf(n *sitter.Node) string {
	var b strings.Builder
	c := n.Walk()
	defer c.Close()
	for {
		nd := c.Node()
		fmt.Fprintf(&b, "%s %d-%d;", nd.Kind(), nd.StartByte(), nd.EndByte())
		if c.GotoFirstChild() || c.GotoNextSibling() {
			continue
		}
		for {
			if !c.GotoParent() {
				return b.String()
			}
			if c.GotoNextSibling() {
				break
			}
		}
	}
}

// TestLazyKeepsFunctionBodies: a blanked body stays a function body where
// empty braces could be an initializer list too (with the stray ";" after
// it, T CeilDiv(T a, T b) {}; reads as a variable with a braced
// initializer), and the file is not parsed again whole.
func TestLazyKeepsFunctionBodies(t *testing.T) {
	const src = `template <typename T>
__aicore__ inline T CeilDiv(T a, T b)
{
    return (a + b - 1) / b;
};
class Kernel {
public:
    template <typename U>
    __aicore__ inline U AlignUp(U x) { return CeilDiv(x, U(32)) * 32; }
    __aicore__ inline void Process() { Run(); }
};
__simd_vf__ inline void Run(__ubuf__ float *dst)
{
    AscendC::Reg::RegTensor<float> v;
    AscendC::Reg::LoadAlign(v, dst);
}
`
	lazyHolds(t, "ceil.asc", src)
}

// lazyHolds checks that src is parsed lazily once, without a second parse
// of the whole file, into the IR of a whole parse, and returns that IR.
func lazyHolds(t *testing.T, name, src string) string {
	t.Helper()
	var held []bool
	lazyNote = func(total, kept int, ok bool) { held = append(held, ok) }
	defer func() { lazyNote = nil }()
	lazy := irText(t, name, []byte(src))
	if len(held) != 1 || !held[0] {
		t.Fatalf("lazy parses held: %v, want one that held", held)
	}
	var whole string
	withWhole(func() { whole = irText(t, name, []byte(src)) })
	if lazy != whole {
		t.Errorf("the IR differs when parsed lazily:\n%s", firstDiff(whole, lazy))
	}
	return lazy
}

// TestRegionsOnly: a file whose VF markers all lie in SIMT-only functions,
// or that holds none outside comments' look-alikes, is not parsed under
// Options.RegionsOnly; any other marker keeps the parse. Where the scan
// says no region, the whole lowering finds none the rules analyse.
func TestRegionsOnly(t *testing.T) {
	cases := []struct {
		name, src string
		skip      bool
	}{
		{"simt only", `__simt_vf__ __aicore__ inline void K(__gm__ float* x) { x[threadIdx.x] += 1.0f; }
__simt_callee__ inline float Sq(float v) { return v * v; }`, true},
		{"no marker in code", `// vector_float is mentioned here only
inline int Add(int a, int b) { return a + b; }`, true},
		{"simd function", `__simd_vf__ inline void V(__ubuf__ float* x) { AscendC::MicroAPI::RegTensor<float> r; }`, false},
		{"register type in a SIMT function", `__simt_vf__ inline void K(__gm__ float* x) { AscendC::MicroAPI::RegTensor<float> r; }`, false},
		{"vec scope in a SIMT function", `__simt_vf__ inline void K(__ubuf__ float* x) { __VEC_SCOPE__ { Foo(x); } }`, false},
		{"host function with a vec scope", `__aicore__ inline void K(__ubuf__ float* x) { __VEC_SCOPE__ { Foo(x); } }`, false},
		{"register type outside any body", `using V = AscendC::MicroAPI::RegTensor<float>;
__simt_vf__ inline void K(__gm__ float* x) { x[0] = 0; }`, true},
		{"prototypes in a namespace, host code", `namespace AscendC {
__simd_callee__ inline void asc_add(vector_float& dst, vector_float src0, vector_float src1, vector_bool mask);
class Tiling {
    AscendC::MicroAPI::RegTensor<float> spare;
    __simd_vf__ void Compute(__ubuf__ float* x);
public:
    __aicore__ inline void Init(int n) { len = n; }
    int len;
};
}
__aicore__ inline int Add(int a, int b) { return a + b; }`, true},
		{"register type in a default template argument", `template <typename R = AscendC::MicroAPI::RegTensor<float>>
__aicore__ inline void K(__ubuf__ float* x) { R r; }`, false},
		{"register type in a method's body", `class K {
    __aicore__ inline void Run(__ubuf__ float* x) { AscendC::MicroAPI::RegTensor<float> r; }
};`, false},
		{"vec scope in a lambda", `auto run = [](__ubuf__ float* x) { __VEC_SCOPE__ { Foo(x); } };`, false},
		{"prototype in a stretch tree-sitter gives up on", `template <__simd_callee__ inline void P(vector_float& d);
__aicore__ inline int Add(int a, int b) { return a + b; }`, true},
		{"unbalanced braces", "__simt_vf__ inline void K(int* x) { if (x) { }\n", false},
		{"declarations only", `__simd_callee__ inline void asc_add(vector_float& dst, vector_float src0, vector_float src1, vector_bool mask);
template <typename T> __simd_callee__ void Load(AscendC::MicroAPI::RegTensor<T>& dst, __ubuf__ T* src);`, true},
	}
	for _, c := range cases {
		clean, blanks := prepass([]byte(c.src))
		if got := noAnalysedRegion(lexText(clean), blanks); got != c.skip {
			t.Errorf("%s: noAnalysedRegion = %v, want %v", c.name, got, c.skip)
		}
		f, err := ParseFileOptions(token.NewFileSet(), "r.asc", []byte(c.src), Options{RegionsOnly: true})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		whole, err := ParseFile(token.NewFileSet(), "r.asc", []byte(c.src))
		if err != nil {
			t.Fatal(err)
		}
		switch {
		case c.skip && len(f.Funcs) > 0:
			t.Errorf("%s: parsed under RegionsOnly (%d functions)", c.name, len(f.Funcs))
		case !c.skip && len(f.Funcs) != len(whole.Funcs):
			t.Errorf("%s: %d functions under RegionsOnly, %d without", c.name, len(f.Funcs), len(whole.Funcs))
		}
		if analysed(t, c.src) > 0 && c.skip {
			t.Errorf("%s: skipped, but the lowering finds an analysed region", c.name)
		}
	}
	// A function a macro of the file defines: the shortcut reads the
	// expanded text, so RegionsOnly lowers what a whole parse lowers.
	byMacro := "#define DEF(n) __simd_vf__ inline void n(__ubuf__ float* x) { AscendC::MicroAPI::RegTensor<float> r; AscendC::MicroAPI::LoadAlign(r, x); }\nDEF(Foo)\n"
	only, err := ParseFileOptions(token.NewFileSet(), "m.asc", []byte(byMacro), Options{RegionsOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	if whole, err := ParseFile(token.NewFileSet(), "m.asc", []byte(byMacro)); err != nil || len(only.Funcs) != len(whole.Funcs) {
		t.Errorf("a function defined by a macro: %d functions under RegionsOnly, %d without (%v)", len(only.Funcs), len(whole.Funcs), err)
	}
	// Sound on every kernel of the repository: a file the scan skips has
	// no analysed region.
	skipped := 0
	for _, p := range repoFiles(t) {
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if skippedSoundly(t, p, src) {
			skipped++
		}
	}
	t.Logf("%d repository files skipped", skipped)
}

// skippedSoundly reports whether the scan leaves the file p unparsed
// (noAnalysedRegion), and fails the test when it does so although the
// lowering finds a region the rules analyse.
func skippedSoundly(t *testing.T, p string, src []byte) bool {
	t.Helper()
	clean, blanks := prepass(src)
	if !noAnalysedRegion(lexText(clean), blanks) {
		return false
	}
	if n := analysed(t, string(src)); n > 0 {
		t.Errorf("%s: skipped, but the lowering finds %d analysed regions", p, n)
	}
	return true
}

// analysed counts the regions of src the rules analyse.
func analysed(t *testing.T, src string) int {
	t.Helper()
	f, err := ParseFile(token.NewFileSet(), "r.asc", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, fn := range f.Funcs {
		if fn.Kind.Analysed() {
			n++
		}
	}
	return n
}

// TestRegionsOnlyCorpus: on the CANN operator repositories
// (ASCVET_CORPUS), no file the scan leaves unparsed has a region the rules
// analyse.
func TestRegionsOnlyCorpus(t *testing.T) {
	skipped := 0
	eachCorpusVF(t, func(p string, src []byte) {
		if skippedSoundly(t, p, src) {
			skipped++
		}
	})
	t.Logf("%d files skipped", skipped)
}

// TestLazyStatementGaps: in the bodies kept for callers and setters, the
// statements that are calls writing nothing are blanked, and so is a
// caller's tail after the statement of its last call, and every comment;
// a statement that writes (an assignment, a call of a helper the file
// defines, which may take a variable by reference), one an if owns alone,
// a call site, and what follows a call in the loop around it stay. The IR
// is the whole parse's: the caller's values reach the regions as before.
func TestLazyStatementGaps(t *testing.T) {
	const src = `__simd_vf__ inline void ScaleA(__ubuf__ float *dst, uint32_t n, uint32_t m)
{
    AscendC::Reg::RegTensor<float> v;
    for (uint16_t i = 0; i < n; i++) {
        for (uint16_t j = 0; j < m; j++) {
            AscendC::Reg::LoadAlign(v, dst + i * 64 + j);
        }
    }
}
__simd_vf__ inline void ScaleB(__ubuf__ float *dst, uint32_t n)
{
    AscendC::Reg::RegTensor<float> v;
    for (uint16_t k = 0; k < n; k++) {
        AscendC::Reg::LoadAlign(v, dst + k * 64);
    }
}
__aicore__ inline void Bump(uint32_t &x) { x++; }
__aicore__ inline void Run(__ubuf__ float *dst, uint32_t total)
{
    uint32_t n = 8;
    uint32_t m = 4;
    pipe.InitBuffer(q, 2, n);
    Bump(m);
    if (total > 0) Log(total);
    AscendC::DataCopy<float>(x, y[0], n); /* copy in */
    ScaleA(dst, n, m);
    AscendC::DataCopy(z, dst, n);
    n = 0;
}
__aicore__ inline void Loop(__ubuf__ float *dst)
{
    uint32_t n = 8;
    for (int i = 0; i < 2; i++) {
        ScaleB(dst, n);
        n = 2;
    }
    Flush();
}
class K {
public:
    __aicore__ inline void Init(uint32_t len)
    {
        pipe.InitBuffer(q, 2, len); // queues
        this->tile = 64;
        Log(len);
    }
    uint32_t tile;
};
`
	clean, blanks := prepass([]byte(src))
	p := planLazy(lexText(clean), blanks, nil)
	if p == nil {
		t.Fatal("nothing blanked")
	}
	text := string(p.text)
	for _, gone := range []string{"pipe.InitBuffer(q, 2, n);", "AscendC::DataCopy<float>(x, y[0], n);", "/* copy in */",
		"AscendC::DataCopy(z, dst, n);", "n = 0;", "Flush();", "pipe.InitBuffer(q, 2, len);", "// queues", "Log(len);"} {
		if strings.Contains(text, gone) {
			t.Errorf("%q is not blanked", gone)
		}
	}
	for _, kept := range []string{"uint32_t n = 8;", "uint32_t m = 4;", "Bump(m);", "if (total > 0) Log(total);",
		"ScaleA(dst, n, m);", "ScaleB(dst, n);", "n = 2;", "this->tile = 64;"} {
		if !strings.Contains(text, kept) {
			t.Errorf("%q is blanked", kept)
		}
	}
	lazy := lazyHolds(t, "gaps.asc", src)
	if !strings.Contains(lazy, "i < 8") {
		t.Errorf("ScaleA's loop does not take n = 8 from Run:\n%s", lazy)
	}
	if strings.Contains(lazy, "j < 4") || strings.Contains(lazy, "k < 8") {
		t.Errorf("a value the caller changes (by Bump, or later in the loop) reaches the region:\n%s", lazy)
	}
}

// TestScanShared: noAnalysedRegion and classify read one scan of a text
// (scanBlocks, vfHits), each with blocks of its own: classify's gaps do not
// reach another caller, and a text changed by dropBlanked is scanned anew.
func TestScanShared(t *testing.T) {
	clean, blanks := prepass([]byte(`__simd_vf__ inline void K(__ubuf__ float* x) { AscendC::MicroAPI::RegTensor<float> r; }
__aicore__ inline void Host(int n) { Foo(n); }`))
	toks := lexText(clean)
	b1, _, ok := scanBlocks(toks)
	if !ok || len(b1) != 2 {
		t.Fatalf("scan: %d blocks, ok %v", len(b1), ok)
	}
	made := toks.scan
	b1[1].gaps = [][2]int{{1, 2}}
	b2, _, _ := scanBlocks(toks)
	if toks.scan != made {
		t.Error("the text was scanned twice")
	}
	if b2[1].gaps != nil {
		t.Error("a caller's gaps reached the next caller's blocks")
	}
	h1 := toks.vfHits(blanks)
	if h2 := toks.vfHits(blanks); len(h1) == 0 || &h1[0] != &h2[0] {
		t.Error("the hits were found twice for the same blanks")
	}
	if h3 := toks.vfHits(nil); len(h3) != 1 {
		t.Errorf("without the blanks: %d hits, want the register type alone", len(h3))
	}
	toks.dropBlanked()
	if toks.scan != nil {
		t.Error("dropBlanked kept the scan of the tokens it changed")
	}
}

// TestBlankLineHoles: blank lines and deep indentation between tokens are
// left out of the parse, and the tree is the same; not the blank lines
// after a directive or ending the text (a hole there changes the tree:
// checked below), nor those inside a raw string or after a line
// continuation.
func TestBlankLineHoles(t *testing.T) {
	blank := strings.Repeat("\n", 10)
	for _, tc := range []struct {
		name, text string
		holes      int  // blank-line holes made
		forced     bool // a hole there would change the tree
	}{
		{"between declarations", "int a;" + blank + "int b;\n", 1, false},
		{"indented", "void f() {\n    int a;\n" + strings.Repeat("    \n", 4) + "    int b;\n}\n", 1, false},
		{"deep indentation", "int a;\n" + strings.Repeat(" ", 40) + "int b;\n", 1, false},
		{"indented directive", "int a;\n" + strings.Repeat(" ", 40) + "#if X\nint b;\n#endif\n", 1, false},
		{"shallow indentation", "int a;\n" + strings.Repeat(" ", 20) + "int b;\n", 0, false},
		{"CRLF lines", "int a;\r\n" + strings.Repeat("\r\n", 8) + "int b;\r\n", 1, false},
		{"CRLF after a directive", "#if X\r\n" + strings.Repeat("\r\n", 8) + "int b;\r\n#endif\r\n", 0, false},
		{"tabs", "int a;\n" + strings.Repeat("\t", 40) + "int b;\n", 1, false},
		{"after a directive", "#if X" + blank + "int b;\n#endif\n", 0, true},
		{"ending the text", "int a;" + blank, 0, true},
		{"in a raw string", "const char *s = R\"(a" + blank + "b)\";\nint c;\n", 0, false},
		{"after a continuation", "int a = 1 \\" + blank + ";\nint c;\n", 0, false},
		{"too short", "int a;\n\n\nint b;\n", 0, false},
	} {
		src := []byte(tc.text)
		toks := lexText(src)
		holes := toks.blankLineHoles(src, nil)
		if len(holes) != tc.holes {
			t.Errorf("%s: holes %v, want %d", tc.name, holes, tc.holes)
			continue
		}
		for _, h := range holes {
			if strings.TrimSpace(string(src[h[0]:h[1]])) != "" || src[h[0]-1] != '\n' || src[h[1]-1] != '\n' && isSpaceByte(src[h[1]]) {
				t.Errorf("%s: hole %v is not white space from a line's start to a newline or a token: %q", tc.name, h, src[h[0]:h[1]])
			}
		}
		whole, _ := parseTrees(src, nil, clock{})
		want := nodesOf(whole[0].RootNode())
		closeTrees(whole)
		if len(holes) > 0 {
			skip, _ := parseTreesSkipping(src, holes, clock{})
			if got := nodesOf(skip[0].RootNode()); got != want {
				t.Errorf("%s: the tree changed:\n%s\n%s", tc.name, got, want)
			}
			closeTrees(skip)
		}
		if tc.forced {
			// The hole the rule does not make: from after the first
			// newline of the run to after its last.
			i := strings.Index(tc.text, blank)
			skip, _ := parseTreesSkipping(src, [][2]int{{i + 1, i + len(blank)}}, clock{})
			if got := nodesOf(skip[0].RootNode()); got == want {
				t.Errorf("%s: a hole there leaves the tree as it is: the rule need not avoid it", tc.name)
			}
			closeTrees(skip)
		}
	}
}
