// ASC1001 fixture: the members of RowsKernel (rows_kernel.h), defined out
// of the class in a header that includes nothing: ROW and SHIFT are the
// class's constants.

template <typename T, bool withBias>
__simd_vf__ inline void RowsKernel<T, withBias>::PairsVf(__ubuf__ float* dst, __ubuf__ float* src, uint16_t pairs)
{
    Reg::RegTensor<float> a, b;
    Reg::UnalignRegForLoad u;
    Reg::MaskReg m = Reg::CreateMask<float>();
    for (uint16_t i = 0; i < pairs; i++) {
        uint32_t first = i * 2 * ROW;
        uint32_t second = first + ROW;
        Reg::LoadUnAlignPre(u, src + first); // want "LoadUnAlignPre on u re-initialises a contiguous stream each iteration"
        Reg::LoadUnAlign(a, u, src + first);
        Reg::LoadUnAlignPre(u, src + second); // want "LoadUnAlignPre on u re-primes its stream where the LoadUnAlign before it left it, and nothing in between writes memory; delete it"
        Reg::LoadUnAlign(b, u, src + second);
        Reg::Add(a, a, b, m);
        Reg::StoreAlign(dst + i * ROW, a, m);
    }
}

template <typename T, bool withBias>
__simd_vf__ inline void RowsKernel<T, withBias>::ShiftVf(__ubuf__ float* dst, __ubuf__ float* src, uint16_t rows)
{
    Reg::RegTensor<float> v;
    Reg::UnalignRegForLoad u;
    Reg::MaskReg m = Reg::CreateMask<float>();
    for (uint16_t i = 0; i < rows; i++) {
        Reg::LoadUnAlignPre(u, src + i * ROW + SHIFT); // want "LoadUnAlignPre on u re-initialises a contiguous stream each iteration"
        Reg::LoadUnAlign(v, u, src + i * ROW + SHIFT);
        Reg::StoreAlign(dst + i * ROW, v, m);
    }
}
