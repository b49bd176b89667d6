// ASC0001 fixture, clean: host code that mentions register types is not a
// VF region, even where tree-sitter cannot parse it.
#include "gtest/gtest.h"
#include "mockcpp/mockcpp.hpp"
#include "kernel_operator.h"

// A gtest case whose body mocks a register-API call: TEST_F is a macro
// invocation read as a function definition, with a stray bracket.
TEST_F(RegTensorTest, PrintsLanes)
{
    MOCKER_CPP(&AscendC::Reg::RegTensor<float>::Print).stubs().will(returnValue(0)));
    AscendC::Reg::MaskReg* mask = nullptr;
    EXPECT_EQ(mask, nullptr);
}

// File-scope registrations through a macro.
REGISTER_CAST_PAIR(UPPER, VCVT_F16_TO_F32, half, float, AscendC::Reg::RegTensor<half>)
{
    broken(;
}

// Host tiling code whose class name contains a register type name.
class NMSWithMaskRegbaseTiling {
public:
    int CheckShape()
    {
        OP_CHECK_IF(shape.GetDimNum() != 2, OP_LOGE(ctx, "bad"), return -1);
        return (0;
    }
};

// A member of a register type defined outside its class, in host-side
// debug code: the class name is not a use of a register type.
template <typename T, const RegTrait& regTrait>
__aicore__ void RegTensor<T, regTrait>::Print() const
{
#if defined(ASCENDC_CPU_DEBUG)
    if (lanes == 1) {
        std::cout << "1";
#if ARCH == 3510
    } else if (lanes == 2) {
#endif
    }
#endif
}
