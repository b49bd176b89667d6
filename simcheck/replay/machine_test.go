package replay

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"
)

// patterned returns a machine whose UB holds the replay's pattern.
func patterned() *Machine { return NewMachine(ubImage()) }

func TestPreAligned(t *testing.T) {
	m := patterned()
	u := NewLoadReg()
	m.LoadUnAlignPre(u, 1024)
	if u.From != 1024 || !bytes.Equal(u.Data[:], m.UB[1024:1056]) {
		t.Errorf("Pre at an aligned address holds the block at %d", u.From)
	}
	m.LoadUnAlignPre(u, 1024+31)
	if u.From != 1024 {
		t.Errorf("Pre at 1055 holds the block at %d, want 1024", u.From)
	}
}

// A primed load returns the 256 bytes at src whatever src's offset, and
// leaves the register primed for src+256.
func TestLoadUnAlignOffsets(t *testing.T) {
	for off := range BlockBytes {
		m := patterned()
		u := NewLoadReg()
		src := 4096 + off
		m.LoadUnAlignPre(u, src)
		var v Vec
		m.LoadUnAlign(&v, u, src)
		if !bytes.Equal(v[:], m.UB[src:src+VLBytes]) {
			t.Errorf("offset %d: LoadUnAlign does not return UB[src, src+256)", off)
		}
		if !bytes.Equal(m.Tmp[:], m.UB[4096+32:4096+288]) {
			t.Errorf("offset %d: tmpReg is not the aligned 256 bytes after src's block", off)
		}
		if u.From != 4096+VLBytes || !bytes.Equal(u.Data[:], m.UB[4096+256:4096+288]) {
			t.Errorf("offset %d: the register holds the block at %d, want %d", off, u.From, 4096+256)
		}
		m.LoadUnAlign(&v, u, src+VLBytes)
		if !bytes.Equal(v[:], m.UB[src+VLBytes:src+2*VLBytes]) {
			t.Errorf("offset %d: the second load of the stream is wrong", off)
		}
	}
}

// A stream whose stride is not one vector splices a stale block: the
// register holds the block after the previous 256 bytes, not the block of
// the new address. Only a fresh Pre fixes it.
func TestLoadUnAlignShortStride(t *testing.T) {
	m := patterned()
	u := NewLoadReg()
	src := 8192 + 12
	m.LoadUnAlignPre(u, src)
	var v Vec
	m.LoadUnAlign(&v, u, src)
	m.LoadUnAlign(&v, u, src+128) // 32 floats: half a vector
	if bytes.Equal(v[:], m.UB[src+128:src+384]) {
		t.Fatal("a load 128 bytes on, without a Pre, returned the right bytes")
	}
	if !bytes.Equal(v[32-12:], m.UB[src+128+20:src+384]) {
		t.Error("the bytes after the spliced block should still come from UB")
	}
	m.LoadUnAlignPre(u, src+128)
	m.LoadUnAlign(&v, u, src+128)
	if !bytes.Equal(v[:], m.UB[src+128:src+384]) {
		t.Error("a Pre at the new address does not repair the stream")
	}
}

func TestStoreUnAlignAligned(t *testing.T) {
	m := NewMachine(nil)
	var u StoreReg
	data := bytes.Repeat([]byte{7}, VLBytes)
	m.StoreUnAlign(2048, data, &u)
	if !u.Empty() {
		t.Error("an aligned full vector leaves a tail")
	}
	for a := 2000; a < 2400; a++ {
		if m.Written(a) != (a >= 2048 && a < 2048+VLBytes) {
			t.Fatalf("byte %d written=%v", a, m.Written(a))
		}
	}
	m.StoreUnAlignPost(&u, 2048+VLBytes)
	if len(m.dirty) != VLBytes/BlockBytes {
		t.Error("a Post of an empty register wrote something")
	}
}

// Counts that are not multiples of 32 bytes, starting mid-block: the bytes
// written are exactly the stream's, whether the Post runs after every store
// or once at the end.
func TestStoreUnAlignPartial(t *testing.T) {
	for _, n := range []int{1, 4, 20, 32, 33, 100, 255, 256} {
		for _, off := range []int{0, 4, 12, 20, 28, 31} {
			start := 1024 + off
			var want []byte
			for i := range 5 * n {
				want = append(want, byte(i*7+3))
			}
			once, each := NewMachine(nil), NewMachine(nil)
			var u1, u2 StoreReg
			d1, d2 := start, start
			for k := range 5 {
				chunk := want[k*n : (k+1)*n]
				once.StoreUnAlign(d1, chunk, &u1)
				d1 += n
				each.StoreUnAlign(d2, chunk, &u2)
				d2 += n
				each.StoreUnAlignPost(&u2, d2)
			}
			once.StoreUnAlignPost(&u1, d1)
			for _, m := range []*Machine{once, each} {
				if m.Fault != nil {
					t.Fatal(m.Fault)
				}
				if !bytes.Equal(m.UB[start:start+5*n], want) {
					t.Errorf("n=%d off=%d: wrong bytes", n, off)
				}
				for a := 900; a < start+5*n+64; a++ {
					if m.Written(a) != (a >= start && a < start+5*n) {
						t.Errorf("n=%d off=%d: byte %d written=%v", n, off, a, m.Written(a))
						break
					}
				}
			}
			if a, differ := FirstDiff(once, each); differ {
				t.Errorf("n=%d off=%d: the two streams differ at %d", n, off, a)
			}
		}
	}
}

