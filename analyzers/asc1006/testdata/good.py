# ASC1006 fixture (pypto_pro DSL): each stream has its own register and every
# flush names a register the stores wrote; must stay silent.
import pypto_pro.language as pl
from pypto_pro.language import Vf as vf  # noqa: N813

import stream_helpers

VL_F32 = 256 // 4


@pl.vector_function
def copy_stream(dst, src, repeat):
    ul = vf.load_unalign_init()
    us = vf.unalign_reg_for_store()
    vf.load_unalign_pre(ul, src)
    for i in pl.range(repeat):
        v = vf.load_unalign(ul, src, VL_F32, post_update=True)
        vf.store_unalign(dst, v, us, VL_F32, post_update=True)
    vf.store_unalign_post(dst, us, 0, post_update=True)


# A flush of a register parameter: the stores are the caller's.
def flush_param(dst, us):
    vf.store_unalign_post(dst, us, 0, post_update=True)


# The stores happen in a helper (same file) or in a function defined elsewhere.
def store_row(dst, v, us):
    vf.store_unalign(dst, v, us, VL_F32, post_update=True)


@pl.vector_function
def stores_in_helpers(dst, dst2, src, repeat):
    us = vf.unalign_reg_for_store()
    us2 = vf.unalign_reg_for_store()
    for i in pl.range(repeat):
        v = vf.load_align(src, i * VL_F32)
        store_row(dst, v, us)
        stream_helpers.store_row_elsewhere(dst2, v, us2)
    vf.store_unalign_post(dst, us, 0, post_update=True)
    vf.store_unalign_post(dst2, us2, 0, post_update=True)


# Two store streams, each flushed; a mask stream too.
@pl.vector_function
def two_streams(dst_a, dst_b, src, thr, repeat):
    all_ = vf.create_mask(dtype=pl.DT_FP32)
    ua = vf.unalign_reg_for_store()
    ub = vf.unalign_reg_for_store()
    for i in pl.range(repeat):
        v = vf.load_align(src, i * VL_F32)
        vf.store_unalign(dst_a, v, ua, 40, post_update=True)
        gt = vf.gt(v, thr, all_)
        vf.store_unalign(dst_b, gt, ub)
    vf.store_unalign_post(dst_a, ua, 0, post_update=True)
    vf.store_unalign_post(dst_b, ub, 0, post_update=True)


# A name bound to a new register of the other kind is another register.
@pl.vector_function
def name_reused(dst, src):
    m = vf.create_mask(dtype=pl.DT_FP32)
    u = vf.load_unalign_init()
    vf.load_unalign_pre(u, src)
    v = vf.load_unalign(u, src)
    vf.store_align(dst, v, m)
    u = vf.unalign_reg_for_store()
    vf.store_unalign(dst, v, u, VL_F32, post_update=True)
    vf.store_unalign_post(dst, u, 0, post_update=True)


# SIMT regions are recorded, not analysed.
@pl.vector_function(mode="simt")
def simt_kernel(dst, src):
    u = vf.load_unalign_init()
    vf.load_unalign_pre(u, src)
    v = vf.load_unalign(u, src)
    vf.store_unalign(dst, v, u, VL_F32, post_update=True)
