// ASC0001 fixture: VF regions with syntax errors are reported where parsing failed.
#include "kernel_operator.h"

__simd_vf__ inline void AddMissingSemicolon(__ubuf__ float* dst, __ubuf__ float* src0, __ubuf__ float* src1, uint16_t repeat)
{
    AscendC::Reg::RegTensor<float> a, b, c;
    AscendC::Reg::MaskReg mask = AscendC::Reg::CreateMask<float>();
    for (uint16_t i = 0; i < repeat; ++i) {
        AscendC::Reg::LoadAlign(a, src0 + i * 64);
        AscendC::Reg::LoadAlign(b, src1 + i * 64);
        AscendC::Reg::Add(c, a, b, mask) // want 41:"VF region AddMissingSemicolon does not parse here; findings in it may be incomplete"
        AscendC::Reg::StoreAlign(dst + i * 64, c, mask);
    }
}

__simd_vf__ inline void ScaleStrayParen(__ubuf__ float* dst, __ubuf__ float* src, float s, uint16_t repeat)
{
    AscendC::Reg::RegTensor<float> v;
    AscendC::Reg::MaskReg mask = AscendC::Reg::CreateMask<float>();
    for (uint16_t i = 0; i < repeat; ++i) {
        AscendC::Reg::LoadAlign(v, src + i * 64);
        AscendC::Reg::Muls(v, v, s, mask));  // want 42:"VF region ScaleStrayParen does not parse here"
        AscendC::Reg::StoreAlign(dst + i * 64, v, mask);
    }
}

__aicore__ inline void Compute(__ubuf__ float* dst, __ubuf__ float* src, uint16_t repeat)
{
    __VEC_SCOPE__
    {
        AscendC::Reg::RegTensor<float> v;
        AscendC::Reg::MaskReg mask = AscendC::Reg::CreateMask<float>();
        for (uint16_t i = 0; i < repeat; ++i) {
            AscendC::Reg::LoadAlign(v, src + i * 64);
            AscendC::Reg::Abs(v, v, mask) @; // want 43:"VF region Compute.vec_scope#1 does not parse here"
            AscendC::Reg::StoreAlign(dst + i * 64, v, mask);
        }
    }
}
