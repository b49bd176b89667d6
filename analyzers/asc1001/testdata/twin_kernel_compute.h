// ASC1001 fixture: a member of TwinKernel, defined by two headers of the
// folder (twin_kernel_a.h, twin_kernel_b.h): ROW has no value here, and
// the Pre is not reported (with ROW = 72 the rows are padded).

template <typename T>
__simd_vf__ inline void TwinKernel<T>::RowsVf(__ubuf__ float* dst, __ubuf__ float* src, uint16_t rows)
{
    Reg::RegTensor<float> v;
    Reg::UnalignRegForLoad u;
    Reg::MaskReg m = Reg::CreateMask<float>();
    for (uint16_t i = 0; i < rows; i++) {
        Reg::LoadUnAlignPre(u, src + i * ROW + 1);
        Reg::LoadUnAlign(v, u, src + i * ROW + 1);
        Reg::StoreAlign(dst + i * ROW, v, m);
    }
}
