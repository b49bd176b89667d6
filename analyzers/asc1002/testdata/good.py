# ASC1002 fixture (pypto_pro DSL): Posts inside loops that real code needs, and the right pattern.
import pypto_pro.language as pl
from pypto_pro.language import Vf as vf  # noqa: N813


def flush(dst, u):
    vf.store_unalign_post(dst, u, 0, post_update=True)


# The seed's best practice: one Post after the loop.
@pl.vector_function
def sunk(dst, src, n):
    u = vf.unalign_reg_for_store()
    for i in pl.range(n):
        v = vf.load_align(src, i * 64)
        vf.store_unalign(dst, v, u, 64, post_update=True)
    vf.store_unalign_post(dst, u, 0, post_update=True)


# Padded output rows: the tile is reset to each row, every row is flushed.
@pl.vector_function
def padded_rows(dst, src, rows, row_stride):
    u = vf.unalign_reg_for_store()
    for i in pl.range(rows):
        row = dst + i * row_stride
        v = vf.load_align(src, i * 64)
        vf.store_unalign(row, v, u, 60, post_update=True)
        vf.store_unalign_post(row, u, 0, post_update=True)


# Flushes inside a helper, under an if, at another tile, or moving the tile.
@pl.vector_function
def not_movable(dst, other, src, n, last):
    u = vf.unalign_reg_for_store()
    for i in pl.range(n):
        v = vf.load_align(src, i * 64)
        vf.store_unalign(dst, v, u, 64, post_update=True)
        flush(dst, u)
    for i in pl.range(n):
        v = vf.load_align(src, i * 64)
        vf.store_unalign(dst, v, u, 64, post_update=True)
        if last:
            vf.store_unalign_post(dst, u, 0, post_update=True)
    for i in pl.range(n):
        v = vf.load_align(src, i * 64)
        vf.store_unalign(dst, v, u, 64, post_update=True)
        vf.store_unalign_post(other, u, 0, post_update=True)
    for i in pl.range(n):
        v = vf.load_align(src, i * 64)
        vf.store_unalign(dst, v, u, 64, post_update=True)
        vf.store_unalign_post(dst, u, 8, post_update=True)


# AR-addressed stores (squeeze, then a stride-less store_unalign): where the
# next iteration starts is not visible, so nothing is claimed.
@pl.vector_function
def squeezed(dst, src, n):
    m = vf.create_mask(dtype=pl.DT_FP32)
    u = vf.unalign_reg_for_store()
    vf.clear_spr()
    for i in pl.range(n):
        v = vf.load_align(src, i * 64)
        packed = vf.squeeze(v, m, gather_mode=pl.SqueezeMode.STORE_REG)
        vf.store_unalign(dst, packed, u)
        vf.store_unalign_post(dst, u)


# A loop that runs at most once.
@pl.vector_function
def tail_loop(dst, src, tail):
    u = vf.unalign_reg_for_store()
    for i in range(tail > 0):
        v = vf.load_align(src, 0)
        vf.store_unalign(dst, v, u, tail, post_update=True)
        vf.store_unalign_post(dst, u, 0, post_update=True)


# The loop reads back the last elements it stored (a running sum through
# UB): every iteration must flush; the replay finds the difference.
@pl.vector_function
def read_back(dst, src, n):
    m = vf.create_mask(dtype=pl.DT_FP32)
    u = vf.unalign_reg_for_store()
    ul = vf.load_unalign_init()
    for i in pl.range(n):
        v = vf.load_align(src, i * 64)
        vf.load_unalign_pre(ul, dst - 8)
        prev = vf.load_unalign(ul, dst - 8)
        v = vf.add(v, prev, m)
        vf.store_unalign(dst, v, u, 8, post_update=True)
        vf.store_unalign_post(dst, u, 0, post_update=True)
