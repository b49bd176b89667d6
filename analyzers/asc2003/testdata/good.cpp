// ASC2003 fixture: POST_MODE_UPDATE, and the interfaces that support POST_MODE_NORMAL; must stay silent.
#include "kernel_operator.h"

using namespace AscendC;

__simd_vf__ inline void Update(__ubuf__ half* dst, __ubuf__ half* src, uint16_t n)
{
    Reg::RegTensor<half> v;
    Reg::MaskReg m = Reg::CreateMask<half>();
    Reg::UnalignRegForLoad ul;
    Reg::UnalignRegForStore us;
    Reg::LoadUnAlignPre(ul, src);
    for (uint16_t i = 0; i < n; ++i) {
        Reg::LoadAlign<half, Reg::PostLiteral::POST_MODE_UPDATE>(v, src, 128);
        Reg::StoreAlign<half, Reg::PostLiteral::POST_MODE_UPDATE>(dst, v, 128, m);
        Reg::LoadUnAlign<half, Reg::PostLiteral::POST_MODE_UPDATE>(v, ul, src, 100);
        Reg::StoreUnAlign<half, Reg::PostLiteral::POST_MODE_UPDATE>(dst, v, us, 100);
    }
    // The final flush may leave dst where it is.
    Reg::StoreUnAlignPost<half, Reg::PostLiteral::POST_MODE_NORMAL>(dst, us, 0);
}

// Strided block copies: POST_MODE_NORMAL reads at src + repeatStride blocks without moving src.
__simd_vf__ inline void Blocks(__ubuf__ float* dst, __ubuf__ float* src, uint16_t n)
{
    Reg::RegTensor<float> v;
    Reg::MaskReg m = Reg::CreateMask<float>();
    for (uint16_t i = 0; i < n; ++i) {
        Reg::LoadAlign<float, Reg::DataCopyMode::DATA_BLOCK_COPY, Reg::PostLiteral::POST_MODE_NORMAL>(v, src, 1, 8, m);
        Reg::StoreAlign<float, Reg::DataCopyMode::DATA_BLOCK_COPY, Reg::PostLiteral::POST_MODE_NORMAL>(dst, v, 1, 8, m);
    }
}

// The AR form of StoreUnAlign supports POST_MODE_NORMAL.
__simd_vf__ inline void Squeezed(__ubuf__ float* dst, __ubuf__ float* src)
{
    Reg::RegTensor<float> v;
    Reg::RegTensor<float> packed;
    Reg::UnalignRegForStore us;
    Reg::MaskReg m = Reg::CreateMask<float>();
    Reg::ClearSpr<SpecialPurposeReg::AR>();
    Reg::LoadAlign(v, src);
    Reg::Squeeze<float, Reg::GatherMaskMode::STORE_REG>(packed, v, m);
    Reg::StoreUnAlign<float, Reg::PostLiteral::POST_MODE_NORMAL>(dst, packed, us);
    Reg::StoreUnAlignPost(dst, us);
}
