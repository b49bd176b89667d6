// ASC2004 fixture: RegTraitNumTwo with the interfaces that support it, and RegTraitNumOne with all; must stay silent.
#include "kernel_operator.h"

using namespace AscendC;

// The plain and post-update single-register forms support RegTraitNumTwo.
__simd_vf__ inline void Supported(__ubuf__ int64_t* dst, __ubuf__ int64_t* src, uint16_t n)
{
    Reg::RegTensor<int64_t, Reg::RegTraitNumTwo> w;
    Reg::MaskReg m = Reg::CreateMask<int64_t, Reg::MaskPattern::ALL, Reg::RegTraitNumTwo>();
    Reg::UnalignRegForLoad ul;
    Reg::UnalignRegForStore us;
    for (uint16_t i = 0; i < n; ++i) {
        Reg::LoadAlign<int64_t, Reg::PostLiteral::POST_MODE_UPDATE>(w, src, 64);
        Reg::StoreAlign<int64_t, Reg::PostLiteral::POST_MODE_UPDATE>(dst, w, 64, m);
    }
    Reg::LoadAlign(w, src);
    Reg::StoreAlign(dst, w, m);
    Reg::LoadUnAlignPre(ul, src);
    Reg::LoadUnAlign(w, ul, src, 64);
    Reg::StoreUnAlign(dst, w, us, 64);
    Reg::StoreUnAlignPost(dst, us, 0);
}

// RegTraitNumOne supports every interface, 64-bit data included.
__simd_vf__ inline void TraitOne(__ubuf__ int64_t* dst, __ubuf__ int64_t* src, __ubuf__ uint32_t* udst, uint16_t n)
{
    Reg::RegTensor<int64_t> q;
    Reg::RegTensor<uint64_t, Reg::RegTraitNumOne> u, pair, two;
    Reg::RegTensor<uint32_t> a0, a1;
    Reg::MaskReg m = Reg::CreateMask<int64_t>();
    for (uint16_t i = 0; i < n; ++i) {
        Reg::AddrReg a = Reg::CreateAddrReg<int64_t>(i, 32);
        Reg::LoadAlign(q, src, a);
        Reg::StoreAlign(dst, q, a, m);
        Reg::StoreAlign((__ubuf__ uint64_t*)dst, two, a, m);
        Reg::StoreAlign<uint32_t, Reg::StoreDist::DIST_INTLV_B32>(udst, a0, a1, m);
    }
}

// A trait that only a template parameter carries is not known.
template <typename T, const Reg::RegTrait& Trait>
__simd_vf__ inline void Generic(__ubuf__ T* dst, uint16_t n)
{
    Reg::RegTensor<T, Trait> v;
    Reg::MaskReg m = Reg::CreateMask<T>();
    for (uint16_t i = 0; i < n; ++i) {
        Reg::AddrReg a = Reg::CreateAddrReg<T>(i, 64);
        Reg::StoreAlign(dst, v, a, m);
    }
}
