package stream

import (
	"fmt"
	"go/token"
	"math/rand/v2"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"

	"github.com/ascvet/ascvet/cppfront/ir"
)

// handFix is a fix written by hand: the line holding the Pre (or Post) of
// f's first contiguous site is deleted and text inserted before the line
// holding at.
func handFix(t *testing.T, f *ir.File, sink bool, at, text string) (Site, *analysis.SuggestedFix) {
	t.Helper()
	sites := PreSites(f.Funcs[0])
	if sink {
		sites = PostSites(f.Funcs[0])
	}
	var s Site
	for _, x := range sites {
		if x.Verdict == Contiguous {
			s = x
			break
		}
	}
	if s.Instr == nil {
		t.Fatal("no contiguous site")
	}
	src := newSource(f)
	start, end, _, why := src.statement(s.Instr)
	if why != "" {
		t.Fatal(why)
	}
	k := strings.Index(string(f.Src), at)
	if k < 0 {
		t.Fatalf("%q not in the source", at)
	}
	ls := src.lineStart(k)
	return s, &analysis.SuggestedFix{TextEdits: []analysis.TextEdit{
		{Pos: f.Tok.Pos(ls), End: f.Tok.Pos(ls), NewText: []byte(text)},
		{Pos: f.Tok.Pos(start), End: f.Tok.Pos(end)},
	}}
}

// TestValidateCatches: fixes written by hand with the mistakes issue 32
// found are caught on the text they write, even where the checks before
// them would not be run; the right fix passes.
func TestValidateCatches(t *testing.T) {
	cases := []struct {
		name, src, at, text, want string
		sink                      bool
	}{
		{name: "right", src: loadLoop("", "src + i * 64"), at: "    for (", text: "    Reg::LoadUnAlignPre(u, src);\n"},
		{name: "right post", src: storeLoop("", "dst", "    pad = 0;\n"), at: "    pad = 0;", text: "    Reg::StoreUnAlignPost(dst, u, 0);\n", sink: true},
		{name: "wrong address", src: loadLoop("", "src + (i * 64 + 8)"), at: "    for (", text: "    Reg::LoadUnAlignPre(u, src);\n",
			want: "primes at"},
		{name: "between pragma and for", src: loadLoop("#pragma unroll 2\n", "src + i * 64"), at: "    for (", text: "    Reg::LoadUnAlignPre(u, src);\n",
			want: "#pragma unroll"},
		{name: "into a braceless if", src: loadLoop("    if (pad > 0)\n", "src + i * 64"), at: "    for (", text: "    Reg::LoadUnAlignPre(u, src);\n",
			want: "lowers differently|another block"},
		{name: "post inside the next loop", src: storeLoop("", "dst", "    for (uint16_t k = 0; k < n; ++k) {\n        Reg::LoadAlign(v, src);\n    }\n"),
			at: "        Reg::LoadAlign(v, src);\n    }", text: "        Reg::StoreUnAlignPost(dst, u, 0);\n", sink: true,
			want: "another"},
		{name: "a name out of scope", src: loadHead + "    for (uint16_t i = 0; i < n; ++i) {\n        __ubuf__ float* q = src;\n        Reg::LoadUnAlignPre(u, q + i * 64);\n        Reg::LoadUnAlign(v, u, q + i * 64);\n        Reg::StoreAlign(dst + i * 64, v, m);\n    }\n}\n",
			at: "    for (", text: "    Reg::LoadUnAlignPre(u, q);\n", want: "another declaration|lowers differently|primes"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := lower(t, c.src)
			s, fix := handFix(t, f, c.sink, c.at, c.text)
			why := validate(f, s, fix, !c.sink)
			t.Logf("validate: %q", why)
			if c.want == "" {
				if why != "" {
					t.Errorf("the right fix is refused: %s\n%s", why, apply(f, fix))
				}
				return
			}
			ok := false
			for _, w := range strings.Split(c.want, "|") {
				ok = ok || why != "" && strings.Contains(why, w)
			}
			if !ok {
				t.Errorf("validate = %q, want %q, for\n%s", why, c.want, apply(f, fix))
			}
		})
	}
}

