package cppfront

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/ascvet/ascvet/cppfront/internal/tsutil"
)

// spliceKernel has call statements of several shapes in VF bodies, and
// statements that must stay in the parse: a call of a function the file
// defines, one that writes (&x), one with a register type, one after a
// case label, one in a struct-like brace, one in a switch.
const spliceKernel = `#include "kernel_operator.h"
using namespace AscendC;
template <typename T>
__simd_callee__ inline void Helper(MicroAPI::RegTensor<T>& r, uint32_t n) {}

template <typename T>
__simd_vf__ inline void AddVF(__ubuf__ T* dst, __ubuf__ T* src0, __ubuf__ T* src1, uint32_t count, uint16_t loops) {
    MicroAPI::RegTensor<T> a, b, c;
    MicroAPI::MaskReg mask;
    for (uint16_t i = 0; i < loops; i++) {
        mask = MicroAPI::UpdateMask<T>(count);
        MicroAPI::LoadAlign<T, MicroAPI::LoadDist::DIST_NORM>(a, src0 + i * 64);
        MicroAPI::LoadAlign(b,src1 + i * 64);
        MicroAPI::Add<T>(c, a, b, mask);
        MicroAPI::Mul(c, c, b, mask);
        MicroAPI::Muls(c, c, (T)2.0f, mask);
        MicroAPI::Adds(c, c, sizeof(T), mask);
        Helper<T>(c, count);
        MicroAPI::Duplicate(c, &count, mask);
        switch (loops) {
        case 1:
            MicroAPI::Max(c, c, a, mask);
            MicroAPI::Min(c, c, b, mask);
            break;
        default:
            break;
        }
        if (count > 1) { MicroAPI::Sub(c, c, a, mask); } MicroAPI::Abs(c, c, mask);
        MicroAPI::StoreAlign<T, MicroAPI::StoreDist::DIST_NORM_B32>(dst + i * 64, c, mask);
    }
}

__aicore__ inline void Run(__ubuf__ float* d, __ubuf__ float* s0, __ubuf__ float* s1) {
    __VEC_SCOPE__ {
        MicroAPI::RegTensor<float> x;
        MicroAPI::MaskReg m = MicroAPI::CreateMask<float>();
        MicroAPI::LoadAlign(x, s0);
        MicroAPI::Exp(x, x, m);
        MicroAPI::StoreAlign(d, x, m);
    }
}
`

