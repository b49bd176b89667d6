// ASC1006 fixture: each stream has its own register and every flush names a register the stores wrote; must stay silent.
#include "kernel_operator.h"

using namespace AscendC;

constexpr uint32_t VL_F32 = 256 / sizeof(float);

__simd_vf__ inline void CopyStream(__ubuf__ float* dst, __ubuf__ float* src, uint16_t repeat)
{
    Reg::RegTensor<float> v;
    Reg::UnalignReg ul;
    Reg::UnalignReg us;
    Reg::LoadUnAlignPre(ul, src);
    for (uint16_t i = 0; i < repeat; ++i) {
        Reg::LoadUnAlign(v, ul, src, VL_F32);
        Reg::StoreUnAlign(dst, v, us, VL_F32);
    }
    Reg::StoreUnAlignPost(dst, us, 0);
}

// A flush of a register parameter: the stores are the caller's.
__simd_callee__ inline void FlushParam(__ubuf__ float*& dst, Reg::UnalignRegForStore& us)
{
    Reg::StoreUnAlignPost(dst, us, 0);
}

// The stores happen in a helper (same file) or in a function defined elsewhere.
__simd_callee__ inline void StoreRow(__ubuf__ float*& dst, Reg::RegTensor<float>& v, Reg::UnalignRegForStore& us)
{
    Reg::StoreUnAlign(dst, v, us, VL_F32);
}

__simd_vf__ inline void StoresInHelpers(__ubuf__ float* dst, __ubuf__ float* dst2, __ubuf__ float* src, uint16_t repeat)
{
    Reg::RegTensor<float> v;
    Reg::UnalignRegForStore us;
    Reg::UnalignRegForStore us2;
    for (uint16_t i = 0; i < repeat; ++i) {
        Reg::LoadAlign(v, src + i * VL_F32);
        StoreRow(dst, v, us);
        StoreRowElsewhere(dst2, v, us2); // declared in another header
    }
    Reg::StoreUnAlignPost(dst, us, 0);
    Reg::StoreUnAlignPost(dst2, us2, 0);
}

// Elements of one array on different sides are different registers.
__simd_vf__ inline void ArrayElements(__ubuf__ half* dst, __ubuf__ half* src, uint16_t repeat)
{
    MicroAPI::RegTensor<half> v;
    MicroAPI::UnalignReg u[2];
    MicroAPI::DataCopyUnAlignPre(u[0], src);
    for (uint16_t i = 0; i < repeat; ++i) {
        MicroAPI::DataCopyUnAlign(v, u[0], src, 128);
        MicroAPI::DataCopyUnAlign(dst, v, u[1], 128);
    }
    MicroAPI::DataCopyUnAlignPost(dst, u[1], 0);
}

// An array indexed by a variable: which element is used is unknown.
__simd_vf__ inline void ArrayByIndex(__ubuf__ float* dst, __ubuf__ float* src, uint16_t repeat)
{
    Reg::RegTensor<float> v;
    Reg::UnalignReg u[2];
    for (uint16_t i = 0; i < repeat; ++i) {
        Reg::LoadAlign(v, src + i * VL_F32);
        Reg::StoreUnAlign(dst, v, u[i % 2], VL_F32);
    }
    Reg::StoreUnAlignPost(dst, u[1], 0);
}

// Two store streams, each flushed; a mask stream too.
__simd_vf__ inline void TwoStreams(__ubuf__ float* dstA, __ubuf__ uint32_t* dstB, __ubuf__ float* src, float thr, uint16_t repeat)
{
    Reg::RegTensor<float> v;
    Reg::MaskReg all = Reg::CreateMask<float>();
    Reg::MaskReg gt;
    Reg::UnalignRegForStore ua, ub;
    for (uint16_t i = 0; i < repeat; ++i) {
        Reg::LoadAlign(v, src + i * VL_F32);
        Reg::StoreUnAlign(dstA, v, ua, 40);
        Reg::Compares<float, CMPMODE::GT>(gt, v, thr, all);
        Reg::StoreUnAlign(dstB, gt, ub);
    }
    Reg::StoreUnAlignPost(dstA, ua, 0);
    Reg::StoreUnAlignPost(dstB, ub, 0);
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
        vector_align us;
        vldas(ul, src);
        for (uint16_t i = 0; i < repeat; ++i) {
            vldus(v, ul, src, VL_F32, POST_UPDATE);
            vstus(us, VL_F32, v, dst, POST_UPDATE);
        }
        vstas(us, dst, 0, POST_UPDATE);
    }
}

// SIMT regions are recorded, not analysed.
__simt_vf__ inline void SimtKernel(__ubuf__ float* dst, __ubuf__ float* src)
{
    Reg::RegTensor<float> v;
    Reg::UnalignReg u;
    Reg::LoadUnAlignPre(u, src);
    Reg::LoadUnAlign(v, u, src);
    Reg::StoreUnAlign(dst, v, u, VL_F32);
}

// One vector_align variable serving a load stream and then a store stream,
// each finished before the other starts: the types are one type, and the
// streams never share the register at once. Per iteration (a read-modify-
// write of a row) and once (scale in place).
__simd_vf__ inline void SequentialReuse(__ubuf__ float* rows, uint16_t n, uint32_t stride, float s)
{
    AscendC::Reg::RegTensor<float> v;
    AscendC::Reg::MaskReg m = AscendC::Reg::CreateMask<float>();
    AscendC::Reg::UnalignReg u;
    for (uint16_t j = 0; j < n; ++j) {
        auto* row = rows + j * stride;
        AscendC::Reg::LoadUnAlignPre(u, row);
        AscendC::Reg::LoadUnAlign(v, u, row);
        AscendC::Reg::Muls(v, v, s, m);
        AscendC::Reg::StoreUnAlign(row, v, u, 48);
        AscendC::Reg::StoreUnAlignPost(row, u, 0);
    }
    AscendC::MicroAPI::UnalignReg u0;
    AscendC::MicroAPI::DataCopyUnAlignPre(u0, rows);
    AscendC::MicroAPI::DataCopyUnAlign(v, u0, rows, 0);
    AscendC::MicroAPI::Muls(v, v, s, m);
    AscendC::MicroAPI::DataCopyUnAlign(rows, v, u0, 48);
    AscendC::MicroAPI::DataCopyUnAlignPost(rows, u0, 0);
}
