package simcheck

import (
	"github.com/ascvet/ascvet/cppfront/ir"
)

// Unroll returns body unrolled k times with the copies interleaved
// instruction by instruction, the way a kernel author unrolls by hand so
// that independent chains sit side by side in the window (seed 002:
// "32做4展开"). Registers the body reads before writing (carried from one
// iteration to the next: accumulators, unaligned registers) stay shared, so
// their chain is kept; every other register gets a fresh name per copy.
func Unroll(body Body, k int) Body {
	if k <= 1 {
		return body
	}
	carried := map[ir.RegID]bool{}
	written := map[ir.RegID]bool{}
	for _, in := range body.Insts {
		for _, r := range in.Uses {
			if !written[r] {
				carried[r] = true
			}
		}
		for _, r := range in.Defs {
			written[r] = true
		}
	}
	regs := append([]*ir.Reg(nil), body.Regs...)
	rename := make([]map[ir.RegID]ir.RegID, k)
	for c := 0; c < k; c++ {
		rename[c] = map[ir.RegID]ir.RegID{}
	}
	mapReg := func(c int, r ir.RegID) ir.RegID {
		if c == 0 || carried[r] {
			return r
		}
		if n, ok := rename[c][r]; ok {
			return n
		}
		n := ir.RegID(len(regs))
		cp := *body.Regs[r]
		cp.ID = n
		regs = append(regs, &cp)
		rename[c][r] = n
		return n
	}
	mapAll := func(c int, rs []ir.RegID) []ir.RegID {
		out := make([]ir.RegID, len(rs))
		for i, r := range rs {
			out[i] = mapReg(c, r)
		}
		return out
	}
	var insts []Inst
	for i := range body.Insts {
		for c := 0; c < k; c++ {
			in := body.Insts[i]
			in.Defs, in.Uses = mapAll(c, in.Defs), mapAll(c, in.Uses)
			insts = append(insts, in)
		}
	}
	return Body{Insts: insts, Regs: regs}
}

// LongestChain returns the number of instructions on the longest chain of
// register dependences inside one iteration of body.
func LongestChain(body Body) int {
	depth := make([]int, len(body.Insts))
	lastDef := map[ir.RegID]int{}
	best := 0
	for i, in := range body.Insts {
		d := 1
		for _, r := range in.Uses {
			if p, ok := lastDef[r]; ok {
				d = max(d, depth[p]+1)
			}
		}
		depth[i] = d
		best = max(best, d)
		for _, r := range in.Defs {
			lastDef[r] = i
		}
	}
	return best
}
