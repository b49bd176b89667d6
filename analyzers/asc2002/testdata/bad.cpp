// ASC2002 fixture: dist modes that do not fit the data they move.
#include "kernel_operator.h"

// A DIST_NORM_Bn store of data of another width under a partial mask made
// for narrower elements: each 32-bit lane reads the bit of its first half,
// so an odd count writes one half more than the mask enables.
__simd_vf__ inline void NormUnderPartialMask(__ubuf__ half* hdst, __ubuf__ bfloat16_t* bdst, uint32_t count)
{
    AscendC::Reg::RegTensor<half> h;
    AscendC::Reg::RegTensor<bfloat16_t> b;
    AscendC::Reg::MaskReg tail = AscendC::Reg::UpdateMask<half>(count);
    AscendC::Reg::MaskReg head = AscendC::Reg::CreateMask<bfloat16_t, AscendC::Reg::MaskPattern::VL8>();
    AscendC::Reg::StoreAlign<half, AscendC::Reg::StoreDist::DIST_NORM_B32>(hdst, h, tail); // want 61:"StoreAlign with DIST_NORM_B32 on half data under tail, a mask made for 16-bit elements: the store reads one mask bit per 32-bit lane, .* store with DIST_NORM_B16"
    AscendC::MicroAPI::DataCopy<bfloat16_t, AscendC::MicroAPI::StoreDist::DIST_NORM_B32>(bdst, b, head); // want "DataCopy with DIST_NORM_B32 on bfloat16_t data under head"
}

// 64-bit data: a single load takes DIST_NORM only, a single store DIST_NORM or DIST_PACK_B64.
__simd_vf__ inline void Wide(__ubuf__ int64_t* dst, __ubuf__ int64_t* src, __ubuf__ uint64_t* udst)
{
    AscendC::Reg::RegTensor<int64_t> q;
    AscendC::Reg::RegTensor<uint64_t> u;
    AscendC::Reg::MaskReg m = AscendC::Reg::CreateMask<int64_t>();
    AscendC::Reg::StoreAlign<uint64_t, AscendC::Reg::StoreDist::DIST_NORM_B32>(udst, u, m); // want "StoreAlign with DIST_NORM_B32 on uint64_t data, but a single store of 64-bit data supports only DIST_NORM and DIST_PACK_B64"
    AscendC::Reg::StoreAlign<int64_t, AscendC::Reg::StoreDist::DIST_FIRST_ELEMENT_B32>(dst, q, m); // want "single store of 64-bit data"
    AscendC::Reg::LoadAlign<int64_t, AscendC::Reg::LoadDist::DIST_BRC_B32>(q, src); // want "LoadAlign with DIST_BRC_B32 on int64_t data, but a single load of 64-bit data supports only DIST_NORM"
    AscendC::MicroAPI::DataCopy<int64_t, AscendC::MicroAPI::LoadDist::DIST_BLK>(q, src); // want "DataCopy with DIST_BLK on int64_t data, but a single load of 64-bit data"
}

// Interleave and de-interleave move two registers.
__simd_vf__ inline void Registers(__ubuf__ half* dst, __ubuf__ half* src)
{
    AscendC::Reg::RegTensor<half> a, b;
    AscendC::Reg::MaskReg m = AscendC::Reg::CreateMask<half>();
    AscendC::Reg::StoreAlign<half, AscendC::Reg::StoreDist::DIST_INTLV_B16>(dst, a, m); // want "StoreAlign with DIST_INTLV_B16 stores one register, but interleave stores two \\(dst, src0, src1\\); pass the second register, or use DIST_NORM_B16 or DIST_NORM for one"
    AscendC::Reg::LoadAlign<half, AscendC::Reg::LoadDist::DIST_DINTLV_B16>(a, src); // want "LoadAlign with DIST_DINTLV_B16 has one destination, but de-interleave loads two \\(dst0, dst1, src\\); pass the second register, or use DIST_NORM for one"
    AscendC::MicroAPI::DataCopy<half, AscendC::MicroAPI::StoreDist::DIST_NORM_B16>(dst, a, b, m); // want "DataCopy with DIST_NORM_B16 has two source registers, but only DIST_INTLV_B16 moves two"
    AscendC::MicroAPI::DataCopy<half, AscendC::MicroAPI::LoadDist::DIST_NORM>(a, b, src); // want "DataCopy with DIST_NORM has two destination registers, but only DIST_DINTLV_B16 moves two"
}

// C API: the mode is in the name.
__simd_vf__ inline void CApi(__ubuf__ half* dst, __ubuf__ half* src, __ubuf__ int64_t* qdst, __ubuf__ int64_t* qsrc)
{
    vector_half v;
    vector_int64_t q;
    vector_bool m = asc_create_mask_b16(PAT_ALL);
    asc_storealign_intlv(dst, v, m); // want 5:"asc_storealign_intlv stores one register, but interleave stores two \\(dst, src0, src1\\); pass the second register, or use asc_storealign for one"
    asc_loadalign_deintlv(v, src); // want "asc_loadalign_deintlv has one destination, .* or use asc_loadalign for one"
    asc_storealign_1st(qdst, q); // want "asc_storealign_1st on int64_t data, but a single store of 64-bit data supports only DIST_NORM and DIST_PACK_B64"
    asc_loadalign_brc(q, qsrc); // want "asc_loadalign_brc on int64_t data, but a single load of 64-bit data"
}