// TestSpliceKernel: the statements that may be left out are, the others
// are not, and the IR is the parse's with every statement in it.
func TestSpliceKernel(t *testing.T) {
	src := []byte(spliceKernel)
	clean, blanks := prepass(src)
	p := planLazy(lexText(clean), blanks, nil)
	if p == nil {
		t.Fatal("no lazy plan")
	}
	var got []string
	for _, s := range p.splices {
		got = append(got, strings.Fields(string(clean[s.offs[0]:s.semi]))[0])
	}
	want := []string{
		// In a __simd_vf__ function or a __VEC_SCOPE__ block nothing
		// reads the tree of a statement: declarations and writes too.
		"MicroAPI::RegTensor<T>", "MicroAPI::MaskReg", "mask",
		"MicroAPI::LoadAlign<T,", "MicroAPI::LoadAlign(b,src1", "MicroAPI::Add<T>(c,", "MicroAPI::Mul(c,", "MicroAPI::Muls(c,",
		"MicroAPI::Adds(c,", "MicroAPI::Duplicate(c,", "MicroAPI::Min(c,", "MicroAPI::Sub(c,", "MicroAPI::Abs(c,", "MicroAPI::StoreAlign<T,",
		"MicroAPI::RegTensor<float>", "MicroAPI::MaskReg", "MicroAPI::LoadAlign(x,", "MicroAPI::Exp(x,", "MicroAPI::StoreAlign(d,",
	}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("left out:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// Each left out of the text tree-sitter reads, but its ';'.
	for _, s := range p.splices {
		if strings.TrimSpace(string(p.text[s.offs[0]:s.semi+1])) != ";" {
			t.Errorf("%q is still in the text parsed", p.text[s.offs[0]:s.semi+1])
		}
	}
	var whole, lazy string
	func() {
		noSplices = true
		defer func() { noSplices = false }()
		whole = irText(t, "k.asc", src)
	}()
	lazy = irText(t, "k.asc", src)
	if whole != lazy {
		t.Errorf("the IR differs with the calls left out:\n%s", firstDiff(whole, lazy))
	}
	compareSplices(t, "k.asc", src)
}

// TestSpliceCut: a statement left out under a small depth limit is cut
// where Flatten cuts the parse with it in, and the IR is the same.
func TestSpliceCut(t *testing.T) {
	src := []byte(spliceKernel)
	for _, depth := range []int{1, 2, 3, 4, 6} {
		opts := Options{MaxDepth: depth}
		var whole, lazy string
		func() {
			noSplices = true
			defer func() { noSplices = false }()
			whole = irTextOpts(t, "k.asc", src, opts)
		}()
		lazy = irTextOpts(t, "k.asc", src, opts)
		if whole != lazy {
			t.Errorf("depth %d: the IR differs with the calls left out:\n%s", depth, firstDiff(whole, lazy))
		}
	}
	// The cut inside a shape, directly.
	stmt := []byte("A::f<T>(a, b.c, 1);")
	shapes, _ := learnShapes([][]byte{stmt}, time.Time{})
	sh := shapes[0]
	if sh == nil {
		t.Fatal("no shape for a call statement")
	}
	var offs []int32
	for _, tk := range lexText(stmt).toks {
		offs = append(offs, tk.start, tk.end)
	}
	for room := 0; room <= sh.depth+1; room++ {
		out := sh.emit(nil, offs, 0, -1, -1, room)
		if len(out) != sh.count(room) {
			t.Errorf("room %d: %d nodes, count says %d", room, len(out), sh.count(room))
		}
		for i, n := range out {
			if n.first >= int32(len(out)) || n.next >= int32(len(out)) || n.parent >= int32(i) {
				t.Errorf("room %d: node %d links outside: %+v", room, i, n)
			}
			if n.flags&tsutil.RawCut != 0 && n.first >= 0 {
				t.Errorf("room %d: node %d cut with a child", room, i)
			}
		}
	}
}

// TestSpliceRefused: statements that are not left out of the parse. A
// statement before a __VEC_SCOPE__ block is left in when it writes a
// name (enclosingNodes reads it); in a __simd_vf__ function or a
// __VEC_SCOPE__ block it need not be.
func TestSpliceRefused(t *testing.T) {
	for _, c := range []struct {
		stmt     string
		host, vf int // statements left out before a __VEC_SCOPE__ block, in a __simd_vf__ function
	}{
		{`return Foo(a, b);`, 0, 0}, // a keyword
		{`Foo("x", b);`, 0, 0},      // a string
		{`Foo(a, b)`, 0, 0},         // no ;
		{`x = Foo(a, b);`, 0, 1},    // writes
		{`Foo(&a, b);`, 0, 1},       // writes through &
		{`Foo(a++, b);`, 0, 1},      // writes
		{`Local(a, b);`, 0, 0},      // the file defines it
		{`Foo([&]{ g(); }, b);`, 0, 0},
		{"Foo(a, \\\nb);", 0, 0}, // a line continued
		{`Foo(a, b); // ok` + "\n" + `Bar(a, MicroAPI::RegTensor<T>());`, 1, 2}, // a register type: only in a VF body
		{`x = {Foo(a, b)};`, 0, 0},
		{`case 1: Foo(a, b);`, 0, 0},
		{`Foo(a, b); Bar(a, b);`, 2, 2},
		{`uint32_t n = 8;`, 0, 1},                        // a declaration: only in a VF body
		{`MicroAPI::RegTensor<float> r;`, 0, 1},          // the same
		{`for (int i = 0; i < 4; ++i) Foo(a, b);`, 0, 0}, // a statement holding one
		{`x = 1; A::B::C;`, 0, 1},                        // A::B::C; reads otherwise after a statement: not a shape
	} {
		for _, ctx := range []struct {
			src  string
			want int
		}{
			{"void Local(int a, int b) {}\n__aicore__ void F() {\n" + c.stmt + "\n__VEC_SCOPE__ { MicroAPI::Exp(x, x, m); }\n}\n", c.host + 1},
			{"void Local(int a, int b) {}\n__simd_vf__ void F() {\n" + c.stmt + "\n}\n", c.vf},
		} {
			clean, blanks := prepass([]byte(ctx.src))
			p := planLazy(lexText(clean), blanks, nil)
			n := 0
			if p != nil {
				n = len(p.splices)
			}
			if n != ctx.want {
				t.Errorf("%q: %d statements left out, want %d", ctx.src, n, ctx.want)
			}
		}
	}
}

// TestShapeKey: what a shape tells apart.
func TestShapeKey(t *testing.T) {
	key := func(s string) string {
		tk := lexText([]byte(s))
		k, ok := shapeKey(tk.src, tk.toks, 0, len(tk.toks), nil)
		if !ok {
			return "!"
		}
		return string(k)
	}
	same := [][2]string{
		{"Foo(a, b);", "Bar(x1, y_2);"},
		{"A::f<T>(a, 1);", "B::g<U>(c, 0x20);"},
		{"f(a, 1.5f);", "g(b, 20.25);"},
		{"Foo(a, b);", "Foo(a,b);"}, // white space between an identifier and a punctuator
	}
	for _, p := range same {
		if key(p[0]) != key(p[1]) {
			t.Errorf("%q and %q have different shapes", p[0], p[1])
		}
	}
	differ := [][2]string{
		{"Foo<T>(a, b);", "Foo<float>(a, b);"},      // a primitive type
		{"f(a - -b, c);", "f(a--b, c);"},            // -- is a token
		{"f(1e-5, c);", "f(1 e - 5, c);"},           // not a plain number
		{"f(a, b);", "f(a, this);"},                 // this
		{"f(a >> b, c);", "f(a > > b, c);"},         // >> is a token
		{"f(a, 1);", "f(a, x);"},                    // a number is no identifier
		{"f(a, b);", `f(a, "b");`},                  // a literal has none
		{"A::f<B<C>>(a, b);", "A::f<B<C> >(a, b);"}, // >> again
	}
	for _, p := range differ {
		if key(p[0]) == key(p[1]) {
			t.Errorf("%q and %q have the same shape", p[0], p[1])
		}
	}
}

// TestWordTokens: wordTokens holds every identifier-like string of
// tree-sitter-cpp's grammar (its keywords and the words of its
// primitive_type, true, false and null tokens), read from the module's
// grammar.json, which `go mod download` fetches.
func TestWordTokens(t *testing.T) {
	out, err := exec.Command("go", "list", "-m", "-json", "github.com/tree-sitter/tree-sitter-cpp").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	var mod struct{ Dir string }
	if err := json.Unmarshal(out, &mod); err != nil || mod.Dir == "" {
		if err := exec.Command("go", "mod", "download", "github.com/tree-sitter/tree-sitter-cpp").Run(); err != nil {
			t.Fatalf("go mod download: %v", err)
		}
		out, _ = exec.Command("go", "list", "-m", "-json", "github.com/tree-sitter/tree-sitter-cpp").Output()
		_ = json.Unmarshal(out, &mod)
	}
	data, err := os.ReadFile(filepath.Join(mod.Dir, "src", "grammar.json"))
	if err != nil {
		t.Fatal(err)
	}
	var grammar any
	if err := json.Unmarshal(data, &grammar); err != nil {
		t.Fatal(err)
	}
	word := regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)
	found := map[string]bool{}
	var walk func(x any)
	walk = func(x any) {
		switch v := x.(type) {
		case map[string]any:
			if v["type"] == "STRING" {
				if s, ok := v["value"].(string); ok && word.MatchString(s) {
					found[s] = true
				}
			}
			for _, c := range v {
				walk(c)
			}
		case []any:
			for _, c := range v {
				walk(c)
			}
		}
	}
	walk(grammar.(map[string]any)["rules"])
	var missing, extra []string
	for w := range found {
		if !wordTokens[w] {
			missing = append(missing, w)
		}
	}
	for w := range wordTokens {
		if !found[w] {
			extra = append(extra, w)
		}
	}
	sort.Strings(missing)
	sort.Strings(extra)
	if len(missing) > 0 || len(extra) > 0 || len(found) < 100 {
		t.Errorf("wordTokens lacks %v, has %v that the grammar has not (%d words there)", missing, extra, len(found))
	}
}

