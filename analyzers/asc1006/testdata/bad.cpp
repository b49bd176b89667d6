// ASC1006 fixture: unaligned registers mixed up between the load and the store side.
#include "kernel_operator.h"

constexpr uint32_t VL_F32 = 256 / sizeof(float);

// One UnalignReg carries the load stream and then the store stream.
__simd_vf__ inline void OneRegisterBothWays(__ubuf__ float* dst, __ubuf__ float* src, uint16_t repeat)
{
    AscendC::Reg::RegTensor<float> v;
    AscendC::Reg::UnalignReg u;
    AscendC::Reg::LoadUnAlignPre(u, src);
    for (uint16_t i = 0; i < repeat; ++i) {
        AscendC::Reg::LoadUnAlign(v, u, src, VL_F32);
        AscendC::Reg::StoreUnAlign(dst, v, u, VL_F32); // want 9:"StoreUnAlign uses u as a store register, but LoadUnAlignPre on line 11 used it as a load register; give the store stream its own UnalignRegForStore"
    }
    AscendC::Reg::StoreUnAlignPost(dst, u, 0);
}

// The flush names the load register u0; the stores went through u1.
__simd_vf__ inline void FlushesLoadRegister(__ubuf__ float* dst, __ubuf__ float* src, uint16_t repeat)
{
    AscendC::MicroAPI::RegTensor<float> v;
    AscendC::MicroAPI::UnalignReg u0, u1;
    AscendC::MicroAPI::LoadUnAlignPre(u0, src);
    for (uint16_t i = 0; i < repeat; ++i) {
        AscendC::MicroAPI::LoadUnAlign(v, u0, src, VL_F32);
        AscendC::MicroAPI::StoreUnAlign(dst, v, u1, VL_F32);
    }
    AscendC::MicroAPI::StoreUnAlignPost(dst, u0, 0); // want 5:"StoreUnAlignPost flushes u0 \\(the load register\\), which no StoreUnAlign wrote; the stores went through u1: flush that register instead"
}

// The same mistake in the legacy spelling.
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
    AscendC::MicroAPI::DataCopyUnAlignPost(dst, ureg0, 0); // want "DataCopyUnAlignPost flushes ureg0 \\(the load register\\), which no StoreUnAlign wrote; the stores went through ureg1"
}

// A store register that a later load reads.
__simd_vf__ inline void StoreThenLoad(__ubuf__ float* dst, __ubuf__ float* src)
{
    AscendC::Reg::RegTensor<float> v;
    AscendC::Reg::UnalignReg us;
    AscendC::Reg::LoadAlign(v, src);
    AscendC::Reg::StoreUnAlign(dst, v, us, VL_F32);
    AscendC::Reg::StoreUnAlignPost(dst, us, 0);
    AscendC::Reg::LoadUnAlign(v, us, dst); // want "LoadUnAlign uses us as a load register, but StoreUnAlign on line 52 used it as a store register; give the load stream its own UnalignRegForLoad"
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

// Two store streams; the flush names neither.
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
    AscendC::Reg::StoreUnAlignPost(dstB, uc, 0); // want "flushes uc, which no StoreUnAlign wrote; the stores went through ua and ub: flush the one this stream used instead"
}

// C API with the untyped vector_align.
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
    asc_storeunalign_post(dst, ul, 0); // want "asc_storeunalign_post flushes ul \\(the load register\\), which no StoreUnAlign wrote; the stores went through us"
}

// Raw builtins.
__aicore__ inline void RawMixed(__ubuf__ float* dst, __ubuf__ float* src, uint16_t repeat)
{
    __VEC_SCOPE__
    {
        vector_f32 v;
        vector_align u;
        vldas(u, src);
        for (uint16_t i = 0; i < repeat; ++i) {
            vldus(v, u, src, VL_F32, POST_UPDATE);
            vstus(u, VL_F32, v, dst, POST_UPDATE); // want "vstus uses u as a store register, but vldas on line 103 used it as a load register"
        }
        vstas(u, dst, 0, POST_UPDATE);
    }
}
