package cppfront

import (
	"bytes"
	"fmt"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/ascvet/ascvet/cppfront/ir"

	sitter "github.com/tree-sitter/go-tree-sitter"
)

// irText is everything lowering makes of src, as text.
func irText(t *testing.T, name string, src []byte) string {
	t.Helper()
	return irTextOpts(t, name, src, Options{})
}

// irTextOpts is irText with options.
func irTextOpts(t *testing.T, name string, src []byte, opts Options) string {
	t.Helper()
	fset := token.NewFileSet()
	f, err := ParseFileOptions(fset, name, src, opts)
	var b bytes.Buffer
	fmt.Fprintf(&b, "err %v\n", err)
	if err := ir.Fprint(&b, fset, f); err != nil {
		t.Fatal(err)
	}
	fmt.Fprintf(&b, "defined %v\n", f.Defined)
	keys := make([]string, 0, len(f.Consts))
	for k := range f.Consts {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		fmt.Fprintf(&b, "const %s=%d\n", k, f.Consts[k])
	}
	for _, q := range f.Quals {
		fmt.Fprintf(&b, "qual %v %s\n", fset.Position(q.Pos), q.Text)
	}
	for _, fn := range f.Funcs {
		for _, e := range fn.Errors {
			fmt.Fprintf(&b, "error %s %v\n", fn.Name, fset.Position(e))
		}
		for _, nd := range fn.Names {
			fmt.Fprintf(&b, "name %s %+v\n", fn.Name, nd)
		}
	}
	return b.String()
}

// withSegments runs f with every file parsed in segments cut as often as
// the scan allows.
func withSegments(f func()) {
	defer func(m, s int) { segmentMin, segmentSize = m, s }(segmentMin, segmentSize)
	segmentMin, segmentSize = 0, 1
	f()
}

// TestSegmentsLowerTheSame: every C++ file of the repository's test data
// lowers to the same IR whether parsed whole or cut into as many segments
// as the scan finds, and enough of them are cut for this to mean something.
func TestSegmentsLowerTheSame(t *testing.T) {
	cut := 0
	files := repoFiles(t)
	for _, p := range files {
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if !HasVFMarker(src) {
			continue
		}
		if checkSameTrees(t, p, src, 1, true) > 1 {
			cut++
		}
		whole := irText(t, p, src)
		var segd string
		withSegments(func() { segd = irText(t, p, src) })
		if whole != segd {
			t.Errorf("%s: the IR differs when parsed in segments:\n%s", p, firstDiff(whole, segd))
		}
	}
	if cut < 20 {
		t.Errorf("only %d of %d files were cut into segments", cut, len(files))
	}
	t.Logf("%d files, %d cut into segments", len(files), cut)
}

// firstDiff shows the first differing line of a and b.
func firstDiff(a, b string) string {
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := range min(len(al), len(bl)) {
		if al[i] != bl[i] {
			return fmt.Sprintf("line %d:\n  whole:    %s\n  segments: %s", i+1, al[i], bl[i])
		}
	}
	return fmt.Sprintf("lengths %d and %d lines", len(al), len(bl))
}

// nodesIn lists the nodes of t that lie within [a, b), with their depth:
// kind, bytes, depth, one per line.
func nodesIn(root *sitter.Node, a, b uint) []string {
	var out []string
	var walk func(n *sitter.Node, depth int)
	walk = func(n *sitter.Node, depth int) {
		if n.EndByte() <= a || n.StartByte() >= b {
			return
		}
		if depth > 0 && n.StartByte() >= a && n.EndByte() <= b {
			out = append(out, fmt.Sprintf("%s %d-%d depth %d missing %v", n.Kind(), n.StartByte(), n.EndByte(), depth, n.IsMissing()))
		}
		for i := range n.ChildCount() {
			walk(n.Child(i), depth+1)
		}
	}
	walk(root, 0)
	return out
}

