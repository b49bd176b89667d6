// ASC2001 fixture: aligned accesses, and misalignments that cannot be proven; must stay silent.
#include "kernel_operator.h"

using namespace AscendC;

constexpr uint32_t VL_HALF = 256 / sizeof(half);

// Every mode at the alignment it needs.
__simd_vf__ inline void Aligned(__ubuf__ half* hdst, __ubuf__ half* hsrc, __ubuf__ uint8_t* bdst, __ubuf__ uint8_t* bsrc,
                                __ubuf__ uint16_t* wsrc, __ubuf__ uint32_t* dsrc, __ubuf__ float* fsrc, uint16_t n)
{
    Reg::RegTensor<half> h0, h1;
    Reg::RegTensor<uint8_t> b;
    Reg::RegTensor<uint16_t> w;
    Reg::RegTensor<uint32_t> d;
    Reg::RegTensor<float> f0, f1;
    Reg::MaskReg m = Reg::CreateMask<half>();
    Reg::LoadAlign(h0, hsrc + 16);
    Reg::StoreAlign<half, Reg::StoreDist::DIST_INTLV_B16>(hdst + 2 * VL_HALF, h0, h1, m);
    Reg::LoadAlign<float, Reg::LoadDist::DIST_DINTLV_B32>(f0, f1, fsrc + 64);
    // The element size is all FIRST_ELEMENT and BRC need.
    Reg::StoreAlign<half, Reg::StoreDist::DIST_FIRST_ELEMENT_B16>(hdst + 1, h0, m);
    Reg::LoadAlign<half, Reg::LoadDist::DIST_BRC_B16>(h1, hsrc + 3);
    Reg::StoreAlign<half, Reg::StoreDist::DIST_PACK_B32>(hdst + 64, h0, m);
    Reg::StoreAlign<uint8_t, Reg::StoreDist::DIST_PACK4_B32>(bdst + 64, b, m);
    Reg::LoadAlign<uint8_t, Reg::LoadDist::DIST_UNPACK4_B8>(b, bsrc + 32);
    Reg::LoadAlign<uint16_t, Reg::LoadDist::DIST_E2B_B16>(w, wsrc + 8); // 16 bytes: enough for E2B_B16
    Reg::LoadAlign<uint32_t, Reg::LoadDist::DIST_E2B_B32>(d, dsrc + 8);
    Reg::LoadAlign<float, Reg::LoadDist::DIST_BLK>(f0, fsrc + 8);
    for (uint16_t i = 0; i < n; ++i) {
        Reg::LoadAlign<half, Reg::LoadDist::DIST_UNPACK_B16>(h0, hsrc + i * VL_HALF / 2);
        Reg::LoadAlign<half, Reg::LoadDist::DIST_BRC_B16>(h1, hsrc + i); // one element per iteration
        Reg::AddrReg a = Reg::CreateAddrReg<half>(i, VL_HALF);
        Reg::StoreAlign(hdst, h0, a, m);
        Reg::AddrReg e = Reg::CreateAddrReg<half>(i, 1);
        Reg::StoreAlign<half, Reg::StoreDist::DIST_FIRST_ELEMENT_B16>(hdst, h0, e, m);
        Reg::LoadAlign<half, Reg::PostLiteral::POST_MODE_UPDATE, Reg::LoadDist::DIST_US_B16>(h1, hsrc, 64);
    }
}

// MaskReg modes and block copies at their alignment.
__simd_vf__ inline void Masks(__ubuf__ uint32_t* bits, __ubuf__ uint32_t* out, __ubuf__ float* src)
{
    Reg::MaskReg m;
    Reg::RegTensor<float> v;
    Reg::LoadAlign<uint32_t, Reg::MaskDist::DIST_US>(m, bits + 4); // 16 bytes: enough for DIST_US
    Reg::StoreAlign<uint32_t, Reg::MaskDist::DIST_PACK>(out + 4, m);
    Reg::StoreAlign<uint32_t>(out + 8, m);
    Reg::LoadAlign<float, Reg::DataCopyMode::DATA_BLOCK_COPY>(v, src + 8, 1, m);
    // A block copy's strides count DataBlocks, and a mask post-update offset is not in elements: not checked.
    Reg::LoadAlign<float, Reg::DataCopyMode::DATA_BLOCK_COPY, Reg::PostLiteral::POST_MODE_UPDATE>(v, src, 1, 3, m);
    Reg::LoadAlign<uint32_t, Reg::PostLiteral::POST_MODE_UPDATE, Reg::MaskDist::DIST_NORM>(m, bits, 3);
}

