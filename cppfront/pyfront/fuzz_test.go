package pyfront

import (
	"bytes"
	"errors"
	"go/token"
	"os"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ascvet/ascvet/cppfront"
	"github.com/ascvet/ascvet/cppfront/ir"
)

// FuzzParseFile: no input panics or hangs the front end, and the IR it
// produces always verifies. Each top-level definition of the fixtures (with
// the imports before it) and a few hostile shapes seed it.
//
// The seeds are small, and inputs over maxFuzzInput are skipped, because
// the fuzzer minimises every input that finds new coverage, trying the
// removal of every run of bytes: n^2/2 runs of the target, for up to
// -fuzzminimizetime (a minute) per input. Seeded with whole fixtures
// (2.5-5.4 KB, a few ms a run), a worker spent its first minute minimising
// one input: 20 runs in a minute.
func FuzzParseFile(f *testing.F) {
	for _, p := range fixtures(f) {
		src, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		for _, piece := range definitions(src) {
			f.Add(piece)
		}
	}
	for _, s := range []string{
		"@pl.vector_function\ndef k(a):\n    for i in pl.range(",
		"@pl.vector_function\ndef k(a):\n    x, = vf.load_align(a, dist=pl.LoadDist.DINTLV_B8)\n",
		"@pl.vector_function\ndef k(a):\n    x = vf.load_align(*a, **b)\n    vf.store_align(a, x, x, x, x, x)\n",
		"@pl.vector_function\ndef k(a):\n    a = b = vf.add(vf.add(a, a, a), vf.bit_cast(a), a)\n",
		"@pl.vector_function\ndef k():\n    vf.store_unalign(vf.load_unalign_init(), vf.unalign_reg_for_store())\n",
		"@pl.vector_function\ndef k(a):\n\tif a:\n\t\treturn vf.create_mask()\n\telif b:\n\t\tpass\n\telse:\n\t\twhile 1: vf.mem_bar()\n",
		"\xEF\xBB\xBF@pl.vector_function\rdef k(a):\r    x = vf.load_align(a, 0)\r",
		"@pl.vector_function\ndef k(a):\n    x = " + strings.Repeat("(", 200) + "a" + strings.Repeat(")", 200) + "\n",
		"@pl.vector_function\ndef k(a):\n    x = a" + strings.Repeat(" + a", 500) + "\n",
		"@pl.vector_function\ndef k(\xff\xfe):\n    vf.\x00(\n",
		"@pl.vector_function(mode='simt')\nclass C:\n    @pl.vector_function\n    def k(self): vf.clear_spr()\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		if len(src) > maxFuzzInput {
			return
		}
		fset := token.NewFileSet()
		file, err := ParseFile(fset, "fuzz.py", src)
		if err != nil {
			var le *cppfront.LimitError
			if !errors.As(err, &le) {
				t.Fatalf("ParseFile: %v", err)
			}
			return
		}
		for _, e := range verifyAll(file) {
			t.Fatalf("Verify: %v", e)
		}
	})
}

// maxFuzzInput is the largest input FuzzParseFile runs: a few vector
// functions. Bigger files are TestLimits' and the golden tests' business.
const maxFuzzInput = 4 << 10

// definitions splits a Python file into its top-level definitions (a def
// or class with its decorators), each after the file's lines before the
// first of them (imports, constants).
func definitions(src []byte) [][]byte {
	lines := bytes.SplitAfter(src, []byte("\n"))
	starts := func(l []byte) bool {
		return bytes.HasPrefix(l, []byte("@")) || bytes.HasPrefix(l, []byte("def ")) || bytes.HasPrefix(l, []byte("class "))
	}
	var header []byte
	var out [][]byte
	var cur []byte
	for i, l := range lines {
		if starts(l) && (i == 0 || !bytes.HasPrefix(lines[i-1], []byte("@"))) {
			if cur != nil {
				out = append(out, cur)
			}
			cur = slices.Clone(header)
		}
		if cur == nil {
			header = append(header, l...)
		} else {
			cur = append(cur, l...)
		}
	}
	if cur != nil {
		out = append(out, cur)
	}
	return out
}

