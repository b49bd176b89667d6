// ASC1004 fixture: unaligned loads that read a register no LoadUnAlignPre primed on some path.
#include "kernel_operator.h"

constexpr uint32_t VL_F32 = 256 / sizeof(float);

// No Pre at all: the first vector loaded starts with garbage.
__simd_vf__ inline void ScaleNoPre(__ubuf__ float* dst, __ubuf__ float* src, float s, uint16_t repeat)
{
    AscendC::Reg::RegTensor<float> v;
    AscendC::Reg::UnalignRegForLoad ul;
    AscendC::Reg::UnalignRegForStore us;
    AscendC::Reg::MaskReg mask = AscendC::Reg::CreateMask<float>();
    for (uint16_t i = 0; i < repeat; ++i) {
        AscendC::Reg::LoadUnAlign(v, ul, src, VL_F32); // want 9:"LoadUnAlign reads ul, which no LoadUnAlignPre primed on this path; call LoadUnAlignPre\\(ul, src\\) before the first load"
        AscendC::Reg::Muls(v, v, s, mask);
        AscendC::Reg::StoreUnAlign(dst, v, us, VL_F32);
    }
    AscendC::Reg::StoreUnAlignPost(dst, us, 0);
}

// The Pre sits after the load in the body: the first iteration is unprimed.
__simd_vf__ inline void PreAfterLoad(__ubuf__ float* dst, __ubuf__ float* src, uint16_t repeat)
{
    AscendC::Reg::RegTensor<float> v;
    AscendC::Reg::UnalignRegForLoad ul;
    AscendC::Reg::UnalignRegForStore us;
    for (uint16_t i = 0; i < repeat; ++i) {
        AscendC::Reg::LoadUnAlign(v, ul, src + i * VL_F32); // want "LoadUnAlign reads ul.*LoadUnAlignPre\\(ul, \\.\\.\\.\\) with the stream's first address before the loop"
        AscendC::Reg::LoadUnAlignPre(ul, src + (i + 1) * VL_F32);
        AscendC::Reg::StoreUnAlign(dst, v, us, VL_F32);
    }
    AscendC::Reg::StoreUnAlignPost(dst, us, 0);
}

// Primed on one branch only.
__simd_vf__ inline void PreOnOneBranch(__ubuf__ half* dst, __ubuf__ half* src, uint32_t offset, uint16_t repeat)
{
    AscendC::Reg::RegTensor<half> v;
    AscendC::Reg::UnalignRegForLoad ul;
    AscendC::Reg::UnalignRegForStore us;
    if (offset > 0) {
        AscendC::Reg::LoadUnAlignPre(ul, src + offset);
    }
    for (uint16_t i = 0; i < repeat; ++i) {
        AscendC::Reg::LoadUnAlign(v, ul, src, 128); // want "reads ul, which no LoadUnAlignPre primed on this path"
        AscendC::Reg::StoreUnAlign(dst, v, us, 128);
    }
    AscendC::Reg::StoreUnAlignPost(dst, us, 0);
}

// The only Pre is in a loop that may not run; the load after it then reads garbage.
__simd_vf__ inline void PreInMaybeEmptyLoop(__ubuf__ float* dst, __ubuf__ float* src, uint16_t rows)
{
    AscendC::Reg::RegTensor<float> v;
    AscendC::Reg::UnalignRegForLoad ul;
    AscendC::Reg::MaskReg mask = AscendC::Reg::CreateMask<float>();
    for (uint16_t r = 0; r < rows; ++r) {
        AscendC::Reg::LoadUnAlignPre(ul, src + r * 72);
        AscendC::Reg::LoadUnAlign(v, ul, src + r * 72);
        AscendC::Reg::StoreAlign(dst + r * 64, v, mask);
    }
    AscendC::Reg::LoadUnAlign(v, ul, src, VL_F32); // want "LoadUnAlign reads ul"
    AscendC::Reg::StoreAlign(dst, v, mask);
}

// A Pre that only the last iteration runs does not prime the first one.
__simd_vf__ inline void PreOnLastIteration(__ubuf__ float* dst, __ubuf__ float* src, uint16_t n)
{
    AscendC::Reg::RegTensor<float> v;
    AscendC::Reg::UnalignRegForLoad ul;
    AscendC::Reg::MaskReg mask = AscendC::Reg::CreateMask<float>();
    for (uint16_t i = 0; i < n; ++i) {
        if (i == n - 1) {
            AscendC::Reg::LoadUnAlignPre(ul, src);
        }
        AscendC::Reg::LoadUnAlign(v, ul, src, VL_F32); // want "LoadUnAlign reads ul"
        AscendC::Reg::StoreAlign(dst + i * VL_F32, v, mask);
    }
}

