// ASC1001 fixture: a kernel class declared here and defined in
// rows_kernel_compute.h, which includes nothing (an operator's .cpp
// includes this header, then that one): the project index finds the class
// by its name among the headers of the folder, for its constants.
#ifndef ASCVET_FIXTURE_ROWS_KERNEL_H
#define ASCVET_FIXTURE_ROWS_KERNEL_H

template <typename T, bool withBias>
class RowsKernel {
public:
    __aicore__ inline void Process(__ubuf__ float* dst, __ubuf__ float* src, uint16_t rows);

private:
    __simd_vf__ inline void PairsVf(__ubuf__ float* dst, __ubuf__ float* src, uint16_t pairs);
    __simd_vf__ inline void ShiftVf(__ubuf__ float* dst, __ubuf__ float* src, uint16_t rows);

    static constexpr uint32_t ROW = GetVecLen() / sizeof(float);
    static constexpr uint32_t SHIFT = 3;
};

#endif
