// Package replay is a byte-exact functional model of the Unified Buffer
// (UB) and of the unaligned registers of an Ascend 950 vector core, and a
// prover that replays a loop's unaligned stream on it before and after a
// rewrite. ASC1001 and ASC1002 offer their fixes (hoist a LoadUnAlignPre
// before its loop, sink a StoreUnAlignPost after it) only when ProveHoist or
// ProveSink says the rewritten loop loads and writes exactly what the
// original does.
//
// # The model
//
// UB is 256 KB of bytes with a record of which bytes were written. It is
// cut into 32-byte DataBlocks, the unit of UB alignment and of the unaligned
// registers; a vector register (VL) is 256 bytes. Following seed 000 (连续非对齐
// 场景优化) and vf-api.md §5.7:
//
//   - LoadUnAlignPre(u, src) copies the block holding src into u.
//   - LoadUnAlign(dst, u, src) reads the aligned 256 bytes after src's block
//     into tmpReg, and dst = u[src%32:] ++ tmpReg[:224+src%32]; u becomes
//     tmpReg's last block, which is the block holding src+256: exactly what a
//     Pre at src+256 would load. The post-update form then advances src by
//     its stride (elements). The hardware splices u whatever it holds, so a
//     stream whose next load does not start at src+256 reads stale bytes.
//   - StoreUnAlign(dst, data, u) writes every byte of the stream below the
//     last 32-byte boundary at or before dst+len(data), and keeps the bytes
//     beyond it in u, at their positions in their block. When u holds
//     pending bytes, those at positions before dst%32 are written in front
//     of the data (the tail of the previous store is merged); when u is
//     empty, the bytes of UB before dst are left alone. The post-update form
//     advances dst by the count stored. A MaskReg store stores the predicate
//     packed to one bit per element: 32/sizeof(T) bytes.
//   - StoreUnAlignPost(dst, u, off) writes u's pending bytes at positions
//     before end%32 into end's block, end = dst + off elements (the C API's
//     "offset of the end address"), and empties u.
//   - LoadAlign and StoreAlign (DIST_NORM) move 256 bytes at a 32-byte
//     aligned address; StoreAlign stores element k when predicate bit
//     k*sizeof(T) is set.
//
// The seed's worked example, as TestSeedExample replays it (uint32 data
// 1..128 at UB 48..560, two iterations, Pre before and Post after):
//
//	Pre(u1, 48)             u1 = block 32..64, data [1 2 3 4]
//	LoadUnAlign(r, u1, 48)  tmp = [5..68], r = [1..64], u1 = [61..68]
//	StoreUnAlign(48, r, u2) UB 48..288 = [1..60], u2 = [61..64]
//	LoadUnAlign(r, u1, 304) tmp = [69..128 ...], r = [65..128]
//	StoreUnAlign(304,r,u2)  UB 288..544 = [61..124], u2 = [125..128]
//	Post(u2, 560)           UB 544..560 = [125..128]
//
// Where the sources say nothing, the model assumes [A]:
//
//   - the store register knows which of its bytes hold data (the seed's
//     "有效数据"); a fresh register, and one a Post flushed, holds none, and
//     bytes that hold none are never written;
//   - a StoreUnAlignPost writes only the positions before end%32; pending
//     bytes at or beyond them are dropped;
//   - the post-update form of StoreUnAlignPost advances dst by its offset;
//   - a StoreAlign predicate bit per byte lane, the lowest lane of an element
//     governing it; a MaskReg store packs the lowest bit of each element.
//
// An access outside UB, or an aligned access at an unaligned address, is a
// fault, recorded on the Machine.
//
// # The proof
//
// ProveHoist and ProveSink decode the loop body once. Every instruction
// whose address names the stream's pointer (its root: src in src + i*VL),
// or an alias of it, is executed on the model: the stream's Pre, loads,
// stores and Post, aligned loads and stores, the generic Load and Store,
// and the pointer updates. Every other instruction is an uninterpreted
// function: the registers it writes get bytes hashed from the registers it
// reads, the instruction and the iteration, so that both runs compute the
// same values from the same inputs and any difference in what was loaded
// propagates. An if or an inner loop without a jump out of it is one such
// function. What the model does not describe (an AddrReg address, the
// AR-addressed StoreUnAlign and Post, a Gather or an unknown call on the
// stream's buffer, the buffer touched under an if or in an inner loop, an
// address that depends on a value the loop assigns, a goto) is not
// guessed: the proof refuses and says why.
//
// Every path through the loop is replayed. A break, continue or return
// (ir.Jump) under an if, a switch or an #if, and a return inside an inner
// loop, is a branch point; each case decides, per branch point, the
// iterations it is taken in: never, in exactly one of the iterations, in
// all of them, and two branch points in consecutive iterations. A continue
// skips the rest of the iteration (the pointer updates it skips are not
// made); a break leaves the loop, after which a sunk Post runs; a return
// leaves the function, so a sunk Post does not, and only UB is compared.
//
// Aliases. A pointer that the loop's instructions name may address the
// stream's buffer when its provenance meets the stream pointer's: the
// provenance of a name is the name and, transitively, the variables its
// declaration and assignments take their values from (ir.Func.Names),
// integer scalars left out. When the alias's value at the loop's entry is
// the stream pointer's plus an offset that folds per case (rd = dst + 8
// declared before the loop, or dst = base + off with base accessed), and
// neither moves in between, its loads and stores are executed on the model
// at their byte ranges: a read-back of bytes a Post flushes, or a store
// into the block a Pre re-reads, shows as a difference. An alias at an
// offset the replay cannot follow makes the proof refuse any access that
// could observe the rewrite (for a hoist, stores; for a sink, any access).
//
// The loop is replayed for every case: each element type whose size is not
// known bound to 1, 2, 4 and 8 bytes (all alike, then mixed when there are
// several), the stream's base at several offsets inside a DataBlock (0, 4,
// 12, 20, 28 bytes for 4-byte elements; multiples of the element size),
// each free scalar (a symbolic count or stride) bound to 1, 3, 8, 13,
// VL/2+1, VL-1 and VL elements, and trip counts 0 (not for a do loop), 1,
// 2, 3 and the folded trip count up to 8. A case that the original loop cannot run (a fault, a
// count beyond one vector, element types that do not match) is skipped;
// at least one must run. Each case runs twice, as written and rewritten
// (the Pre once before the loop at the first iteration's address, or the
// Post once after it), and the runs must agree on every vector loaded from
// the stream's buffer in every iteration, every UB byte written (value and
// whether it was written), the pointer at the end, and the stream's register
// at the end (for trip count 0 only when the register is used after the
// loop).
//
// Two facts are assumed rather than proven [A]: pointers of disjoint
// provenance (distinct parameters, tensors, and what is derived from them)
// address disjoint UB ranges, and the stream's register holds nothing
// pending when the loop is entered.
//
// The package imports only the standard library and cppfront/ir, so it is
// tested without cgo, on IR built with irtest.
package replay
