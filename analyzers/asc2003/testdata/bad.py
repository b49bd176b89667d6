# ASC2003 fixture (pypto_pro DSL): the DSL has no PostLiteral, but
# vf.store_unalign with a stride and without post_update=True is the stride
# form of StoreUnAlign with POST_MODE_NORMAL: pypto emits
# vstus(u, stride, src, dst, NORM), which the post-update interface does not
# support (the tile does not move, the stride is misread).
import pypto_pro.language as pl
from pypto_pro.language import Vf as vf  # noqa: N813

VL_HALF = 128


@pl.vector_function
def unaligned(dst, src, n):
    ul = vf.load_unalign_init()
    us = vf.unalign_reg_for_store()
    vf.load_unalign_pre(ul, src)
    for i in pl.range(n):
        v = vf.load_unalign(ul, src, 100, post_update=True)
        vf.store_unalign(dst, v, us, 100)  # want 9:"StoreUnAlign instantiated with POST_MODE_NORMAL, which the post-update interface does not support; use POST_MODE_UPDATE to advance dst by the stride, or the interface without a stride to leave it"
    vf.store_unalign_post(dst, us, 0, post_update=True)


@pl.vector_function
def explicit_false(dst, src, n):
    m = vf.create_mask(dtype=pl.DT_FP16)
    us = vf.unalign_reg_for_store()
    for i in pl.range(n):
        v = vf.load_align(src, i * VL_HALF, dtype=pl.DT_FP16)
        vf.store_unalign(dst, v, us, stride=VL_HALF, post_update=False)  # want "StoreUnAlign instantiated with POST_MODE_NORMAL"
    vf.store_unalign_post(dst, us, 0, post_update=True)
