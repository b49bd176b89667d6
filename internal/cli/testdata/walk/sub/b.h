// Driver fixture: clean VF code with a same-file helper, unknown calls and a SIMT region.
__simd_callee__ inline void Twice(AscendC::Reg::RegTensor<float>& v, AscendC::Reg::MaskReg& m)
{
    AscendC::Reg::Add(v, v, v, m);
}

__simd_vf__ inline void UsesHelper(__ubuf__ float* dst, __ubuf__ float* src, uint16_t n)
{
    AscendC::Reg::RegTensor<float> v;
    AscendC::Reg::MaskReg m = AscendC::Reg::CreateMask<float>();
    for (uint16_t i = 0; i < n; ++i) {
        AscendC::Reg::LoadAlign(v, src + i * 64);
        Twice(v, m);
        MyUnknownThing(v, m);
        MyUnknownThing(v, m);
        AscendC::Reg::StoreAlign(dst + i * 64, v, m);
    }
}

__simt_vf__ inline void Threads(__ubuf__ float* dst, __ubuf__ float* src)
{
    dst[threadIdx.x] = src[threadIdx.x] );
}
