// ASC1005 fixture: every unaligned store stream is flushed on every path, or the rule cannot know; must stay silent.
#include "kernel_operator.h"

using namespace AscendC;

constexpr uint32_t VL_F32 = 256 / sizeof(float);

// The best practice: flush once after the loop.
__simd_vf__ inline void CopyStream(__ubuf__ float* dst, __ubuf__ float* src, uint16_t repeat)
{
    Reg::RegTensor<float> v;
    Reg::UnalignRegForLoad ul;
    Reg::UnalignRegForStore us;
    Reg::LoadUnAlignPre(ul, src);
    for (uint16_t i = 0; i < repeat; ++i) {
        Reg::LoadUnAlign(v, ul, src, VL_F32);
        Reg::StoreUnAlign(dst, v, us, VL_F32);
    }
    Reg::StoreUnAlignPost(dst, us, 0);
}

// Flushed on both branches; a flush per row (ASC1002's business, not this rule's).
__simd_vf__ inline void FlushEveryRow(__ubuf__ float* dst, __ubuf__ float* src, uint16_t rows, uint32_t outStride, uint32_t pad)
{
    Reg::RegTensor<float> v;
    Reg::UnalignRegForStore us;
    for (uint16_t r = 0; r < rows; ++r) {
        __ubuf__ float* row = dst + r * outStride;
        Reg::LoadAlign(v, src + r * VL_F32);
        Reg::StoreUnAlign(row, v, us, VL_F32);
        if (pad > 0) {
            Reg::StoreUnAlignPost(row, us, pad);
        } else {
            Reg::StoreUnAlignPost(row, us, 0);
        }
    }
}

// A register parameter: the caller flushes it.
__simd_callee__ inline void StoreRow(__ubuf__ float*& dst, Reg::RegTensor<float>& v, Reg::UnalignRegForStore& us)
{
    Reg::StoreUnAlign(dst, v, us, VL_F32);
}

// Passed to a same-file helper, or to a function defined elsewhere, after the store: that code may flush it.
__simd_callee__ inline void Flush(__ubuf__ float*& dst, Reg::UnalignRegForStore& us)
{
    Reg::StoreUnAlignPost(dst, us, 0);
}

__simd_vf__ inline void FlushedByHelper(__ubuf__ float* dst, __ubuf__ float* dst2, __ubuf__ float* src)
{
    Reg::RegTensor<float> v;
    Reg::UnalignRegForStore us;
    Reg::UnalignRegForStore us2;
    Reg::LoadAlign(v, src);
    StoreRow(dst, v, us);
    Reg::StoreUnAlign(dst, v, us, VL_F32);
    Flush(dst, us);
    Reg::StoreUnAlign(dst2, v, us2, VL_F32);
    FlushUnalignStream(dst2, us2); // declared in another header
}

// A flush through a raw builtin is a flush.
__aicore__ inline void RawFlush(__ubuf__ float* dst, __ubuf__ float* src, uint16_t repeat)
{
    __VEC_SCOPE__
    {
        Reg::RegTensor<float> v;
        vector_align us;
        for (uint16_t i = 0; i < repeat; ++i) {
            Reg::LoadAlign(v, src + i * VL_F32);
            Reg::StoreUnAlign(dst, v, us, VL_F32);
        }
        vstas(us, dst, 0, POST_UPDATE);
    }
}

// Correlated if constexpr: flushed in the loop with a stride, after it without.
template <typename T, bool kWithStride>
__simd_vf__ inline void CorrelatedConstexpr(__ubuf__ T* dst, __ubuf__ T* src, uint16_t repeat, uint32_t gap)
{
    MicroAPI::RegTensor<T> v;
    MicroAPI::UnalignReg us;
    for (uint16_t i = 0; i < repeat; ++i) {
        MicroAPI::LoadAlign(v, src + i * (256 / sizeof(T)));
        MicroAPI::StoreUnAlign(dst, v, us, 16);
        if constexpr (kWithStride) {
            MicroAPI::StoreUnAlignPost(dst, us, gap);
        }
    }
    if constexpr (!kWithStride) {
        MicroAPI::StoreUnAlignPost(dst, us, 0);
    }
}

// One-byte results are stored aligned, wider ones through the unaligned stream;
// sizeof(T) == 1 and sizeof(T) > 1 exclude each other.
template <typename T>
__simd_vf__ inline void BySize(__ubuf__ T* dst, __ubuf__ T* src, uint16_t repeat)
{
    Reg::RegTensor<T> v;
    Reg::UnalignReg us;
    Reg::MaskReg mask = Reg::CreateMask<T>();
    for (uint16_t i = 0; i < repeat; ++i) {
        Reg::LoadAlign(v, src + i * (256 / sizeof(T)));
        if constexpr (sizeof(T) == 1) {
            Reg::StoreAlign(dst + i * 256, v, mask);
        } else {
            Reg::StoreUnAlign(dst, v, us, 24);
        }
    }
    if constexpr (sizeof(T) > 1) {
        Reg::StoreUnAlignPost(dst, us, 0);
    }
}

