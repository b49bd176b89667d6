# ASC3003 fixture (pypto_pro DSL): streams that do not overlap share the budget.
import pypto_pro.language as pl
from pypto_pro.language import Vf as vf  # noqa: N813


@pl.vector_function
def six_streams_in_turn(dst, a, b, c, d, e, f, n):
    m = vf.create_mask(dtype=pl.DT_FP32)
    ua = vf.load_unalign_init()
    vf.load_unalign_pre(ua, a)
    for i in pl.range(n):
        v = vf.load_unalign(ua, a, 64, post_update=True)
        vf.store_align(dst, v, m, i * 64)
    ub = vf.load_unalign_init()
    vf.load_unalign_pre(ub, b)
    for i in pl.range(n):
        v = vf.load_unalign(ub, b, 64, post_update=True)
        vf.store_align(dst, v, m, i * 64)
    uc = vf.load_unalign_init()
    vf.load_unalign_pre(uc, c)
    for i in pl.range(n):
        v = vf.load_unalign(uc, c, 64, post_update=True)
        vf.store_align(dst, v, m, i * 64)
    ud = vf.load_unalign_init()
    vf.load_unalign_pre(ud, d)
    for i in pl.range(n):
        v = vf.load_unalign(ud, d, 64, post_update=True)
        vf.store_align(dst, v, m, i * 64)
    ue = vf.load_unalign_init()
    vf.load_unalign_pre(ue, e)
    for i in pl.range(n):
        v = vf.load_unalign(ue, e, 64, post_update=True)
        vf.store_align(dst, v, m, i * 64)
    uf = vf.load_unalign_init()
    vf.load_unalign_pre(uf, f)
    for i in pl.range(n):
        v = vf.load_unalign(uf, f, 64, post_update=True)
        vf.store_align(dst, v, m, i * 64)


# One name for six streams in turn: each binding is a new register, dead before the next.
@pl.vector_function
def one_name(dst, srcs, n):
    m = vf.create_mask(dtype=pl.DT_FP32)
    for k in pl.range(6):
        u = vf.load_unalign_init()
        vf.load_unalign_pre(u, srcs)
        v = vf.load_unalign(u, srcs, 64, post_update=True)
        vf.store_align(dst, v, m, k * 64)