// TestDefinitions: the fixtures split into seeds that fit maxFuzzInput,
// each a definition after the header, and all together hold every line.
func TestDefinitions(t *testing.T) {
	n := 0
	for _, p := range fixtures(t) {
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		defs := definitions(src)
		if len(defs) < 2 {
			t.Errorf("%s: %d definitions", p, len(defs))
		}
		for _, d := range defs {
			n++
			if len(d) > maxFuzzInput {
				t.Errorf("%s: a definition of %d bytes, over maxFuzzInput", p, len(d))
			}
			for _, l := range bytes.SplitAfter(d, []byte("\n")) {
				if !bytes.Contains(src, l) {
					t.Errorf("%s: seed line %q is not in the file", p, l)
				}
			}
		}
		for _, l := range bytes.Split(src, []byte("\n")) {
			if !slices.ContainsFunc(defs, func(d []byte) bool { return bytes.Contains(d, l) }) {
				t.Errorf("%s: line %q is in no seed", p, l)
			}
		}
	}
	if n < 15 {
		t.Errorf("%d seeds from the fixtures", n)
	}
}

// TestLimits checks that a file nested deeper than MaxDepth, or one that
// takes longer than Timeout, is refused with a LimitError, and that a file
// within the limits lowers.
func TestLimits(t *testing.T) {
	deep := "@pl.vector_function\ndef k(a):\n    x = " + strings.Repeat("[", 50) + strings.Repeat("]", 50) + "\n"
	fset := token.NewFileSet()
	f, err := ParseFileOptions(fset, "deep.py", []byte(deep), cppfront.Options{MaxDepth: 20})
	var le *cppfront.LimitError
	if !errors.As(err, &le) || le.Limit != "depth" || len(f.Funcs) != 0 || f.Tok == nil {
		t.Errorf("depth 50 with MaxDepth 20: err %v, %d regions", err, len(f.Funcs))
	}
	// Brackets in strings and comments do not count.
	quiet := "@pl.vector_function\ndef k(a):\n    s = '" + strings.Repeat("(", 50) + "'  # " + strings.Repeat("[", 50) +
		"\n    t = \"\"\"" + strings.Repeat("{", 50) + "\"\"\"\n"
	if _, err := ParseFileOptions(token.NewFileSet(), "quiet.py", []byte(quiet), cppfront.Options{MaxDepth: 20}); err != nil {
		t.Errorf("brackets in literals counted: %v", err)
	}
	if d := nesting([]byte(quiet)); d != 1 {
		t.Errorf("nesting = %d, want 1", d)
	}
	var big strings.Builder
	big.WriteString("@pl.vector_function\ndef k(a):\n")
	for i := 0; i < 10000; i++ {
		big.WriteString("    x = vf.add(vf.load_align(a, 64), x, m)\n")
	}
	_, err = ParseFileOptions(token.NewFileSet(), "big.py", []byte(big.String()), cppfront.Options{Timeout: time.Microsecond})
	if !errors.As(err, &le) || le.Limit != "timeout" {
		t.Errorf("a 450 kB file in 1µs: err %v, want a timeout LimitError", err)
	}
	f, err = ParseFileOptions(token.NewFileSet(), "big.py", []byte(big.String()), cppfront.Options{Timeout: time.Minute})
	if err != nil || len(f.Funcs) != 1 || len(f.Funcs[0].Instrs) != 20000 {
		t.Errorf("a 450 kB file in a minute: err %v", err)
	}
	// A parse stopped from outside is not over a limit: ErrStopped, even
	// past the deadline too; a flag never set changes nothing.
	set := new(atomic.Bool)
	set.Store(true)
	for _, opts := range []cppfront.Options{{Stop: set}, {Stop: set, Timeout: time.Microsecond}} {
		f, err = ParseFileOptions(token.NewFileSet(), "big.py", []byte(big.String()), opts)
		if !errors.Is(err, cppfront.ErrStopped) || errors.As(err, &le) || len(f.Funcs) != 0 {
			t.Errorf("stopped, timeout %v: err %v, %d regions; want ErrStopped and none", opts.Timeout, err, len(f.Funcs))
		}
	}
	bud := &budget{stop: set}
	func() {
		defer func() {
			if _, ok := recover().(overTime); !ok {
				t.Error("tick does not stop a stopped lowering")
			}
		}()
		for range 1000 {
			bud.tick()
		}
	}()
	f, err = ParseFileOptions(token.NewFileSet(), "big.py", []byte(big.String()), cppfront.Options{Stop: new(atomic.Bool)})
	if err != nil || len(f.Funcs) != 1 || len(f.Funcs[0].Instrs) != 20000 {
		t.Errorf("a flag never set: err %v", err)
	}
}

