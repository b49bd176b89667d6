package stream

import (
	"fmt"
	"strings"
	"testing"

	"github.com/ascvet/ascvet/cppfront/ir"
	"github.com/ascvet/ascvet/simcheck/replay"
)

// TestStoreWindowKeepsData checks the store window of storesOver on the
// byte-exact UB model: a stream on src primed at a + i*64 (one load, or two
// back to back), beside a store of zeros to src + i*64 + d placed before
// the Pre, between the Pre and the last load, or after it. Wherever the
// verdict is contiguous, the loop with the Pre hoisted must write the same
// UB bytes as the loop as written, for every trip count tried; the loaded
// vectors go to out, so a stale register shows there. The in-place update
// x[i] = x[i+1] - x[i] is the case d = 0, a = 1, the store after the load.
func TestStoreWindowKeepsData(t *testing.T) {
	proven, refusedDiffer, refused := 0, 0, 0
	for _, loads := range []int{1, 2} {
		step := 64 * loads
		for a := 0; a < 8; a++ {
			for d := -2 * step; d <= 2*step; d += 8 {
				for at := 0; at < 3; at++ {
					orig, hoisted := storeWindowKernels(loads, step, a, d, at)
					f := lower(t, orig)
					sites := PreSites(f.Funcs[0])
					if len(sites) != 1 {
						t.Fatalf("%d sites in\n%s", len(sites), orig)
					}
					g := lower(t, hoisted)
					diff := sameRuns(f.Funcs[0], g.Funcs[0])
					switch sites[0].Verdict {
					case Contiguous:
						proven++
						if diff != "" {
							t.Errorf("contiguous, but hoisting changes the data (%s):\n%s", diff, orig)
						}
					case NotContiguous:
						refused++
						if diff != "" {
							refusedDiffer++
						}
						if sites[0].Why != "the loop stores to the data it re-reads" {
							t.Errorf("refused for another reason (%s):\n%s", sites[0].Why, orig)
						}
					default:
						t.Errorf("verdict %v (%s):\n%s", sites[0].Verdict, sites[0].Why, orig)
					}
				}
			}
		}
	}
	// Every store between the Pre and the last load is proven, and so are
	// most of the others: the window is 32 bytes, not the iteration's reads.
	if proven < 3*refused {
		t.Errorf("%d proven, %d refused: the window is wider than the carried block", proven, refused)
	}
	t.Logf("%d proven; %d refused, of which %d change the data when hoisted", proven, refused, refusedDiffer)
}

// storeWindowKernels returns the kernel and the same kernel with its Pre
// hoisted before the loop.
func storeWindowKernels(loads, step, a, d, at int) (orig, hoisted string) {
	var body []string
	pre := fmt.Sprintf("Reg::LoadUnAlignPre(u, src + i * %d + %d);", step, a)
	body = append(body, pre)
	for k := range loads {
		body = append(body,
			fmt.Sprintf("Reg::LoadUnAlign(v, u, src + i * %d + %d);", step, a+64*k),
			fmt.Sprintf("Reg::StoreAlign(out + i * %d + %d, v, Reg::CreateMask<float>());", step, 64*k))
	}
	sign := "+"
	if d < 0 {
		sign, d = "-", -d
	}
	store := fmt.Sprintf("Reg::StoreAlign(src + i * %d %s %d, w, Reg::CreateMask<float>());", step, sign, d)
	switch at {
	case 0: // before the Pre
		body = append([]string{store}, body...)
	case 1: // between the Pre and the last load
		body = append(body[:len(body)-2], append([]string{store}, body[len(body)-2:]...)...)
	default: // after the last load
		body = append(body, store)
	}
	head := "__simd_vf__ inline void K(__ubuf__ float* dst, __ubuf__ float* src, __ubuf__ float* out, uint16_t n)\n{\n" +
		"    Reg::RegTensor<float> v;\n    Reg::RegTensor<float> w;\n    Reg::UnalignRegForLoad u;\n"
	loop := "    for (uint16_t i = 0; i < n; ++i) {\n"
	var b, h strings.Builder
	b.WriteString(head + loop)
	h.WriteString(head + fmt.Sprintf("    Reg::LoadUnAlignPre(u, src + %d);\n", a) + loop)
	for _, s := range body {
		b.WriteString("        " + s + "\n")
		if s != pre {
			h.WriteString("        " + s + "\n")
		}
	}
	b.WriteString("    }\n}\n")
	h.WriteString("    }\n}\n")
	return b.String(), h.String()
}

// sameRuns runs both kernels for several trip counts, with src 32-byte
// aligned (so that the aligned stores do not fault) and 2 KB into its
// buffer (so that stores before the stream stay in UB), and returns where
// they differ, or "".
func sameRuns(a, b *ir.Func) string {
	ma, mb := replay.NewMachine(testImage), replay.NewMachine(testImage)
	for _, n := range []int64{1, 2, 3, 5} {
		env := map[string]int64{"n": n}
		ea := runFunc(a, ma, env, 2048)
		eb := runFunc(b, mb, env, 2048)
		if ea != "" || eb != "" {
			if ea != eb {
				return fmt.Sprintf("n=%d: %q vs %q", n, ea, eb)
			}
			continue
		}
		if addr, differ := replay.FirstDiff(ma, mb); differ {
			return fmt.Sprintf("n=%d: UB byte %d differs", n, addr)
		}
	}
	return ""
}
