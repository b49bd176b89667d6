// ascend_host.h: a host model of the Ascend C Reg API subset that ascvet's
// fixes touch, so that a kernel can be compiled with the system C++ compiler
// and run before and after `ascvet -fix` (issue 32; cmd/ascvet
// TestFixProbes). C++17, header only.
//
// The model follows seed 000 (连续非对齐场景优化), vf-api.md §3 rows 12-30
// and §5 ("Unalign registers are loop-carried state"), and agrees byte for
// byte with the Go model in simcheck/replay/machine.go:
//
//   - UB is a static array of 256 KB; a `__ubuf__ T*` is a real pointer into
//     it (`__ubuf__` is defined away). Its UB address is its offset from the
//     start of the array, which is 256-byte aligned.
//   - A RegTensor<T> is 256 bytes; a MaskReg is 256 predicate bits, one per
//     byte lane (element k of a T is governed by bit k*sizeof(T)).
//   - LoadUnAlignPre(u, src) copies the 32-byte block holding src (address
//     rounded down) into u.
//   - LoadUnAlign(dst, u, src) reads the aligned 256 bytes after src's block
//     (tmpReg); dst = u[src%32:] ++ tmpReg[:224+src%32]; u becomes tmpReg's
//     last block. The post-update form then advances src by its stride.
//   - StoreUnAlign(dst, src, u, count) writes the stream's bytes below the
//     last 32-byte boundary at or before dst+count elements and keeps the
//     rest in u at their positions in their block; pending bytes of u at
//     positions before dst%32 are written in front (the previous tail is
//     merged). When the data ends inside dst's block nothing is written and
//     the data joins u. The post-update form advances dst by count.
//   - StoreUnAlignPost(dst, u, off) writes u's pending bytes at positions
//     before end%32 into end's block, end = dst + off elements, and empties
//     u; the form that takes dst by reference advances it by off.
//   - LoadAlign and StoreAlign (DIST_NORM) move 256 bytes at a 32-byte
//     aligned address; StoreAlign stores element k when its mask bit is set.
//   - Compute ops (Add, Adds, Mul, Muls, Sub, Max, Min, Abs, Exp, Duplicate)
//     are element-wise with MaskMergeMode ZEROING (inactive lanes become 0),
//     unless MaskMergeMode::MERGING is among their template arguments (an
//     inactive lane keeps the destination's value).
//
// A fault (an access outside UB, an aligned access at an unaligned address)
// prints a message and aborts: it never passes silently.
//
// Registers start zeroed, so that a run is deterministic.
#ifndef ASCVET_TESTDATA_HOSTMODEL_ASCEND_HOST_H
#define ASCVET_TESTDATA_HOSTMODEL_ASCEND_HOST_H

#include <cmath>
#include <cstdarg>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <type_traits>

// Qualifiers and scopes of the device compiler, defined away.
#define __simd_vf__
#define __simd_callee__
#define __simd_caller__
#define __aicore__
#define __global__
#define __ubuf__
#define __local_mem__
#define __VEC_SCOPE__ // `__VEC_SCOPE__ { ... }` is a plain block

using half = _Float16;

