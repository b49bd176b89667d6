// ASC1004 fixture: every unaligned load is primed on every path, or the rule cannot know; must stay silent.
#include "kernel_operator.h"

using namespace AscendC;

constexpr uint32_t VL_F32 = 256 / sizeof(float);

// The best practice: prime once before the loop, then post-update.
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

// Primed on both branches.
__simd_vf__ inline void BothBranches(__ubuf__ float* dst, __ubuf__ float* src, uint32_t skip, uint16_t repeat)
{
    Reg::RegTensor<float> v;
    Reg::UnalignRegForLoad ul;
    Reg::MaskReg mask = Reg::CreateMask<float>();
    if (skip > 0) {
        Reg::LoadUnAlignPre(ul, src + skip);
    } else {
        Reg::LoadUnAlignPre(ul, src);
    }
    for (uint16_t i = 0; i < repeat; ++i) {
        Reg::LoadUnAlign(v, ul, src, VL_F32);
        Reg::StoreAlign(dst + i * VL_F32, v, mask);
    }
}

// A register parameter: the caller primed it.
__simd_callee__ inline void LoadRow(Reg::RegTensor<float>& v, Reg::UnalignRegForLoad& ul, __ubuf__ float*& src)
{
    Reg::LoadUnAlign(v, ul, src, VL_F32);
}

// Passed to a same-file helper, or to a function defined elsewhere, before the load: that code may prime it.
__simd_callee__ inline void PrimeAt(Reg::UnalignRegForLoad& ul, __ubuf__ float* src)
{
    Reg::LoadUnAlignPre(ul, src);
}

__simd_vf__ inline void PrimedByHelper(__ubuf__ float* dst, __ubuf__ float* src, __ubuf__ float* src2)
{
    Reg::RegTensor<float> v;
    Reg::UnalignRegForLoad ul;
    Reg::UnalignRegForLoad ul2;
    Reg::MaskReg mask = Reg::CreateMask<float>();
    PrimeAt(ul, src);
    Reg::LoadUnAlign(v, ul, src, VL_F32);
    Reg::StoreAlign(dst, v, mask);
    PrimeUnalignStream(ul2, src2); // declared in another header
    Reg::LoadUnAlign(v, ul2, src2, VL_F32);
    Reg::StoreAlign(dst + VL_F32, v, mask);
}

// Correlated if constexpr: the load only runs where the Pre ran.
template <typename T, bool kUnaligned>
__simd_vf__ inline void CorrelatedConstexpr(__ubuf__ T* dst, __ubuf__ T* src, uint16_t repeat)
{
    MicroAPI::RegTensor<T> v;
    MicroAPI::UnalignRegForLoad ul;
    MicroAPI::MaskReg mask = MicroAPI::CreateMask<T>();
    if constexpr (kUnaligned) {
        MicroAPI::LoadUnAlignPre(ul, src);
    }
    for (uint16_t i = 0; i < repeat; ++i) {
        if constexpr (kUnaligned) {
            MicroAPI::LoadUnAlign(v, ul, src, 256 / sizeof(T));
        } else {
            MicroAPI::LoadAlign(v, src + i * (256 / sizeof(T)));
        }
        MicroAPI::StoreAlign(dst + i * (256 / sizeof(T)), v, mask);
    }
}

// Correlation through an else branch and through the element size:
// sizeof(T) == 2 and sizeof(T) != 2 together cover every type.
template <typename T, bool kAligned>
__simd_vf__ inline void CorrelatedElse(__ubuf__ T* dst, __ubuf__ T* src)
{
    MicroAPI::RegTensor<T> v;
    MicroAPI::UnalignRegForLoad ul;
    MicroAPI::UnalignRegForLoad ul2;
    MicroAPI::MaskReg mask = MicroAPI::CreateMask<T>();
    if constexpr (kAligned) {
        MicroAPI::LoadAlign(v, src);
    } else {
        MicroAPI::LoadUnAlignPre(ul, src);
    }
    if constexpr (!kAligned) {
        MicroAPI::LoadUnAlign(v, ul, src, 256 / sizeof(T));
    }
    if constexpr (sizeof(T) == 2) {
        MicroAPI::LoadUnAlignPre(ul2, src + 3);
    }
    if constexpr (sizeof(T) != 2) {
        MicroAPI::LoadUnAlignPre(ul2, src + 1);
    }
    MicroAPI::LoadUnAlign(v, ul2, src);
    MicroAPI::StoreAlign(dst, v, mask);
}

// Re-primed at the top of every iteration (ASC1001's business, not this rule's).
__simd_vf__ inline void PaddedRows(__ubuf__ float* dst, __ubuf__ float* src, uint16_t rows, uint32_t rowStride)
{
    Reg::RegTensor<float> v;
    Reg::UnalignRegForLoad ul;
    Reg::MaskReg mask = Reg::CreateMask<float>();
    for (uint16_t r = 0; r < rows; ++r) {
        Reg::LoadUnAlignPre(ul, src + r * rowStride);
        Reg::LoadUnAlign(v, ul, src + r * rowStride);
        Reg::StoreAlign(dst + r * VL_F32, v, mask);
    }
}

