// Driver fixture: two VF regions that do not parse, one clean.
__simd_vf__ inline void Broken(__ubuf__ float* dst, __ubuf__ float* src, uint16_t n)
{
    AscendC::Reg::RegTensor<float> v;
    AscendC::Reg::MaskReg m = AscendC::Reg::CreateMask<float>();
    for (uint16_t i = 0; i < n; ++i) {
        AscendC::Reg::LoadAlign(v, src + i * 64);
        AscendC::Reg::Abs(v, v, m));
        AscendC::Reg::StoreAlign(dst + i * 64, v, m);
    }
}

__simd_vf__ inline void Fine(__ubuf__ float* dst, __ubuf__ float* src)
{
    AscendC::Reg::RegTensor<float> v;
    AscendC::Reg::LoadAlign(v, src);
    AscendC::Reg::StoreAlign(dst, v, AscendC::Reg::CreateMask<float>());
}

__simd_vf__ inline void AlsoBroken(__ubuf__ float* dst, __ubuf__ float* src)
{
    AscendC::Reg::RegTensor<float> v;
    AscendC::Reg::LoadAlign(v, src) @;
    AscendC::Reg::StoreAlign(dst, v, AscendC::Reg::CreateMask<float>());
}