namespace ascend_host {

constexpr long kUBSize = 256 << 10; // bytes of Unified Buffer
constexpr long kBlock = 32;         // a DataBlock: the unit of UB alignment and of the unaligned registers
constexpr long kVL = 256;           // bytes of one vector register

alignas(256) inline uint8_t ub[kUBSize];
inline uint8_t ubInit[kUBSize]; // what Reset filled UB with

// Fault reports a fault of the kernel and aborts.
[[noreturn]] inline void Fault(const char* fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    std::fflush(stdout);
    std::fprintf(stderr, "ascend_host: fault: ");
    std::vfprintf(stderr, fmt, ap);
    std::fprintf(stderr, "\n");
    va_end(ap);
    std::abort();
}

// Addr returns the UB address of p, which must point into UB (or at its end).
inline long Addr(const char* op, const void* p)
{
    long a = static_cast<long>(reinterpret_cast<uintptr_t>(p) - reinterpret_cast<uintptr_t>(ub));
    if (a < 0 || a > kUBSize) {
        Fault("%s at a pointer %p that is not in UB", op, p);
    }
    return a;
}

// In checks that [a, a+n) lies in UB.
inline void In(const char* op, long a, long n)
{
    if (a < 0 || n < 0 || a + n > kUBSize) {
        Fault("%s touches UB bytes [%ld, %ld), outside the %ld KB UB", op, a, a + n, kUBSize >> 10);
    }
}

// Aligned checks that a is 32-byte aligned.
inline void Aligned(const char* op, long a)
{
    if (a % kBlock != 0) {
        Fault("%s at UB address %ld, which is not 32-byte aligned", op, a);
    }
}

inline long Floor32(long a) { return a - a % kBlock; }

// Ub returns a pointer of type T* at byte offset off of UB.
template <typename T>
T* Ub(long off)
{
    In("Ub", off, 0);
    return reinterpret_cast<T*>(ub + off);
}

// Reset fills UB with a pattern that differs at every byte and depends on seed.
inline void Reset(uint32_t seed = 1)
{
    uint32_t x = 0x9e3779b9u ^ seed;
    for (long i = 0; i < kUBSize; i++) {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        ub[i] = static_cast<uint8_t>(x >> 11);
    }
    std::memcpy(ubInit, ub, sizeof ub);
}

inline uint64_t Fnv(const uint8_t* p, long n)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (long i = 0; i < n; i++) {
        h ^= p[i];
        h *= 0x100000001b3ull;
    }
    return h;
}

// Report prints a line named by fmt with the hash of UB, then each range of
// bytes that differ from what Reset filled in: its bounds, its hash and its
// first bytes in hex.
inline void Report(const char* fmt, ...)
{
    char label[256];
    va_list ap;
    va_start(ap, fmt);
    std::vsnprintf(label, sizeof label, fmt, ap);
    va_end(ap);
    std::printf("%s: ub %016llx\n", label, static_cast<unsigned long long>(Fnv(ub, kUBSize)));
    for (long i = 0; i < kUBSize;) {
        if (ub[i] == ubInit[i]) {
            i++;
            continue;
        }
        long j = i;
        while (j < kUBSize && (ub[j] != ubInit[j] || (j + 1 < kUBSize && ub[j + 1] != ubInit[j + 1]))) {
            j++;
        }
        std::printf("  [%ld,%ld) %016llx", i, j, static_cast<unsigned long long>(Fnv(ub + i, j - i)));
        for (long k = i; k < j && k < i + 48; k++) {
            std::printf("%s%02x", k % 4 == 0 || k == i ? " " : "", ub[k]);
        }
        std::printf("%s\n", j - i > 48 ? " ..." : "");
        i = j;
    }
}

} // namespace ascend_host

