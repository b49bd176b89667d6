// ASC1005 fixture: unaligned store streams whose last partial block never reaches UB.
#include "kernel_operator.h"

constexpr uint32_t VL_F32 = 256 / sizeof(float);

// No flush at all.
__simd_vf__ inline void ScaleNoPost(__ubuf__ float* dst, __ubuf__ float* src, float s, uint16_t repeat)
{
    AscendC::Reg::RegTensor<float> v;
    AscendC::Reg::UnalignRegForLoad ul;
    AscendC::Reg::UnalignRegForStore us;
    AscendC::Reg::MaskReg mask = AscendC::Reg::CreateMask<float>();
    AscendC::Reg::LoadUnAlignPre(ul, src);
    for (uint16_t i = 0; i < repeat; ++i) {
        AscendC::Reg::LoadUnAlign(v, ul, src, VL_F32);
        AscendC::Reg::Muls(v, v, s, mask);
        AscendC::Reg::StoreUnAlign(dst, v, us, VL_F32); // want 9:"StoreUnAlign keeps the tail of its stream in us, but no StoreUnAlignPost flushes us after it before the VF ends, so the last partial block is lost; call StoreUnAlignPost\\(dst, us, 0\\) after the loop"
    }
}

// Flushed on one path only.
__simd_vf__ inline void PostOnOnePath(__ubuf__ float* dst, __ubuf__ float* src, uint32_t tail, uint16_t repeat)
{
    AscendC::Reg::RegTensor<float> v;
    AscendC::Reg::UnalignRegForStore us;
    AscendC::Reg::MaskReg mask = AscendC::Reg::CreateMask<float>();
    for (uint16_t i = 0; i < repeat; ++i) {
        AscendC::Reg::LoadAlign(v, src + i * VL_F32);
        AscendC::Reg::StoreUnAlign(dst, v, us, VL_F32); // want "StoreUnAlign keeps the tail of its stream in us, but some path from it reaches the end of the VF without a StoreUnAlignPost on us, losing the last partial block; call StoreUnAlignPost\\(dst, us, 0\\) after the loop"
    }
    if (tail > 0) {
        AscendC::Reg::StoreUnAlignPost(dst, us, 0);
    }
}

// The flush comes before the tail store: the tail's own last block is lost.
__simd_vf__ inline void PostBeforeTail(__ubuf__ half* dst, __ubuf__ half* src, uint16_t repeat, uint32_t tail)
{
    AscendC::Reg::RegTensor<half> v;
    AscendC::Reg::UnalignRegForStore us;
    for (uint16_t i = 0; i < repeat; ++i) {
        AscendC::Reg::LoadAlign(v, src + i * 128);
        AscendC::Reg::StoreUnAlign(dst, v, us, 128);
    }
    AscendC::Reg::StoreUnAlignPost(dst, us, 0);
    AscendC::Reg::LoadAlign(v, src + repeat * 128);
    AscendC::Reg::StoreUnAlign(dst, v, us, tail); // want "StoreUnAlign keeps the tail of its stream in us, but no StoreUnAlignPost flushes us after it.*call StoreUnAlignPost\\(dst, us, 0\\) after the last store"
}

// if constexpr branches that do not match: with kTail false, nothing flushes.
template <typename T, bool kTail>
__simd_vf__ inline void MismatchedConstexpr(__ubuf__ T* dst, __ubuf__ T* src, uint16_t repeat)
{
    AscendC::MicroAPI::RegTensor<T> v;
    AscendC::MicroAPI::UnalignRegForStore us;
    for (uint16_t i = 0; i < repeat; ++i) {
        AscendC::MicroAPI::LoadAlign(v, src + i * (256 / sizeof(T)));
        if constexpr (sizeof(T) == 4) {
            AscendC::MicroAPI::StoreUnAlign(dst, v, us, 64);
        } else {
            AscendC::MicroAPI::StoreUnAlign(dst, v, us, 128); // want "StoreUnAlign keeps the tail of its stream in us"
        }
    }
    if constexpr (kTail) {
        AscendC::MicroAPI::StoreUnAlignPost(dst, us, 0);
    }
}

// Flushing at the top of the last iteration still leaves that iteration's store.
__simd_vf__ inline void FlushBeforeLastStore(__ubuf__ float* dst, __ubuf__ float* src, uint16_t n)
{
    AscendC::Reg::RegTensor<float> v;
    AscendC::Reg::UnalignRegForStore us;
    for (uint16_t i = 0; i < n; ++i) {
        if (i == n - 1) {
            AscendC::Reg::StoreUnAlignPost(dst, us, 0);
        }
        AscendC::Reg::LoadAlign(v, src + i * VL_F32);
        AscendC::Reg::StoreUnAlign(dst, v, us, VL_F32); // want "StoreUnAlign keeps the tail of its stream in us"
    }
}

// A helper that might flush is called before the store, not after it.
__simd_callee__ inline void Flush(__ubuf__ float*& dst, AscendC::Reg::UnalignRegForStore& us)
{
    AscendC::Reg::StoreUnAlignPost(dst, us, 0);
}