// Nothing is proven misaligned: symbolic offsets, casts, moved or unknown bases.
__simd_vf__ inline void Unproven(__ubuf__ half* dst, __ubuf__ half* src, __ubuf__ half* moved, __ubuf__ half*& ref,
                                 __ubuf__ half* post, uint32_t off, uint16_t n)
{
    Reg::RegTensor<half> v;
    Reg::MaskReg m = Reg::CreateMask<half>();
    Reg::LoadAlign(v, src + off);
    Reg::LoadAlign(v, (__ubuf__ half*)((__ubuf__ uint8_t*)src + 6));
    Reg::LoadAlign(v, ref + 3); // a reference: the caller's moving pointer
    moved += 13;
    Reg::LoadAlign(v, moved + 3); // 16 halves past the original buffer
    Reg::LoadAlign<half, Reg::PostLiteral::POST_MODE_UPDATE>(v, post, off);
    Reg::LoadAlign(v, post + 3); // post moved by a stride that does not fold
    __ubuf__ half* p = src + off;
    Reg::LoadAlign(v, p + 3); // p is a local: its alignment is not known
    for (uint16_t i = 0; i < n; ++i) {
        Reg::LoadAlign(v, src + i * off);
        if (i % 2 == 0) {
            Reg::StoreAlign(dst + i * 8, v, m); // runs every other iteration: 32 bytes apart
        }
        Reg::AddrReg a = Reg::CreateAddrReg<half>(i, off);
        Reg::StoreAlign(dst, v, a, m);
    }
    for (uint16_t i = 0; i < 1; ++i) {
        Reg::StoreAlign(dst + i * 3, v, m); // runs once: i is 0
    }
}

// An AddrReg reused: each access reads the CreateAddrReg just before it.
__simd_vf__ inline void Reused(__ubuf__ half* dst, __ubuf__ half* src, uint16_t n)
{
    Reg::RegTensor<half> v;
    Reg::UnalignRegForLoad u;
    Reg::MaskReg m = Reg::CreateMask<half>();
    Reg::AddrReg a;
    Reg::LoadUnAlignPre(u, src);
    for (uint16_t i = 0; i < n; ++i) {
        a = Reg::CreateAddrReg<half>(i, 5); // unaligned loads may step by anything
        Reg::LoadUnAlign(v, u, src, a, 0);
        a = Reg::CreateAddrReg<half>(i, 2 * VL_HALF);
        Reg::StoreAlign(dst, v, a, m);
    }
}

// A template element type: i * 8 elements is aligned when sizeof(T) is 4 or 8.
template <typename T>
__simd_vf__ inline void Rows(__ubuf__ T* dst, __ubuf__ T* src, uint16_t n)
{
    Reg::RegTensor<T> v;
    Reg::MaskReg m = Reg::CreateMask<T>();
    for (uint16_t i = 0; i < n; ++i) {
        Reg::LoadAlign(v, src + i * 8);
        Reg::StoreAlign(dst + i * (256 / sizeof(T)), v, m);
        Reg::StoreAlign<T, Reg::PostLiteral::POST_MODE_UPDATE>(dst, v, 32, m);
    }
}

// C API at its alignment.
__simd_vf__ inline void CApi(__ubuf__ half* dst, __ubuf__ half* src, __ubuf__ uint32_t* bits, uint16_t n)
{
    vector_half v0;
    vector_half v1;
    vector_bool m = asc_create_mask_b16(PAT_ALL);
    asc_loadalign(v0, src + 16);
    asc_loadalign_brc(v0, src + 1);
    asc_storealign_1st(dst + 1, v0);
    asc_loadalign_deintlv(v0, v1, src + 256);
    asc_loadalign_brc_elem2datablock(v1, src + 8);
    asc_loadalign_upsample(m, bits + 4);
    for (uint16_t i = 0; i < n; ++i) {
        vector_address a = asc_update_addr_reg_b16(i, 128);
        asc_storealign(dst, v0, a, m);
    }
}

// Raw builtins are not checked: their offsets and arguments follow another order.
__aicore__ inline void Raw(__ubuf__ float* dst, __ubuf__ float* src)
{
    __VEC_SCOPE__
    {
        vector_f32 v;
        vector_bool m = pset_b32(PAT_ALL);
        vlds(v, src, 3, NORM);
        vsts(v, dst, 3, NORM_B32, m);
    }
}
