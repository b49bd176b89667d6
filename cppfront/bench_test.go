package cppfront

import (
	"bufio"
	"go/token"
	"os"
	"path/filepath"
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