// TestValidateOnceForMany: the fixes of a file are validated on one
// lowering of the fixed file, not one each (a big file with many findings
// stays linear); a wrong fix among them is dropped in a second round and
// the others stay.
func TestValidateOnceForMany(t *testing.T) {
	var b strings.Builder
	const n = 40
	for k := range n {
		b.WriteString(strings.Replace(loadLoop("", "src + i * 64"), "void K(", fmt.Sprintf("void K%d(", k), 1))
	}
	f := lower(t, b.String())
	lowerings := 0
	relower := f.Relower
	f.Relower = func(src []byte, only [][2]int) (*ir.File, error) {
		lowerings++
		return relower(src, only)
	}
	var items []*fixItem
	for _, fn := range f.Funcs {
		for _, s := range PreSites(fn) {
			if it, why := composeHoist(f, s); it != nil {
				items = append(items, it)
			} else {
				t.Fatalf("no fix: %s", why)
			}
		}
	}
	if len(items) != n {
		t.Fatalf("%d fixes, want %d", len(items), n)
	}
	for i, why := range validateFixes(f, items) {
		if why != "" {
			t.Errorf("fix %d: %s", i, why)
		}
	}
	if lowerings != 1 {
		t.Errorf("%d lowerings for %d fixes, want 1", lowerings, n)
	}
	// One fix made wrong: it primes at another address.
	bad := *items[7].fix
	bad.TextEdits = append([]analysis.TextEdit(nil), bad.TextEdits...)
	e := &bad.TextEdits[items[7].call]
	e.NewText = []byte(strings.Replace(string(e.NewText), "(u, src)", "(u, src + 64)", 1))
	items[7].fix = &bad
	lowerings = 0
	whys := validateFixes(f, items)
	for i, why := range whys {
		if (i == 7) != (why != "") {
			t.Errorf("fix %d: %q", i, why)
		}
	}
	if lowerings != 2 {
		t.Errorf("%d lowerings with one wrong fix, want 2", lowerings)
	}
}

// TestOffsetMap: the binary-searched map agrees with the edits applied one
// by one, for random non-overlapping edits and every offset.
func TestOffsetMap(t *testing.T) {
	src := strings.Repeat("abcdefghij", 30)
	f := lower(t, "__simd_vf__ void K() {}\n")
	fset := token.NewFileSet()
	tf := fset.AddFile("x", -1, len(src))
	f.Tok, f.Src = tf, []byte(src)
	rng := rand.New(rand.NewPCG(3, 4))
	for range 200 {
		var edits []analysis.TextEdit
		for off := 0; off < len(src); {
			off += rng.IntN(20)
			if off > len(src) {
				break
			}
			n := rng.IntN(4)
			if off+n > len(src) {
				n = 0
			}
			edits = append(edits, analysis.TextEdit{Pos: tf.Pos(off), End: tf.Pos(off + n), NewText: []byte(strings.Repeat("x", rng.IntN(5)))})
			off += n
		}
		rng.Shuffle(len(edits), func(i, j int) { edits[i], edits[j] = edits[j], edits[i] })
		om := NewOffsetMap(f, edits)
		for off := 0; off <= len(src); off++ {
			want, shift := off, 0
			for _, e := range edits {
				a, b := tf.Offset(e.Pos), tf.Offset(e.End)
				switch {
				case b <= off:
					shift += len(e.NewText) - (b - a)
				case a <= off && off < b:
					want = -1
				}
			}
			if want >= 0 {
				want += shift
			}
			if got := om.At(off); got != want {
				t.Fatalf("offset %d: %d, want %d (edits %v)", off, got, want, edits)
			}
		}
	}
}

// validate is validateFixes for one fix whose call is the insertion at
// edits[call] (tests).
func validate(f *ir.File, s Site, fix *analysis.SuggestedFix, hoisted bool) string {
	call := -1
	for k, e := range fix.TextEdits {
		if strings.Contains(string(e.NewText), s.Instr.Name) {
			call = k
		}
	}
	if call < 0 {
		return "the fix inserts no call"
	}
	return validateFixes(f, []*fixItem{{s: s, fix: fix, call: call, hoisted: hoisted}})[0]
}
