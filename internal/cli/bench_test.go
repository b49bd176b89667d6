package cli

import (
	"bufio"
	"io"
	"os"
	"path/filepath"
	"testing"

	sitter "github.com/tree-sitter/go-tree-sitter"
	tscpp "github.com/tree-sitter/tree-sitter-cpp/bindings/go"

	"github.com/ascvet/ascvet/cppfront"
)

// The speed target of the front end: the whole pipeline (read, marker scan,
// pre-pass, parse, lowering, every analyzer, output) costs at most 1.3x a
// raw tree-sitter parse of the same files. Both benchmarks run on one core
// over the same VF files, so their MB/s compare directly:
//
//	ASCVET_BENCH_FILES=list.txt go test ./internal/cli -run XXX -bench 'RawParse|Pipeline' -benchtime 3x
//
// list.txt holds one path per line (for the figures in the closing note:
// every VF file of the public CANN operator repositories). Without it the
// bundled example kernels are used.

func benchPaths(b *testing.B) ([]string, int64) {
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
		paths, _ = filepath.Glob("../../testdata/kernels/*.asc")
	}
	var kept []string
	var n int64
	for _, p := range paths {
		src, err := os.ReadFile(p)
		if err != nil || !cppfront.HasVFMarker(src) {
			continue
		}
		kept = append(kept, p)
		n += int64(len(src))
	}
	if len(kept) == 0 {
		b.Skip("no VF files")
	}
	return kept, n
}

func BenchmarkRawParse(b *testing.B) {
	paths, n := benchPaths(b)
	b.SetBytes(n)
	p := sitter.NewParser()
	defer p.Close()
	if err := p.SetLanguage(sitter.NewLanguage(tscpp.Language())); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		for _, path := range paths {
			src, err := os.ReadFile(path)
			if err != nil {
				b.Fatal(err)
			}
			p.Parse(src, nil).Close()
		}
	}
}

func BenchmarkPipeline(b *testing.B) {
	paths, n := benchPaths(b)
	b.SetBytes(n)
	args := append([]string{"-j", "1", "-f", "json", "-fail-on", "error"}, paths...)
	for b.Loop() {
		if code := run(args, io.Discard, io.Discard); code != exitOK && code != exitFindings {
			b.Fatalf("exit %d", code)
		}
	}
}