// checkSameTrees: every segment's tree has, within the bytes the segment
// owns, the nodes the whole file's tree has there, at the same depths.
func checkSameTrees(t *testing.T, name string, src []byte, size int, errorsToo bool) int {
	t.Helper()
	clean, _ := prepass(src)
	segs := splitSegments(lexText(clean), size)
	if segs == nil {
		return 0
	}
	if segs[0].start != 0 || segs[len(segs)-1].end != len(clean) {
		t.Fatalf("%s: segments do not cover the file", name)
	}
	p := getParser()
	whole := p.Parse(clean, nil)
	putParser(p)
	defer whole.Close()
	if whole.RootNode().HasError() && !errorsToo {
		// tree-sitter's recovery from an error can reshape the tree far
		// from it; a segment's tree keeps the damage inside the segment.
		return -1
	}
	trees := parseSegments(clean, segs, clock{})
	if trees == nil {
		t.Fatalf("%s: parseSegments failed", name)
	}
	for k, s := range segs {
		if k > 0 && segs[k-1].end != s.start {
			t.Fatalf("%s: segment %d starts at %d, the one before ends at %d", name, k, s.start, segs[k-1].end)
		}
		w := nodesIn(whole.RootNode(), uint(s.start), uint(s.end))
		g := nodesIn(trees[k].RootNode(), uint(s.start), uint(s.end))
		if d := firstDiff(strings.Join(w, "\n"), strings.Join(g, "\n")); strings.Join(w, "\n") != strings.Join(g, "\n") {
			t.Errorf("%s: segment %d (bytes %d-%d, %q...) differs from the whole tree: %s", name, k, s.start, s.end, clip(clean[s.start:s.end]), d)
		}
		trees[k].Close()
	}
	return len(segs)
}

func clip(b []byte) string {
	return string(b[:min(len(b), 60)])
}

// trickySrc has the shapes a cut must not split: a struct followed by its
// variable, lambdas and initializers at namespace level, braces in
// strings, comments, raw strings and macros, conditionals with #else, and
// the nesting it may cut inside: namespaces of every spelling, extern "C"
// and an include guard.
const trickySrc = `#ifndef TRICKY_H
#define TRICKY_H
#include "kernel_operator.h"
#define OPEN_BLOCK {
#define BODY(x) do { x; } \
    while (0)
namespace A {
namespace B::C {
inline namespace v1 {
struct S {
    int a;
    void f() { a = 1; }
}
s1;
struct { int b; } anon
    = {2};
auto lam = [](int x) { return x + 1; }
;
int table[] = {1, 2, 3};
const char *str = "}{ not a brace";
const char *raw = R"x(}}}{ )x";
char ch = '}';
// a comment with } and {
/* a block comment { with } braces */
__simd_vf__ inline void Add1(__ubuf__ float *dst, __ubuf__ float *src, uint16_t n)
{
    AscendC::Reg::RegTensor<float> v;
    AscendC::Reg::MaskReg m = AscendC::Reg::CreateMask<float>();
    for (uint16_t i = 0; i < n; ++i) {
        AscendC::Reg::LoadAlign(v, src + i * 64);
        AscendC::Reg::Adds(v, v, 1.0f, m);
        AscendC::Reg::StoreAlign(dst + i * 64, v, m);
    }
}
#if defined(SOMETHING)
void g1() { }
void g2() { }
#else
void g1(int) { }
void g2(int) { }
#endif
[[nodiscard]] int h() { return 1; }
void S2f() noexcept { }
int x1 = 1, x2 = 2;
template <typename T>
struct Tpl {
    T v;
};
enum class E : int { X, Y };
void g3()
{
    BODY(g1());
}
} // namespace v1
} // namespace B::C
namespace {
int hidden() { return 0; }
}
} // namespace A
extern "C" {
void cfunc(void) { }
int cvar;
}
extern "C" __global__ void kern() { }
namespace NS = A::B::C;
#endif
`

