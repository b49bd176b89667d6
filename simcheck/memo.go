package simcheck

import (
	"crypto/sha256"
	"encoding/binary"
	"slices"
	"sync"

	"github.com/ascvet/ascvet/cppfront/ir"
)

// A memo keeps the outcome of RunCycles for bodies already simulated. The
// rules simulate the same loop many times: in every instantiation whose
// timings agree, as written and with a fix, and in the copies of one kernel
// that operator repositories ship side by side. A body's key is its
// canonical encoding (below): two bodies with one key are simulated alike,
// instruction for instruction, so the memo returns what the simulation
// would; it merges nothing the simulator tells apart.
type memo struct {
	owner *Machine // the machine it belongs to: a copy of it (then changed) does not use it
	mu    sync.Mutex
	runs  map[[sha256.Size]byte]Result
	binds map[[sha256.Size]byte]Binding // RunBound's
}

// memoEntries bounds a memo (a Result without Events is a few words): when
// it is full it starts again empty, so that a long-lived process (the
// language server) keeps the bodies it simulates now.
const memoEntries = 1 << 16

// Capped returns a copy of m whose runs stop at n instruction instances
// (MaxInstances for m), at least four iterations: Run and RunCycles run
// fewer iterations (Result.Iterations says how many), RunLoop and
// RunInstance extend the prefix's steady rate (runSteady). The copy does
// not share m's memo: a capped run may differ from the full one.
func (m *Machine) Capped(n int) *Machine {
	c := *m
	c.memo = nil
	c.runCap = n
	return &c
}

// CyclesOnly returns a copy of m for a caller that reads only the cycles
// of RunLoop, RunInstance and CyclesWith: their parts run as RunCycles
// runs (memoized when the copy is, then Memoized), and the parts' Results
// hold no Events, Critical or PortBusy. The copy does not share m's memo.
func (m *Machine) CyclesOnly() *Machine {
	c := *m
	c.memo = nil
	c.cyclesOnly = true
	return &c
}

// Memoized returns a copy of m whose RunCycles results are kept and
// reused for identical bodies. The copy must not be changed after; a copy of
// the copy (changed or not) does not share its memo.
func (m *Machine) Memoized() *Machine {
	c := *m
	c.memo = &memo{runs: map[[sha256.Size]byte]Result{}}
	c.memo.owner = &c
	return &c
}

// cached returns the memo's result for body, when there is one, and the
// key to store it under.
func (m *Machine) cached(body Body, iterations int) (*Result, [sha256.Size]byte, bool) {
	var key [sha256.Size]byte
	if m.memo == nil || m.memo.owner != m {
		return nil, key, false
	}
	key = bodyKey(body, iterations)
	m.memo.mu.Lock()
	r, ok := m.memo.runs[key]
	m.memo.mu.Unlock()
	if !ok {
		return nil, key, true
	}
	r.PortBusy = map[string]int{}
	return &r, key, true
}

// RunBound returns what binds body run for iterations:
// Bound(Run(body, iterations)), which a memoized machine keeps, like
// RunCycles's results. A rule asks it of each finding that saves nothing,
// and the findings of one loop, or of copies of one kernel, share their
// loop's body: half of these full runs were of a body run already.
func (m *Machine) RunBound(body Body, iterations int) Binding {
	if m.memo == nil || m.memo.owner != m {
		return m.Bound(m.Run(body, iterations))
	}
	key := bodyKey(body, iterations)
	m.memo.mu.Lock()
	b, ok := m.memo.binds[key]
	m.memo.mu.Unlock()
	if !ok {
		b = m.Bound(m.Run(body, iterations))
		m.memo.mu.Lock()
		if m.memo.binds == nil || len(m.memo.binds) >= memoEntries {
			m.memo.binds = map[[sha256.Size]byte]Binding{}
		}
		m.memo.binds[key] = b
		m.memo.mu.Unlock()
	}
	b.Ports = slices.Clone(b.Ports)
	return b
}

func (m *Machine) keep(key [sha256.Size]byte, r *Result) {
	c := *r
	c.PortBusy, c.Events, c.Critical = nil, nil, nil
	m.memo.mu.Lock()
	if len(m.memo.runs) >= memoEntries {
		clear(m.memo.runs)
	}
	m.memo.runs[key] = c
	m.memo.mu.Unlock()
}

// bodyKey encodes everything run reads of body, with registers and
// addresses renamed in order of first use (the simulation only compares
// them), and hashes it.
func bodyKey(body Body, iterations int) [sha256.Size]byte {
	regs := map[ir.RegID]uint64{}
	names := map[string]uint64{}
	buf := make([]byte, 0, 64*len(body.Insts)+16)
	num := func(v uint64) { buf = binary.AppendUvarint(buf, v) }
	snum := func(v int64) { buf = binary.AppendVarint(buf, v) }
	str := func(s string) {
		num(uint64(len(s)))
		buf = append(buf, s...)
	}
	name := func(s string) {
		if s == "" {
			num(0)
			return
		}
		id, ok := names[s]
		if !ok {
			id = uint64(len(names)) + 1
			names[s] = id
		}
		num(id)
	}
	reg := func(r ir.RegID) {
		id, ok := regs[r]
		if !ok {
			id = uint64(len(regs))
			regs[r] = id
		}
		num(id)
		// The register's class is what run reads of it: an unaligned
		// register's dependence, a RegTensor result's write port.
		class := uint64(255)
		if body.Regs != nil && r >= 0 && int(r) < len(body.Regs) {
			class = uint64(body.Regs[r].Class)
		}
		num(class)
	}
	num(uint64(iterations))
	num(uint64(len(body.Insts)))
	flag := func(b bool) {
		if b {
			num(1)
		} else {
			num(0)
		}
	}
	for i := range body.Insts {
		in := &body.Insts[i]
		num(uint64(in.Op))
		str(in.Elem)
		num(uint64(len(in.Defs)))
		for _, r := range in.Defs {
			reg(r)
		}
		num(uint64(len(in.Uses)))
		for _, r := range in.Uses {
			reg(r)
		}
		num(uint64(len(in.Ptrs)))
		for _, p := range in.Ptrs {
			name(p)
		}
		name(in.Addr)
		flag(in.Iter)
		flag(in.Gate)
		snum(int64(in.Banks))
		if u := in.UB; u != nil {
			num(1)
			name(u.Base)
			snum(u.Off)
			snum(u.Step)
			snum(u.Elem)
			snum(u.Stride)
			flag(u.Write)
		} else {
			num(0)
		}
	}
	return sha256.Sum256(buf)
}
