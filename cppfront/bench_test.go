package cppfront

import (
	"bufio"
	"fmt"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	sitter "github.com/tree-sitter/go-tree-sitter"

	"github.com/ascvet/ascvet/cppfront/internal/tsutil"
)

// benchFiles returns the files to benchmark: the list named by
// ASCVET_BENCH_FILES (one path per line, e.g. the public CANN operator
// repositories), or the bundled example kernels and fixtures.
func benchFiles(b *testing.B) [][]byte {
	var paths []string
	if list := os.Getenv("ASCVET_BENCH_FILES"); list != "" {
		f, err := os.Open(list)
		if err != nil {
			b.Fatal(err)
		}
		defer f.Close()
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			paths = append(paths, sc.Text())
		}
	} else {
		for _, pat := range []string{"../testdata/kernels/*", "testdata/*.asc", "testdata/*.cpp"} {
			m, _ := filepath.Glob(pat)
			paths = append(paths, m...)
		}
	}
	var srcs [][]byte
	for _, p := range paths {
		if src, err := os.ReadFile(p); err == nil && HasVFMarker(src) {
			srcs = append(srcs, src)
		}
	}
	if len(srcs) == 0 {
		b.Skip("no VF files to benchmark")
	}
	return srcs
}

// parseLoop parses texts with tree-sitter-cpp on every benchmark
// iteration, closing each tree: the benchmarks' floor.
func parseLoop(b *testing.B, texts [][]byte) {
	parseLoopWith(b, texts, func(p *sitter.Parser, src []byte) *sitter.Tree { return p.Parse(src, nil) })
}

// parseLoopWith is parseLoop with the parse call given.
func parseLoopWith(b *testing.B, texts [][]byte, parse func(*sitter.Parser, []byte) *sitter.Tree) {
	p := sitter.NewParser()
	defer p.Close()
	if err := p.SetLanguage(language); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		for _, src := range texts {
			parse(p, src).Close()
		}
	}
}

func totalBytes(srcs [][]byte) int64 {
	var n int64
	for _, s := range srcs {
		n += int64(len(s))
	}
	return n
}

// BenchmarkRawParse is the floor: tree-sitter-cpp parsing the same files,
// with nothing done with the tree.
func BenchmarkRawParse(b *testing.B) {
	srcs := benchFiles(b)
	b.SetBytes(totalBytes(srcs))
	parseLoop(b, srcs)
}

// BenchmarkParseFile is the front end: pre-pass, parse, and lowering of
// every VF region into the IR.
func BenchmarkParseFile(b *testing.B) {
	srcs := benchFiles(b)
	b.SetBytes(totalBytes(srcs))
	for b.Loop() {
		fset := token.NewFileSet()
		for _, src := range srcs {
			if _, err := ParseFile(fset, "bench.cpp", src); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkRawParseBlanked parses the pre-passed bytes: the part of the
// front end's cost that is tree-sitter's alone.
func BenchmarkRawParseBlanked(b *testing.B) {
	srcs := benchFiles(b)
	clean := make([][]byte, len(srcs))
	for i, s := range srcs {
		clean[i], _ = prepass(s)
	}
	b.SetBytes(totalBytes(srcs))
	parseLoop(b, clean)
}

// BenchmarkParseFileWhole is BenchmarkParseFile with every file parsed
// whole (no body blanked, see lazy.go): what the lazy parse saves.
func BenchmarkParseFileWhole(b *testing.B) {
	defer func(w bool) { parseWhole = w }(parseWhole)
	parseWhole = true
	BenchmarkParseFile(b)
}

// BenchmarkRawParseLazy parses what the lazy front end gives tree-sitter:
// the pre-passed bytes with the bodies lowering never reads blanked.
func BenchmarkRawParseLazy(b *testing.B) {
	srcs := benchFiles(b)
	texts := make([][]byte, len(srcs))
	for i, s := range srcs {
		clean, blanks := prepass(s)
		texts[i] = clean
		if p := planLazy(lexText(clean), blanks, nil); p != nil {
			texts[i] = p.text
		}
	}
	b.SetBytes(totalBytes(srcs))
	parseLoop(b, texts)
}

// BenchmarkRawParseInPlace is BenchmarkRawParse through tsutil.Parse, as
// the front end parses: the text handed to tree-sitter in place rather
// than copied by go-tree-sitter's read callback.
func BenchmarkRawParseInPlace(b *testing.B) {
	srcs := benchFiles(b)
	b.SetBytes(totalBytes(srcs))
	parseLoopWith(b, srcs, func(p *sitter.Parser, src []byte) *sitter.Tree { return tsutil.Parse(p, src, time.Time{}) })
}

// BenchmarkNoAnalysedRegion times the RegionsOnly shortcut on texts an
// attacker might write: many __simt_vf__ markers in one function's header,
// and many register types in prototypes, 5,000 and 20,000 of each. It
// reports ns/marker, which stays flat as the count grows (a second look at
// one block for each of its markers made the time grow with the square of
// the count: 50,000 markers in a 600 KB header took a minute):
//
//	go test ./cppfront -run XXX -bench NoAnalysedRegion
func BenchmarkNoAnalysedRegion(b *testing.B) {
	for _, n := range []int{5000, 20000} {
		for _, c := range []struct{ name, src string }{
			{"simt-header", strings.Repeat("__simt_vf__ ", n) + "inline void K(int* x) { x[0] = 0; }\n"},
			{"prototypes", strings.Repeat("__simd_callee__ void P(AscendC::MicroAPI::RegTensor<float>& r);\n", n) + "inline int F() { return 0; }\n"},
		} {
			b.Run(fmt.Sprintf("%s/markers=%d", c.name, n), func(b *testing.B) {
				clean, blanks := prepass([]byte(c.src))
				for b.Loop() {
					if !noAnalysedRegion(lexText(clean), blanks) {
						b.Fatal("a region found")
					}
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/marker")
			})
		}
	}
}

// BenchmarkOrphans lowers a file of many small VF functions that ends in a
// parse error, so that every marker is checked for a region lost to it
// (lowerOrphans): 2,000 and 8,000 functions. It reports ns/function, which
// stays flat as the count grows (each marker used to be checked against
// every region: a quarter of a 20,000-function file's lowering was that):
//
//	go test ./cppfront -run XXX -bench Orphans
func BenchmarkOrphans(b *testing.B) {
	for _, n := range []int{2000, 8000} {
		b.Run(fmt.Sprintf("functions=%d", n), func(b *testing.B) {
			src := []byte(strings.Repeat("__simd_vf__ void f(__ubuf__ float* x) { AscendC::MicroAPI::RegTensor<float> r; }\n", n) + "void g( {\n")
			for b.Loop() {
				f, err := ParseFile(token.NewFileSet(), "o.asc", src)
				if err != nil || len(f.Funcs) != n {
					b.Fatalf("%d regions (%v), want %d", len(f.Funcs), err, n)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/function")
		})
	}
}
