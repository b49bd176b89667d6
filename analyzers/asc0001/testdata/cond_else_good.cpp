// ASC0001 fixture, clean: an if constexpr chain that conditional
// compilation cuts, in a class that holds VF code. The parser cannot start
// a statement with else; unhandled, it took the whole class for one
// function and reported a parse error in it.
#include "kernel_operator.h"

template <typename T, int Mode>
class Combine {
public:
    __aicore__ inline void ProcessVF(AscendC::LocalTensor<T>& in, AscendC::LocalTensor<float>& out)
    {
        __ubuf__ T* src = (__ubuf__ T*)in.GetPhyAddr();
        __ubuf__ float* dst = (__ubuf__ float*)out.GetPhyAddr();
        __VEC_SCOPE__
        {
            AscendC::Reg::RegTensor<T> raw;
            AscendC::Reg::RegTensor<float> v;
            AscendC::Reg::MaskReg mask = AscendC::Reg::CreateMask<float>();
            for (uint16_t i = 0; i < rows_; ++i) {
                AscendC::Reg::LoadAlign(raw, src + i * 64);
                AscendC::Reg::Cast<float, T, castTrait>(v, raw, mask);
                AscendC::Reg::StoreAlign(dst + i * 64, v, mask);
            }
        }
    }

    __aicore__ inline void Process(AscendC::LocalTensor<T>& in, AscendC::LocalTensor<float>& out)
    {
        if constexpr (Mode == 0) {
            ProcessPlain(in, out);
        }
#if defined(__NPU_ARCH__) && (__NPU_ARCH__ == 3510)
        else if constexpr (Mode == 1) {
            ProcessVF(in, out);
        } else if constexpr (Mode == 2) {
            ProcessVF(in, out);
        }
#endif
    }

    // An #else between two continuations of the chain, and a comment.
    __aicore__ inline void Finish(AscendC::LocalTensor<float>& out)
    {
        if constexpr (Mode == 0) {
            Flush(out);
        }
#ifdef ASCEND_FAST_PATH
        // the fast path
        else if constexpr (Mode == 1) {
            FlushFast(out);
        }
#else
        else {
            Flush(out);
        }
#endif
    }

private:
    uint16_t rows_ = 0;
};

// The same cut inside a VF function.
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
            AscendC::Reg::Abs(v, v, mask);
        }
#endif
        AscendC::Reg::StoreAlign(dst + i * 64, v, mask);
    }
}
