package cppfront

import (
	"bytes"
	"errors"
	"go/token"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/ascvet/ascvet/cppfront/ir"
)

// addSeeds adds every fixture of the repository (see seedFiles), cut into
// pieces (seedPieces), and a few hostile shapes to the corpus of f. Without
// -fuzz, go test runs just these (and testdata/fuzz/<Target>, the
// regressions the fuzzer found).
//
// Small seeds keep the runs fast and the fuzzer's minimisation of every
// input that finds new coverage short (it tries n^2/2 removals; see
// fuzzopt.MinimizeRuns): seeded with whole fixtures of up to 19 KB, a worker
// managed a few hundred runs a second, and none while it minimised.
func addSeeds(f *testing.F) {
	for _, p := range seedFiles(f) {
		src, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		for _, piece := range seedPieces(src) {
			f.Add(piece)
		}
	}
	for _, s := range []string{
		"__simd_vf__ void f() { for (;;) { Reg::LoadAlign(x, y); } }",
		"__VEC_SCOPE__ { if ASC_IS_AIV { obj.template F(x); } }",
		"\xEF\xBB\xBF__simd_vf__ void f() {\r  Reg::LoadAlign(x, y);\r}\r",
		"__simd_vf__ void f() {\r\n  Reg::LoadAlign(x, y);\r\n}\r\n",
		"__simd_vf__ void f() " + strings.Repeat("{", 300) + strings.Repeat("}", 299),
		"__simd_vf__ void f() { x = a" + strings.Repeat("+a", 500) + "; }",
		"__simd_vf__ void f(\xff\xfe) { Reg::LoadAlign(\x00, y); LAUNCH_BOUND((( }",
		"#define LocalMem __ubuf__\n__simd_callee__ void f(LocalMem T* p) { R\"x( }} )x\"; }",
		"#define F(x) F(x) x\n#define G F(G)\n__simd_vf__ void f() { F(F(1)); G; }",
		"#define A(x, ...) x##__VA_ARGS__ #x\n__VEC_SCOPE__ { A(,) A(a, b, c) A( }",
		"#define B {\n#define E }\n#define P(a) a##\n__simd_vf__ void f() B E E P(1) P() }",
	} {
		f.Add([]byte(s))
	}
}

// maxSeed is the size seedPieces packs a fixture's paragraphs up to, and
// maxFuzzInput the largest input FuzzParseFile runs (a big file is the
// business of the limit tests and of BenchmarkHugeFile).
const (
	maxSeed      = 2 << 10
	maxFuzzInput = 16 << 10
)

// seedPieces cuts a fixture into pieces of about maxSeed bytes at its
// top-level paragraphs (a blank line, then a line that starts at column 0
// and does not close a brace), each after the file's opening paragraphs
// that hold no brace (includes, constants, macros).
func seedPieces(src []byte) [][]byte {
	var paras [][]byte
	for rest := src; len(rest) > 0; {
		cut := len(rest)
		for i := 0; i+2 < len(rest); i++ {
			if rest[i] == '\n' && rest[i+1] == '\n' && !strings.ContainsRune(" \t\n}", rune(rest[i+2])) {
				cut = i + 2
				break
			}
		}
		paras = append(paras, rest[:cut])
		rest = rest[cut:]
	}
	var header []byte
	for len(paras) > 0 && !bytes.ContainsRune(paras[0], '{') {
		header = append(header, paras[0]...)
		paras = paras[1:]
	}
	var out [][]byte
	cur := bytes.Clone(header)
	for _, p := range paras {
		if len(cur) > len(header) && len(cur)+len(p) > maxSeed {
			out = append(out, cur)
			cur = bytes.Clone(header)
		}
		cur = append(cur, p...)
	}
	if len(cur) > len(header) || len(out) == 0 {
		out = append(out, cur)
	}
	return out
}

