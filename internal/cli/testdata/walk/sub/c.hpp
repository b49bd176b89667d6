// Driver fixture: a __VEC_SCOPE__ block that does not parse.
__aicore__ inline void Compute(__ubuf__ float* dst, __ubuf__ float* src)
{
    __VEC_SCOPE__
    {
        AscendC::Reg::RegTensor<float> v;
        AscendC::Reg::LoadAlign(v, src;
        AscendC::Reg::StoreAlign(dst, v, AscendC::Reg::CreateMask<float>());
    }
}
