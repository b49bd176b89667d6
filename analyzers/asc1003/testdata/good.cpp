// ASC1003 fixture: unaligned streams with uint32_t offsets, and AddrRegs where they belong; must stay silent.
#include "kernel_operator.h"

using namespace AscendC;

constexpr uint32_t VL_F32 = 256 / sizeof(float);

// The best practice: uint32_t strides with post-update.
__simd_vf__ inline void CopyStream(__ubuf__ float* dst, __ubuf__ float* src, uint16_t repeat)
{
    Reg::RegTensor<float> v;
    Reg::UnalignRegForLoad ul;
    Reg::UnalignRegForStore us;
    Reg::LoadUnAlignPre(ul, src);
    for (uint16_t i = 0; i < repeat; ++i) {
        Reg::LoadUnAlign(v, ul, src, VL_F32);
        Reg::StoreUnAlign(dst, v, us, VL_F32);
    }
    Reg::StoreUnAlignPost(dst, us, 0);
}

// AddrReg offsets on aligned loads and stores are what AddrReg is for.
__simd_vf__ inline void AlignedAddrReg(__ubuf__ float* dst, __ubuf__ float* src, uint16_t repeat)
{
    Reg::RegTensor<float> v;
    Reg::MaskReg mask = Reg::CreateMask<float>();
    for (uint16_t i = 0; i < repeat; ++i) {
        Reg::AddrReg off = Reg::CreateAddrReg<float>(i, VL_F32);
        Reg::LoadAlign(v, src, off);
        Reg::StoreAlign(dst, v, off, mask);
    }
}

// An AddrReg parameter is the caller's choice (this is how the API implements its AddrReg overloads).
__simd_callee__ inline void LoadUnAlignByAddrReg(Reg::RegTensor<float>& v, Reg::UnalignRegForLoad& ul,
                                                 __ubuf__ float*& src, Reg::AddrReg& areg)
{
    Reg::LoadUnAlign(v, ul, src, areg, 0);
}

__simd_callee__ inline void RawLoadUnAlignByAddrReg(vector_f32& v, vector_align& ul, __ubuf__ float* src, vector_address areg)
{
    vldu(v, ul, src, areg, 0);
}
