// ASC1001 fixture: the second definition of TwinKernel (see
// twin_kernel_a.h), whose rows are padded to 72 floats.
template <typename T>
class TwinKernel {
    __simd_vf__ inline void RowsVf(__ubuf__ float* dst, __ubuf__ float* src, uint16_t rows);
    static constexpr uint32_t ROW = 72;
};
