package replay

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/ascvet/ascvet/cppfront/ir"
)

// region is where the stream's buffer starts in the model UB (plus the
// case's offset): room below for negative offsets and the Pre's rounding
// down, room above for eight iterations of several vectors.
const region = 64 << 10

// maxTrip caps the folded trip count replayed.
const maxTrip = 8

// maxCases caps the cases of one proof; beyond it they are sampled evenly.
const maxCases = 4096

// ProveHoist replays the loop lp of fn twice on the model, as written and
// with the LoadUnAlignPre pre moved before the loop (priming at the first
// iteration's address), for every case (element sizes, base offsets inside
// a DataBlock, bindings of symbolic strides and counts, trip counts), and
// compares every vector loaded from the stream's buffer in every iteration,
// every UB byte written, the pointer and the register at the end. ok is true
// only when they are equal in every case; otherwise why says, in lowercase,
// what could not be proven or where the two differ.
func ProveHoist(fn *ir.Func, lp *ir.Loop, pre *ir.Instr) (ok bool, why string) {
	return prove(fn, lp, pre, hoist)
}

// ProveSink is ProveHoist for a StoreUnAlignPost post moved after the loop.
func ProveSink(fn *ir.Func, lp *ir.Loop, post *ir.Instr) (ok bool, why string) {
	return prove(fn, lp, post, sink)
}

// ProveDrop is ProveHoist for a LoadUnAlignPre pre deleted from the loop
// (one that re-primes its stream in place).
func ProveDrop(fn *ir.Func, lp *ir.Loop, pre *ir.Instr) (ok bool, why string) {
	return prove(fn, lp, pre, drop)
}

func prove(fn *ir.Func, lp *ir.Loop, moved *ir.Instr, kind fixKind) (bool, string) {
	prefix := "the replay could not prove the hoisted Pre loads the same data: "
	switch kind {
	case sink:
		prefix = "the replay could not prove the sunk Post writes the same bytes: "
	case drop:
		prefix = "the replay could not prove the deleted Pre changes nothing: "
	}
	if fn == nil || lp == nil || moved == nil || lp.Body == nil {
		return false, prefix + "no loop to replay"
	}
	p, err := prepare(fn, lp, moved, kind)
	if err != nil {
		return false, prefix + err.Error()
	}
	if why := p.check(); why != "" {
		return false, prefix + why
	}
	return true, ""
}

// ubImage is the initial UB of every replay: a byte pattern in which every
// 32-byte window is distinct, so that a load from the wrong place shows.
var ubImage = sync.OnceValue(func() []byte {
	b := make([]byte, UBSize)
	for a := range b {
		b[a] = byte(mix64(uint64(a)) >> 56)
	}
	return b
})

func mix64(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	return x ^ x>>31
}

// binding is one case.
type binding struct {
	sizes map[string]int64 // element size of each type name
	syms  map[string]int64 // value of each free scalar symbol
	off   int64            // byte offset of the stream's base inside its DataBlock
	trip  int              // iterations
	init  int64            // loop variable's start
	taken []int            // per branch point: the iteration it is taken in, or never / always
}

// never and always are the branch patterns that are no single iteration.
const (
	never  = -1
	always = -2
)

// iterations returns 0 .. n-1.
func iterations(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	return out
}

// patterns returns the branch decisions tried: none taken; each branch
// point taken in exactly one iteration (each of the first trips), and in
// all; and each pair of them taken in consecutive iterations.
func (p *prover) patterns(trips int) [][]int {
	nb := len(p.branches)
	mk := func() []int {
		t := make([]int, nb)
		for i := range t {
			t[i] = never
		}
		return t
	}
	out := [][]int{mk()}
	for b := range nb {
		for _, k := range append(iterations(trips), always) {
			t := mk()
			t[b] = k
			out = append(out, t)
		}
		for c := range nb {
			if c == b {
				continue
			}
			for k := 0; k+1 < min(trips, 3); k++ {
				t := mk()
				t[b], t[c] = k, k+1
				out = append(out, t)
			}
		}
	}
	return out
}