// Flushed by the last iteration.
__simd_vf__ inline void FlushOnLastIteration(__ubuf__ float* dst, __ubuf__ float* src, uint16_t n)
{
    Reg::RegTensor<float> v;
    Reg::UnalignRegForStore us;
    for (uint16_t i = 0; i < n; ++i) {
        Reg::LoadAlign(v, src + i * VL_F32);
        Reg::StoreUnAlign(dst, v, us, VL_F32);
        if (i == n - 1) {
            Reg::StoreUnAlignPost(dst, us, 0);
        }
    }
}

// Batches: the first one is flushed when it is the only one; otherwise the
// while loop (which then runs at least once) flushes on its last batch.
__simd_vf__ inline void Batches(__ubuf__ float* dst, __ubuf__ float* src, int64_t total, int64_t perBatch)
{
    Reg::RegTensor<float> v;
    Reg::UnalignRegForStore us;
    Reg::LoadAlign(v, src);
    Reg::StoreUnAlign(dst, v, us, static_cast<uint32_t>(perBatch));
    if (total <= perBatch) {
        Reg::StoreUnAlignPost(dst, us, 0);
    }
    if (total > perBatch) {
        int64_t base = perBatch;
        while (base < total) {
            Reg::LoadAlign(v, src + base);
            Reg::StoreUnAlign(dst, v, us, static_cast<uint32_t>(perBatch));
            if (base + perBatch >= total) {
                Reg::StoreUnAlignPost(dst, us, 0);
            }
            base += perBatch;
        }
    }
}

// A loop used as an if flushes exactly when it stored.
__simd_vf__ inline void TailAsLoop(__ubuf__ float* dst, __ubuf__ float* src, uint16_t hasTail)
{
    Reg::RegTensor<float> v;
    Reg::UnalignRegForStore us;
    for (uint16_t i = 0; i < hasTail; ++i) {
        Reg::LoadAlign(v, src);
        Reg::StoreUnAlign(dst, v, us, 5);
    }
    for (uint16_t j = 0; j < hasTail; ++j) {
        Reg::StoreUnAlignPost(dst, us, 0);
    }
}

// Legacy and C API streams, flushed.
__simd_vf__ inline void LegacyStream(__ubuf__ half* dst, __ubuf__ half* src, uint16_t repeat)
{
    MicroAPI::RegTensor<half> v;
    MicroAPI::UnalignReg ul;
    MicroAPI::UnalignReg us;
    MicroAPI::DataCopyUnAlignPre(ul, src);
    for (uint16_t i = 0; i < repeat; ++i) {
        MicroAPI::DataCopyUnAlign(v, ul, src, 128);
        MicroAPI::DataCopyUnAlign(dst, v, us, 128);
    }
    MicroAPI::DataCopyUnAlignPost(dst, us, 0);
}

__simd_vf__ inline void CApiStream(__ubuf__ float* dst, __ubuf__ float* src, uint16_t repeat)
{
    vector_float v;
    vector_load_unalign ul;
    vector_store_unalign us;
    asc_loadunalign_pre(ul, src);
    for (uint16_t i = 0; i < repeat; ++i) {
        asc_loadunalign_postupdate(v, ul, src, 64);
        asc_storeunalign_postupdate(dst, us, v, 64);
    }
    asc_storeunalign_post(dst, us, 0);
}

// The generic Store flushes itself: it is not a stream.
__simd_vf__ inline void GenericStore(__ubuf__ float* dst, __ubuf__ float* src, uint32_t count)
{
    Reg::RegTensor<float> v;
    Reg::LoadAlign(v, src);
    Reg::Store(dst, v, count);
}

// An array indexed by a variable: which element is written is unknown.
__simd_vf__ inline void TwoStreams(__ubuf__ float* dst, __ubuf__ float* src, uint16_t repeat)
{
    Reg::RegTensor<float> v;
    Reg::UnalignRegForStore us[2];
    for (uint16_t i = 0; i < repeat; ++i) {
        Reg::LoadAlign(v, src + i * VL_F32);
        Reg::StoreUnAlign(dst, v, us[i % 2], VL_F32);
    }
    Reg::StoreUnAlignPost(dst, us[0], 0);
}

// SIMT regions are recorded, not analysed.
__simt_vf__ inline void SimtKernel(__ubuf__ float* dst, __ubuf__ float* src)
{
    Reg::RegTensor<float> v;
    Reg::UnalignRegForStore us;
    Reg::LoadAlign(v, src);
    Reg::StoreUnAlign(dst, v, us, VL_F32);
}
