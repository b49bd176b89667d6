package cli

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/ascvet/ascvet/internal/vfgen"
)

// BenchmarkHugeFile runs ascvet, cache off, with its default -j (the CPUs, which a file
// alone gives to its analyzers) over one generated VF file (vfgen.Huge) of
// each size, with the size and time limits lifted:
//
//	go test ./internal/cli -run XXX -bench HugeFile -benchtime 1x
//
// Its MB/s should not fall as the size grows (linear time: the issue asks
// the 4, 16 and 32 MiB files within 20% of each other); besides
// ns/op it reports the peak of the Go heap during a run.
func BenchmarkHugeFile(b *testing.B) {
	for _, mb := range hugeBenchSizes {
		b.Run(fmt.Sprintf("%dMB", mb), func(b *testing.B) {
			path := filepath.Join(b.TempDir(), "huge.asc")
			src := vfgen.Huge(mb << 20)
			if err := os.WriteFile(path, src, 0o644); err != nil {
				b.Fatal(err)
			}
			b.SetBytes(int64(len(src)))
			runtime.GC()
			peak := sampleHeap()
			for b.Loop() {
				if code := run([]string{"-cache", "off", "-f", "json", "-max-file-size", "0", "-file-timeout", "0", path}, io.Discard, io.Discard); code != exitOK && code != exitFindings {
					b.Fatalf("exit %d", code)
				}
			}
			b.ReportMetric(float64(peak())/(1<<20), "peak-heap-MB")
		})
	}
}

// hugeBenchSizes are the sizes of BenchmarkHugeFile, in MiB.
var hugeBenchSizes = []int{4, 16, 32}
