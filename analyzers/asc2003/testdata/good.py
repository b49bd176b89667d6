# ASC2003 fixture (pypto_pro DSL): post-update, and the interfaces that
# support the normal mode; must stay silent.
import pypto_pro.language as pl
from pypto_pro.language import Vf as vf  # noqa: N813

VL_HALF = 128


# post_update=True is POST_MODE_UPDATE; an offset without it moves nothing.
@pl.vector_function
def rows(dst, src, bits, n):
    m = vf.create_mask(dtype=pl.DT_FP16)
    p = vf.create_mask(dtype=pl.DT_FP32)
    for i in pl.range(n):
        v = vf.load_align(src, VL_HALF, dtype=pl.DT_FP16, post_update=True)
        vf.store_align(dst, v, m, VL_HALF, post_update=True)
        p = vf.load_align(bits, 32, post_update=True)
        w = vf.load_align(src, i * VL_HALF, dtype=pl.DT_FP16)
        vf.store_align(dst, w, m, i * VL_HALF)


# Unaligned streams with post_update=True; the flush with the normal mode
# (StoreUnAlignPost(dst, u, 0) supports it); the AR form without a stride.
@pl.vector_function
def unaligned(dst, src, n):
    m = vf.create_mask(dtype=pl.DT_FP16)
    ul = vf.load_unalign_init()
    us = vf.unalign_reg_for_store()
    vf.load_unalign_pre(ul, src)
    for i in pl.range(n):
        v = vf.load_unalign(ul, src, VL_HALF, post_update=True)
        vf.store_unalign(dst, v, us, VL_HALF, post_update=True)
    vf.store_unalign_post(dst, us, 0)
    vf.clear_spr()
    x = vf.load_align(src, 0, dtype=pl.DT_FP16)
    packed = vf.squeeze(x, m, gather_mode=pl.SqueezeMode.STORE_REG)
    vf.store_unalign(dst, packed, us)
    vf.store_unalign_post(dst, us)


# Strided block copies: the strides count DataBlocks and do not move the tile.
@pl.vector_function
def blocks(dst, src):
    m = vf.create_mask(dtype=pl.DT_FP32)
    v = vf.load_align(src, m, data_copy_mode=pl.DataCopyMode.DATA_BLOCK_COPY, block_stride=1)
    vf.store_align(dst, v, m, block_stride=2, repeat_stride=8, data_copy_mode=pl.DataCopyMode.DATA_BLOCK_COPY)