__simd_vf__ inline void HelperTooEarly(__ubuf__ float* dst, __ubuf__ float* src)
{
    AscendC::Reg::RegTensor<float> v;
    AscendC::Reg::UnalignRegForStore us;
    AscendC::Reg::LoadAlign(v, src);
    Flush(dst, us);
    AscendC::Reg::StoreUnAlign(dst, v, us, VL_F32); // want "StoreUnAlign keeps the tail of its stream in us"
}

// The flush names the load register: the store register's tail is lost.
// One finding, at the flush, naming the register to flush instead.
__simd_vf__ inline void FlushesWrongRegister(__ubuf__ float* dst, __ubuf__ float* src, uint16_t repeat)
{
    AscendC::MicroAPI::RegTensor<float> v;
    AscendC::MicroAPI::UnalignReg u0, u1;
    AscendC::MicroAPI::LoadUnAlignPre(u0, src);
    for (uint16_t i = 0; i < repeat; ++i) {
        AscendC::MicroAPI::LoadUnAlign(v, u0, src, VL_F32);
        AscendC::MicroAPI::StoreUnAlign(dst, v, u1, VL_F32);
    }
    AscendC::MicroAPI::StoreUnAlignPost(dst, u0, 0); // want "StoreUnAlignPost flushes u0, but the stream stored on line 107 keeps its tail in u1, which nothing flushes: whatever its stores leave past a 32-byte boundary is lost; flush u1, not u0"
}

// A mask stream (PSTU) needs its flush too.
__simd_vf__ inline void MaskStreamNoPost(__ubuf__ uint32_t* dst, __ubuf__ float* src, float thr, uint16_t repeat)
{
    AscendC::Reg::RegTensor<float> v;
    AscendC::Reg::MaskReg all = AscendC::Reg::CreateMask<float>();
    AscendC::Reg::MaskReg gt;
    AscendC::Reg::UnalignRegForStore us;
    for (uint16_t i = 0; i < repeat; ++i) {
        AscendC::Reg::LoadAlign(v, src + i * VL_F32);
        AscendC::Reg::Compares<float, AscendC::CMPMODE::GT>(gt, v, thr, all);
        AscendC::Reg::StoreUnAlign(dst, gt, us); // want "StoreUnAlign keeps the tail of its stream in us"
    }
}

// Legacy spelling: the advice uses the legacy names.
__simd_vf__ inline void LegacyNoPost(__ubuf__ half* dst, __ubuf__ half* src, uint16_t repeat)
{
    AscendC::MicroAPI::RegTensor<half> v;
    AscendC::MicroAPI::UnalignReg ul;
    AscendC::MicroAPI::UnalignReg us;
    AscendC::MicroAPI::DataCopyUnAlignPre(ul, src);
    for (uint16_t i = 0; i < repeat; ++i) {
        AscendC::MicroAPI::DataCopyUnAlign(v, ul, src, 128);
        AscendC::MicroAPI::DataCopyUnAlign(dst, v, us, 128); // want "DataCopyUnAlign keeps the tail of its stream in us, but no DataCopyUnAlignPost flushes us.*call DataCopyUnAlignPost\\(dst, us, 0\\) after the loop"
    }
}

// C API: the advice uses the asc_* names.
__simd_vf__ inline void CApiNoPost(__ubuf__ float* dst, __ubuf__ float* src, uint16_t repeat)
{
    vector_float v;
    vector_load_unalign ul;
    vector_store_unalign us;
    asc_loadunalign_pre(ul, src);
    for (uint16_t i = 0; i < repeat; ++i) {
        asc_loadunalign_postupdate(v, ul, src, 64);
        asc_storeunalign_postupdate(dst, us, v, 64); // want "asc_storeunalign_postupdate keeps the tail of its stream in us, but no asc_storeunalign_post flushes us.*call asc_storeunalign_post\\(dst, us, 0\\) after the loop"
    }
}

// Raw builtins: the advice uses the Reg names (the raw argument order differs).
__aicore__ inline void RawNoPost(__ubuf__ float* dst, __ubuf__ float* src, uint16_t repeat)
{
    __VEC_SCOPE__
    {
        vector_f32 v;
        vector_align us;
        vector_bool mask = pset_b32(PAT_ALL);
        for (uint16_t i = 0; i < repeat; ++i) {
            vlds(v, src, i * VL_F32, NORM);
            vstus(us, VL_F32, v, dst, POST_UPDATE); // want "vstus keeps the tail of its stream in us.*call StoreUnAlignPost\\(dst, us, 0\\) after the loop"
        }
    }
}

// The register to flush is declared in the loop: renaming the flush would
// name nothing there, so no fix is offered.
__simd_vf__ inline void FlushesWrongRegisterScoped(__ubuf__ float* dst, __ubuf__ float* src, uint16_t repeat)
{
    AscendC::MicroAPI::RegTensor<float> v;
    AscendC::MicroAPI::UnalignReg u0;
    AscendC::MicroAPI::LoadUnAlignPre(u0, src);
    for (uint16_t i = 0; i < repeat; ++i) {
        AscendC::MicroAPI::UnalignReg u1;
        AscendC::MicroAPI::LoadUnAlign(v, u0, src, VL_F32);
        AscendC::MicroAPI::StoreUnAlign(dst, v, u1, VL_F32);
    }
    AscendC::MicroAPI::StoreUnAlignPost(dst, u0, 0); // want "flush u1, not u0; no automatic fix: in the fixed text the StoreUnAlignPost does not flush u1"
}