// cases enumerates the bindings to replay.
func (p *prover) cases() []binding {
	sizes := []int64{1, 2, 4, 8}
	if p.maskOnly {
		sizes = sizes[:3]
	}
	if len(p.types) == 1 && len(p.fn.Instances[p.types[0]]) > 0 {
		// The function's calls in its file name its element types.
		sizes = nil
		for _, t := range p.fn.Instances[p.types[0]] {
			if sz, ok := ir.ElemSize(t); ok && !slices.Contains(sizes, sz) {
				sizes = append(sizes, sz)
			}
		}
		slices.Sort(sizes)
	}
	var typeSets []map[string]int64
	for k := range sizes {
		m := map[string]int64{}
		for _, t := range p.types {
			m[t] = sizes[k]
		}
		typeSets = append(typeSets, m)
		if len(p.types) == 0 {
			break
		}
	}
	if len(p.types) > 1 {
		for k := range sizes {
			m := map[string]int64{}
			for j, t := range p.types {
				m[t] = sizes[(k+j)%len(sizes)]
			}
			typeSets = append(typeSets, m)
		}
	}
	trips := []int{0, 1, 2, 3}
	if p.lp.Kind == ir.LoopDo {
		trips = trips[1:] // a do loop runs at least once
	}
	if p.lp.TripKnown && p.lp.Trip > 3 {
		trips = append(trips, int(min(p.lp.Trip, maxTrip)))
	}
	inits := []int64{p.init}
	if !p.initOK {
		inits = []int64{0, 2}
	}
	maxT := slices.Max(trips)
	var out []binding
	for _, taken := range p.patterns(maxT) {
		for _, ts := range typeSets {
			rs := p.rootSize
			if rs == 0 {
				rs = ts[p.rootType]
			}
			vl := VLBytes / rs
			cands := uniq([]int64{1, 3, 8, 13, vl/2 + 1, vl - 1, vl})
			var symSets []map[string]int64
			for k := range cands {
				m := map[string]int64{}
				for j, s := range p.syms {
					m[s] = cands[(k+j)%len(cands)]
				}
				symSets = append(symSets, m)
				if len(p.syms) == 0 {
					break
				}
			}
			for _, off := range offsets(rs) {
				for _, ss := range symSets {
					for _, tr := range trips {
						for _, in := range inits {
							out = append(out, binding{sizes: ts, syms: ss, off: off, trip: tr, init: in, taken: taken})
						}
					}
				}
			}
		}
	}
	if len(out) > maxCases {
		sampled := make([]binding, 0, maxCases)
		for i := range maxCases {
			sampled = append(sampled, out[i*len(out)/maxCases])
		}
		out = sampled
	}
	return out
}

// offsets returns the base offsets inside a DataBlock tried for elements
// of size sz (a pointer to T is sizeof(T)-aligned).
func offsets(sz int64) []int64 {
	switch sz {
	case 1:
		return []int64{0, 1, 4, 12, 20, 28, 31}
	case 2:
		return []int64{0, 2, 4, 12, 20, 28, 30}
	case 8:
		return []int64{0, 8, 16, 24}
	}
	return []int64{0, 4, 12, 20, 28}
}

func uniq(vs []int64) []int64 {
	var out []int64
	for _, v := range vs {
		if v >= 1 && !slices.Contains(out, v) {
			out = append(out, v)
		}
	}
	return out
}

// errInvalid marks a case the program as written cannot run (a count beyond
// a vector, element types that cannot match): it is skipped, not a
// counterexample.
var errInvalid = errors.New("invalid case")

// obs is one vector loaded from the stream's buffer.
type obs struct {
	step int    // the step's id (prover.all)
	iter int    // iteration (-1 before the loop)
	data []byte // what was loaded
}

// state is one replay of the loop.
type state struct {
	p     *prover
	b     binding
	m     *Machine
	vals  map[regKey][]byte
	parts map[ir.RegID][]int // the parts of each register with a value in vals
	lregs map[regKey]*LoadReg
	sregs map[regKey]*StoreReg
	ptr   int64 // byte address the stream's pointer holds
	entry int64 // byte address the stream's pointer held at the loop's entry
	rsz   int64 // element size of the stream's pointer
	iter  int64 // loop variable
	k     int   // iteration index, -1 outside the loop
	trace []obs
	err   error // errInvalid, or a refusal found while running
}

