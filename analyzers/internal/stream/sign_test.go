package stream

import (
	"fmt"
	"strings"
	"testing"

	"github.com/ascvet/ascvet/analyzers/internal/linear"
	"github.com/ascvet/ascvet/cppfront/ir"
	"github.com/ascvet/ascvet/simcheck/replay"
)

// TestSignBounds checks the bounds of runtime offsets.
func TestSignBounds(t *testing.T) {
	f := lower(t, `__simd_vf__ inline void K(__ubuf__ float* x, uint32_t a, int32_t s, uint16_t n, uint16_t m)
{
    uint32_t b = a + 1;
    for (uint16_t j = 0; j < m; j++) {
        for (uint16_t i = 2; i < n; i++) {
            Reg::LoadUnAlignPre(u, x + i);
        }
    }
}
`)
	fn := f.Funcs[0]
	sg := newSigns(fn, fn.Loops[1], 0)
	form := func(terms map[string]int64, c int64) linear.Form {
		return linear.Form{Terms: terms, C: c}
	}
	cases := []struct {
		d          linear.Form
		up, lo     int64
		upOK, loOK bool
	}{
		{form(map[string]int64{"a": -2, "b": -1}, 3), 3, 0, true, false},                  // unsigned names
		{form(map[string]int64{"a": 1, "s": -1}, 0), 0, 0, false, false},                  // a signed name
		{form(map[string]int64{"n": 4, "i": -4}, -1), 0, 3, false, true},                  // i < n: n - i >= 1
		{form(map[string]int64{"i": -3}, 0), -6, 0, true, false},                          // i >= 2
		{form(map[string]int64{"i": 1, "j": 1, "n": -1, "m": -1}, 0), -2, 0, true, false}, // both loops
		{form(map[string]int64{"x": -1}, 0), 0, 0, false, false},                          // a pointer
		{form(map[string]int64{"k": -1}, 0), 0, 0, false, false},                          // not declared
		{form(map[string]int64{"(a * a)": -1}, 0), 0, 0, false, false},                    // an atom
	}
	for _, c := range cases {
		u, uok := sg.upper(c.d)
		l, lok := sg.lower(c.d)
		if uok != c.upOK || uok && u != c.up || lok != c.loOK || lok && l != c.lo {
			t.Errorf("%v: upper %d %v, lower %d %v; want %d %v, %d %v", c.d, u, uok, l, lok, c.up, c.upOK, c.lo, c.loOK)
		}
	}
}

// TestSignedOffsetsKeepData checks the kernels whose store offsets need
// the sign reasoning on the byte-exact UB model: where the verdict is
// contiguous, the loop with the Pre hoisted writes the same UB bytes for
// every binding tried; the signed and unrelated-count variants are refused,
// and some binding shows why.
func TestSignedOffsetsKeepData(t *testing.T) {
	const head = "__simd_vf__ inline void K(__ubuf__ float* dst, __ubuf__ float* src, __ubuf__ float* out, uint32_t first, %s inOff, uint16_t tail, uint16_t n, uint16_t half)\n{\n" +
		"    Reg::RegTensor<float> v;\n    Reg::UnalignRegForLoad u;\n"
	kernels := []struct {
		name, inOff, pre, store string
		want                    Verdict
	}{
		{"pad left", "uint32_t", "src + first + inOff + tail + i * 64", "src + first - (n - i) * 64", Contiguous},
		{"pad left, signed offset", "int32_t", "src + first + inOff + tail + i * 64", "src + first - (n - i) * 64", NotContiguous},
		{"mirror", "uint32_t", "src + i * 64 + 3", "src + (2 * n - i) * 64 + 8", Contiguous},
		{"mirror around another count", "uint32_t", "src + i * 64 + 3", "src + (2 * half - i) * 64 + 8", NotContiguous},
	}
	var envs []map[string]int64
	for _, n := range []int64{1, 2, 3, 5} {
		for _, inOff := range []int64{-190, -70, 0, 1, 7, 64} {
			for _, tail := range []int64{0, 3} {
				for _, half := range []int64{0, 1, 2} {
					envs = append(envs, map[string]int64{"n": n, "first": 512, "inOff": inOff, "tail": tail, "half": half})
				}
			}
		}
	}
	for _, k := range kernels {
		body := fmt.Sprintf("        Reg::LoadUnAlignPre(u, %s);\n        Reg::LoadUnAlign(v, u, %s);\n        Reg::StoreAlign(%s, v, Reg::CreateMask<float>());\n        Reg::StoreAlign(out + i * 64, v, Reg::CreateMask<float>());\n", k.pre, k.pre, k.store)
		loop := "    for (uint16_t i = 0; i < n; i++) {\n"
		orig := fmt.Sprintf(head, k.inOff) + loop + body + "    }\n}\n"
		first := strings.ReplaceAll(strings.ReplaceAll(k.pre, " + i * 64", ""), "i * 64 + ", "")
		hoisted := fmt.Sprintf(head, k.inOff) + "    Reg::LoadUnAlignPre(u, " + first + ");\n" + loop +
			strings.SplitN(body, "\n", 2)[1] + "    }\n}\n"
		f, g := lower(t, orig), lower(t, hoisted)
		sites := PreSites(f.Funcs[0])
		if len(sites) != 1 || sites[0].Verdict != k.want {
			t.Errorf("%s: sites %+v, want one %v", k.name, sites, k.want)
			continue
		}
		differ, ran := "", 0
		for _, env := range envs {
			if k.inOff == "uint32_t" && env["inOff"] < 0 {
				continue
			}
			d, ok := sameOn(f.Funcs[0], g.Funcs[0], env)
			if ok {
				ran++
			}
			if d != "" {
				differ = d
				break
			}
		}
		if ran == 0 {
			t.Errorf("%s: no binding runs on the model", k.name)
		}
		t.Logf("%s: %v, %d bindings run", k.name, sites[0].Verdict, ran)
		switch {
		case k.want == Contiguous && differ != "":
			t.Errorf("%s: contiguous, but hoisting changes the data: %s", k.name, differ)
		case k.want != Contiguous && differ == "":
			t.Errorf("%s: refused, but no binding shows a difference", k.name)
		}
	}
}

// sameOn runs both functions with the scalars of env, src 32-byte aligned
// and 2 KB into its buffer, and returns where they differ, or "", and
// whether both ran to the end without a fault.
func sameOn(a, b *ir.Func, env map[string]int64) (string, bool) {
	ma, mb := replay.NewMachine(testImage), replay.NewMachine(testImage)
	ea, eb := runFunc(a, ma, env, 2048), runFunc(b, mb, env, 2048)
	if ea != "" || eb != "" {
		if ea != eb {
			return fmt.Sprintf("%v: %q vs %q", env, ea, eb), false
		}
		return "", false
	}
	if addr, differ := replay.FirstDiff(ma, mb); differ {
		return fmt.Sprintf("%v: UB byte %d differs", env, addr), true
	}
	return "", true
}
