package cppfront

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
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
// lowers to the same IR parsed lazily as parsed whole, and enough of them
// have bodies blanked for this to mean something.
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
	if st.lazy-st.fellBack < 20 {
		t.Errorf("only %d of %d files parsed lazily", st.lazy-st.fellBack, st.files)
	}
	t.Log(st)
}

// TestLazyCorpus is TestLazyLowersTheSame over a tree of real kernels,
// when ASCVET_CORPUS names one (the public CANN repositories):
//
//	ASCVET_CORPUS=/work/corpus go test ./cppfront -run LazyCorpus
func TestLazyCorpus(t *testing.T) {
	dir := os.Getenv("ASCVET_CORPUS")
	if dir == "" {
		t.Skip("ASCVET_CORPUS is not set")
	}
	var st lazyStats
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
		if err != nil || !HasVFMarker(src) {
			return err
		}
		compareLazy(t, p, src, &st)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Log(st)
}
