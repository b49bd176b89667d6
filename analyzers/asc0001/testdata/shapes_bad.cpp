// ASC0001 fixture: VF code that does not parse is reported, also next to
// the constructs the front end reads past (a template header from a macro,
// an else chain cut by #if).
#include "kernel_operator.h"
#include "vf_cast_utils.h"

// A macro of another header called with type names as arguments: not an
// expression, so the Cast calls it stands for are lost.
__simd_vf__ inline void CastPairs(__ubuf__ float* dst, __ubuf__ half* src, uint16_t repeat)
{
    AscendC::Reg::RegTensor<half> in1, in2;
    AscendC::Reg::RegTensor<float> out1, out2;
    AscendC::Reg::MaskReg mask = AscendC::Reg::CreateMask<float>();
    AscendC::Reg::LoadAlign(in1, src);
    AscendC::Reg::LoadAlign(in2, src + 128);
    DO_CAST_2(float, half, castTrait, out, in, mask); // want 5:"VF region CastPairs does not parse here"
    AscendC::Reg::StoreAlign(dst, out1, mask);
    AscendC::Reg::StoreAlign(dst + 64, out2, mask);
}

#define KERNEL_TEMPLATE template <typename T>

KERNEL_TEMPLATE
class Kernel {
public:
    __aicore__ inline void ScaleVF(__ubuf__ T* dst, __ubuf__ T* src, T s, uint16_t repeat);
};

KERNEL_TEMPLATE
__aicore__ inline void Kernel<T>::ScaleVF(__ubuf__ T* dst, __ubuf__ T* src, T s, uint16_t repeat)
{
    __VEC_SCOPE__
    {
        AscendC::Reg::RegTensor<T> v;
        AscendC::Reg::MaskReg mask = AscendC::Reg::CreateMask<T>();
        for (uint16_t i = 0; i < repeat; ++i) {
            AscendC::Reg::LoadAlign(v, src + i * 64);
            AscendC::Reg::Muls(v, v, s, mask)); // want 46:"VF region Kernel<T>::ScaleVF.vec_scope#1 does not parse here"
            AscendC::Reg::StoreAlign(dst + i * 64, v, mask);
        }
    }
}

__simd_vf__ inline void ClampVF(__ubuf__ float* dst, __ubuf__ float* src, uint16_t repeat, int mode)
{
    AscendC::Reg::RegTensor<float> v;
    AscendC::Reg::MaskReg mask = AscendC::Reg::CreateMask<float>();
    for (uint16_t i = 0; i < repeat; ++i) {
        AscendC::Reg::LoadAlign(v, src + i * 64);
        if (mode == 0) {
            AscendC::Reg::Relu(v, v, mask);
        }
#if defined(__NPU_ARCH__) && (__NPU_ARCH__ == 3510)
        else if (mode == 1) {
            AscendC::Reg::Abs(v, v, mask) @; // want 43:"VF region ClampVF does not parse here"
        }
#endif
        AscendC::Reg::StoreAlign(dst + i * 64, v, mask);
    }
}
