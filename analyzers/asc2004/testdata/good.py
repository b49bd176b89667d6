# ASC2004 fixture (pypto_pro DSL): the DSL has no RegTraitNumTwo. pypto
# declares every register as RegTensor<T> (cce_codegen.cpp), so 64-bit data
# in the DSL never takes the two-register trait, and the interfaces that
# trait does not support are fine here; must stay silent.
import pypto_pro.language as pl
from pypto_pro.language import Vf as vf  # noqa: N813


# 64-bit data through AddrReg offsets, interleave and de-interleave, and the
# post-update forms: what RegTraitNumTwo registers could not do in C++.
@pl.vector_function
def wide(dst, src, n):
    m = vf.create_mask(dtype=pl.DT_INT64)
    for i in pl.range(n):
        a = vf.create_addr_reg(i, 32, dtype=pl.DT_INT64)
        q = vf.load_align(src, a, dtype=pl.DT_INT64)
        vf.store_align(dst, q, m, a)
        lo, hi = vf.load_align(src, i * 64, dtype=pl.DT_INT64)
        vf.store_align(dst, lo, hi, m, i * 64)
        r = vf.load_align(src, 32, dtype=pl.DT_INT64, post_update=True)
        vf.store_align(dst, r, m, 32, post_update=True)


@pl.vector_function
def wide_unaligned(dst, src, n):
    ul = vf.load_unalign_init()
    us = vf.unalign_reg_for_store()
    vf.load_unalign_pre(ul, src)
    for i in pl.range(n):
        a = vf.create_addr_reg(i, 32, dtype=pl.DT_INT64)
        q = vf.load_unalign(ul, src, 32, post_update=True)
        vf.store_unalign(dst, q, us, 32, post_update=True)
    vf.store_unalign_post(dst, us, 0, post_update=True)
