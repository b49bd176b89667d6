package simcost

import (
	"math"
	"slices"

	"github.com/ascvet/ascvet/cppfront/ir"
	"github.com/ascvet/ascvet/simcheck"
)

// Spread prices spreading the eight 32-byte blocks of the block-strided
// (DataCopyMode::DATA_BLOCK_COPY) LoadAlign or StoreAlign in over the UB
// bank groups: the loop around in (the whole region when in is in no
// loop) as written, where in's port takes the cycles its stride costs
// (simcheck.StrideBanks), against the same body with the stride one block
// longer, the row padded by a block (8 -> 9, 144 -> 145), which puts the
// eight blocks in eight groups. Nothing else of the body changes: the
// padding moves the buffer's other accesses too, which the price leaves
// out.
//
// binds are the instantiations of fn the finding holds for (its stride
// folds under them, simcheck.DataBlockStride); each that builds the
// instruction is simulated and the cost is that of the one the spread
// saves most in, named (Cost.Instance) when fn has instantiations of its
// own. One empty binding, or none, prices fn as written
// (ir.Func.SoleInstance).
func (md *Model) Spread(fn *ir.Func, in *ir.Instr, binds []ir.Bindings) Cost {
	named := len(binds) > 1 || len(binds) == 1 && !binds[0].Empty()
	store := in.Op == ir.OpStoreAlign
	if in.Loop != ir.NoLoop {
		pad := func(b ir.Bindings, body simcheck.Body) (simcheck.Body, bool) {
			stride, _, ok := simcheck.DataBlockStride(in, b)
			if !ok {
				return simcheck.Body{}, false
			}
			after, n := withStride(body, in, store, stride+1)
			return after, n > 0 // n 0: not built by this instantiation
		}
		return md.rewritten(fn, fn.Loops[in.Loop], binds, named, func(b ir.Bindings, _ *ir.Loop, body simcheck.Body) (simcheck.Body, bool, bool) {
			after, ok := pad(b, body)
			return after, false, ok
		}, &fixRec{spread: in, pad: pad})
	}
	// Outside every loop: the region as written, its stride as each
	// instantiation folds it.
	if !named {
		binds = []ir.Bindings{fn.SoleInstance()}
	}
	body := simcheck.RegionBody(fn, md.Iterations, nil)
	var (
		best     Cost
		bestBody simcheck.Body
		priced   int
	)
	bestSave := math.MinInt
	for _, b := range binds {
		stride, _, ok := simcheck.DataBlockStride(in, b)
		if !ok {
			continue
		}
		before, n := withStride(body, in, store, stride)
		if n == 0 {
			continue
		}
		after, _ := withStride(body, in, store, stride+1)
		rb := md.M.RunCycles(before, 1)
		ra := md.M.RunCycles(after, rb.Iterations)
		c := Cost{Before: rb.Cycles, After: ra.Cycles, Iterations: rb.Iterations, Region: true, Opaque: body.Opaque, Assumed: body.Assumed, Trip: TripRegion}
		if named && !b.Empty() {
			c.Instance = b.String()
		}
		priced++
		if save := c.Before - c.After; save > bestSave {
			best, bestSave, bestBody = c, save, before
		}
	}
	if priced == 0 {
		return Cost{}
	}
	if priced > 1 {
		best.Of = priced
	}
	md.bind(&best, func() simcheck.Body { return bestBody })
	return best
}

// withStride returns a copy of body in which every instance of in (inner
// loops repeat it) is a block-strided access of the given stride: the
// port cycles its blocks need (Inst.Banks) and, where its place in UB is
// known, the banks its blocks fall in (UBAddr.Stride). n counts the
// instances changed.
func withStride(body simcheck.Body, in *ir.Instr, store bool, stride int64) (out simcheck.Body, n int) {
	out = body
	out.Insts = slices.Clone(body.Insts)
	banks := simcheck.StrideBanks(store, stride)
	for i := range out.Insts {
		x := &out.Insts[i]
		if x.Instr != in {
			continue
		}
		n++
		x.Banks = banks
		if x.UB != nil {
			u := *x.UB
			u.Stride = stride
			x.UB = &u
		}
	}
	return out, n
}