// TestSegmentsTricky cuts trickySrc at every place the scan allows, and
// each segment's tree matches the whole file's.
func TestSegmentsTricky(t *testing.T) {
	n := checkSameTrees(t, "tricky", []byte(trickySrc), 1, false)
	if n < 15 {
		t.Errorf("%d segments; want a cut between most declarations", n)
	}
	segs := splitSegments(lexText([]byte(trickySrc)), 1)
	for _, s := range segs {
		text := trickySrc[s.start:s.end]
		for _, bad := range []string{"s1;", "anon\n", "\n;", "void g2() { }", "void g2(int) { }"} {
			if strings.HasPrefix(strings.TrimLeft(text, " \n"), bad) {
				t.Errorf("a cut before %q", bad)
			}
		}
	}
	withSegments(func() {
		if got, want := irText(t, "tricky.h", []byte(trickySrc)), func() string {
			segmentMin = 1 << 40
			defer func() { segmentMin = 0 }()
			return irText(t, "tricky.h", []byte(trickySrc))
		}(); got != want {
			t.Errorf("IR differs: %s", firstDiff(want, got))
		}
	})
}

// TestSegmentsUnsure: where the scan cannot follow the braces, the file is
// parsed whole.
func TestSegmentsUnsure(t *testing.T) {
	for _, src := range []string{
		"void f() { }\nvoid g() { }\n}\nvoid h() { }\n",           // a brace too many
		"void f() { }\nvoid g() {\n",                              // one too few
		"#ifdef A\nvoid f() {\n#else\nvoid f(int) {\n#endif\n}\n", // braces across #else
		"void f() { }\n#endif\nvoid g() { }\n",                    // a lone #endif
		"void f() { }\nint a = (1;\nvoid g() { }\n",               // an unclosed paren
	} {
		if segs := splitSegments(lexText([]byte(src)), 1); segs != nil {
			t.Errorf("%q: cut into %d segments, want none", src, len(segs))
		}
	}
}

// TestSegmentsCorpus is TestSegmentsLowerTheSame over a tree of real
// kernels, when ASCVET_CORPUS names one (the public CANN repositories):
//
//	ASCVET_CORPUS=/work/corpus go test ./cppfront -run SegmentsCorpus
func TestSegmentsCorpus(t *testing.T) {
	files, cut, segs, broken := 0, 0, 0, 0
	eachCorpusVF(t, func(p string, src []byte) {
		if len(src) > 4<<20 {
			return
		}
		files++
		n := checkSameTrees(t, p, src, 4<<10, false)
		if n < 0 {
			broken++
		}
		if n > 1 {
			cut++
			segs += n
			whole := irText(t, p, src)
			var segd string
			withSegments(func() { segmentSize = 4 << 10; segd = irText(t, p, src) })
			if whole != segd {
				t.Errorf("%s: the IR differs when parsed in segments:\n%s", p, firstDiff(whole, segd))
			}
		}
	})
	t.Logf("%d VF files, %d cut into %d segments of about 4 KB; %d with a parse error not compared", files, cut, segs, broken)
}

// eachCorpusVF calls f with every C++ file with a VF marker under the tree
// ASCVET_CORPUS names (the public CANN repositories), and skips the test
// when it names none.
func eachCorpusVF(t *testing.T, f func(path string, src []byte)) {
	dir := os.Getenv("ASCVET_CORPUS")
	if dir == "" {
		t.Skip("ASCVET_CORPUS is not set")
	}
	walkSources(t, dir, func(p string, src []byte) {
		if HasVFMarker(src) {
			f(p, src)
		}
	})
}

// eachSource calls f with every C++ source file of the repository's
// kernels and, when ASCVET_CORPUS names a tree, of that tree.
func eachSource(t *testing.T, f func(path string, src []byte)) {
	walkSources(t, "../testdata/kernels", f)
	if dir := os.Getenv("ASCVET_CORPUS"); dir != "" {
		walkSources(t, dir, f)
	}
}

