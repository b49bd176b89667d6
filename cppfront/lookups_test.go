package cppfront

import (
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestLookupsHold: every lookup a lowering depended on (an include, the
// header of a class, the files of a folder that include the file) is in
// Consulted, holds while the tree is as it was, and stops holding, after
// Refresh, when a file created later changes its answer: a missing
// include created, a header defining the class added to the folder, a
// file of the folder that comes to include the helper's header.
func TestLookupsHold(t *testing.T) {
	cases := []struct {
		name   string
		files  map[string]string
		file   string // the file lowered
		kind   string // the lookup that must change
		create string // the file created
		text   string
	}{
		{"include", map[string]string{
			"op/k.asc": "#include \"later.h\"\n__simd_vf__ inline void K(__ubuf__ float* src) { Reg::RegTensor<float> v; Reg::LoadAlign(v, src + ROW); }\n",
		}, "op/k.asc", lookupInclude, "op/later.h", "constexpr uint32_t ROW = 64;\n"},
		{"include of an ancestor, shadowed", map[string]string{
			"include/rows.h": "constexpr uint32_t ROW = 64;\n",
			"op/k.asc":       "#include \"rows.h\"\n__simd_vf__ inline void K(__ubuf__ float* src) { Reg::RegTensor<float> v; Reg::LoadAlign(v, src + ROW); }\n",
		}, "op/k.asc", lookupInclude, "op/rows.h", "constexpr uint32_t ROW = 68;\n"},
		{"class", map[string]string{
			"op/kern_compute.h": memberFile("", "Kern<T, det>"),
		}, "op/kern_compute.h", lookupClass, "op/kern.h", kernClass},
		{"includers", map[string]string{
			"op/common.h": siblingHeader,
		}, "op/common.h", lookupIncluders, "op/update.h", "#include \"common.h\"\n__simd_vf__ inline void K(__ubuf__ float* dst) { Reg::RegTensor<float> x, y; Reg::MaskReg m; Step(y, x, m); }\n"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := writeTree(t, c.files)
			name := filepath.Join(dir, filepath.FromSlash(c.file))
			src, err := os.ReadFile(name)
			if err != nil {
				t.Fatal(err)
			}
			ix := NewIndex()
			if _, err := ParseFileOptions(token.NewFileSet(), name, src, Options{Index: ix}); err != nil {
				t.Fatal(err)
			}
			deps := ix.Consulted(name)
			var looks []Dep
			for _, d := range deps {
				if strings.HasPrefix(d.Lookup, c.kind) {
					looks = append(looks, d)
				}
				if !filepath.IsAbs(d.Path) {
					t.Errorf("dependency %q %q: path not absolute", d.Path, d.Lookup)
				}
			}
			if len(looks) == 0 {
				t.Fatalf("no %s lookup among the dependencies %v", c.kind, deps)
			}
			holds := func() bool {
				return !slices.ContainsFunc(deps, func(d Dep) bool { return d.Lookup != "" && !ix.Holds(d) })
			}
			if !holds() {
				t.Error("a lookup does not hold on the tree it was made on")
			}
			write(t, filepath.Join(dir, filepath.FromSlash(c.create)), c.text)
			ix.Refresh()
			if holds() {
				t.Errorf("%s created: every lookup still holds", c.create)
			}
		})
	}
	if new(Index).Holds(Dep{Path: "/x", Lookup: "unknown:y"}) {
		t.Error("a lookup of an unknown kind holds")
	}
}
