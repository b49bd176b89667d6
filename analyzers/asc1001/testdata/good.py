# ASC1001 fixture (pypto_pro DSL): Pre inside loops that real code needs, and the right pattern.
import pypto_pro.language as pl
from pypto_pro.language import Vf as vf  # noqa: N813

STRIDE = 256 // 4
PADDED = 72


# The seed's best practice: one Pre before the loop, one Post after it.
@pl.vector_function
def hoisted(dst_tile, src_tile, repeat_times):
    preg = vf.create_mask(pattern=pl.MaskPattern.ALL, dtype=pl.DT_FP32)
    ureg = vf.load_unalign_init()
    store_ureg = vf.unalign_reg_for_store()
    vf.load_unalign_pre(ureg, src_tile)
    for i in pl.range(repeat_times):
        src_reg = vf.load_unalign(ureg, src_tile, STRIDE, post_update=True)
        src_reg = vf.abs(src_reg, preg)
        vf.store_unalign(dst_tile, src_reg, store_ureg, STRIDE, post_update=True)
    vf.store_unalign_post(dst_tile, store_ureg, 0, post_update=True)


# Padded rows: the row stride differs from what one iteration loads.
@pl.vector_function
def padded_rows(dst, src, rows, row_stride):
    m = vf.create_mask(dtype=pl.DT_FP32)
    u = vf.load_unalign_init()
    for i in pl.range(rows):
        vf.load_unalign_pre(u, src + i * row_stride)
        v = vf.load_unalign(u, src + i * row_stride)
        vf.store_align(dst, v, m, i * 64)
    for i in pl.range(rows):
        vf.load_unalign_pre(u, src + i * PADDED)
        v = vf.load_unalign(u, src + i * PADDED)
        vf.store_align(dst, v, m, i * 64)


# A tile reset to a base every iteration.
@pl.vector_function
def reset_tile(dst, src, rows, row_stride):
    m = vf.create_mask(dtype=pl.DT_FP32)
    u = vf.load_unalign_init()
    for i in pl.range(rows):
        p = src + i * row_stride
        vf.load_unalign_pre(u, p)
        v = vf.load_unalign(u, p, 64, post_update=True)
        vf.store_align(dst, v, m, i * 64)


# One unaligned register shared by two interleaved streams.
@pl.vector_function
def two_streams_one_register(dst, a, b, n):
    m = vf.create_mask(dtype=pl.DT_FP32)
    u = vf.load_unalign_init()
    for i in pl.range(n):
        vf.load_unalign_pre(u, a + i * 64)
        x = vf.load_unalign(u, a + i * 64)
        vf.load_unalign_pre(u, b + i * 64)
        y = vf.load_unalign(u, b + i * 64)
        x = vf.add(x, y, m)
        vf.store_align(dst, x, m, i * 64)


# Data overwritten and then re-read in the same iteration.
@pl.vector_function
def rewrite_then_read(buf, n):
    m = vf.create_mask(dtype=pl.DT_FP32)
    u = vf.load_unalign_init()
    for i in pl.range(n):
        w = vf.full(1.0, m, dtype=pl.DT_FP32)
        vf.store_align(buf, w, m, i * 64)
        vf.load_unalign_pre(u, buf + i * 64 + 3)
        v = vf.load_unalign(u, buf + i * 64 + 3)
        vf.store_align(buf, v, m, i * 64)


# Loops that run at most once, used as an if.
@pl.vector_function
def tail_as_loop(dst, src, tail):
    m = vf.create_mask(dtype=pl.DT_FP32)
    u = vf.load_unalign_init()
    has_tail = tail > 0
    for i in range(has_tail):
        vf.load_unalign_pre(u, src + i * 64)
        v = vf.load_unalign(u, src + i * 64)
        vf.store_align(dst, v, m)
    for i in pl.range(1):
        vf.load_unalign_pre(u, src + i * 64)
        v = vf.load_unalign(u, src + i * 64)
        vf.store_align(dst, v, m)


# A post-update stride shorter than a vector: the Pre is needed.
@pl.vector_function
def overlapping_windows(dst, src, n):
    m = vf.create_mask(dtype=pl.DT_FP32)
    u = vf.load_unalign_init()
    for i in pl.range(n):
        vf.load_unalign_pre(u, src)
        v = vf.load_unalign(u, src, 8, post_update=True)
        vf.store_align(dst, v, m, i * 64)


# A conditional Pre.
@pl.vector_function
def conditional(dst, src, n, restart):
    m = vf.create_mask(dtype=pl.DT_FP32)
    u = vf.load_unalign_init()
    vf.load_unalign_pre(u, src)
    for i in pl.range(n):
        if restart:
            vf.load_unalign_pre(u, src + i * 64)
        v = vf.load_unalign(u, src + i * 64)
        vf.store_align(dst, v, m, i * 64)


# Not reported by default: the element type, hence the vector length in
# elements, is unknown. The seed's own code uses no mask on the data; the
# default create_mask() dtype is not taken as evidence; masks of two widths
# contradict each other. (-confidence=low reports all three.)
@pl.vector_function
def unknown_element_type(dst_tile, src_tile, n):
    ureg = vf.load_unalign_init()
    store_ureg = vf.unalign_reg_for_store()
    for i in pl.range(n):
        vf.load_unalign_pre(ureg, src_tile)
        src_reg = vf.load_unalign(ureg, src_tile, STRIDE, post_update=True)
        vf.store_unalign(dst_tile, src_reg, store_ureg, STRIDE, post_update=True)
    vf.store_unalign_post(dst_tile, store_ureg, 0, post_update=True)
    md = vf.create_mask()
    for i in pl.range(n):
        vf.load_unalign_pre(ureg, src_tile)
        v = vf.load_unalign(ureg, src_tile, STRIDE, post_update=True)
        vf.store_align(dst_tile, v, md, i * 64)
    m32 = vf.create_mask(dtype=pl.DT_FP32)
    m16 = vf.create_mask(dtype=pl.DT_FP16)
    for i in pl.range(n):
        vf.load_unalign_pre(ureg, src_tile)
        v = vf.load_unalign(ureg, src_tile, STRIDE, post_update=True)
        vf.store_align(dst_tile, v, m32, i * 64)
        vf.store_align(dst_tile, v, m16, i * 64 + 64)