// A helper that might prime the register is called after the load, not before it.
__simd_callee__ inline void Reprime(AscendC::Reg::UnalignRegForLoad& u, __ubuf__ float* src)
{
    AscendC::Reg::LoadUnAlignPre(u, src);
}

__simd_vf__ inline void HelperTooLate(__ubuf__ float* dst, __ubuf__ float* src)
{
    AscendC::Reg::RegTensor<float> v;
    AscendC::Reg::UnalignRegForLoad ul;
    AscendC::Reg::MaskReg mask = AscendC::Reg::CreateMask<float>();
    AscendC::Reg::LoadUnAlign(v, ul, src, VL_F32); // want "LoadUnAlign reads ul"
    AscendC::Reg::LoadUnAlign(v, ul, src, VL_F32); // the register counts as primed after one report
    Reprime(ul, src);
    AscendC::Reg::StoreAlign(dst, v, mask);
}

// if constexpr branches that do not match: on the !kPadded path nothing primes u.
template <typename T, bool kPadded>
__simd_vf__ inline void MismatchedConstexpr(__ubuf__ T* dst, __ubuf__ T* src, uint16_t repeat)
{
    AscendC::MicroAPI::RegTensor<T> v;
    AscendC::MicroAPI::UnalignRegForLoad u;
    AscendC::MicroAPI::MaskReg mask = AscendC::MicroAPI::CreateMask<T>();
    if constexpr (kPadded) {
        AscendC::MicroAPI::LoadUnAlignPre(u, src);
    }
    for (uint16_t i = 0; i < repeat; ++i) {
        if constexpr (sizeof(T) == 2) {
            AscendC::MicroAPI::LoadUnAlign(v, u, src, 128); // want "LoadUnAlign reads u"
        } else {
            AscendC::MicroAPI::LoadAlign(v, src + i * 64);
        }
        AscendC::MicroAPI::StoreAlign(dst + i * 64, v, mask);
    }
}

// Legacy spelling: the advice uses the legacy names.
__simd_vf__ inline void LegacyNoPre(__ubuf__ half* dst, __ubuf__ half* src, uint16_t repeat)
{
    AscendC::MicroAPI::RegTensor<half> v;
    AscendC::MicroAPI::UnalignReg ul;
    AscendC::MicroAPI::UnalignReg us;
    for (uint16_t i = 0; i < repeat; ++i) {
        AscendC::MicroAPI::DataCopyUnAlign(v, ul, src, 128); // want "DataCopyUnAlign reads ul, which no DataCopyUnAlignPre primed on this path; call DataCopyUnAlignPre\\(ul, src\\) before the first load"
        AscendC::MicroAPI::DataCopyUnAlign(dst, v, us, 128);
    }
    AscendC::MicroAPI::DataCopyUnAlignPost(dst, us, 0);
}

// C API: the advice uses the asc_* names.
__simd_vf__ inline void CApiNoPre(__ubuf__ float* dst, __ubuf__ float* src, uint16_t repeat)
{
    vector_float v;
    vector_load_unalign ul;
    vector_store_unalign us;
    for (uint16_t i = 0; i < repeat; ++i) {
        asc_loadunalign_postupdate(v, ul, src, 64); // want "asc_loadunalign_postupdate reads ul, which no asc_loadunalign_pre primed on this path; call asc_loadunalign_pre\\(ul, src\\)"
        asc_storeunalign_postupdate(dst, us, v, 64);
    }
    asc_storeunalign_post(dst, us, 0);
}

// A __VEC_SCOPE__ block inside an __aicore__ function is a region too.
__aicore__ inline void VecScopeNoPre(__ubuf__ float* dst, __ubuf__ float* src, uint16_t repeat)
{
    __VEC_SCOPE__
    {
        AscendC::Reg::RegTensor<float> v;
        AscendC::Reg::UnalignRegForLoad ul;
        AscendC::Reg::MaskReg mask = AscendC::Reg::CreateMask<float>();
        for (uint16_t i = 0; i < repeat; ++i) {
            AscendC::Reg::LoadUnAlign(v, ul, src, VL_F32); // want "LoadUnAlign reads ul"
            AscendC::Reg::StoreAlign(dst + i * VL_F32, v, mask);
        }
    }
}

// Raw builtins: the advice uses the Reg names (the raw argument order differs).
__aicore__ inline void RawNoPre(__ubuf__ float* dst, __ubuf__ float* src, uint16_t repeat)
{
    __VEC_SCOPE__
    {
        vector_f32 v;
        vector_align ul;
        vector_bool mask = pset_b32(PAT_ALL);
        for (uint16_t i = 0; i < repeat; ++i) {
            vldus(v, ul, src, VL_F32, POST_UPDATE); // want "vldus reads ul, which no LoadUnAlignPre primed on this path; call LoadUnAlignPre\\(ul, src\\) before the first load"
            vsts(v, dst, i * VL_F32, NORM_B32, mask);
        }
    }
}
