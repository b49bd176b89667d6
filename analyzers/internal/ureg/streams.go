package ureg

import "github.com/ascvet/ascvet/cppfront/ir"

// Store streams and the registers that flush them, shared by ASC1005 (a
// stream never flushed, or flushed through the wrong register) and ASC1006
// (one register serving a load and a store stream at once), so that one
// bug gives one finding.

// Unflushed returns, for every register a StoreUnAlign may leave holding an
// unflushed tail at the end of the region, the last StoreUnAlign that can
// leave it so, in order of first appearance. Handing the register to a
// helper or an unknown call counts as a flush; parameters and references
// are the caller's to flush.
func Unflushed(fn *ir.Func) (keys []Key, last map[Key]ir.InstrID) {
	untracked := Untracked(fn)
	tracked := func(k Key) bool { return !untracked[k.Reg] && !Exempt(fn.Regs[k.Reg]) }
	stores := false
	for _, in := range fn.Instrs {
		if in.Op == ir.OpStoreUnAlign {
			stores = true
			break
		}
	}
	last = map[Key]ir.InstrID{}
	if !stores {
		return nil, last
	}
	end := Run(fn, NewState(), func(in *ir.Instr, s *State) {
		switch in.Op {
		case ir.OpStoreUnAlign:
			if _, k, found := Operand(fn, in); found && tracked(k) {
				s.Kill(func(x Key) bool { return x == k })
				s.Gen(k, in.ID)
			}
		case ir.OpStoreUnAlignPost:
			_, k, found := Operand(fn, in)
			if !found {
				s.Kill(func(Key) bool { return true }) // a flush of a register we cannot name may flush any
				return
			}
			s.Kill(func(x Key) bool { return Covers(k, x) })
		case ir.OpCall, ir.OpUnknown:
			for _, p := range Passed(fn, in) {
				s.Kill(func(x Key) bool { return Covers(p, x) })
			}
		}
	}, Options{LoopsRun: true})
	for _, f := range end.All() {
		if _, ok := last[f.Key]; !ok {
			keys = append(keys, f.Key)
		}
		last[f.Key] = max(last[f.Key], f.Origin)
	}
	return keys, last
}

// MisdirectedPost returns the StoreUnAlignPost that was meant to flush the
// stream whose last store is store (register k), or nil: a Post after it
// through another register, on the same pointer as written, or on a
// register no StoreUnAlign of the region wrote (typically the stream's
// load register).
func MisdirectedPost(fn *ir.Func, store *ir.Instr, k Key) *ir.Instr {
	stored := map[Key]bool{}
	for _, in := range fn.Instrs {
		if in.Op == ir.OpStoreUnAlign {
			if _, sk, found := Operand(fn, in); found {
				stored[sk] = true
			}
		}
	}
	ptr := Pointer(store)
	for _, p := range fn.Instrs {
		if p.Op != ir.OpStoreUnAlignPost || p.ID <= store.ID {
			continue
		}
		_, pk, found := Operand(fn, p)
		if !found || Covers(pk, k) {
			continue
		}
		if ptr != "" && Pointer(p) == ptr || !stored[pk] {
			return p
		}
	}
	return nil
}
