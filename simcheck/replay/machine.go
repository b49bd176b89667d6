package replay

import (
	"fmt"
)

// Sizes of the model.
const (
	UBSize     = 256 << 10 // bytes of Unified Buffer on one vector core
	BlockBytes = 32        // a DataBlock: the unit of UB alignment and of the unaligned registers
	VLBytes    = 256       // one vector register (VL)
)

// Vec is the content of one vector register (RegTensor).
type Vec [VLBytes]byte

// LoadReg is an UnalignRegForLoad: one 32-byte DataBlock.
type LoadReg struct {
	Data [BlockBytes]byte // the cached block
	From int              // UB address of the block it was filled from, -1 when never filled; for tests and messages only: the hardware splices Data whatever it holds
}

// NewLoadReg returns a load register that holds nothing yet.
func NewLoadReg() *LoadReg { return &LoadReg{From: -1} }

// StoreReg is an UnalignRegForStore: the partial block a StoreUnAlign could
// not write yet. Position k of Data is byte k of a 32-byte block.
type StoreReg struct {
	Data  [BlockBytes]byte // pending bytes, by position in their block
	Valid uint32           // bit k: Data[k] holds a byte of the stream ("有效数据" in seed 000); 0 when empty
}

// Empty reports whether the register holds no pending byte.
func (u *StoreReg) Empty() bool { return u.Valid == 0 }

// Machine is the UB and the faults of one replay. The registers are values
// the caller owns and passes to each operation.
type Machine struct {
	UB    []byte   // UBSize bytes
	Tmp   Vec      // tmpReg of the last LoadUnAlign: the aligned 256 bytes it read
	Fault error    // the first fault (an access outside UB, a misaligned aligned access); later operations do nothing
	wrote []uint32 // per DataBlock: bit k set when byte k was written since Reset
	dirty []int    // DataBlocks written since Reset, for a fast Reset
	init  []byte   // what Reset restores: nil means all zero
}

// NewMachine returns a machine whose UB holds init (zero when init is nil;
// otherwise len(init) must be UBSize).
func NewMachine(init []byte) *Machine {
	if init != nil && len(init) != UBSize {
		panic("internal error: replay: initial UB image is not UBSize bytes")
	}
	m := &Machine{UB: make([]byte, UBSize), wrote: make([]uint32, UBSize/BlockBytes), init: init}
	if init != nil {
		copy(m.UB, init)
	}
	return m
}

// Reset restores the initial UB image and forgets writes and faults.
func (m *Machine) Reset() {
	for _, b := range m.dirty {
		a := b * BlockBytes
		if m.init == nil {
			clear(m.UB[a : a+BlockBytes])
		} else {
			copy(m.UB[a:a+BlockBytes], m.init[a:a+BlockBytes])
		}
		m.wrote[b] = 0
	}
	m.dirty = m.dirty[:0]
	m.Fault = nil
	m.Tmp = Vec{}
}

// Set stores data at addr as initial content: it is not recorded as written.
func (m *Machine) Set(addr int, data []byte) {
	if !m.in("Set", addr, len(data)) {
		return
	}
	copy(m.UB[addr:], data)
}

// Written reports whether the byte at addr was written since Reset.
func (m *Machine) Written(addr int) bool {
	return m.wrote[addr/BlockBytes]&(1<<(addr%BlockBytes)) != 0
}

func (m *Machine) write(addr int, b byte) {
	blk := addr / BlockBytes
	if m.wrote[blk] == 0 {
		m.dirty = append(m.dirty, blk)
	}
	m.wrote[blk] |= 1 << (addr % BlockBytes)
	m.UB[addr] = b
}

// in checks that [addr, addr+n) lies in UB and records a fault otherwise.
func (m *Machine) in(op string, addr, n int) bool {
	if m.Fault != nil {
		return false
	}
	if addr < 0 || n < 0 || addr+n > UBSize {
		m.Fault = fmt.Errorf("%s touches UB bytes [%d, %d), outside the %d KB UB", op, addr, addr+n, UBSize>>10)
		return false
	}
	return true
}

func (m *Machine) aligned(op string, addr int) bool {
	if m.Fault != nil {
		return false
	}
	if addr%BlockBytes != 0 {
		m.Fault = fmt.Errorf("%s at UB address %d, which is not 32-byte aligned", op, addr)
		return false
	}
	return true
}

func floor32(a int) int { return a - a%BlockBytes }

// LoadUnAlignPre primes u with the 32-byte block that holds src.
func (m *Machine) LoadUnAlignPre(u *LoadReg, src int) {
	if !m.in("LoadUnAlignPre", src, 0) {
		return
	}
	b := floor32(src)
	if !m.in("LoadUnAlignPre", b, BlockBytes) {
		return
	}
	copy(u.Data[:], m.UB[b:b+BlockBytes])
	u.From = b
}

// LoadUnAlign loads the 256 bytes at src into dst: it reads the next
// aligned 256 bytes after the block of src into tmpReg, splices the part of
// u from src's offset on with the head of tmpReg, and leaves tmpReg's last
// block in u (the block holding src+256, as a Pre at src+256 would).
func (m *Machine) LoadUnAlign(dst *Vec, u *LoadReg, src int) {
	if !m.in("LoadUnAlign", src, 0) {
		return
	}
	o := src % BlockBytes
	b := src - o
	if !m.in("LoadUnAlign", b+BlockBytes, VLBytes) {
		return
	}
	copy(m.Tmp[:], m.UB[b+BlockBytes:b+BlockBytes+VLBytes])
	n := copy(dst[:], u.Data[o:])
	copy(dst[n:], m.Tmp[:VLBytes-n])
	copy(u.Data[:], m.Tmp[VLBytes-BlockBytes:])
	u.From = b + VLBytes
}