func (s *state) sizeOf(t string) (int64, bool) {
	if sz, ok := ir.ElemSize(t); ok {
		return sz, true
	}
	sz, ok := s.b.sizes[t]
	return sz, ok
}

// elem returns the element size of an instruction.
func (s *state) elem(in *ir.Instr) int64 {
	if in.Elem != "" {
		if sz, ok := s.sizeOf(in.Elem); ok {
			return sz
		}
	}
	return s.rsz
}

// eval folds e with the case's bindings; addresses come out in elements of
// the stream's pointer.
func (s *state) eval(e *ir.Expr) (int64, bool) {
	v := e.Subst(func(kind ir.ExprKind, name string) *ir.Expr {
		if kind == ir.ExprSizeof {
			if sz, ok := s.sizeOf(name); ok {
				return ir.Const(sz)
			}
			return nil
		}
		switch name {
		case s.p.root:
			return ir.Const(s.ptr / s.rsz)
		case s.p.lp.Var:
			return ir.Const(s.iter)
		}
		if a := s.p.aliases[name]; a != nil && a.off != nil {
			if off, ok := s.eval(a.off); ok {
				return ir.Const(s.entry/s.rsz + off)
			}
			return nil
		}
		if v, ok := s.b.syms[name]; ok {
			return ir.Const(v)
		}
		return nil
	})
	return v.Value()
}

// regSize is the byte size of a register's value.
func (s *state) regSize(k regKey) int {
	r := s.p.fn.Regs[k.reg]
	switch r.Class {
	case ir.ClassVReg:
		return VLBytes * r.Width()
	case ir.ClassMask:
		return VLBytes / 8
	}
	return BlockBytes
}

func (s *state) get(k regKey) []byte {
	if v, ok := s.vals[k]; ok {
		return v
	}
	if k.part >= 0 {
		if whole, ok := s.vals[regKey{k.reg, -1}]; ok {
			return s.opaqueBytes(k, hashOf(whole, uint64(k.part)))
		}
	}
	if s.p.fn.Regs[k.reg].Class == ir.ClassMask {
		// A predicate the loop does not compute (made before it): every
		// lane, so that a store writes, and a load reads, all it may.
		// An arbitrary pattern would let a proof hold for some masks
		// only, and which would vary from run to run.
		v := make([]byte, s.regSize(k))
		for i := range v {
			v[i] = 0xff
		}
		return v
	}
	return s.opaqueBytes(k, hashOf(nil, 0x1d17, uint64(k.reg), uint64(k.part+1)))
}

func (s *state) set(k regKey, v []byte) {
	switch {
	case k.part >= 0:
		if s.parts == nil {
			s.parts = map[ir.RegID][]int{}
		}
		if _, ok := s.vals[k]; !ok {
			s.parts[k.reg] = append(s.parts[k.reg], k.part)
		}
	case len(s.parts[k.reg]) > 0:
		// a whole register written: its parts' values are gone
		for _, p := range s.parts[k.reg] {
			delete(s.vals, regKey{k.reg, p})
		}
		delete(s.parts, k.reg)
	}
	s.vals[k] = v
}

// hashOf hashes data and xs: an opaque value, compared within one proof
// (the original loop's against the fixed one's).
func hashOf(data []byte, xs ...uint64) uint64 {
	// FNV-1a over the bytes, then mixed with each x: the same values in
	// every process (a proof must not depend on a random seed).
	h := uint64(14695981039346656037)
	for _, c := range data {
		h ^= uint64(c)
		h *= 1099511628211
	}
	for _, x := range xs {
		h = mix64(h ^ x)
	}
	return mix64(h)
}

// opaqueBytes expands a hash into a register value.
func (s *state) opaqueBytes(k regKey, h uint64) []byte {
	out := make([]byte, s.regSize(k))
	for i := 0; i < len(out); i += 8 {
		h = mix64(h)
		var w [8]byte
		binary.LittleEndian.PutUint64(w[:], h)
		copy(out[i:], w[:])
	}
	return out
}

func (s *state) lreg(k regKey) *LoadReg {
	u, ok := s.lregs[k]
	if !ok {
		u = NewLoadReg()
		s.lregs[k] = u
	}
	return u
}