// walkSources calls f with every C++ source file under dir.
func walkSources(t *testing.T, dir string, f func(path string, src []byte)) {
	t.Helper()
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		switch filepath.Ext(p) {
		case ".asc", ".cpp", ".cc", ".cxx", ".h", ".hh", ".hpp", ".hxx":
		default:
			return nil
		}
		src, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		f(p, src)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// bigSrc is a VF file of about size bytes, past segmentMin: namespaces
// of functions with unaligned streams, macros and member values, so that
// segments are cut and lowered in parallel with the default sizes.
func bigSrc(size int) []byte {
	var b strings.Builder
	b.WriteString("#ifndef BIG_H\n#define BIG_H\n#define STEP(d, a, m) AscendC::Reg::Adds(d, a, 1.0f, m)\nnamespace Big {\nconstexpr uint32_t VL = 64;\n")
	for i := 0; b.Len() < size; i++ {
		if i%50 == 0 {
			fmt.Fprintf(&b, "} // namespace\nnamespace Part%d {\nstruct Cfg%d { int rows = %d; };\n", i, i, i%7+1)
		}
		fmt.Fprintf(&b, `__simd_vf__ inline void Fn%[1]d(__ubuf__ float *dst, __ubuf__ float *src, uint16_t n)
{
    AscendC::Reg::RegTensor<float> v, w;
    AscendC::Reg::UnalignRegForLoad u;
    AscendC::Reg::MaskReg m = AscendC::Reg::CreateMask<float>();
    for (uint16_t i = 0; i < n; ++i) {
        AscendC::Reg::LoadUnAlignPre(u, src + i * %[2]d);
        AscendC::Reg::LoadUnAlign(v, u, src + i * %[2]d);
        STEP(w, v, m);
        AscendC::Reg::StoreAlign(dst + i * VL, w, m);
    }
}
`, i, 8*(i%9+1))
		if i%10 == 9 {
			fmt.Fprintf(&b, "__aicore__ inline void Call%[1]d(__ubuf__ float *d, __ubuf__ float *s) { Fn%[1]d(d, s, %[2]d); }\n", i, i%5+2)
		}
	}
	b.WriteString("} // namespace\n#endif\n")
	return []byte(b.String())
}

// TestSegmentsBigFile: a file past segmentMin is parsed in segments and
// lowered in parallel (run it with -race), to the IR of a whole parse.
func TestSegmentsBigFile(t *testing.T) {
	src := bigSrc(segmentMin + segmentMin/4)
	clean, _ := prepass(src)
	if n := len(splitSegments(lexText(clean), segmentSize)); n < 4 {
		t.Fatalf("%d segments, want at least 4", n)
	}
	segd := irText(t, "big.asc", src)
	defer func(m int) { segmentMin = m }(segmentMin)
	segmentMin = 1 << 40
	if whole := irText(t, "big.asc", src); whole != segd {
		t.Errorf("the IR differs when parsed in segments:\n%s", firstDiff(whole, segd))
	}
}

// FuzzSplitSegments: on any input the segment scan never panics; when it
// cuts, the segments own the file end to end, each one's ranges are in
// order, apart, inside the file and hold its own bytes; and every segment
// parses. The IR of a file cut at every place the scan allows verifies.
func FuzzSplitSegments(f *testing.F) {
	addSeeds(f)
	f.Add([]byte(trickySrc))
	f.Fuzz(func(t *testing.T, src []byte) {
		if len(src) > maxFuzzInput {
			return
		}
		clean, _ := prepass(src)
		segs := splitSegments(lexText(clean), 1)
		if segs == nil {
			return
		}
		at := 0
		for k, s := range segs {
			if s.start != at || s.end < s.start {
				t.Fatalf("segment %d owns [%d,%d), want a start at %d", k, s.start, s.end, at)
			}
			at = s.end
			prev, own := -1, false
			for _, r := range s.ranges {
				if r[0] < prev || r[1] < r[0] || r[1] > len(clean) {
					t.Fatalf("segment %d: range %v out of order or outside the file (%d bytes)", k, r, len(clean))
				}
				prev = r[1]
				own = own || r == [2]int{s.start, s.end}
			}
			if !own {
				t.Fatalf("segment %d: its own bytes [%d,%d) are not among its ranges %v", k, s.start, s.end, s.ranges)
			}
		}
		if at != len(clean) {
			t.Fatalf("the segments end at %d of %d bytes", at, len(clean))
		}
		trees := parseSegments(clean, segs, clock{})
		if trees == nil {
			t.Fatal("a segment did not parse")
		}
		closeTrees(trees)
		withSegments(func() {
			file, err := ParseFile(token.NewFileSet(), "fuzz.asc", src)
			if err == nil {
				for _, e := range ir.Verify(file) {
					t.Fatalf("Verify: %v", e)
				}
			}
		})
	})
}