// TestSpliceCorpus compares, in every VF file of the tree ASCVET_CORPUS
// names (the public CANN repositories), each statement left out of the
// parse with the subtree tree-sitter builds for it in the text parsed
// with it in: node by node, kind, field, bounds and links.
//
//	ASCVET_CORPUS=/work/corpus go test ./cppfront -run SpliceCorpus
func TestSpliceCorpus(t *testing.T) {
	n := 0
	eachCorpusVF(t, func(p string, src []byte) { n += compareSplices(t, p, src) })
	shapeTable.Lock()
	shapes := len(shapeTable.m)
	shapeTable.Unlock()
	t.Logf("%d statements left out and compared; %d shapes", n, shapes)
}

// compareSplices compares the statements the lazy parse of src leaves out
// with tree-sitter's subtrees for them (see TestSpliceCorpus), and returns
// how many it compared.
func compareSplices(t *testing.T, name string, src []byte) int {
	t.Helper()
	clean, blanks := prepass(src)
	spliced, _, sp := parseLazy(lexText(clean), blanks, clock{}, nil)
	closeTrees(spliced)
	if len(sp) == 0 {
		return 0
	}
	text := clean
	if base := planLazySplicing(lexText(clean), blanks, nil, false, time.Time{}); base != nil {
		text = base.text
	}
	trees, segs := parseTrees(text, nil, clock{})
	defer closeTrees(trees)
	for _, s := range sp {
		k := segmentOf(segs, int(s.semi))
		from := s.offs[0]
		n := trees[k].RootNode().DescendantForByteRange(uint(from), uint(s.semi+1))
		for n != nil && (n.StartByte() != uint(from) || n.EndByte() != uint(s.semi+1)) {
			n = n.Parent()
		}
		if n == nil {
			t.Errorf("%s: no node for %q", name, clean[from:s.semi+1])
			continue
		}
		want := rawNodes(tsutil.Flatten(n, 1<<30, false, nil))
		got := s.shape.emit(nil, s.offs, want[0].fid, -1, -1, 1<<30)
		got[0].fid = want[0].fid
		if a, b := flatText(want), flatText(got); a != b {
			t.Errorf("%s: %q: the subtree differs:\nparsed:  %s\nspliced: %s", name, clean[from:s.semi+1], a, b)
		}
	}
	return len(sp)
}