func (s *state) sreg(k regKey) *StoreReg {
	u, ok := s.sregs[k]
	if !ok {
		u = &StoreReg{}
		s.sregs[k] = u
	}
	return u
}

// fail records the first problem of the run.
func (s *state) fail(err error) {
	if s.err == nil {
		s.err = err
	}
}

// address evaluates a step's address in bytes.
func (s *state) address(st *step) (int, bool) {
	v, ok := s.eval(st.addr)
	if !ok {
		s.fail(refuse("the address %s of %s does not fold", st.addr, s.p.describe(st.in)))
		return 0, false
	}
	return int(v * s.rsz), true
}

// count evaluates a step's stride, count or offset in elements.
func (s *state) count(st *step) (int64, bool) {
	v, ok := s.eval(st.stride)
	if !ok {
		s.fail(refuse("the count %s of %s does not fold", st.stride, s.p.describe(st.in)))
		return 0, false
	}
	return v, true
}

func (s *state) advance(st *step, elems int64) {
	if st.ptrRW {
		s.ptr += elems * s.rsz
	}
}

func (s *state) observe(st *step, data []byte) {
	s.trace = append(s.trace, obs{step: st.id, iter: s.k, data: append([]byte(nil), data...)})
}

// flow is how a block of steps ends.
type flow uint8

const (
	flowNext     flow = iota // it ran to its end
	flowBreak                // a break left the loop
	flowContinue             // a continue ended the iteration
	flowReturn               // a return left the function
)

// taken reports whether branch point b is taken in the current iteration.
func (s *state) taken(b int) bool {
	t := s.b.taken[b]
	return t == always || t == s.k
}

// run executes steps, skipping the one at index skip (-1 for none), and
// says how they end.
func (s *state) run(steps []step, skip int) flow {
	for i := range steps {
		if i == skip {
			continue
		}
		st := &steps[i]
		switch st.kind {
		case stJump:
			if st.branch < 0 || s.taken(st.branch) {
				switch st.jump {
				case ir.JumpBreak:
					return flowBreak
				case ir.JumpContinue:
					return flowContinue
				default:
					return flowReturn
				}
			}
		case stBranch:
			body := st.els
			if s.taken(st.branch) {
				body = st.then
			}
			if f := s.run(body, -1); f != flowNext {
				return f
			}
		default:
			s.exec(st)
		}
	}
	return flowNext
}

// exec runs one step.
func (s *state) exec(st *step) {
	if s.err != nil || s.m.Fault != nil {
		return
	}
	switch st.kind {
	case stOpaque, stNested:
		id := uint64(st.id)
		if st.in != nil {
			id = uint64(st.in.ID)
		}
		h := hashOf(nil, 0x09a0, id, uint64(s.k+1))
		for _, u := range st.uses {
			h = hashOf(s.get(u), h)
		}
		for j, d := range st.defs {
			s.set(d, s.opaqueBytes(d, h+uint64(j)))
		}
		return
	}
	if sz := s.elem(st.in); st.in.Elem != "" && sz != s.rsz && st.kind != stLoadA && st.kind != stStoreA {
		s.fail(errInvalid) // T* and RegTensor<U> with sizeof(T) != sizeof(U) does not compile
		return
	}
	a, ok := s.address(st)
	if !ok {
		return
	}
	sz := s.elem(st.in)
	switch st.kind {
	case stPre:
		s.m.LoadUnAlignPre(s.lreg(st.ureg), a)
	case stLoadU:
		var v Vec
		s.m.LoadUnAlign(&v, s.lreg(st.ureg), a)
		s.set(st.data, v[:])
		s.observe(st, v[:])
		if st.ptrRW {
			if n, ok := s.count(st); ok {
				s.advance(st, n)
			}
		}
	case stStoreU:
		var data []byte
		if st.isMask {
			if sz > 4 {
				s.fail(errInvalid)
				return
			}
			data = PackMask(s.get(st.data), int(sz))
		} else {
			n, ok := s.count(st)
			if !ok {
				return
			}
			if n < 0 || n*sz > VLBytes {
				s.fail(errInvalid)
				return
			}
			data = s.get(st.data)[:n*sz]
		}
		s.m.StoreUnAlign(a, data, s.sreg(st.ureg))
		s.advance(st, int64(len(data))/s.rsz)
	case stPost:
		n, ok := s.count(st)
		if !ok {
			return
		}
		s.m.StoreUnAlignPost(s.sreg(st.ureg), a+int(n*s.rsz))
		s.advance(st, n)
	case stLoadA, stLoadG:
		var v Vec
		if st.kind == stLoadA {
			s.m.LoadAlign(&v, a)
		} else {
			copy(v[:], s.m.Read("Load", a, VLBytes))
		}
		s.set(st.data, v[:])
		s.observe(st, v[:])
		if st.ptrRW {
			if n, ok := s.count(st); ok {
				s.advance(st, n)
			}
		}
	case stStoreA:
		var v Vec
		copy(v[:], s.get(st.data))
		var mask []byte
		if st.masked {
			mask = s.get(st.mask)
		}
		s.m.StoreAlign(a, &v, mask, int(sz))
		if st.ptrRW {
			if n, ok := s.count(st); ok {
				s.advance(st, n)
			}
		}
	case stStoreG:
		n := VLBytes / sz
		if st.stride != nil {
			var ok bool
			if n, ok = s.count(st); !ok {
				return
			}
		}
		if n < 0 || n*sz > VLBytes {
			s.fail(errInvalid)
			return
		}
		s.m.WriteBytes("Store", a, s.get(st.data)[:n*sz])
	}
}

