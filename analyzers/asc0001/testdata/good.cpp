// ASC0001 fixture: clean VF code, Ascend qualifiers included, must stay silent.
#include "kernel_operator.h"

__simd_vf__ inline void AddClean(__ubuf__ float* dst, __ubuf__ float* src0, __ubuf__ float* src1, uint16_t repeat)
{
    AscendC::Reg::RegTensor<float> a, b, c;
    AscendC::Reg::MaskReg mask = AscendC::Reg::CreateMask<float>();
    for (uint16_t i = 0; i < repeat; ++i) {
        AscendC::Reg::LoadAlign(a, src0 + i * 64);
        AscendC::Reg::LoadAlign(b, src1 + i * 64);
        AscendC::Reg::Add(c, a, b, mask);
        AscendC::Reg::StoreAlign(dst + i * 64, c, mask);
    }
}

// Broken code outside every VF region is none of ASC0001's business.
void NotVF(int x) { return x + ; }

__aicore__ inline void Compute(__ubuf__ float* dst, __ubuf__ float* src, uint16_t repeat)
{
    __VEC_SCOPE__
    {
        AscendC::Reg::RegTensor<float> v;
        AscendC::Reg::MaskReg mask = AscendC::Reg::CreateMask<float>();
        for (uint16_t i = 0; i < repeat; ++i) {
            AscendC::Reg::LoadAlign(v, src + i * 64);
            AscendC::Reg::Abs(v, v, mask);
            AscendC::Reg::StoreAlign(dst + i * 64, v, mask);
        }
    }
}

// Same-file macros that build a parameter list, a loop header and a
// declaration list: expanded, the region parses as the compiler sees it.
#define VF_PARAMS(T) __ubuf__ T* dst, __ubuf__ T* src, uint16_t repeat
#define EACH_REPEAT(i) for (uint16_t i = 0; i < repeat; ++i)
#define DECL_REGS(T, ...) AscendC::Reg::RegTensor<T> __VA_ARGS__;

__simd_vf__ inline void MacroParams(VF_PARAMS(float))
{
    DECL_REGS(float, a, b)
    AscendC::Reg::MaskReg mask = AscendC::Reg::CreateMask<float>();
    EACH_REPEAT(i) {
        AscendC::Reg::LoadAlign(a, src + i * 64);
        AscendC::Reg::Abs(b, a, mask);
        AscendC::Reg::StoreAlign(dst + i * 64, b, mask);
    }
}