// A store that ends inside its first block writes nothing; the Post writes
// only the bytes the stream holds (the last partial block).
func TestStoreUnAlignWithinBlock(t *testing.T) {
	m := NewMachine(nil)
	var u StoreReg
	m.StoreUnAlign(4096+8, []byte{1, 2, 3, 4}, &u)
	if len(m.dirty) != 0 {
		t.Fatal("a store inside one block wrote UB")
	}
	if u.Valid != 0xf<<8 {
		t.Errorf("valid %#x, want bytes 8..12", u.Valid)
	}
	m.StoreUnAlign(4096+12, []byte{5, 6}, &u)
	m.StoreUnAlignPost(&u, 4096+14)
	if !bytes.Equal(m.UB[4096+8:4096+14], []byte{1, 2, 3, 4, 5, 6}) {
		t.Errorf("UB %v", m.UB[4096+8:4096+14])
	}
	for a := 4096; a < 4096+32; a++ {
		if m.Written(a) != (a >= 4096+8 && a < 4096+14) {
			t.Errorf("byte %d written=%v", a, m.Written(a))
		}
	}
	if !u.Empty() {
		t.Error("the Post did not empty the register")
	}
	var z StoreReg
	m.StoreUnAlign(4096+40, nil, &z) // a count of zero
	if !z.Empty() || len(m.dirty) != 1 {
		t.Error("a store of nothing changed something")
	}
}

// A Post whose end is not where the stream ended writes the pending bytes
// at the end's block (the register does not know its address).
func TestPostElsewhere(t *testing.T) {
	m := NewMachine(nil)
	var u StoreReg
	m.StoreUnAlign(64+16, []byte{9, 9, 9, 9}, &u) // pending at positions 16..20
	m.StoreUnAlignPost(&u, 256+20)
	if !m.Written(256+16) || m.Written(64+16) {
		t.Error("the Post should write positions 16..20 of the end's block")
	}
}

func TestFaults(t *testing.T) {
	cases := []struct {
		name string
		run  func(m *Machine)
		want string
	}{
		{"load beyond UB", func(m *Machine) { var v Vec; m.LoadUnAlign(&v, NewLoadReg(), UBSize-100) }, "outside"},
		{"negative Pre", func(m *Machine) { m.LoadUnAlignPre(NewLoadReg(), -4) }, "outside"},
		{"store beyond UB", func(m *Machine) { m.StoreUnAlign(UBSize-10, make([]byte, 40), &StoreReg{}) }, "outside"},
		{"misaligned LoadAlign", func(m *Machine) { var v Vec; m.LoadAlign(&v, 36) }, "not 32-byte aligned"},
		{"misaligned StoreAlign", func(m *Machine) { m.StoreAlign(4, &Vec{}, nil, 4) }, "not 32-byte aligned"},
	}
	for _, c := range cases {
		m := NewMachine(nil)
		c.run(m)
		if m.Fault == nil || !strings.Contains(m.Fault.Error(), c.want) {
			t.Errorf("%s: fault %v, want %q", c.name, m.Fault, c.want)
		}
		m.StoreUnAlignPost(&StoreReg{Valid: 1}, 33)
		if len(m.dirty) != 0 {
			t.Errorf("%s: an operation after the fault wrote UB", c.name)
		}
		m.Reset()
		if m.Fault != nil {
			t.Errorf("%s: Reset keeps the fault", c.name)
		}
	}
}

func TestAlignedAndMasked(t *testing.T) {
	m := patterned()
	var v Vec
	m.LoadAlign(&v, 512)
	if !bytes.Equal(v[:], m.UB[512:768]) {
		t.Error("LoadAlign")
	}
	mask := make([]byte, 32)
	mask[0] = 0x11 // lanes 0 and 4: elements 0 and 1 of a b32 store
	m.StoreAlign(1024, &v, mask, 4)
	for a := 1024; a < 1024+VLBytes; a++ {
		if m.Written(a) != (a < 1024+8) {
			t.Fatalf("byte %d written=%v", a, m.Written(a))
		}
	}
	m.Reset()
	if m.Written(1024) || !bytes.Equal(m.UB, ubImage()) {
		t.Error("Reset did not restore UB")
	}
}

func TestPackMask(t *testing.T) {
	mask := make([]byte, 32)
	for i := range mask {
		mask[i] = 0x55 // every even lane
	}
	if p := PackMask(mask, 2); len(p) != 16 || p[0] != 0xff {
		t.Errorf("b16: %x", p)
	}
	if p := PackMask(mask, 4); len(p) != 8 || p[0] != 0xff {
		t.Errorf("b32: %x", p)
	}
	if p := PackMask(mask, 1); len(p) != 32 || p[0] != 0x55 {
		t.Errorf("b8: %x", p)
	}
}

// A random contiguous store stream, flushed once or after every store,
// writes exactly its bytes.
func TestStoreStreamRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for range 200 {
		start := 4096 + r.IntN(64)
		var chunks [][]byte
		total := 0
		for range 1 + r.IntN(6) {
			c := make([]byte, r.IntN(VLBytes+1))
			for i := range c {
				c[i] = byte(r.Uint32())
			}
			chunks = append(chunks, c)
			total += len(c)
		}
		once, each := NewMachine(nil), NewMachine(nil)
		var u1, u2 StoreReg
		d := start
		var want []byte
		for _, c := range chunks {
			once.StoreUnAlign(d, c, &u1)
			each.StoreUnAlign(d, c, &u2)
			d += len(c)
			each.StoreUnAlignPost(&u2, d)
			want = append(want, c...)
		}
		once.StoreUnAlignPost(&u1, d)
		if !bytes.Equal(once.UB[start:start+total], want) {
			t.Fatalf("stream from %d: wrong bytes", start)
		}
		if a, differ := FirstDiff(once, each); differ {
			t.Fatalf("stream from %d: flushing every store differs at %d", start, a)
		}
	}
}
