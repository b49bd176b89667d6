# ASC1003 fixture (pypto_pro DSL): unaligned streams with integer strides,
# and AddrRegs where they belong; must stay silent.
import pypto_pro.language as pl
from pypto_pro.language import Vf as vf  # noqa: N813

VL_F32 = 256 // 4


# The best practice: integer strides with post-update.
@pl.vector_function
def copy_stream(dst, src, repeat):
    ul = vf.load_unalign_init()
    us = vf.unalign_reg_for_store()
    vf.load_unalign_pre(ul, src)
    for i in pl.range(repeat):
        v = vf.load_unalign(ul, src, VL_F32, post_update=True)
        vf.store_unalign(dst, v, us, VL_F32, post_update=True)
    vf.store_unalign_post(dst, us, 0, post_update=True)


# AddrReg offsets on aligned loads and stores are what AddrReg is for.
@pl.vector_function
def aligned_addr_reg(dst, src, repeat):
    mask = vf.create_mask(dtype=pl.DT_FP32)
    for i in pl.range(repeat):
        off = vf.create_addr_reg(i, VL_F32, dtype=pl.DT_FP32)
        v = vf.load_align(src, off)
        vf.store_align(dst, v, mask, off)


# An offset that arrives as a parameter is the caller's choice.
def load_by_offset(ul, src, areg):
    return vf.load_unalign(ul, src, areg)


@pl.vector_function
def through_helper(dst, src):
    mask = vf.create_mask(dtype=pl.DT_FP32)
    ul = vf.load_unalign_init()
    vf.load_unalign_pre(ul, src)
    v = load_by_offset(ul, src, 64)
    vf.store_align(dst, v, mask)
