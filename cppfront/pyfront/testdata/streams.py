# Unaligned streams, as the stream rules (ASC1001/ASC1002) read them.
import pypto_pro.language as pl
from pypto_pro.language import Vf as vf  # noqa: N813

VL = 64
ROWS = 16


@pl.vector_function
def pre_in_loop_post_update(src, dst):
    # The Pre re-primes a contiguous post-update stream every iteration.
    m = vf.create_mask(dtype=pl.DT_FP32)
    u = vf.load_unalign_init()
    for i in pl.range(ROWS):
        vf.load_unalign_pre(u, src)
        x = vf.load_unalign(u, src, VL, post_update=True)
        vf.store_align(dst + i * VL, x, m)


@pl.vector_function
def pre_in_loop_explicit(src, dst):
    m = vf.create_mask(dtype=pl.DT_FP32)
    u = vf.load_unalign_init()
    for i in range(ROWS):
        vf.load_unalign_pre(u, src + i * VL)
        x = vf.load_unalign(u, src + i * VL)
        vf.store_align(dst + i * VL, x, m)


@pl.vector_function
def hoisted(src, dst, n):
    u = vf.load_unalign_init()
    s = vf.unalign_reg_for_store()
    vf.load_unalign_pre(u, src)
    for i in pl.range(n):
        x = vf.load_unalign(u, src, VL)
        vf.store_unalign(dst, x, s, VL, post_update=True)
    vf.store_unalign_post(dst, s, 0, post_update=True)


@pl.vector_function
def post_in_loop(src, dst):
    s = vf.unalign_reg_for_store()
    for i in pl.range(ROWS):
        x = vf.load_align(src, i * VL)
        vf.store_unalign(dst, x, s, VL, post_update=True)
        vf.store_unalign_post(dst, s, 0, post_update=True)


@pl.vector_function
def legacy_forms(src, dst, mask_tile):
    m = vf.create_mask(dtype=pl.DT_UINT32)
    s = vf.unalign_reg_for_store()
    x = vf.load_align(src, 0)
    vf.store_unalign(dst, x, s)
    vf.store_unalign(dst, x, s, 32)
    vf.store_unalign_post(dst, s)
    p = vf.load_align(mask_tile, 0)
    m = vf.load_align(mask_tile, 0, dist=pl.LoadDist.US)
    vf.store_unalign(dst, m, s)
    vf.store_unalign_post(dst, s, 0, post_update=True)
    ar = vf.create_addr_reg(0, 64)
    u = vf.load_unalign_init()
    vf.load_unalign_pre(u, src)
    y = vf.load_unalign(u, src, stride=VL, post_update=False)  # pypto post-updates every strided form
    z = vf.load_unalign(s, src)
    vf.store_align(dst, y, m, ar)
    vf.store_align(dst, z, m)
    vf.store_align(dst, p, m)


@pl.vector_function
def addr_reg_offsets(src, dst, rows, cols):
    # An AddrReg where the stride goes is the offset of the access (the
    # seed's AddrReg interface): read as an AddrReg, no post-update unless
    # post_update=True says so.
    ul = vf.load_unalign_init()
    us = vf.unalign_reg_for_store()
    vf.load_unalign_pre(ul, src)
    for r in pl.range(rows):
        off = vf.create_addr_reg(r, cols)
        v = vf.load_unalign(ul, src, off)
        w = vf.load_unalign(ul, src, off, post_update=True)
        vf.store_unalign(dst, v, us, off)
    vf.store_unalign_post(dst, us, 0)
