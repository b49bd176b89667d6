package cppfront

import (
	"bytes"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/iotest"
)

// naiveMarker is HasVFMarker as first written: one pass per marker.
func naiveMarker(src []byte) bool {
	for _, m := range vfMarkers {
		if bytes.Contains(src, m) {
			return true
		}
	}
	return false
}

// TestHasVFMarkerAnchors: the anchored scan answers as one pass per marker
// would, on every fixture, on every marker at every offset, and on random
// text made of marker pieces.
func TestHasVFMarkerAnchors(t *testing.T) {
	var inputs [][]byte
	for _, p := range seedFiles(t) {
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		inputs = append(inputs, src)
	}
	for _, m := range vfMarkers {
		for _, pad := range []string{"", "x", "__", "Reg", "vector"} {
			inputs = append(inputs, []byte(pad+string(m)+pad), []byte(pad+string(m[:len(m)-1])), []byte(string(m[1:])+pad))
		}
	}
	pieces := []string{"_", "__", "sim", "simd", "_vf", "Reg", "Tensor", "Mask", "vector", "_", "float", "Unalign", " ", "VEC", "SCOPE", "t_", "d_"}
	r := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		var b strings.Builder
		for range r.IntN(12) {
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
		inputs = append(inputs, []byte(b.String()))
	}
	found := 0
	for _, in := range inputs {
		want := naiveMarker(in)
		if got := HasVFMarker(in); got != want {
			t.Errorf("HasVFMarker(%q) = %v, want %v", in, got, want)
		}
		if want {
			found++
		}
	}
	if found == 0 || found == len(inputs) {
		t.Errorf("%d of %d inputs have a marker: the test proves nothing", found, len(inputs))
	}
}

// TestHasVFMarkerReader: a marker is found wherever it falls relative to
// the chunks, also when the reader returns one byte at a time.
func TestHasVFMarkerReader(t *testing.T) {
	const chunk = 4 * 32
	for _, m := range vfMarkers {
		for off := 0; off < 3*chunk; off += 7 {
			src := append(bytes.Repeat([]byte{'x'}, off), m...)
			src = append(src, bytes.Repeat([]byte{'y'}, 50)...)
			if ok, err := HasVFMarkerReader(bytes.NewReader(src), chunk); !ok || err != nil {
				t.Fatalf("%s at %d: %v, %v", m, off, ok, err)
			}
			if ok, err := HasVFMarkerReader(iotest.OneByteReader(bytes.NewReader(src)), chunk); !ok || err != nil {
				t.Fatalf("%s at %d, byte by byte: %v, %v", m, off, ok, err)
			}
			cut := src[:off+len(m)-1]
			if ok, err := HasVFMarkerReader(bytes.NewReader(cut), chunk); ok || err != nil {
				t.Fatalf("%s cut at %d: %v, %v", m, off, ok, err)
			}
		}
	}
	if _, err := HasVFMarkerReader(iotest.ErrReader(os.ErrPermission), chunk); err == nil {
		t.Error("a read error is not returned")
	}
}

// seedFiles returns every fixture of the repository: the front end's, the
// rules' and the example kernels. They seed the fuzz targets.
func seedFiles(t testing.TB) []string {
	t.Helper()
	var out []string
	for _, root := range []string{"testdata", "../analyzers", "../testdata/kernels"} {
		err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() && d.Name() == "fuzz" {
				return filepath.SkipDir // the fuzzer's own corpus is not a fixture
			}
			switch filepath.Ext(path) {
			case ".asc", ".cpp", ".cc", ".h", ".hpp", ".golden":
				if strings.Contains(filepath.ToSlash(path), "/testdata/") || root != "../analyzers" {
					out = append(out, path)
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if len(out) < 10 {
		t.Fatalf("only %d fixtures found", len(out))
	}
	return out
}
