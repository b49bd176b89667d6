package cppfront

import (
	"strings"
	"testing"

	"github.com/ascvet/ascvet/cppfront/ir"
)

// TestJumps: break, continue, return and goto become ir.Jump nodes where
// they stand, naming the loop they leave; a break that leaves a switch, and
// a return inside a lambda, are not jumps of the region.
func TestJumps(t *testing.T) {
	src := `__simd_vf__ void K(__ubuf__ float* p, uint16_t n, int mode)
{
    Reg::RegTensor<float> v;
    for (uint16_t i = 0; i < n; ++i) {
        if (i == 3) {
            continue;
        }
        switch (mode) {
            case 1:
                break;
            default:
                continue;
        }
        for (uint16_t j = 0; j < n; ++j) {
            if (j == 2) {
                break;
            }
            auto f = [&]() { return 1; };
        }
        if (i == 5) {
            return;
        }
        if (i == 6) {
            goto out;
        }
        Reg::LoadAlign(v, p + i * 64);
    }
out:
    return;
}
`
	_, f := parse(t, "k.asc", []byte(src))
	fn := findFunc(t, f, "K")
	var got []string
	var walk func(b *ir.Block)
	walk = func(b *ir.Block) {
		if b == nil {
			return
		}
		for _, n := range b.Nodes {
			switch n := n.(type) {
			case *ir.Jump:
				s := n.Kind.String()
				if n.Loop != ir.NoLoop {
					s += "@L" + string(rune('0'+n.Loop))
				}
				if n.Cond {
					s += "?"
				}
				got = append(got, s)
			case *ir.Loop:
				walk(n.Body)
			case *ir.If:
				walk(n.Then)
				walk(n.Else)
			}
		}
	}
	walk(fn.Body)
	want := "continue@L0? continue@L0? break@L1? return? goto? return"
	if g := strings.Join(got, " "); g != want {
		t.Errorf("jumps %q, want %q", g, want)
	}
	if errs := ir.Verify(f); len(errs) > 0 {
		t.Error(errs)
	}
}
