// ASC2003 fixture: post-update interfaces instantiated with POST_MODE_NORMAL.
#include "kernel_operator.h"

constexpr uint32_t VL_HALF = 128;

__simd_vf__ inline void Rows(__ubuf__ half* dst, __ubuf__ half* src, __ubuf__ uint32_t* bits, uint16_t n)
{
    AscendC::Reg::RegTensor<half> v;
    AscendC::Reg::MaskReg m = AscendC::Reg::CreateMask<half>();
    AscendC::Reg::MaskReg p;
    for (uint16_t i = 0; i < n; ++i) {
        AscendC::Reg::LoadAlign<half, AscendC::Reg::PostLiteral::POST_MODE_NORMAL>(v, src, VL_HALF); // want 66:"LoadAlign instantiated with POST_MODE_NORMAL, which the post-update interface does not support; use POST_MODE_UPDATE to advance src by the stride, or the interface without a stride to leave it"
        AscendC::Reg::StoreAlign<half, AscendC::Reg::PostLiteral::POST_MODE_NORMAL, AscendC::Reg::StoreDist::DIST_NORM_B16>(dst, v, VL_HALF, m); // want "StoreAlign instantiated with POST_MODE_NORMAL, .* advance dst by the stride"
        AscendC::Reg::LoadAlign<uint32_t, AscendC::Reg::PostLiteral::POST_MODE_NORMAL, AscendC::Reg::MaskDist::DIST_NORM>(p, bits, 32); // want "LoadAlign instantiated with POST_MODE_NORMAL"
    }
}

// MicroAPI and the legacy names.
__simd_vf__ inline void Legacy(__ubuf__ float* dst, __ubuf__ float* src, uint16_t n)
{
    AscendC::MicroAPI::RegTensor<float> v;
    AscendC::MicroAPI::MaskReg m = AscendC::MicroAPI::CreateMask<float>();
    for (uint16_t i = 0; i < n; ++i) {
        AscendC::MicroAPI::DataCopy<float, AscendC::MicroAPI::PostLiteral::POST_MODE_NORMAL>(v, src, 64); // want "DataCopy instantiated with POST_MODE_NORMAL, .* advance src"
        AscendC::MicroAPI::DataCopy<float, AscendC::MicroAPI::PostLiteral::POST_MODE_NORMAL>(dst, v, 64, m); // want "DataCopy instantiated with POST_MODE_NORMAL, .* advance dst"
    }
}

// The unaligned interfaces: LoadUnAlign supports POST_MODE_UPDATE only, StoreUnAlign with a stride too.
__simd_vf__ inline void Unaligned(__ubuf__ half* dst, __ubuf__ half* src, uint16_t n)
{
    AscendC::Reg::RegTensor<half> v;
    AscendC::Reg::UnalignRegForLoad ul;
    AscendC::Reg::UnalignRegForStore us;
    AscendC::Reg::LoadUnAlignPre(ul, src);
    for (uint16_t i = 0; i < n; ++i) {
        AscendC::Reg::LoadUnAlign<half, AscendC::Reg::PostLiteral::POST_MODE_NORMAL>(v, ul, src, 100); // want "LoadUnAlign instantiated with POST_MODE_NORMAL, which it does not support; use POST_MODE_UPDATE \\(src advances by the stride\\)"
        AscendC::Reg::StoreUnAlign<half, AscendC::Reg::PostLiteral::POST_MODE_NORMAL>(dst, v, us, 100); // want "StoreUnAlign instantiated with POST_MODE_NORMAL"
    }
    AscendC::Reg::StoreUnAlignPost(dst, us, 0);
}

__simd_vf__ inline void UnalignedLegacy(__ubuf__ half* dst, __ubuf__ half* src, uint16_t n)
{
    AscendC::MicroAPI::RegTensor<half> v;
    AscendC::MicroAPI::UnalignReg ul;
    AscendC::MicroAPI::UnalignReg us;
    AscendC::MicroAPI::DataCopyUnAlignPre(ul, src);
    for (uint16_t i = 0; i < n; ++i) {
        AscendC::MicroAPI::DataCopyUnAlign<half, AscendC::MicroAPI::PostLiteral::POST_MODE_NORMAL>(v, ul, src, 100); // want "DataCopyUnAlign instantiated with POST_MODE_NORMAL, which it does not support"
        AscendC::MicroAPI::DataCopyUnAlign<half, AscendC::MicroAPI::PostLiteral::POST_MODE_NORMAL>(dst, v, us, 100); // want "DataCopyUnAlign instantiated with POST_MODE_NORMAL, which the post-update interface does not support"
    }
    AscendC::MicroAPI::DataCopyUnAlignPost(dst, us, 0);
}