namespace AscendC {

constexpr uint32_t VECTOR_REG_WIDTH = 256; // bytes of one vector register
constexpr uint32_t VRegSize = 256;
constexpr uint32_t ONE_BLK_SIZE = 32;

namespace Reg {

enum class PostLiteral { POST_MODE_NORMAL, POST_MODE_UPDATE };
enum class MaskPattern { ALL, ALLF, VL1, VL2, VL4, VL8, VL16, VL32, VL64, VL128, M3, M4, H, Q };
enum class MaskMergeMode { ZEROING, MERGING };
enum class LoadDist { DIST_NORM };
enum class StoreDist { DIST_NORM, DIST_NORM_B8, DIST_NORM_B16, DIST_NORM_B32 };
struct DefaultType {};

template <typename T>
struct Id {
    using type = T;
};

// RegTensor is one vector register: 256 bytes.
template <typename T, typename Trait = void>
struct RegTensor {
    alignas(32) uint8_t b[ascend_host::kVL] = {};
    static constexpr int kN = ascend_host::kVL / sizeof(T);
    T Get(int k) const
    {
        T v;
        std::memcpy(&v, b + k * sizeof(T), sizeof(T));
        return v;
    }
    void Set(int k, T v) { std::memcpy(b + k * sizeof(T), &v, sizeof(T)); }
};

// MaskReg is 256 predicate bits, one per byte lane.
struct MaskReg {
    uint8_t bits[32] = {};
    bool Lane(int byte) const { return (bits[byte / 8] >> (byte % 8)) & 1; }
    void SetLane(int byte, bool on)
    {
        if (on) {
            bits[byte / 8] |= 1 << (byte % 8);
        } else {
            bits[byte / 8] &= ~(1 << (byte % 8));
        }
    }
    template <typename T>
    bool Elem(int k) const { return Lane(k * sizeof(T)); }
};

// UnalignReg is one 32-byte DataBlock. A load stream keeps in data the block
// it will splice next; a store stream keeps the pending bytes of its tail,
// by position in their block, valid saying which positions hold one.
struct UnalignReg {
    uint8_t data[32] = {};
    uint32_t valid = 0; // store: bit k set when data[k] is pending
    long from = -1;     // load: UB address of the block it was filled from, -1 when never filled
};
using UnalignRegForLoad = UnalignReg;
using UnalignRegForStore = UnalignReg;

// ---- masks

template <typename T, auto... P>
MaskReg CreateMask()
{
    MaskReg m;
    bool none = ((P == MaskPattern::ALLF) || ... || false);
    std::memset(m.bits, none ? 0 : 0xff, sizeof m.bits);
    return m;
}

// UpdateMask sets the first min(count, VL/sizeof(T)) elements and takes
// them off count.
template <typename T, auto... P>
MaskReg UpdateMask(uint32_t& count)
{
    MaskReg m;
    uint32_t vl = ascend_host::kVL / sizeof(T);
    uint32_t k = count < vl ? count : vl;
    for (uint32_t e = 0; e < k; e++) {
        for (uint32_t j = 0; j < sizeof(T); j++) {
            m.SetLane(e * sizeof(T) + j, true);
        }
    }
    count -= k;
    return m;
}

// ---- element-wise compute (ZEROING: an inactive element becomes 0;
// MERGING: it keeps the destination's value)

template <typename V>
constexpr bool IsMerging(V v)
{
    if constexpr (std::is_same_v<V, MaskMergeMode>) {
        return v == MaskMergeMode::MERGING;
    } else {
        return false;
    }
}

template <bool Merge = false, typename T, typename F>
void Map(RegTensor<T>& dst, const MaskReg& m, F f)
{
    RegTensor<T> out;
    for (int k = 0; k < RegTensor<T>::kN; k++) {
        out.Set(k, m.template Elem<T>(k) ? f(k) : Merge ? dst.Get(k) : T(0));
    }
    dst = out;
}

template <typename T, auto... M>
void Add(RegTensor<T>& dst, const RegTensor<T>& a, const RegTensor<T>& b, const MaskReg& m)
{
    Map<(IsMerging(M) || ... || false)>(dst, m, [&](int k) { return T(a.Get(k) + b.Get(k)); });
}

template <typename T, auto... M>
void Sub(RegTensor<T>& dst, const RegTensor<T>& a, const RegTensor<T>& b, const MaskReg& m)
{
    Map<(IsMerging(M) || ... || false)>(dst, m, [&](int k) { return T(a.Get(k) - b.Get(k)); });
}

template <typename T, auto... M>
void Mul(RegTensor<T>& dst, const RegTensor<T>& a, const RegTensor<T>& b, const MaskReg& m)
{
    Map<(IsMerging(M) || ... || false)>(dst, m, [&](int k) { return T(a.Get(k) * b.Get(k)); });
}

template <typename T, auto... M>
void Max(RegTensor<T>& dst, const RegTensor<T>& a, const RegTensor<T>& b, const MaskReg& m)
{
    Map<(IsMerging(M) || ... || false)>(dst, m, [&](int k) { return a.Get(k) < b.Get(k) ? b.Get(k) : a.Get(k); });
}

template <typename T, auto... M>
void Min(RegTensor<T>& dst, const RegTensor<T>& a, const RegTensor<T>& b, const MaskReg& m)
{
    Map<(IsMerging(M) || ... || false)>(dst, m, [&](int k) { return b.Get(k) < a.Get(k) ? b.Get(k) : a.Get(k); });
}

template <typename T, auto... M>
void Adds(RegTensor<T>& dst, const RegTensor<T>& a, typename Id<T>::type s, const MaskReg& m)
{
    Map<(IsMerging(M) || ... || false)>(dst, m, [&](int k) { return T(a.Get(k) + s); });
}

template <typename T, auto... M>
void Muls(RegTensor<T>& dst, const RegTensor<T>& a, typename Id<T>::type s, const MaskReg& m)
{
    Map<(IsMerging(M) || ... || false)>(dst, m, [&](int k) { return T(a.Get(k) * s); });
}

template <typename T, auto... M>
void Abs(RegTensor<T>& dst, const RegTensor<T>& a, const MaskReg& m)
{
    Map<(IsMerging(M) || ... || false)>(dst, m, [&](int k) {
        T x = a.Get(k);
        if constexpr (std::is_unsigned_v<T>) {
            return x;
        } else {
            return x < T(0) ? T(-x) : x;
        }
    });
}

template <typename T, auto... M>
void Exp(RegTensor<T>& dst, const RegTensor<T>& a, const MaskReg& m)
{
    static_assert(!std::is_integral_v<T>, "Exp takes floating-point data");
    Map<(IsMerging(M) || ... || false)>(dst, m, [&](int k) { return T(std::exp(double(a.Get(k)))); });
}

template <typename T, auto... M>
void Duplicate(RegTensor<T>& dst, typename Id<T>::type s, const MaskReg& m)
{
    Map<(IsMerging(M) || ... || false)>(dst, m, [&](int) { return T(s); });
}

template <typename T, auto... M>
void Duplicate(RegTensor<T>& dst, typename Id<T>::type s)
{
    Duplicate(dst, s, CreateMask<T>());
}

// ---- aligned load and store (DIST_NORM)

template <typename T = DefaultType, auto... M, typename U>
void LoadAlign(RegTensor<U>& dst, T* src)
{
    long a = ascend_host::Addr("LoadAlign", src);
    ascend_host::Aligned("LoadAlign", a);
    ascend_host::In("LoadAlign", a, ascend_host::kVL);
    std::memcpy(dst.b, ascend_host::ub + a, ascend_host::kVL);
}

// LoadAlign<T, POST_MODE_UPDATE>(dst, src&, stride): then src += stride elements.
template <typename T = DefaultType, auto... M, typename U>
void LoadAlign(RegTensor<U>& dst, T*& src, uint32_t stride)
{
    LoadAlign(dst, static_cast<T*>(src));
    src += stride;
}

template <typename T = DefaultType, auto... M, typename U>
void StoreAlign(T* dst, const RegTensor<U>& src, const MaskReg& mask)
{
    long a = ascend_host::Addr("StoreAlign", dst);
    ascend_host::Aligned("StoreAlign", a);
    ascend_host::In("StoreAlign", a, ascend_host::kVL);
    for (long k = 0; k < ascend_host::kVL / long(sizeof(T)); k++) {
        if (mask.Lane(k * sizeof(T))) {
            std::memcpy(ascend_host::ub + a + k * sizeof(T), src.b + k * sizeof(T), sizeof(T));
        }
    }
}

// StoreAlign<T, POST_MODE_UPDATE>(dst&, src, stride, mask): then dst += stride elements.
template <typename T = DefaultType, auto... M, typename U>
void StoreAlign(T*& dst, const RegTensor<U>& src, uint32_t stride, const MaskReg& mask)
{
    StoreAlign(static_cast<T*>(dst), src, mask);
    dst += stride;
}

// ---- the unaligned streams

template <typename T = DefaultType, auto... M>
void LoadUnAlignPre(UnalignRegForLoad& u, T* src)
{
    long a = ascend_host::Addr("LoadUnAlignPre", src);
    long b = ascend_host::Floor32(a);
    ascend_host::In("LoadUnAlignPre", b, ascend_host::kBlock);
    std::memcpy(u.data, ascend_host::ub + b, ascend_host::kBlock);
    u.from = b;
}

template <typename T = DefaultType, auto... M, typename U>
void LoadUnAlign(RegTensor<U>& dst, UnalignRegForLoad& u, T* src)
{
    long a = ascend_host::Addr("LoadUnAlign", src);
    long o = a % ascend_host::kBlock;
    long b = a - o;
    ascend_host::In("LoadUnAlign", b + ascend_host::kBlock, ascend_host::kVL);
    uint8_t tmp[ascend_host::kVL];
    std::memcpy(tmp, ascend_host::ub + b + ascend_host::kBlock, ascend_host::kVL);
    long n = ascend_host::kBlock - o;
    std::memcpy(dst.b, u.data + o, n);
    std::memcpy(dst.b + n, tmp, ascend_host::kVL - n);
    std::memcpy(u.data, tmp + ascend_host::kVL - ascend_host::kBlock, ascend_host::kBlock);
    u.from = b + ascend_host::kVL;
}

// LoadUnAlign<T, POST_MODE_UPDATE>(dst, u, src&, stride): then src += stride elements.
template <typename T = DefaultType, auto... M, typename U>
void LoadUnAlign(RegTensor<U>& dst, UnalignRegForLoad& u, T*& src, uint32_t stride)
{
    LoadUnAlign(dst, u, static_cast<T*>(src));
    src += stride;
}

namespace detail {

// storeBytes is StoreUnAlign of n bytes of data at UB address dst.
inline void StoreBytes(long dst, const uint8_t* data, long n, UnalignRegForStore& u)
{
    long o = dst % ascend_host::kBlock;
    long b = dst - o;
    ascend_host::In("StoreUnAlign", b, o + n);
    long end = dst + n;
    long cut = ascend_host::Floor32(end);
    if (cut > b) {
        for (long p = 0; p < o; p++) {
            if (u.valid & (1u << p)) {
                ascend_host::ub[b + p] = u.data[p];
            }
        }
        for (long i = 0; i < n && dst + i < cut; i++) {
            ascend_host::ub[dst + i] = data[i];
        }
        UnalignRegForStore next;
        for (long p = 0; p < end - cut; p++) {
            next.data[p] = data[cut + p - dst];
            next.valid |= 1u << p;
        }
        u = next;
        return;
    }
    // Still inside dst's block: nothing is written, the data joins the pending bytes.
    u.valid &= (1u << o) - 1;
    for (long i = 0; i < n; i++) {
        u.data[o + i] = data[i];
        u.valid |= 1u << (o + i);
    }
}

inline void Post(long end, UnalignRegForStore& u)
{
    long o = end % ascend_host::kBlock;
    long b = end - o;
    ascend_host::In("StoreUnAlignPost", b, o);
    for (long p = 0; p < o; p++) {
        if (u.valid & (1u << p)) {
            ascend_host::ub[b + p] = u.data[p];
        }
    }
    u = UnalignRegForStore{};
}

template <typename T, typename U>
void StoreCount(T* dst, const RegTensor<U>& src, UnalignRegForStore& u, uint32_t count)
{
    long a = ascend_host::Addr("StoreUnAlign", dst);
    long n = long(count) * long(sizeof(T));
    if (n > ascend_host::kVL) {
        ascend_host::Fault("StoreUnAlign of %u elements of %zu bytes: more than one vector", count, sizeof(T));
    }
    StoreBytes(a, src.b, n, u);
}

} // namespace detail

// StoreUnAlign<T, POST_MODE_UPDATE>(dst&, src, u, count): stores the first
// count elements of src, then dst += count.
template <typename T = DefaultType, auto... M, typename U>
void StoreUnAlign(T*& dst, const RegTensor<U>& src, UnalignRegForStore& u, uint32_t count)
{
    detail::StoreCount(static_cast<T*>(dst), src, u, count);
    dst += count;
}

// The plain form, at an address that is not a variable: nothing to update.
template <typename T = DefaultType, auto... M, typename U>
void StoreUnAlign(T*&& dst, const RegTensor<U>& src, UnalignRegForStore& u, uint32_t count)
{
    detail::StoreCount(static_cast<T*>(dst), src, u, count);
}

// StoreUnAlign(dst&, mask, u): the predicate packed to one bit per element
// of T (32/sizeof(T) bytes), then dst advances by those bytes.
template <typename T = DefaultType, auto... M>
void StoreUnAlign(T*& dst, const MaskReg& mask, UnalignRegForStore& u)
{
    static_assert(sizeof(T) <= 4, "a MaskReg store packs b8, b16 or b32 elements");
    long a = ascend_host::Addr("StoreUnAlign", dst);
    uint8_t packed[32] = {};
    long n = ascend_host::kBlock / long(sizeof(T));
    for (long k = 0; k < 8 * n; k++) {
        if (mask.Lane(k * sizeof(T))) {
            packed[k / 8] |= 1 << (k % 8);
        }
    }
    detail::StoreBytes(a, packed, n, u);
    dst = reinterpret_cast<T*>(reinterpret_cast<uint8_t*>(dst) + n);
}

// StoreUnAlignPost(dst&, u, off): flushes u at end = dst + off elements,
// then dst += off.
template <typename T = DefaultType, auto... M>
void StoreUnAlignPost(T*& dst, UnalignRegForStore& u, int32_t off)
{
    detail::Post(ascend_host::Addr("StoreUnAlignPost", dst + off), u);
    dst += off;
}

// The plain form, at an address that is not a variable.
template <typename T = DefaultType, auto... M>
void StoreUnAlignPost(T*&& dst, UnalignRegForStore& u, int32_t off)
{
    detail::Post(ascend_host::Addr("StoreUnAlignPost", dst + off), u);
}

// ---- legacy names (DataCopy*)

template <typename T = DefaultType, auto... M>
void DataCopyUnAlignPre(UnalignReg& u, T* src) { LoadUnAlignPre(u, src); }

template <typename T = DefaultType, auto... M, typename U>
void DataCopyUnAlign(RegTensor<U>& dst, UnalignReg& u, T* src) { LoadUnAlign(dst, u, src); }

template <typename T = DefaultType, auto... M, typename U>
void DataCopyUnAlign(RegTensor<U>& dst, UnalignReg& u, T*& src, uint32_t stride) { LoadUnAlign(dst, u, src, stride); }

template <typename T = DefaultType, auto... M, typename U>
void DataCopyUnAlign(T*& dst, const RegTensor<U>& src, UnalignReg& u, uint32_t count) { StoreUnAlign(dst, src, u, count); }

template <typename T = DefaultType, auto... M>
void DataCopyUnAlignPost(T*& dst, UnalignReg& u, int32_t off) { StoreUnAlignPost(dst, u, off); }

template <typename T = DefaultType, auto... M, typename U>
void DataCopy(RegTensor<U>& dst, T* src) { LoadAlign(dst, src); }

template <typename T = DefaultType, auto... M, typename U>
void DataCopy(T* dst, const RegTensor<U>& src, const MaskReg& mask) { StoreAlign(dst, src, mask); }

} // namespace Reg

namespace MicroAPI = Reg;

} // namespace AscendC

using namespace AscendC;

#endif // ASCVET_TESTDATA_HOSTMODEL_ASCEND_HOST_H
