package ureg

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/ascvet/ascvet/cppfront/ir"
	"github.com/ascvet/ascvet/cppfront/ir/irtest"
)

// randomRegion builds a region of nested loops and ifs over a few store
// registers. Conditions come from a small pool, so that branches repeat,
// exclude and imply each other (K == 1 and K == 2, K < 2 and K == 3,
// sizeof(T) == 2 and sizeof(T) > 1, x and !x), and tests of a loop's
// variable select iterations (the first, or some other).
func randomRegion(rng *rand.Rand) *ir.Func {
	b := irtest.New("r")
	us := []ir.RegID{b.UStore("u0"), b.UStore("u1"), b.UStore("u2")}
	v := b.VReg("v", "float")
	sizeofT := &ir.Expr{Kind: ir.ExprSizeof, Name: "T"}
	loops := 0
	cond := func(loopVar string) *ir.Expr {
		k := ir.Const(int64(rng.IntN(4)))
		switch rng.IntN(9) {
		case 0:
			return ir.Bin("!=", ir.Sym("K"), k)
		case 1:
			return ir.Bin("<", ir.Sym("K"), k)
		case 2:
			return ir.Bin([]string{"==", ">"}[rng.IntN(2)], sizeofT, ir.Const(int64(1<<rng.IntN(3))))
		case 3:
			return ir.Sym("x")
		case 4:
			return ir.Unknown("!x")
		case 5:
			if loopVar != "" {
				return ir.Bin("==", ir.Sym(loopVar), ir.Const(0))
			}
		case 6:
			if loopVar != "" {
				return ir.Bin("==", ir.Sym(loopVar), ir.Bin("-", ir.Sym("n"), ir.Const(1)))
			}
		}
		return ir.Bin("==", ir.Sym("K"), k)
	}
	var stmts func(depth int, loopVar string)
	stmts = func(depth int, loopVar string) {
		for range 1 + rng.IntN(5) {
			switch r := rng.IntN(10); {
			case r < 4:
				b.Instr(ir.OpStoreUnAlign, irtest.PtrRW("dst"), irtest.R(v), irtest.RW(us[rng.IntN(len(us))]), irtest.S("64"))
			case r < 6:
				b.Instr(ir.OpStoreUnAlignPost, irtest.PtrRW("dst"), irtest.R(us[rng.IntN(len(us))]), irtest.S("0"))
			case r < 8 && depth < 4:
				var els func()
				if rng.IntN(2) == 0 {
					els = func() { stmts(depth+1, loopVar) }
				}
				c := cond(loopVar) // drawn before the branches, which draw too
				s := b.If(func() { stmts(depth+1, loopVar) }, els)
				s.Cond = c
				s.Constexpr = rng.IntN(2) == 0
			case depth < 3:
				name := fmt.Sprintf("i%d", loops) // irtest names a loop's variable by its ID
				loops++
				b.Loop([]int64{-1, 1, 4}[rng.IntN(3)], func() { stmts(depth+1, name) })
			}
		}
	}
	stmts(0, "")
	return b.Func()
}

// observe runs the flow over fn, StoreUnAlign making a fact about its
// register and StoreUnAlignPost killing them. It returns what the rules
// can see, the keys and origins of the facts at each instruction (over
// every visit) and at the end, and the facts at the end with their tags.
func observe(fn *ir.Func, opts Options, keepImplied bool) (seen, tagged string) {
	at := map[ir.InstrID]map[string]bool{}
	tr := func(in *ir.Instr, s *State) {
		if at[in.ID] == nil {
			at[in.ID] = map[string]bool{}
		}
		for _, f := range s.All() {
			at[in.ID][fmt.Sprintf("%v@%d", f.Key, f.Origin)] = true
		}
		_, k, ok := Operand(fn, in)
		if !ok {
			return
		}
		switch in.Op {
		case ir.OpStoreUnAlign:
			s.Gen(k, in.ID)
		case ir.OpStoreUnAlignPost:
			s.Kill(func(x Key) bool { return x == k })
		}
	}
	end := run(fn, NewState(), tr, opts, keepImplied)
	var out []string
	for id := range fn.Instrs {
		keys := slices.Sorted(maps.Keys(at[ir.InstrID(id)]))
		out = append(out, fmt.Sprintf("i%d %v", id, keys))
	}
	var last, tags []string
	for _, f := range end.All() {
		last = append(last, fmt.Sprintf("%v@%d", f.Key, f.Origin))
		tags = append(tags, fmt.Sprintf("%v@%d %q", f.Key, f.Origin, f.tags))
	}
	return fmt.Sprintf("%v\nend %v", out, slices.Compact(last)), fmt.Sprint(tags)
}

// TestImpliedTagsChangeNothing: enter does not tag a fact with a condition
// its tags imply. Over random regions, the facts every instruction sees
// and those at the end are the same as with every tag kept, while the
// tags differ in many of them (the elision happens).
func TestImpliedTagsChangeNothing(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	elided := 0
	const regions = 300
	for i := range regions {
		fn := randomRegion(rng)
		for _, opts := range []Options{{}, {LoopsRun: true}} {
			got, gotTags := observe(fn, opts, false)
			want, wantTags := observe(fn, opts, true)
			if got != want {
				t.Fatalf("region %d (%+v): with implied tags elided\n%s\nwith every tag\n%s", i, opts, got, want)
			}
			if gotTags != wantTags {
				elided++
			}
		}
	}
	if elided < regions/20 {
		t.Errorf("tags elided in %d of %d runs: the regions do not exercise the elision", elided, 2*regions)
	}
	t.Logf("tags elided in %d of %d runs", elided, 2*regions)
}
