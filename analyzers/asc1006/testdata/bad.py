# ASC1006 fixture (pypto_pro DSL): unaligned registers mixed up between the
# load and the store side. pypto declares both kinds as UnalignReg, so the
# generated C++ compiles either way.
import pypto_pro.language as pl
from pypto_pro.language import Vf as vf  # noqa: N813

VL_F32 = 256 // 4


# One register carries the load stream and the store stream at once.
@pl.vector_function
def one_register_both_ways(dst, src, repeat):
    u = vf.load_unalign_init()
    vf.load_unalign_pre(u, src)
    for i in pl.range(repeat):
        v = vf.load_unalign(u, src, VL_F32, post_update=True)  # want 13:"LoadUnAlign uses u while the store stream of StoreUnAlign on line 17 still keeps its unflushed tail there"
        vf.store_unalign(dst, v, u, VL_F32, post_update=True)
    vf.store_unalign_post(dst, u, 0, post_update=True)


# The flush names the load register u0; the stores went through u1 (ASC1005).
@pl.vector_function
def flushes_load_register(dst, src, repeat):
    u0 = vf.load_unalign_init()
    u1 = vf.unalign_reg_for_store()
    vf.load_unalign_pre(u0, src)
    for i in pl.range(repeat):
        v = vf.load_unalign(u0, src, VL_F32, post_update=True)
        vf.store_unalign(dst, v, u1, VL_F32, post_update=True)
    vf.store_unalign_post(dst, u0, 0, post_update=True)


# A store stream finished (flushed) before the register primes a load
# stream: the two streams do not overlap, which is right.
@pl.vector_function
def store_then_load(dst, src):
    m = vf.create_mask(dtype=pl.DT_FP32)
    us = vf.unalign_reg_for_store()
    v = vf.load_align(src, 0)
    vf.store_unalign(dst, v, us, VL_F32, post_update=True)
    vf.store_unalign_post(dst, us, 0, post_update=True)
    vf.load_unalign_pre(us, dst)
    w = vf.load_unalign(us, dst)
    vf.store_align(src, w, m)


# Nothing was stored through the flushed register.
@pl.vector_function
def flush_without_stores(dst, src):
    m = vf.create_mask(dtype=pl.DT_FP32)
    us = vf.unalign_reg_for_store()
    v = vf.load_align(src, 0)
    vf.store_align(dst, v, m)
    vf.store_unalign_post(dst, us, 0, post_update=True)  # want "StoreUnAlignPost flushes us, which no StoreUnAlign in this VF wrote, so it flushes nothing"


# Two store streams; the flush names neither (ASC1005).
@pl.vector_function
def two_streams_wrong_flush(dst_a, dst_b, src, repeat):
    ua = vf.unalign_reg_for_store()
    ub = vf.unalign_reg_for_store()
    uc = vf.unalign_reg_for_store()
    for i in pl.range(repeat):
        v = vf.load_align(src, i * VL_F32)
        vf.store_unalign(dst_a, v, ua, 40, post_update=True)
        vf.store_unalign(dst_b, v, ub, 24, post_update=True)
    vf.store_unalign_post(dst_a, ua, 0, post_update=True)
    vf.store_unalign_post(dst_b, uc, 0, post_update=True)
