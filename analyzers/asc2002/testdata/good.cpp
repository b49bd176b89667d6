// ASC2002 fixture: dist modes that fit their data; must stay silent.
#include "kernel_operator.h"

using namespace AscendC;

constexpr Reg::CastTrait FLOAT_TO_HALF = {Reg::RegLayout::ZERO, Reg::SatMode::NO_SAT, Reg::MaskMergeMode::ZEROING,
                                          RoundMode::CAST_RINT};

// Width-specific modes at their own width, and DIST_NORM, which takes the width from T.
__simd_vf__ inline void Widths(__ubuf__ float* fdst, __ubuf__ float* fsrc, __ubuf__ half* hdst, __ubuf__ half* hsrc,
                               __ubuf__ uint8_t* bdst, __ubuf__ uint8_t* bsrc, __ubuf__ uint16_t* wsrc)
{
    Reg::RegTensor<float> f;
    Reg::RegTensor<half> h0, h1;
    Reg::RegTensor<uint8_t> b;
    Reg::RegTensor<uint16_t> w;
    Reg::MaskReg m = Reg::CreateMask<float>();
    Reg::StoreAlign<float, Reg::StoreDist::DIST_NORM_B32>(fdst, f, m);
    Reg::StoreAlign<float, Reg::StoreDist::DIST_NORM>(fdst, f, m);
    Reg::StoreAlign<half, Reg::StoreDist::DIST_FIRST_ELEMENT_B16>(hdst, h0, m);
    Reg::StoreAlign<half, Reg::StoreDist::DIST_INTLV_B16>(hdst, h0, h1, m);
    Reg::LoadAlign<half, Reg::LoadDist::DIST_BRC_B16>(h0, hsrc);
    Reg::LoadAlign<float, Reg::LoadDist::DIST_DINTLV_B32>(f, f, fsrc);
    Reg::LoadAlign<uint16_t, Reg::LoadDist::DIST_E2B_B16>(w, wsrc);
    Reg::LoadAlign<uint8_t, Reg::LoadDist::DIST_US_B8>(b, bsrc);
    Reg::LoadAlign<float, Reg::LoadDist::DIST_BLK>(f, fsrc);
}

// Pack and unpack: T may be the lane type or the narrow UB type.
__simd_vf__ inline void Narrow(__ubuf__ half* hdst, __ubuf__ float* fsrc, __ubuf__ half* hsrc, __ubuf__ uint8_t* bdst,
                               __ubuf__ uint16_t* wdst, __ubuf__ int64_t* qsrc, __ubuf__ float* fdst)
{
    Reg::RegTensor<float> f;
    Reg::RegTensor<half> h;
    Reg::RegTensor<uint8_t> b;
    Reg::RegTensor<uint16_t> w;
    Reg::RegTensor<int64_t> q;
    Reg::MaskReg m = Reg::CreateMask<float>();
    Reg::LoadAlign(f, fsrc);
    Reg::Cast<half, float, FLOAT_TO_HALF>(h, f, m);
    Reg::StoreAlign<half, Reg::StoreDist::DIST_PACK_B32>(hdst, h, m); // half values in 32-bit lanes
    Reg::StoreAlign<float, Reg::StoreDist::DIST_PACK_B32>(fdst, f, m);
    Reg::StoreAlign<uint8_t, Reg::StoreDist::DIST_PACK4_B32>(bdst, b, m);
    Reg::StoreAlign<uint16_t, Reg::StoreDist::DIST_PACK_B16>(wdst, w, m);
    Reg::StoreAlign<float, Reg::StoreDist::DIST_PACK_B64>(fdst, f, m);
    Reg::LoadAlign<half, Reg::LoadDist::DIST_UNPACK_B16>(h, hsrc);
    Reg::LoadAlign<int64_t, Reg::PostLiteral::POST_MODE_UPDATE, Reg::LoadDist::DIST_UNPACK_B32>(q, qsrc, 64);
}