// TestDSLNames checks that every function of pypto_pro's Vf namespace
// (python/pypto_pro/language/_vf_api.py) is in the op table, and that the
// DSL's dtypes and dist modes map to what the C++ side records.
func TestDSLNames(t *testing.T) {
	api := strings.Fields(`create_mask update_mask full load_align store_align store_unalign store_unalign_post
		unalign_reg_for_store mem_bar max add sub mul div muls mul_add_dst and_ or_ xor reduce_sum reduce_max reduce_min
		ln exp_sub astype de_interleave select shift_left shift_right histograms eq ne lt gt le ge squeeze arange gather
		clear_spr log min exp abs not_ sqrt relu neg adds subs mins maxs leaky_relu interleave pair_reduce_sum abs_sub axpy
		bit_cast mul_dst_add pack unpack prelu mull addc subc load_unalign_init load_unalign_pre load_unalign scatter
		unsqueeze get_mask_spr log2 log10 muls_cast load store truncate mask_gen_with_reg_tensor create_addr_reg move`)
	for _, n := range api {
		if !ir.IsDSLName(n) {
			t.Errorf("vf.%s is not in the op table", n)
		}
	}
	if len(ir.DSLNames()) != len(api) {
		t.Errorf("the table has %d names, the API %d", len(ir.DSLNames()), len(api))
	}
	for in, want := range map[string]string{"DT_FP32": "float", "DT_FP16": "half", "DT_BF16": "bfloat16_t", "DT_INT64": "int64_t",
		"DT_UINT8": "uint8_t", "DT_HF8": "hifloat8_t", "FP32": "float"} {
		if got, ok := ir.DSLDType(in); !ok || got != want {
			t.Errorf("DSLDType(%s) = %q, %v", in, got, ok)
		}
	}
	for _, c := range []struct {
		in   string
		size int64
		mask bool
		want string
	}{
		{"LoadDist.NORM", 4, false, "DIST_NORM"}, {"LoadDist.BRC", 2, false, "DIST_BRC_B16"}, {"LoadDist.BRC", 0, false, "DIST_BRC"},
		{"LoadDist.BRC_B32", 1, false, "DIST_BRC_B32"}, {"LoadDist.UNPK", 1, false, "DIST_UNPACK_B8"}, {"UNPK_B16", 0, false, "DIST_UNPACK_B16"},
		{"LoadDist.UNPK4", 0, false, "DIST_UNPACK4_B8"}, {"LoadDist.DS", 4, true, "DIST_DS"}, {"StoreDist.PACK", 2, true, "DIST_PACK"},
		{"StoreDist.PACK", 4, false, "DIST_PACK_B32"}, {"StoreDist.FIRST_ELEMENT", 8, false, "DIST_FIRST_ELEMENT_B64"},
		{"StoreDist.NORM_B16", 4, false, "DIST_NORM_B16"}, {"StoreDist.PACK4", 0, false, "DIST_PACK4_B32"}, {"LoadDist.BLK", 4, false, "DIST_BLK"},
	} {
		if got := ir.DSLDist(c.in, c.size, c.mask); got != c.want {
			t.Errorf("DSLDist(%s, %d, %v) = %s, want %s", c.in, c.size, c.mask, got, c.want)
		}
	}
}

// BenchmarkParseFile measures parse and lowering throughput over the fixtures.
func BenchmarkParseFile(b *testing.B) {
	var srcs [][]byte
	n := 0
	for _, p := range fixtures(b) {
		src, err := os.ReadFile(p)
		if err != nil {
			b.Fatal(err)
		}
		srcs = append(srcs, src)
		n += len(src)
	}
	b.SetBytes(int64(n))
	for b.Loop() {
		for _, src := range srcs {
			if _, err := ParseFile(token.NewFileSet(), "b.py", src); err != nil {
				b.Fatal(err)
			}
		}
	}
}
