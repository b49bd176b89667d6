// ASC3002 fixture: a helper of a header that only a file of its folder
// calls (sibling_kernel.asc). The compiler builds it only inlined there,
// with the mask that kernel keeps across the call: that file counts it and
// reports the overrun, at its call. Here it is silent, though alone it
// keeps nine results and the caller's predicate live at its last compare.
#ifndef SIBLING_COMMON_H
#define SIBLING_COMMON_H
#include "kernel_operator.h"

__simd_callee__ inline void NineSelects(AscendC::Reg::RegTensor<float>& y, AscendC::Reg::RegTensor<float>& x, AscendC::Reg::MaskReg& all)
{
    AscendC::Reg::MaskReg m0, m1, m2, m3, m4, m5, m6, m7, m8;
    AscendC::Reg::Compares<float, CMPMODE::GT>(m0, x, 0.0f, all);
    AscendC::Reg::Compares<float, CMPMODE::GT>(m1, x, 1.0f, all);
    AscendC::Reg::Compares<float, CMPMODE::GT>(m2, x, 2.0f, all);
    AscendC::Reg::Compares<float, CMPMODE::GT>(m3, x, 3.0f, all);
    AscendC::Reg::Compares<float, CMPMODE::GT>(m4, x, 4.0f, all);
    AscendC::Reg::Compares<float, CMPMODE::GT>(m5, x, 5.0f, all);
    AscendC::Reg::Compares<float, CMPMODE::GT>(m6, x, 6.0f, all);
    AscendC::Reg::Compares<float, CMPMODE::GT>(m7, x, 7.0f, all);
    AscendC::Reg::Compares<float, CMPMODE::GT>(m8, x, 8.0f, all);
    AscendC::Reg::Select(y, x, y, m0);
    AscendC::Reg::Select(y, x, y, m1);
    AscendC::Reg::Select(y, x, y, m2);
    AscendC::Reg::Select(y, x, y, m3);
    AscendC::Reg::Select(y, x, y, m4);
    AscendC::Reg::Select(y, x, y, m5);
    AscendC::Reg::Select(y, x, y, m6);
    AscendC::Reg::Select(y, x, y, m7);
    AscendC::Reg::Select(y, x, y, m8);
}

#endif