// 64-bit data with the modes it supports.
__simd_vf__ inline void Wide(__ubuf__ int64_t* dst, __ubuf__ int64_t* src)
{
    Reg::RegTensor<int64_t> q;
    Reg::RegTensor<int64_t, Reg::RegTraitNumTwo> pair;
    Reg::MaskReg m = Reg::CreateMask<int64_t>();
    Reg::LoadAlign(q, src);
    Reg::StoreAlign(dst, q, m);
    Reg::StoreAlign<int64_t, Reg::StoreDist::DIST_PACK_B64>(dst, q, m);
    Reg::LoadAlign(pair, src); // one RegTraitNumTwo register is not a dual load
    Reg::StoreAlign(dst, pair, m);
}

// The element type is a template parameter: no width to compare. Modes named
// by a constant are not resolved.
template <typename T, Reg::StoreDist DIST>
__simd_vf__ inline void Generic(__ubuf__ T* dst, __ubuf__ T* src)
{
    Reg::RegTensor<T> v;
    Reg::MaskReg m = Reg::CreateMask<T>();
    Reg::LoadAlign<T, Reg::LoadDist::DIST_BRC_B16>(v, src);
    Reg::StoreAlign<T, Reg::StoreDist::DIST_NORM_B16>(dst, v, m);
    Reg::StoreAlign<T, DIST>(dst, v, v, m);
}

// C API: the width comes from the register, the register count must match.
__simd_vf__ inline void CApi(__ubuf__ half* dst, __ubuf__ half* src, __ubuf__ int64_t* qdst)
{
    vector_half v0;
    vector_half v1;
    vector_int64_t q;
    vector_bool m = asc_create_mask_b16(PAT_ALL);
    asc_storealign_intlv(dst, v0, v1);
    asc_loadalign_deintlv(v0, v1, src);
    asc_loadalign_brc(v0, src);
    asc_storealign_1st(dst, v0);
    asc_storealign_pack(qdst, q, m);
    asc_storealign(qdst, q, m);
}

// A mode that names its width moves the bytes it names, whatever T is: the
// implementation passes it to vlds/vsts as written (only DIST_NORM takes
// its width from T). These reinterpretations are deliberate idioms.
__simd_vf__ inline void Reinterpret(__ubuf__ uint32_t* idx, __ubuf__ uint32_t* pairs, __ubuf__ uint8_t* fp8,
                                    __ubuf__ float* fdst, __ubuf__ uint32_t* udst, __ubuf__ half* hdst,
                                    __ubuf__ uint16_t* wsrc)
{
    Reg::RegTensor<uint32_t> bytes, lo, hi, wide;
    Reg::RegTensor<uint8_t> raw;
    Reg::RegTensor<float> f;
    Reg::RegTensor<half> h;
    Reg::RegTensor<uint16_t> w0, w1;
    Reg::MaskReg all32 = Reg::CreateMask<uint32_t>();
    Reg::MaskReg allHalf = Reg::CreateMask<half>();
    Reg::MaskReg rows = Reg::UpdateMask<uint32_t>(8);
    // a byte broadcast into 32-bit lanes, then masked with 0xFF00 by the kernel
    Reg::LoadAlign<uint32_t, Reg::LoadDist::DIST_BRC_B8>(bytes, idx);
    // the 16-bit halves of 32-bit data split into two registers
    Reg::LoadAlign<uint32_t, Reg::LoadDist::DIST_DINTLV_B16>(lo, hi, pairs);
    // fp8 bytes unpacked to 16-bit lanes for a cast
    Reg::LoadAlign<uint8_t, Reg::LoadDist::DIST_UNPACK_B16>(raw, fp8);
    Reg::LoadAlign<uint16_t, Reg::LoadDist::DIST_DINTLV_B8>(w0, w1, wsrc);
    Reg::LoadAlign<uint32_t, Reg::LoadDist::DIST_BRC_B16>(wide, idx);
    // a width-suffixed store under an all-true mask writes every byte
    Reg::StoreAlign<float, Reg::StoreDist::DIST_NORM_B16>(fdst, f, all32);
    Reg::StoreAlign<half, Reg::StoreDist::DIST_NORM_B32>(hdst, h, allHalf);
    // a mask made for wider elements selects whole lanes of the narrower mode
    Reg::StoreAlign<uint32_t, Reg::StoreDist::DIST_NORM_B16>(udst, wide, rows);
}