// flatText lists flat nodes: kind, field, bounds, links.
func flatText(ns []fnode) string {
	var b strings.Builder
	for i := range ns {
		n := &ns[i]
		fmt.Fprintf(&b, "%s/%s[%d,%d)%d,%d,%d ", n.kind(), n.field(), n.start, n.end, n.first, n.next, n.parent)
	}
	return b.String()
}

// TestSpliceDeadline: past the deadline no shape is learned (and none is
// kept as unsplicable): the statements stay in the parse.
func TestSpliceDeadline(t *testing.T) {
	stmt := "Deadline(a, b, c, d, e, f, g, h, i, j, k, l, m, n, o, p, q, r, s, t2, u, v, w, x, y, z, a1, b1, c1, d1, e1, f1, g1);"
	src := "__simd_vf__ void F() {\n" + stmt + "\n}\n"
	clean, blanks := prepass([]byte(src))
	tk := lexText(clean)
	p := planLazySplicing(tk, blanks, nil, true, time.Now().Add(-time.Second))
	if p != nil && len(p.splices) != 0 {
		t.Errorf("past the deadline %d statements left out", len(p.splices))
	}
	st := lexText([]byte(stmt))
	key, _ := shapeKey(st.src, st.toks, 0, len(st.toks), nil)
	shapeTable.Lock()
	_, kept := shapeTable.m[string(key)]
	shapeTable.Unlock()
	if kept {
		t.Error("a shape not learned is in the table")
	}
	if p := planLazySplicing(lexText(clean), blanks, nil, true, time.Time{}); p == nil || len(p.splices) != 1 {
		t.Errorf("without a deadline: %v", p)
	}
}

// TestSpliceLearnsAQuarter: a file learns the shapes of at most a quarter
// of its statements (or 32); the others stay in the parse.
func TestSpliceLearnsAQuarter(t *testing.T) {
	var b strings.Builder
	b.WriteString("__simd_vf__ void F() {\n")
	stmts := 0
	for _, head := range []string{"Quarter(", "Q::R(", "Q<T>(", "Quarter(0, "} {
		for n := 1; n <= 40; n++ { // a shape each
			b.WriteString(head)
			for k := range n {
				if k > 0 {
					b.WriteString(", ")
				}
				fmt.Fprintf(&b, "a%d", k)
			}
			b.WriteString(");\n")
			stmts++
		}
	}
	b.WriteString("}\n")
	clean, blanks := prepass([]byte(b.String()))
	shapeTable.Lock()
	before := len(shapeTable.m)
	shapeTable.Unlock()
	p := planLazy(lexText(clean), blanks, nil)
	shapeTable.Lock()
	learned := len(shapeTable.m) - before
	shapeTable.Unlock()
	if learned > stmts/4 || learned == 0 {
		t.Errorf("%d shapes learned from %d statements of as many shapes, want 1 to %d", learned, stmts, stmts/4)
	}
	if n := len(p.splices); n >= stmts || n < learned {
		t.Errorf("%d of %d statements left out, %d shapes learned", n, stmts, learned)
	}
}
