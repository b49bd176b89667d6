# ASC1002 fixture (pypto_pro DSL): vf.store_unalign_post inside loops of contiguous store streams.
import pypto_pro.language as pl
from pypto_pro.language import Vf as vf  # noqa: N813

STRIDE = 256 // 4


# The seed's pattern with the Post left in the loop, as its last statement.
@pl.vector_function
def copy_float(dst_tile, src_tile, repeat_times):
    ureg = vf.load_unalign_init()
    store_ureg = vf.unalign_reg_for_store()
    vf.load_unalign_pre(ureg, src_tile)
    for i in pl.range(repeat_times):
        src_reg = vf.load_unalign(ureg, src_tile, STRIDE, post_update=True)
        vf.store_unalign(dst_tile, src_reg, store_ureg, STRIDE, post_update=True)
        vf.store_unalign_post(dst_tile, store_ureg, 0, post_update=True)  # want 9:"StoreUnAlignPost on store_ureg flushes a contiguous store stream each iteration; sink it after the loop"


# A partial count per store: any post-update stride is contiguous for a
# store stream. The loop ends on a line with a comment.
@pl.vector_function
def compact(dst, src, n, keep):
    u = vf.unalign_reg_for_store()
    rows = 0
    for i in pl.range(n):
        v = vf.load_align(src, i * 64)
        vf.store_unalign(dst, v, u, keep, post_update=True)
        vf.store_unalign_post(dst, u, 0, post_update=True)  # flush  # want "StoreUnAlignPost on u flushes"
        rows = rows + 1  # count the rows


# A MaskReg stream: the compare result is stored unaligned.
@pl.vector_function
def mask_stream(dst, a, n):
    all_ = vf.create_mask(dtype=pl.DT_FP32)
    u = vf.unalign_reg_for_store()
    for i in pl.range(n):
        v = vf.load_align(a, i * 64)
        m = vf.gt(v, 0.0, all_)
        vf.store_unalign(dst, m, u)
        vf.store_unalign_post(dst, u, 0, post_update=True)  # want "StoreUnAlignPost on u flushes"


# The register is created in the loop: its line moves out with the Post.
@pl.vector_function
def scales_out(scales, src, n):
    for i in pl.range(n):
        v = vf.load_align(src, i * 256, dtype=pl.DT_UINT8)
        ureg = vf.unalign_reg_for_store()
        vf.store_unalign(scales, v, ureg, 8, post_update=True)
        vf.store_unalign_post(scales, ureg, 0, post_update=True)  # want "StoreUnAlignPost on ureg flushes a contiguous store stream each iteration; declare ureg before the loop and sink the Post after it"


# AR-addressed stores (squeeze into AR, then a stride-less store_unalign):
# the replay does not model AR, so the fix is withheld.
@pl.vector_function
def squeezed_post(dst, src, n):
    m = vf.create_mask(dtype=pl.DT_INT32)
    ureg = vf.unalign_reg_for_store()
    for i in pl.range(n):
        v = vf.load_align(src, i * 64, dtype=pl.DT_INT32)
        packed = vf.squeeze(v, m, gather_mode=pl.SqueezeMode.STORE_REG)
        vf.store_unalign(dst, packed, ureg, post_update=True)
        vf.store_unalign_post(dst, ureg)  # want "StoreUnAlignPost on ureg flushes a contiguous store stream each iteration; sink it after the loop.*; no automatic fix: the replay could not prove the sunk Post writes the same bytes: the AR-addressed StoreUnAlign \\(its count comes from Squeeze through AR\\) is not modelled"


# Python text the fix cannot move: reported, no fix.
@pl.vector_function
def not_movable(dst, src, n):
    u = vf.unalign_reg_for_store()
    # Not alone on its line.
    for i in pl.range(n):
        v = vf.load_align(src, i * 64)
        vf.store_unalign(dst, v, u, 64, post_update=True)
        vf.store_unalign_post(dst, u, 0, post_update=True); v = vf.load_align(src, 0)  # want "StoreUnAlignPost on u flushes"
    # The only statement of a with block.
    for i in pl.range(n):
        v = vf.load_align(src, i * 64)
        vf.store_unalign(dst, v, u, 64, post_update=True)
        with pl.section_vector():
            vf.store_unalign_post(dst, u, 0, post_update=True)  # want "StoreUnAlignPost on u flushes"
    # The loop has an else clause, which would run before the sunk Post.
    for i in pl.range(n):
        v = vf.load_align(src, i * 64)
        vf.store_unalign(dst, v, u, 64, post_update=True)
        vf.store_unalign_post(dst, u, 0, post_update=True)  # want "StoreUnAlignPost on u flushes"
    else:
        v = vf.load_align(dst, 0)
    # The loop binds the register again: each iteration stores through a fresh one.
    for i in pl.range(n):
        u = vf.unalign_reg_for_store()
        v = vf.load_align(src, i * 64)
        vf.store_unalign(dst, v, u, 64, post_update=True)
        vf.store_unalign_post(dst, u, 0, post_update=True)  # want "StoreUnAlignPost on u flushes"
