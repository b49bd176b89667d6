package replay

import (
	"encoding/binary"
	"slices"
	"testing"
)

// u32s returns b read as little-endian uint32 values.
func u32s(b []byte) []uint32 {
	out := make([]uint32, len(b)/4)
	for i := range out {
		out[i] = binary.LittleEndian.Uint32(b[4*i:])
	}
	return out
}

// seq returns lo, lo+1, ..., hi.
func seq(lo, hi uint32) []uint32 {
	var out []uint32
	for v := lo; v <= hi; v++ {
		out = append(out, v)
	}
	return out
}

func wantU32(t *testing.T, step, what string, got []byte, want []uint32) {
	t.Helper()
	if g := u32s(got); !slices.Equal(g, want) {
		t.Errorf("step %s: %s = %v, want %v", step, what, g, want)
	}
}

// TestSeedExample replays the worked example that closes seed 000
// (连续非对齐搬入搬出示例): the uint32 data 1..128 at UB 48..560 is loaded
// into dstReg and stored back, two loop iterations, with LoadUnAlignPre
// before the loop and StoreUnAlignPost after it. The register contents
// after each of the six steps are the seed's.
func TestSeedExample(t *testing.T) {
	m := NewMachine(nil)
	data := make([]byte, 4*128)
	for i := range 128 {
		binary.LittleEndian.PutUint32(data[4*i:], uint32(i+1))
	}
	m.Set(48, data)
	var (
		ureg1   = NewLoadReg()
		ureg2   StoreReg
		dstReg  Vec
		src     = 48 // post-updated by LoadUnAlign: 64 elements = 256 bytes
		dstAddr = 48 // post-updated by StoreUnAlign: 64 elements
	)

	// 1. 非对齐搬入初始化: ureg1 = [1, 2, 3, 4] (the block 32..64; 48..64 is the data).
	m.LoadUnAlignPre(ureg1, src)
	if ureg1.From != 32 {
		t.Errorf("step 1: ureg1 holds the block at %d, want 32", ureg1.From)
	}
	wantU32(t, "1", "ureg1 (valid part)", ureg1.Data[16:], seq(1, 4))

	// 2. 非对齐搬入: tmpReg = [5..68], dstReg = [1..64], ureg1 = [61..68].
	m.LoadUnAlign(&dstReg, ureg1, src)
	src += 64 * 4
	wantU32(t, "2", "tmpReg", m.Tmp[:], seq(5, 68))
	wantU32(t, "2", "dstReg", dstReg[:], seq(1, 64))
	wantU32(t, "2", "ureg1", ureg1.Data[:], seq(61, 68))

	// 3. 非对齐搬出: [1..60] written to UB 48..288, ureg2 = [61, 62, 63, 64].
	m.StoreUnAlign(dstAddr, dstReg[:64*4], &ureg2)
	dstAddr += 64 * 4
	if ureg2.Valid != 0xffff {
		t.Errorf("step 3: ureg2 valid bytes %#x, want the first 16", ureg2.Valid)
	}
	wantU32(t, "3", "ureg2", ureg2.Data[:16], seq(61, 64))
	checkWritten(t, "3", m, 48, 288)

	// 4. 非对齐搬入: tmpReg = [69..128, ...], dstReg = [65..128].
	m.LoadUnAlign(&dstReg, ureg1, src)
	src += 64 * 4
	wantU32(t, "4", "tmpReg (data part)", m.Tmp[:60*4], seq(69, 128))
	wantU32(t, "4", "dstReg", dstReg[:], seq(65, 128))
	if ureg1.From != 544 {
		t.Errorf("step 4: ureg1 holds the block at %d, want 544", ureg1.From)
	}

	// 5. 非对齐搬出: ureg2 [61..64] and dstReg [65..124] written to UB
	// 288..544, ureg2 = [125, 126, 127, 128].
	m.StoreUnAlign(dstAddr, dstReg[:64*4], &ureg2)
	dstAddr += 64 * 4
	wantU32(t, "5", "UB 288..544", m.UB[288:544], seq(61, 124))
	wantU32(t, "5", "ureg2", ureg2.Data[:16], seq(125, 128))
	checkWritten(t, "5", m, 48, 544)

	// 6. 非对齐搬出后处理: ureg2 [125..128] written to UB 544..560.
	m.StoreUnAlignPost(&ureg2, dstAddr)
	if !ureg2.Empty() {
		t.Errorf("step 6: ureg2 not empty after the Post")
	}
	wantU32(t, "6", "UB 48..560", m.UB[48:560], seq(1, 128))
	checkWritten(t, "6", m, 48, 560)
	if m.Fault != nil {
		t.Fatal(m.Fault)
	}
	if src != 560 || dstAddr != 560 {
		t.Errorf("pointers end at %d and %d, want 560", src, dstAddr)
	}
}

// TestSeedExampleElsewhere runs the seed's loop with the output 1 KB
// further on, so that every byte moved is visible.
func TestSeedExampleElsewhere(t *testing.T) {
	m := NewMachine(nil)
	data := make([]byte, 4*128)
	for i := range 128 {
		binary.LittleEndian.PutUint32(data[4*i:], uint32(i+1))
	}
	m.Set(48, data)
	u1, u2 := NewLoadReg(), &StoreReg{}
	var v Vec
	src, dst := 48, 1024+48
	m.LoadUnAlignPre(u1, src)
	for range 2 {
		m.LoadUnAlign(&v, u1, src)
		src += VLBytes
		m.StoreUnAlign(dst, v[:], u2)
		dst += VLBytes
	}
	m.StoreUnAlignPost(u2, dst)
	wantU32(t, "end", "UB 1072..1584", m.UB[1072:1584], seq(1, 128))
	checkWritten(t, "end", m, 1072, 1584)
}

// checkWritten checks that exactly the bytes [lo, hi) were written.
func checkWritten(t *testing.T, step string, m *Machine, lo, hi int) {
	t.Helper()
	for a := 0; a < 4096; a++ {
		if w := m.Written(a); w != (a >= lo && a < hi) {
			t.Errorf("step %s: byte %d written=%v, want the bytes [%d, %d) written", step, a, w, lo, hi)
			return
		}
	}
}