// TestSeedPieces: the pieces of every fixture hold all its lines and fit
// maxFuzzInput, and the fixtures do split.
func TestSeedPieces(t *testing.T) {
	pieces, files := 0, seedFiles(t)
	for _, p := range files {
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		ps := seedPieces(src)
		pieces += len(ps)
		for _, l := range bytes.Split(src, []byte("\n")) {
			if !slices.ContainsFunc(ps, func(piece []byte) bool { return bytes.Contains(piece, l) }) {
				t.Errorf("%s: line %q is in no piece", p, l)
			}
		}
		for _, piece := range ps {
			if len(piece) > maxFuzzInput {
				t.Errorf("%s: a piece of %d bytes, over maxFuzzInput", p, len(piece))
			}
		}
	}
	if pieces < 2*len(files) {
		t.Errorf("%d fixtures in %d pieces", len(files), pieces)
	}
}

// FuzzParseFile: no input panics or hangs the front end, and the IR it
// produces always verifies.
func FuzzParseFile(f *testing.F) {
	addSeeds(f)
	f.Add([]byte(condKernel))
	f.Fuzz(func(t *testing.T, src []byte) {
		if len(src) > maxFuzzInput {
			return
		}
		fset := token.NewFileSet()
		file, err := ParseFile(fset, "fuzz.asc", src)
		if err != nil {
			var le *LimitError
			if !errors.As(err, &le) {
				t.Fatalf("ParseFile: %v", err)
			}
			return
		}
		for _, e := range ir.Verify(file) {
			t.Fatalf("Verify: %v", e)
		}
	})
}

// FuzzPrepass: the pre-pass never panics and never moves a byte: the output
// has the input's length, every blank lies in the file, in order, records
// what was there and is white space in the output. The marker scan agrees
// with the naive one, and the nesting count does not panic.
func FuzzPrepass(f *testing.F) {
	addSeeds(f)
	f.Add([]byte(condKernel))
	f.Add([]byte("#define M 2\n#if M == 2 && !defined(X) || 0\na;\n#elif 1\nb;\n#else\nc;\n#endif\n#ifndef G\n#define G\n#endif\n"))
	f.Fuzz(func(t *testing.T, src []byte) {
		orig := bytes.Clone(src)
		out, blanks, toks := prepassLexed(src)
		if !bytes.Equal(src, orig) {
			t.Fatal("prepass changed its input")
		}
		if len(out) != len(src) {
			t.Fatalf("length %d, want %d", len(out), len(src))
		}
		prev := 0
		for _, b := range blanks {
			if b.start < prev || b.end < b.start || b.end > len(src) {
				t.Fatalf("blank [%d,%d) out of order or out of the file (previous end %d, size %d)", b.start, b.end, prev, len(src))
			}
			if b.text != string(src[b.start:b.end]) {
				t.Fatalf("blank [%d,%d) records %q, the file has %q", b.start, b.end, b.text, src[b.start:b.end])
			}
			if strings.Trim(string(out[b.start:b.end]), " \n\r") != "" {
				t.Fatalf("blank [%d,%d) is %q in the output", b.start, b.end, out[b.start:b.end])
			}
			prev = b.end
		}
		if bytes.HasPrefix(src, utf8BOM) && string(out[:3]) != "   " {
			t.Fatalf("BOM not blanked: %q", out[:3])
		}
		for i, c := range out {
			if c == '\r' && (i+1 == len(out) || out[i+1] != '\n') {
				t.Fatalf("lone CR left at %d", i)
			}
		}
		if got, want := HasVFMarker(src), naiveMarker(src); got != want {
			t.Fatalf("HasVFMarker %v, one pass per marker %v", got, want)
		}
		// The tokens the pre-pass read, less those it blanked, are the
		// tokens of its output (or it lexed that again).
		if want := lexText(out); !slices.Equal(toks.toks, want.toks) {
			t.Fatalf("the pre-pass's tokens are not its output's:\n got %v\nwant %v", toks.toks, want.toks)
		}
		_ = toks.nesting()
	})
}
