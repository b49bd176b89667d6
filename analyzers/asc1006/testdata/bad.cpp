// ASC1006 fixture: unaligned registers mixed up between the load and the store side.
#include "kernel_operator.h"

constexpr uint32_t VL_F32 = 256 / sizeof(float);

// One UnalignReg carries the load stream and the store stream at once: each
// iteration's load overwrites the tail the previous store left there.
__simd_vf__ inline void OneRegisterBothWays(__ubuf__ float* dst, __ubuf__ float* src, uint16_t repeat)
{
    AscendC::Reg::RegTensor<float> v;
    AscendC::Reg::UnalignReg u;
    AscendC::Reg::LoadUnAlignPre(u, src);
    for (uint16_t i = 0; i < repeat; ++i) {
        AscendC::Reg::LoadUnAlign(v, u, src, VL_F32); // want 9:"LoadUnAlign uses u while the store stream of StoreUnAlign on line 15 still keeps its unflushed tail there: the load overwrites the tail, and the last partial block of the store is lost; flush it with StoreUnAlignPost first, or give the load stream its own UnalignRegForLoad"
        AscendC::Reg::StoreUnAlign(dst, v, u, VL_F32);
    }
    AscendC::Reg::StoreUnAlignPost(dst, u, 0);
}

// The flush names the load register u0; the stores went through u1: one
// bug, reported once, by ASC1005 at the flush ("flush u1, not u0").
__simd_vf__ inline void FlushesLoadRegister(__ubuf__ float* dst, __ubuf__ float* src, uint16_t repeat)
{
    AscendC::MicroAPI::RegTensor<float> v;
    AscendC::MicroAPI::UnalignReg u0, u1;
    AscendC::MicroAPI::LoadUnAlignPre(u0, src);
    for (uint16_t i = 0; i < repeat; ++i) {
        AscendC::MicroAPI::LoadUnAlign(v, u0, src, VL_F32);
        AscendC::MicroAPI::StoreUnAlign(dst, v, u1, VL_F32);
    }
    AscendC::MicroAPI::StoreUnAlignPost(dst, u0, 0);
}

// The same mistake in the legacy spelling (ASC1005).
__simd_vf__ inline void LegacyFlushesLoadRegister(__ubuf__ half* dst, __ubuf__ half* src, uint16_t repeat)
{
    AscendC::MicroAPI::RegTensor<half> v;
    AscendC::MicroAPI::UnalignReg ureg0;
    AscendC::MicroAPI::UnalignReg ureg1;
    AscendC::MicroAPI::DataCopyUnAlignPre(ureg0, src);
    for (uint16_t i = 0; i < repeat; ++i) {
        AscendC::MicroAPI::DataCopyUnAlign(v, ureg0, src, 128);
        AscendC::MicroAPI::DataCopyUnAlign(dst, v, ureg1, 128);
    }
    AscendC::MicroAPI::DataCopyUnAlignPost(dst, ureg0, 0);
}

// A load stream primed before a store through its register, then continued.
__simd_vf__ inline void StoreBetweenPreAndLoad(__ubuf__ float* dst, __ubuf__ float* src)
{
    AscendC::Reg::RegTensor<float> v;
    AscendC::Reg::UnalignReg u;
    AscendC::Reg::LoadUnAlignPre(u, src);
    AscendC::Reg::LoadAlign(v, src);
    AscendC::Reg::StoreUnAlign(dst, v, u, VL_F32);
    AscendC::Reg::StoreUnAlignPost(dst, u, 0);
    AscendC::Reg::LoadUnAlign(v, u, src); // want "LoadUnAlign continues the load stream in u, but StoreUnAlign on line 55 wrote u since the Pre primed it"
}

// Nothing was stored through the flushed register.
__simd_vf__ inline void FlushWithoutStores(__ubuf__ float* dst, __ubuf__ float* src)
{
    AscendC::Reg::RegTensor<float> v;
    AscendC::Reg::UnalignRegForStore us;
    AscendC::Reg::MaskReg mask = AscendC::Reg::CreateMask<float>();
    AscendC::Reg::LoadAlign(v, src);
    AscendC::Reg::StoreAlign(dst, v, mask);
    AscendC::Reg::StoreUnAlignPost(dst, us, 0); // want "StoreUnAlignPost flushes us, which no StoreUnAlign in this VF wrote, so it flushes nothing"
}

// Two store streams; the flush names neither (ASC1005: flush ub, not uc).
__simd_vf__ inline void TwoStreamsWrongFlush(__ubuf__ float* dstA, __ubuf__ float* dstB, __ubuf__ float* src, uint16_t repeat)
{
    AscendC::Reg::RegTensor<float> v;
    AscendC::Reg::UnalignReg ua, ub, uc;
    for (uint16_t i = 0; i < repeat; ++i) {
        AscendC::Reg::LoadAlign(v, src + i * VL_F32);
        AscendC::Reg::StoreUnAlign(dstA, v, ua, 40);
        AscendC::Reg::StoreUnAlign(dstB, v, ub, 24);
    }
    AscendC::Reg::StoreUnAlignPost(dstA, ua, 0);
    AscendC::Reg::StoreUnAlignPost(dstB, uc, 0);
}

// C API with the untyped vector_align: the flush names the load register (ASC1005).
__simd_vf__ inline void CApiMixed(__ubuf__ float* dst, __ubuf__ float* src, uint16_t repeat)
{
    vector_float v;
    vector_align ul;
    vector_align us;
    asc_loadunalign_pre(ul, src);
    for (uint16_t i = 0; i < repeat; ++i) {
        asc_loadunalign_postupdate(v, ul, src, 64);
        asc_storeunalign_postupdate(dst, us, v, 64);
    }
    asc_storeunalign_post(dst, ul, 0);
}

// Raw builtins: one register for both streams at once.
__aicore__ inline void RawMixed(__ubuf__ float* dst, __ubuf__ float* src, uint16_t repeat)
{
    __VEC_SCOPE__
    {
        vector_f32 v;
        vector_align u;
        vldas(u, src);
        for (uint16_t i = 0; i < repeat; ++i) {
            vldus(v, u, src, VL_F32, POST_UPDATE); // want "vldus uses u while the store stream of vstus on line 109 still keeps its unflushed tail there"
            vstus(u, VL_F32, v, dst, POST_UPDATE);
        }
        vstas(u, dst, 0, POST_UPDATE);
    }
}
