package cppfront

import (
	"go/token"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/ascvet/ascvet/cppfront/ir"
)

// memberFile is a member of Kern defined out of the class, in a file that
// includes nothing but what inc names.
func memberFile(inc, class string) string {
	return inc + `template <typename T, bool det>
__simd_vf__ inline void ` + class + `::Vf(__ubuf__ float* src, uint16_t n)
{
    Reg::RegTensor<float> v;
    Reg::UnalignRegForLoad u;
    for (uint16_t i = 0; i < n; ++i) {
        Reg::LoadUnAlignPre(u, src + i * ROW);
    }
}
`
}

const kernClass = `template <typename T, bool det = false>
class Kern {
    __simd_vf__ inline void Vf(__ubuf__ float* src, uint16_t n);
    static constexpr uint32_t ROW = GetVecLen() / sizeof(float);
};
`

// TestIndexClassHeader checks that a member defined out of its class, in a
// file that does not include the class, takes the class's constants from
// the header of its folder (or the folder above) that defines the class,
// and only from a header that is the one definition of it, with the
// template parameters the member names.
func TestIndexClassHeader(t *testing.T) {
	cases := []struct {
		name  string
		files map[string]string
		want  string
	}{
		{"same folder", map[string]string{
			"op/kern.h":         kernClass,
			"op/kern_compute.h": memberFile("", "Kern<T, det>"),
		}, "src + (i * 64)"},
		{"folder above", map[string]string{
			"op/kern.h":                kernClass,
			"op/arch35/kern_compute.h": memberFile("", "Kern<T, det>"),
		}, "src + (i * 64)"},
		{"through the class header's includes", map[string]string{
			"op/kern.h":         "#include \"rows.h\"\ntemplate <typename T, bool det>\nclass Kern : public Base<T> {\n};\n",
			"op/rows.h":         "constexpr uint32_t ROW = 32;\n",
			"op/kern_compute.h": memberFile("", "Kern<T, det>"),
		}, "src + (i * 32)"},
		{"the nearest folder first", map[string]string{
			"op/kern.h":                kernClass,
			"op/arch35/kern_v2.h":      "template <typename T, bool det>\nclass Kern final {\n    static constexpr uint32_t ROW = 16;\n};\n",
			"op/arch35/kern_compute.h": memberFile("", "Kern<T, det>"),
		}, "src + (i * 16)"},
		{"two headers define it", map[string]string{
			"op/kern.h":         kernClass,
			"op/kern_v2.h":      "template <typename T, bool det>\nclass Kern {\n    static constexpr uint32_t ROW = 72;\n};\n",
			"op/kern_compute.h": memberFile("", "Kern<T, det>"),
		}, "src + (i * ROW)"},
		{"a specialisation", map[string]string{
			"op/kern.h":         kernClass + "template <bool det>\nclass Kern<half, det> {\n    static constexpr uint32_t ROW = 128;\n};\n",
			"op/kern_compute.h": memberFile("", "Kern<T, det>"),
		}, "src + (i * ROW)"},
		{"other template parameters", map[string]string{
			"op/kern.h":         kernClass,
			"op/kern_compute.h": memberFile("", "Kern<det, T>"),
		}, "src + (i * ROW)"},
		{"not in the folder", map[string]string{
			"op/other/kern.h":   kernClass,
			"op/kern_compute.h": memberFile("", "Kern<T, det>"),
		}, "src + (i * ROW)"},
		{"the includes define it", map[string]string{
			"op/kern.h":         kernClass,
			"op/inc/kern.h":     "template <typename T, bool det>\nstruct Kern {\n    static constexpr uint32_t ROW = 8;\n};\n",
			"op/kern_compute.h": memberFile("#include \"inc/kern.h\"\n", "Kern<T, det>"),
		}, "src + (i * 8)"},
		{"only declared", map[string]string{
			"op/kern.h":         "template <typename T, bool det>\nclass Kern;\nconstexpr uint32_t ROW = 64;\n",
			"op/kern_compute.h": memberFile("", "Kern<T, det>"),
		}, "src + (i * ROW)"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := writeTree(t, c.files)
			var name string
			for p := range c.files {
				if filepath.Base(p) == "kern_compute.h" {
					name = filepath.Join(dir, filepath.FromSlash(p))
				}
			}
			src, err := os.ReadFile(name)
			if err != nil {
				t.Fatal(err)
			}
			f, err := ParseFileOptions(token.NewFileSet(), name, src, Options{Index: NewIndex()})
			if err != nil {
				t.Fatal(err)
			}
			if len(f.Funcs) != 1 {
				t.Fatalf("%d functions", len(f.Funcs))
			}
			for _, in := range f.Funcs[0].Instrs {
				if in.Op == ir.OpLoadUnAlignPre {
					if got := in.Args[1].Expr.String(); got != c.want {
						t.Errorf("Pre address %s, want %s", got, c.want)
					}
				}
			}
		})
	}
}

// TestScanClasses checks what counts as a class definition.
func TestScanClasses(t *testing.T) {
	text := `template <typename T, class U = Def<T>, int N = 4>
class A : public B<U> {
};
enum class E { X };
class F;
struct G final { int x; };
template <class T> struct H<T*> { };
template <class T> struct H { };
struct I* p;
struct J { struct K { }; };
`
	got := scanClasses(text)
	want := map[string]classDef{
		"A": {tparams: []string{"T", "U", "N"}},
		"G": {},
		"H": {tparams: []string{"T"}, twice: true}, // a specialisation, then the primary template
		"J": {},
		"K": {},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("scanClasses:\n%v\nwant\n%v", got, want)
	}
}