// outcome is what one replay leaves.
type outcome struct {
	fault error  // a machine fault
	err   error  // errInvalid or a refusal
	trace []obs  // vectors loaded from the stream's buffer
	ptr   int64  // the stream's pointer after the loop
	ureg  []byte // the stream's register after the loop
	ret   bool   // a return left the function from inside the loop
}

// replay runs the loop once, as written (fixed false) or rewritten.
func (p *prover) replay(m *Machine, b binding, fixed bool) outcome {
	m.Reset()
	s := &state{p: p, b: b, m: m, vals: map[regKey][]byte{}, lregs: map[regKey]*LoadReg{}, sregs: map[regKey]*StoreReg{}, k: -1}
	s.rsz = p.rootSize
	if s.rsz == 0 {
		s.rsz = b.sizes[p.rootType]
	}
	s.ptr = region + b.off
	s.entry = s.ptr
	if fixed && p.kind == hoist {
		s.iter = b.init
		s.exec(&p.steps[p.movedAt])
	}
	skip := -1
	if fixed {
		skip = p.movedAt
	}
	ret := false
	for k := 0; k < b.trip && !ret; k++ {
		s.k = k
		s.iter = b.init + int64(k)*p.stepBy
		if p.fresh && !fixed {
			delete(s.lregs, p.ureg)
			delete(s.sregs, p.ureg)
		}
		f := s.run(p.steps, skip)
		if f == flowBreak {
			break
		}
		ret = f == flowReturn
	}
	s.k = -1
	if fixed && p.kind == sink && !ret {
		s.exec(&p.steps[p.movedAt])
	}
	o := outcome{fault: m.Fault, err: s.err, trace: s.trace, ptr: s.ptr, ret: ret}
	if p.kind != sink {
		u := s.lreg(p.ureg)
		o.ureg = append([]byte(nil), u.Data[:]...)
	} else {
		u := s.sreg(p.ureg)
		o.ureg = append([]byte(nil), u.Data[:]...)
		o.ureg = binary.LittleEndian.AppendUint32(o.ureg, u.Valid)
		for k := range BlockBytes {
			if u.Valid&(1<<k) == 0 {
				o.ureg[k] = 0 // a byte that holds no data is not state
			}
		}
	}
	return o
}

// machines are machines over ubImage, reused from one proof to the next:
// a new one costs its UB and a copy of the image, and a file has a proof
// per stream site. A machine goes back Reset, as new (check never calls
// Set, which Reset would not undo).
var machines = sync.Pool{New: func() any { return NewMachine(ubImage()) }}

