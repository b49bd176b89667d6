// ASC0001 fixture, clean: a class template whose template header is a
// macro of the file. Unexpanded, the macro made the parser take the whole
// class for one function holding register types; the class is not a VF
// region, and its members parse.
#include "kernel_operator.h"

#define EPILOGUE_TEMPLATE_PARAMS template <typename InT, typename OutT>
#define EPILOGUE_TEMPLATE_ARGS InT, OutT

EPILOGUE_TEMPLATE_PARAMS
class BlockEpilogue {
public:
    __aicore__ inline BlockEpilogue() {}
    __aicore__ inline void Init(__gm__ uint8_t* x, uint32_t rows);
    __aicore__ inline void LoadVF(__local_mem__ InT* src, AscendC::Reg::RegTensor<float>& dst,
                                  AscendC::Reg::MaskReg mask);

private:
    uint32_t rows_ = 0;
    float scale_ = 1.0f;
};

EPILOGUE_TEMPLATE_PARAMS
__aicore__ inline void BlockEpilogue<EPILOGUE_TEMPLATE_ARGS>::LoadVF(__local_mem__ InT* src,
    AscendC::Reg::RegTensor<float>& dst, AscendC::Reg::MaskReg mask)
{
    AscendC::Reg::RegTensor<InT> raw;
    AscendC::Reg::LoadAlign(raw, src);
    AscendC::Reg::Cast<float, InT, castTrait>(dst, raw, mask);
}

// The header macro on the class's own line.
#define SCALE_TEMPLATE template <typename T>
SCALE_TEMPLATE class Scaler {
public:
    __aicore__ inline void Run(AscendC::Reg::RegTensor<T>& v, AscendC::Reg::MaskReg m);
    T factor_;
};
