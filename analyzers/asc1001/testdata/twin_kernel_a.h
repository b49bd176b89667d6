// ASC1001 fixture: TwinKernel is defined by two headers of the folder
// (this one and twin_kernel_b.h, as for two chips), with rows of
// different lengths: which one twin_kernel_compute.h belongs to is not
// known, so its stream stays unproven.
template <typename T>
class TwinKernel {
    __simd_vf__ inline void RowsVf(__ubuf__ float* dst, __ubuf__ float* src, uint16_t rows);
    static constexpr uint32_t ROW = GetVecLen() / sizeof(float);
};