// StoreUnAlign writes data (the stored elements of the source register) to
// dst. Everything below the last 32-byte boundary at or before the end is
// written; the bytes beyond it stay in u. When u holds pending bytes, the
// ones at positions before dst's offset are written in front of the data
// (the next store merges the previous tail); when it is empty, those bytes
// of UB are left alone.
func (m *Machine) StoreUnAlign(dst int, data []byte, u *StoreReg) {
	if !m.in("StoreUnAlign", dst, 0) {
		return
	}
	o := dst % BlockBytes
	b := dst - o
	if !m.in("StoreUnAlign", b, o+len(data)) {
		return
	}
	end := dst + len(data)
	cut := floor32(end)
	if cut > b {
		for p := 0; p < o; p++ {
			if u.Valid&(1<<p) != 0 {
				m.write(b+p, u.Data[p])
			}
		}
		for i, c := range data {
			if dst+i >= cut {
				break
			}
			m.write(dst+i, c)
		}
		var next StoreReg
		for p := 0; p < end-cut; p++ {
			next.Data[p] = data[cut+p-dst]
			next.Valid |= 1 << p
		}
		*u = next
		return
	}
	// Still inside dst's block: nothing is written, the data joins the
	// pending bytes.
	keep := uint32(1)<<o - 1
	u.Valid &= keep
	for i, c := range data {
		u.Data[o+i] = c
		u.Valid |= 1 << (o + i)
	}
}

// StoreUnAlignPost flushes u: it writes the pending bytes at positions
// before end's offset into end's block, and empties u.
func (m *Machine) StoreUnAlignPost(u *StoreReg, end int) {
	if !m.in("StoreUnAlignPost", end, 0) {
		return
	}
	o := end % BlockBytes
	b := end - o
	if !m.in("StoreUnAlignPost", b, o) {
		return
	}
	for p := 0; p < o; p++ {
		if u.Valid&(1<<p) != 0 {
			m.write(b+p, u.Data[p])
		}
	}
	*u = StoreReg{}
}

// LoadAlign loads the 256 bytes at src (LoadDist DIST_NORM), which must be
// 32-byte aligned.
func (m *Machine) LoadAlign(dst *Vec, src int) {
	if !m.aligned("LoadAlign", src) || !m.in("LoadAlign", src, VLBytes) {
		return
	}
	copy(dst[:], m.UB[src:src+VLBytes])
}

// StoreAlign stores src at dst (StoreDist DIST_NORM), which must be 32-byte
// aligned. Element k of elem bytes is stored when bit k*elem of mask is set
// (one predicate bit per byte lane); a nil mask stores every element.
func (m *Machine) StoreAlign(dst int, src *Vec, mask []byte, elem int) {
	if !m.aligned("StoreAlign", dst) || !m.in("StoreAlign", dst, VLBytes) {
		return
	}
	if elem <= 0 {
		elem = 1
	}
	for k := 0; k < VLBytes/elem; k++ {
		bit := k * elem
		if mask != nil && (bit/8 >= len(mask) || mask[bit/8]&(1<<(bit%8)) == 0) {
			continue
		}
		for j := 0; j < elem; j++ {
			m.write(dst+k*elem+j, src[k*elem+j])
		}
	}
}

// Read returns n bytes at addr for an unaligned generic Load (Pre and
// LoadUnAlign on a hidden register: the bytes themselves).
func (m *Machine) Read(op string, addr, n int) []byte {
	if !m.in(op, addr, n) {
		return nil
	}
	return append([]byte(nil), m.UB[addr:addr+n]...)
}

// WriteBytes writes data at addr byte for byte (a generic Store: StoreUnAlign
// and Post on a hidden register).
func (m *Machine) WriteBytes(op string, addr int, data []byte) {
	if !m.in(op, addr, len(data)) {
		return
	}
	for i, c := range data {
		m.write(addr+i, c)
	}
}

// PackMask packs a 256-bit predicate for an unaligned MaskReg store of
// elem-byte elements: one bit per element (the lowest bit of its lanes), so
// 32/elem bytes (16 bytes for b16, 8 for b32, as seed 000 describes; 32 for
// b8).
func PackMask(mask []byte, elem int) []byte {
	out := make([]byte, BlockBytes/elem)
	for k := 0; k < 8*len(out); k++ {
		bit := k * elem
		if bit/8 < len(mask) && mask[bit/8]&(1<<(bit%8)) != 0 {
			out[k/8] |= 1 << (k % 8)
		}
	}
	return out
}

// FirstDiff compares the UB bytes and the written bytes of a and b and
// returns the first address where they differ.
func FirstDiff(a, b *Machine) (addr int, differ bool) {
	best := -1
	check := func(blks []int) {
		for _, blk := range blks {
			if a.wrote[blk] == b.wrote[blk] {
				x := blk * BlockBytes
				same := true
				for k := x; k < x+BlockBytes; k++ {
					if a.UB[k] != b.UB[k] {
						same = false
						break
					}
				}
				if same {
					continue
				}
			}
			for k := blk * BlockBytes; k < (blk+1)*BlockBytes; k++ {
				if a.UB[k] != b.UB[k] || a.Written(k) != b.Written(k) {
					if best < 0 || k < best {
						best = k
					}
					break
				}
			}
		}
	}
	check(a.dirty)
	check(b.dirty)
	return best, best >= 0
}
