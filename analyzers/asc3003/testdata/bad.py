# ASC3003 fixture (pypto_pro DSL): more than 4 unaligned registers live at once.
import pypto_pro.language as pl
from pypto_pro.language import Vf as vf  # noqa: N813


# Five unaligned input streams read in one loop.
@pl.vector_function  # want "keeps 5 UnalignRegForLoad registers live at once"
def five_streams(dst, a, b, c, d, e, n):
    m = vf.create_mask(dtype=pl.DT_FP32)
    ua = vf.load_unalign_init()
    ub = vf.load_unalign_init()
    uc = vf.load_unalign_init()
    ud = vf.load_unalign_init()
    ue = vf.load_unalign_init()
    vf.load_unalign_pre(ua, a)
    vf.load_unalign_pre(ub, b)
    vf.load_unalign_pre(uc, c)
    vf.load_unalign_pre(ud, d)
    vf.load_unalign_pre(ue, e)
    for i in pl.range(n):
        va = vf.load_unalign(ua, a, 64, post_update=True)
        vb = vf.load_unalign(ub, b, 64, post_update=True)
        vc = vf.load_unalign(uc, c, 64, post_update=True)
        vd = vf.load_unalign(ud, d, 64, post_update=True)
        ve = vf.load_unalign(ue, e, 64, post_update=True)
        va = vf.add(va, vb, m)
        vc = vf.add(vc, vd, m)
        va = vf.add(va, vc, m)
        va = vf.add(va, ve, m)
        vf.store_align(dst, va, m, i * 64)


# The unified vf.store hides a store register of its own (pypto declares an
# UnalignReg for it): with four store streams, five live.
@pl.vector_function  # want "keeps 5 UnalignRegForStore registers live at once"
def five_outputs(o0, o1, o2, o3, o4, src, n):
    s0 = vf.unalign_reg_for_store()
    s1 = vf.unalign_reg_for_store()
    s2 = vf.unalign_reg_for_store()
    s3 = vf.unalign_reg_for_store()
    for i in pl.range(n):
        v = vf.load_align(src, i * 64)
        vf.store_unalign(o0, v, s0, 64, post_update=True)
        vf.store_unalign(o1, v, s1, 64, post_update=True)
        vf.store_unalign(o2, v, s2, 64, post_update=True)
        vf.store_unalign(o3, v, s3, 64, post_update=True)
        vf.store(o4 + i * 64, v)
    vf.store_unalign_post(o0, s0, 0, post_update=True)
    vf.store_unalign_post(o1, s1, 0, post_update=True)
    vf.store_unalign_post(o2, s2, 0, post_update=True)
    vf.store_unalign_post(o3, s3, 0, post_update=True)