// check replays every case and returns "" when the rewrite is proven, or
// why not.
func (p *prover) check() string {
	ma, mb := machines.Get().(*Machine), machines.Get().(*Machine)
	defer func() {
		ma.Reset()
		mb.Reset()
		machines.Put(ma)
		machines.Put(mb)
	}()
	ran := 0
	var firstFault error
	for _, b := range p.cases() {
		before := p.replay(ma, b, false)
		if before.err != nil {
			var r refusal
			if errors.As(before.err, &r) {
				return r.Error()
			}
			continue
		}
		if before.fault != nil {
			if firstFault == nil {
				firstFault = before.fault
			}
			continue
		}
		after := p.replay(mb, b, true)
		ran++
		if why := p.compare(b, before, after, ma, mb); why != "" {
			return why
		}
	}
	if ran == 0 {
		if firstFault != nil {
			return "no case of the loop as written runs on the model (" + firstFault.Error() + ")"
		}
		return "no binding of the loop's symbols gives a valid case"
	}
	return ""
}

// compare returns "" when the two replays agree, or where they differ.
func (p *prover) compare(b binding, before, after outcome, ma, mb *Machine) string {
	with := "with " + p.describeCase(b) + ", "
	if after.err != nil {
		var r refusal
		if errors.As(after.err, &r) {
			return r.Error()
		}
		return with + "the rewritten loop is not a valid program"
	}
	if after.fault != nil {
		return with + "the rewritten loop faults: " + after.fault.Error()
	}
	for i, o := range before.trace {
		if i >= len(after.trace) {
			return with + "the rewritten loop loads less"
		}
		a := after.trace[i]
		if a.step != o.step || a.iter != o.iter {
			return with + "the rewritten loop loads in another order"
		}
		if !bytes.Equal(a.data, o.data) {
			in := p.all[o.step].in
			return fmt.Sprintf("%siteration %d's %s loads different data", with, o.iter+1, p.describe(in))
		}
	}
	if len(after.trace) > len(before.trace) {
		return with + "the rewritten loop loads more"
	}
	if addr, differ := FirstDiff(ma, mb); differ {
		rel := addr - (region + int(b.off))
		verb := "holds a different value"
		if ma.Written(addr) != mb.Written(addr) {
			verb = "is written by only one of them"
		}
		return fmt.Sprintf("%sUB byte %s%+d %s", with, p.root, rel, verb)
	}
	if before.ret != after.ret {
		return with + "the rewritten loop leaves by another path"
	}
	if before.ret {
		return "" // the function has returned: UB is all that is left
	}
	if before.ptr != after.ptr {
		return with + "the pointer " + p.root + " ends elsewhere"
	}
	if (b.trip > 0 || p.after) && !bytes.Equal(before.ureg, after.ureg) {
		return with + "the register " + p.fn.Regs[p.ureg.reg].Name + " ends with different contents"
	}
	return ""
}

// describeCase prints a binding for messages: "4-byte elements, dst at
// offset 12 of a 32-byte block, keep = 3, 2 iterations".
func (p *prover) describeCase(b binding) string {
	var parts []string
	if len(p.types) == 0 {
		parts = append(parts, fmt.Sprintf("%d-byte elements", p.rootSize))
	} else {
		ts := append([]string(nil), p.types...)
		sort.Strings(ts)
		for _, t := range ts {
			parts = append(parts, fmt.Sprintf("sizeof(%s) = %d", t, b.sizes[t]))
		}
	}
	parts = append(parts, fmt.Sprintf("%s at offset %d of a 32-byte block", p.root, b.off))
	for _, s := range p.syms {
		parts = append(parts, fmt.Sprintf("%s = %d", s, b.syms[s]))
	}
	if !p.initOK {
		parts = append(parts, fmt.Sprintf("%s starting at %d", p.lp.Var, b.init))
	}
	it := "iterations"
	if b.trip == 1 {
		it = "iteration"
	}
	parts = append(parts, fmt.Sprintf("%d %s", b.trip, it))
	for k, t := range b.taken {
		switch {
		case t == always:
			parts = append(parts, p.branches[k]+" taken in every iteration")
		case t >= 0 && t < b.trip:
			parts = append(parts, fmt.Sprintf("%s taken in iteration %d", p.branches[k], t+1))
		}
	}
	return strings.Join(parts, ", ")
}
