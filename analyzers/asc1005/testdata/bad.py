# ASC1005 fixture (pypto_pro DSL): unaligned store streams whose last partial
# block never reaches UB.
import pypto_pro.language as pl
from pypto_pro.language import Vf as vf  # noqa: N813

VL_F32 = 256 // 4


# No flush at all.
@pl.vector_function
def copy_no_post(dst, src, repeat):
    ul = vf.load_unalign_init()
    us = vf.unalign_reg_for_store()
    vf.load_unalign_pre(ul, src)
    for i in pl.range(repeat):
        v = vf.load_unalign(ul, src, VL_F32, post_update=True)
        vf.store_unalign(dst, v, us, VL_F32, post_update=True)  # want 9:"StoreUnAlign keeps the tail of its stream in us, but no StoreUnAlignPost flushes us after it before the VF ends, so the last partial block is lost; call StoreUnAlignPost\\(dst, us, 0\\) after the loop"


# Flushed on one path only.
@pl.vector_function
def flush_on_one_path(dst, src, repeat, last):
    us = vf.unalign_reg_for_store()
    for i in pl.range(repeat):
        v = vf.load_align(src, i * VL_F32)
        vf.store_unalign(dst, v, us, VL_F32, post_update=True)  # want "StoreUnAlign keeps the tail of its stream in us, but some path from it reaches the end of the VF without a StoreUnAlignPost on us, losing the last partial block; call StoreUnAlignPost\\(dst, us, 0\\) after the loop"
    if last:
        vf.store_unalign_post(dst, us, 0, post_update=True)


# The flush comes before the tail store: the tail's own last block is lost.
@pl.vector_function
def post_before_tail(dst, src, repeat, tail):
    us = vf.unalign_reg_for_store()
    for i in pl.range(repeat):
        v = vf.load_align(src, i * 128, dtype=pl.DT_FP16)
        vf.store_unalign(dst, v, us, 128, post_update=True)
    vf.store_unalign_post(dst, us, 0, post_update=True)
    v = vf.load_align(src, repeat * 128, dtype=pl.DT_FP16)
    vf.store_unalign(dst, v, us, tail, post_update=True)  # want "StoreUnAlign keeps the tail of its stream in us, but no StoreUnAlignPost flushes us after it.*call StoreUnAlignPost\\(dst, us, 0\\) after the last store"


# Flushing at the top of the last iteration still leaves that iteration's store.
@pl.vector_function
def flush_before_last_store(dst, src, n):
    us = vf.unalign_reg_for_store()
    for i in pl.range(n):
        if i == n - 1:
            vf.store_unalign_post(dst, us, 0, post_update=True)
        v = vf.load_align(src, i * VL_F32)
        vf.store_unalign(dst, v, us, VL_F32, post_update=True)  # want "StoreUnAlign keeps the tail of its stream in us"


# A helper that might flush is called before the store, not after it.
def flush(dst, us):
    vf.store_unalign_post(dst, us, 0, post_update=True)


@pl.vector_function
def helper_too_early(dst, src):
    us = vf.unalign_reg_for_store()
    v = vf.load_align(src, 0)
    flush(dst, us)
    vf.store_unalign(dst, v, us, VL_F32, post_update=True)  # want "StoreUnAlign keeps the tail of its stream in us"


# The flush names the load register: the store register's tail is lost.
@pl.vector_function
def flushes_wrong_register(dst, src, repeat):
    u0 = vf.load_unalign_init()
    u1 = vf.unalign_reg_for_store()
    vf.load_unalign_pre(u0, src)
    for i in pl.range(repeat):
        v = vf.load_unalign(u0, src, VL_F32, post_update=True)
        vf.store_unalign(dst, v, u1, VL_F32, post_update=True)
    vf.store_unalign_post(dst, u0, 0, post_update=True)  # want "StoreUnAlignPost flushes u0, but the stream stored on line 75 keeps its tail in u1, which nothing flushes: whatever its stores leave past a 32-byte boundary is lost; flush u1, not u0"


# A mask stream (PSTU) needs its flush too.
@pl.vector_function
def mask_stream_no_post(dst, src, thr, repeat):
    all_ = vf.create_mask(dtype=pl.DT_FP32)
    us = vf.unalign_reg_for_store()
    for i in pl.range(repeat):
        v = vf.load_align(src, i * VL_F32)
        gt = vf.gt(v, thr, all_)
        vf.store_unalign(dst, gt, us)  # want "StoreUnAlign keeps the tail of its stream in us"

