// Package defs finds, for an instruction, the instruction that last wrote a
// register before it in the same straight-line block. It answers only when
// the answer is certain: a write inside an intervening if or loop, or no
// write in the block at all, gives nil.
package defs

import "github.com/ascvet/ascvet/cppfront/ir"

type place struct {
	block *ir.Block
	idx   int
}

// Index locates every instruction of a region in its block.
type Index struct {
	fn     *ir.Func
	places []place
}

// New indexes fn.
func New(fn *ir.Func) *Index {
	x := &Index{fn: fn, places: make([]place, len(fn.Instrs))}
	var walk func(b *ir.Block)
	walk = func(b *ir.Block) {
		if b == nil {
			return
		}
		for i, n := range b.Nodes {
			switch n := n.(type) {
			case *ir.Instr:
				x.places[n.ID] = place{b, i}
			case *ir.Loop:
				walk(n.Body)
			case *ir.If:
				walk(n.Then)
				walk(n.Else)
			}
		}
	}
	walk(fn.Body)
	return x
}

// Place returns the block in sits in (directly: an instruction inside an
// if or loop of that block is in the if's or the loop's own block) and its
// index there; nil when in is no instruction of the region.
func (x *Index) Place(in *ir.Instr) (*ir.Block, int) {
	if in.ID < 0 || int(in.ID) >= len(x.places) {
		return nil, 0
	}
	p := x.places[in.ID]
	return p.block, p.idx
}

// Reaching returns the instruction that last wrote r before in, in the
// same block, or nil.
func (x *Index) Reaching(in *ir.Instr, r ir.RegID) *ir.Instr {
	p := x.places[in.ID]
	if p.block == nil {
		return nil
	}
	for i := p.idx - 1; i >= 0; i-- {
		switch n := p.block.Nodes[i].(type) {
		case *ir.Instr:
			if writes(n, r) {
				return n
			}
		default:
			if writesInside(n, r) {
				return nil
			}
		}
	}
	return nil
}

// Between reports whether an instruction strictly between a and b (same
// block, a before b) reads or writes r.
func (x *Index) Between(a, b *ir.Instr, r ir.RegID) bool {
	pa, pb := x.places[a.ID], x.places[b.ID]
	if pa.block != pb.block || pa.block == nil {
		return true
	}
	for i := pa.idx + 1; i < pb.idx; i++ {
		switch n := pa.block.Nodes[i].(type) {
		case *ir.Instr:
			if writes(n, r) || reads(n, r) {
				return true
			}
		default:
			if writesInside(n, r) || readsInside(n, r) {
				return true
			}
		}
	}
	return false
}

// SameBlock reports whether a and b are statements of one block.
func (x *Index) SameBlock(a, b *ir.Instr) bool {
	return x.places[a.ID].block != nil && x.places[a.ID].block == x.places[b.ID].block
}

func writes(in *ir.Instr, r ir.RegID) bool {
	for _, d := range in.Defs {
		if d == r {
			return true
		}
	}
	return false
}

func reads(in *ir.Instr, r ir.RegID) bool {
	for _, u := range in.Uses {
		if u == r {
			return true
		}
	}
	return false
}

func walkInstrs(n ir.Node, f func(*ir.Instr) bool) bool {
	switch n := n.(type) {
	case *ir.Instr:
		return f(n)
	case *ir.Loop:
		for _, c := range n.Body.Nodes {
			if walkInstrs(c, f) {
				return true
			}
		}
	case *ir.If:
		for _, b := range []*ir.Block{n.Then, n.Else} {
			if b == nil {
				continue
			}
			for _, c := range b.Nodes {
				if walkInstrs(c, f) {
					return true
				}
			}
		}
	}
	return false
}

func writesInside(n ir.Node, r ir.RegID) bool {
	return walkInstrs(n, func(in *ir.Instr) bool { return writes(in, r) })
}

func readsInside(n ir.Node, r ir.RegID) bool {
	return walkInstrs(n, func(in *ir.Instr) bool { return reads(in, r) })
}

// WrittenBetween reports whether an instruction strictly between a and b
// (same block, a before b) writes r; not being in one block counts as yes.
func (x *Index) WrittenBetween(a, b *ir.Instr, r ir.RegID) bool {
	pa, pb := x.places[a.ID], x.places[b.ID]
	if pa.block != pb.block || pa.block == nil {
		return true
	}
	for i := pa.idx + 1; i < pb.idx; i++ {
		if n, ok := pa.block.Nodes[i].(*ir.Instr); ok {
			if writes(n, r) {
				return true
			}
		} else if writesInside(pa.block.Nodes[i], r) {
			return true
		}
	}
	return false
}