// Primed on the first iteration only; later iterations continue the stream.
__simd_vf__ inline void PrimeOnFirstIteration(__ubuf__ float* dst, __ubuf__ float* src, uint16_t repeat)
{
    Reg::RegTensor<float> v;
    Reg::UnalignRegForLoad ul;
    Reg::MaskReg mask = Reg::CreateMask<float>();
    for (uint16_t i = 0; i < repeat; ++i) {
        if (i == 0) {
            Reg::LoadUnAlignPre(ul, src);
        }
        Reg::LoadUnAlign(v, ul, src, VL_F32);
        Reg::StoreAlign(dst + i * VL_F32, v, mask);
    }
}

// Loops that run at least once: a do loop, and a folded trip count.
__simd_vf__ inline void PrimedInLoopsThatRun(__ubuf__ float* dst, __ubuf__ float* src, uint16_t n)
{
    Reg::RegTensor<float> v;
    Reg::UnalignRegForLoad ul;
    Reg::UnalignRegForLoad ul2;
    Reg::MaskReg mask = Reg::CreateMask<float>();
    uint16_t k = 0;
    do {
        Reg::LoadUnAlignPre(ul, src + k);
        ++k;
    } while (k < n);
    Reg::LoadUnAlign(v, ul, src, VL_F32);
    for (uint16_t i = 0; i < 2; ++i) {
        Reg::LoadUnAlignPre(ul2, src + i);
    }
    Reg::LoadUnAlign(v, ul2, src, VL_F32);
    Reg::StoreAlign(dst, v, mask);
}

// A loop used as an if: the load runs exactly when the Pre ran.
__simd_vf__ inline void TailAsLoop(__ubuf__ float* dst, __ubuf__ float* src, uint16_t hasTail)
{
    Reg::RegTensor<float> v;
    Reg::UnalignRegForLoad ul;
    Reg::MaskReg mask = Reg::CreateMask<float>();
    for (uint16_t i = 0; i < hasTail; ++i) {
        Reg::LoadUnAlignPre(ul, src);
    }
    for (uint16_t j = 0; j < hasTail; ++j) {
        Reg::LoadUnAlign(v, ul, src, VL_F32);
        Reg::StoreAlign(dst, v, mask);
    }
}

// Legacy, C API and raw builtins prime the same way; spellings may mix.
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

__aicore__ inline void RawStream(__ubuf__ float* dst, __ubuf__ float* src, uint16_t repeat)
{
    __VEC_SCOPE__
    {
        vector_f32 v;
        vector_align ul;
        vector_bool mask = pset_b32(PAT_ALL);
        vldas(ul, src);
        for (uint16_t i = 0; i < repeat; ++i) {
            Reg::LoadUnAlign(v, ul, src, VL_F32);
            vsts(v, dst, i * VL_F32, NORM_B32, mask);
        }
    }
}

// An array indexed by a variable: which element is read is unknown.
__simd_vf__ inline void TwoStreams(__ubuf__ float* dst, __ubuf__ float* src, uint16_t repeat)
{
    Reg::RegTensor<float> v;
    Reg::UnalignRegForLoad ul[2];
    Reg::MaskReg mask = Reg::CreateMask<float>();
    Reg::LoadUnAlignPre(ul[0], src);
    Reg::LoadUnAlignPre(ul[1], src + 7);
    for (uint16_t i = 0; i < repeat; ++i) {
        Reg::LoadUnAlign(v, ul[i % 2], src, VL_F32);
        Reg::StoreAlign(dst + i * VL_F32, v, mask);
    }
}

// SIMT regions are recorded, not analysed.
__simt_vf__ inline void SimtKernel(__ubuf__ float* dst, __ubuf__ float* src)
{
    Reg::RegTensor<float> v;
    Reg::UnalignRegForLoad ul;
    Reg::LoadUnAlign(v, ul, src, VL_F32);
}

// A while loop primed by a flag on its first pass.
__simd_vf__ inline void PrimeByFlag(__ubuf__ float* dst, __ubuf__ float* src, uint32_t total)
{
    Reg::RegTensor<float> v;
    Reg::UnalignRegForLoad ul;
    Reg::MaskReg mask = Reg::CreateMask<float>();
    uint32_t done = 0;
    bool first = true;
    while (done < total) {
        if (first) {
            Reg::LoadUnAlignPre(ul, src);
            first = false;
        }
        Reg::LoadUnAlign(v, ul, src, VL_F32);
        Reg::StoreAlign(dst + done, v, mask);
        done += VL_F32;
    }
}
