// ASC2004 fixture: RegTraitNumTwo registers with interfaces that do not support them.
#include "kernel_operator.h"

// AddrReg offsets on aligned loads and stores.
__simd_vf__ inline void AddrRegs(__ubuf__ int64_t* dst, __ubuf__ int64_t* src, uint16_t n)
{
    AscendC::Reg::RegTensor<int64_t, AscendC::Reg::RegTraitNumTwo> w;
    AscendC::Reg::MaskReg m = AscendC::Reg::CreateMask<int64_t, AscendC::Reg::MaskPattern::ALL, AscendC::Reg::RegTraitNumTwo>();
    for (uint16_t i = 0; i < n; ++i) {
        AscendC::Reg::AddrReg a = AscendC::Reg::CreateAddrReg<int64_t>(i, 64);
        AscendC::Reg::LoadAlign(w, src, a); // want 41:"LoadAlign into w, a RegTraitNumTwo register, takes its offset from AddrReg a, which the trait does not support; use the post-update interface with a stride"
        AscendC::Reg::StoreAlign(dst, w, a, m); // want 42:"StoreAlign of w, a RegTraitNumTwo register, takes its offset from AddrReg a"
    }
}

// Dual stores and loads, MicroAPI and legacy spellings; the trait on a
// multi-declarator statement and on a parameter.
__simd_vf__ inline void Duals(__ubuf__ complex32* dst, __ubuf__ complex32* src,
                              AscendC::MicroAPI::RegTensor<uint64_t, AscendC::MicroAPI::RegTraitNumTwo>& p)
{
    AscendC::MicroAPI::RegTensor<complex32, AscendC::MicroAPI::RegTraitNumTwo> c0, c1;
    AscendC::MicroAPI::MaskReg m = AscendC::MicroAPI::CreateMask<uint8_t>();
    AscendC::MicroAPI::StoreAlign<complex32, AscendC::MicroAPI::StoreDist::DIST_INTLV_B32>(dst, c0, c1, m); // want "dual StoreAlign of c0, a RegTraitNumTwo register, is not supported; store each register with a single StoreAlign"
    AscendC::MicroAPI::DataCopy<complex32, AscendC::MicroAPI::LoadDist::DIST_DINTLV_B32>(c0, c1, src); // want "dual DataCopy into c0, a RegTraitNumTwo register, is not supported; load each register with a single DataCopy"
    for (uint16_t i = 0; i < 4; ++i) {
        AscendC::MicroAPI::AddrReg a = AscendC::MicroAPI::CreateAddrReg<uint64_t>(i, 32);
        AscendC::MicroAPI::DataCopy((__ubuf__ uint64_t*)dst, p, a, m); // want "DataCopy of p, a RegTraitNumTwo register, takes its offset from AddrReg a"
    }
}

// The unaligned AddrReg forms do not support the trait either.
__simd_vf__ inline void Unaligned(__ubuf__ uint64_t* dst, __ubuf__ uint64_t* src, uint16_t n)
{
    AscendC::Reg::RegTensor<uint64_t, AscendC::Reg::RegTraitNumTwo> w;
    AscendC::Reg::UnalignRegForLoad ul;
    AscendC::Reg::UnalignRegForStore us;
    AscendC::Reg::LoadUnAlignPre(ul, src);
    for (uint16_t i = 0; i < n; ++i) {
        AscendC::Reg::AddrReg a = AscendC::Reg::CreateAddrReg<uint64_t>(i, 64);
        AscendC::Reg::LoadUnAlign(w, ul, src, a, 0); // want "LoadUnAlign into w, a RegTraitNumTwo register, takes its offset from AddrReg a"
        AscendC::Reg::StoreUnAlign(dst, w, us, a); // want "StoreUnAlign of w, a RegTraitNumTwo register"
    }
    AscendC::Reg::StoreUnAlignPost(dst, us, 0);
}
