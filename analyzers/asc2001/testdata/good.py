# ASC2001 fixture (pypto_pro DSL): aligned accesses, and misalignments that
# cannot be proven; must stay silent.
import pypto_pro.language as pl
from pypto_pro.language import Vf as vf  # noqa: N813

VL_HALF = 256 // 2


# Every mode at the alignment it needs.
@pl.vector_function
def aligned(hdst, hsrc, bsrc, wsrc, dsrc, fsrc, n):
    m = vf.create_mask(dtype=pl.DT_FP16)
    h0 = vf.load_align(hsrc, 16, dtype=pl.DT_FP16)
    h1 = vf.load_align(hsrc, VL_HALF, dtype=pl.DT_FP16)
    for i in pl.range(n):
        vf.store_align(hdst, h0, h1, m, i * 2 * VL_HALF, dist=pl.StoreDist.INTLV_B16)
        f0, f1 = vf.load_align(fsrc, i * 64, dist=pl.LoadDist.DINTLV_B32, dtype=pl.DT_FP32)
        # The element size is all FIRST_ELEMENT and BRC need.
        vf.store_align(hdst, h0, m, i, dist=pl.StoreDist.FIRST_ELEMENT_B16)
        h1 = vf.load_align(hsrc, i, dist=pl.LoadDist.BRC_B16, dtype=pl.DT_FP16)
        h1 = vf.load_align(hsrc, 3 * i, dist=pl.LoadDist.BRC, dtype=pl.DT_FP16)
        vf.store_align(hdst, h0, m, i * 64, dist=pl.StoreDist.PACK_B32)
        b = vf.load_align(bsrc, i * 32, dist=pl.LoadDist.UNPK4_B8, dtype=pl.DT_UINT8)
        w = vf.load_align(wsrc, i * 8, dist=pl.LoadDist.E2B_B16, dtype=pl.DT_UINT16)  # 16 bytes: enough for E2B_B16
        d = vf.load_align(dsrc, i * 8, dist=pl.LoadDist.E2B, dtype=pl.DT_UINT32)
        f0 = vf.load_align(fsrc, i * 8, dist=pl.LoadDist.BLK, dtype=pl.DT_FP32)
        h0 = vf.load_align(hsrc, i * VL_HALF // 2, dist=pl.LoadDist.UNPK_B16, dtype=pl.DT_FP16)
        a = vf.create_addr_reg(i, VL_HALF, dtype=pl.DT_FP16)
        vf.store_align(hdst, h0, m, a)
        e = vf.create_addr_reg(i, 1, dtype=pl.DT_FP16)
        vf.store_align(hdst, h0, m, e, dist=pl.StoreDist.FIRST_ELEMENT_B16)
        h1 = vf.load_align(hsrc, 64, dist=pl.LoadDist.US_B16, dtype=pl.DT_FP16, post_update=True)


# Mask loads and stores, and block copies: a mask post-update offset is not
# in elements, a block copy's strides count DataBlocks: not checked.
@pl.vector_function
def masks(bits, out, src):
    m = vf.create_mask(dtype=pl.DT_FP32)
    m = vf.load_align(bits, 4, dist=pl.LoadDist.US)
    vf.store_align(out, m, 4, dist=pl.StoreDist.PACK)
    v = vf.load_align(src, m, data_copy_mode=pl.DataCopyMode.DATA_BLOCK_COPY, block_stride=1)
    vf.store_align(out, m, 3, post_update=True)


# Nothing is proven misaligned: a constant offset from a tile parameter (the
# caller may pass a sub-view, so the tile's own alignment is not assumed), a
# [row, col] offset (the row length is the caller's), symbolic offsets and
# strides, a tile moved in the region.
@pl.vector_function
def unproven(dst, src, moved, off, cols, n):
    m = vf.create_mask(dtype=pl.DT_FP16)
    v = vf.load_align(src, 3, dtype=pl.DT_FP16)
    vf.store_align(dst + 5, v, m)
    v = vf.load_align(src, [1, 3], dtype=pl.DT_FP16)
    for i in pl.range(n):
        v = vf.load_align(src, i * off, dtype=pl.DT_FP16)
        vf.store_align(dst, v, m, [i, 0])
        v = vf.load_align(src, [i, cols], dtype=pl.DT_FP16)
        v = vf.load_align(moved, 16, dtype=pl.DT_FP16, post_update=True)
        v = vf.load_align(moved, 0, dtype=pl.DT_FP16)
    v = vf.load_align(src, off, dtype=pl.DT_FP16, post_update=True)


# An unknown element type with a step that is aligned for some sizes.
@pl.vector_function
def unknown_type(dst, src, n):
    for i in pl.range(n):
        v = vf.load_align(src, i * 8)
        vf.store_align(dst, v, vf.create_mask(), i * 8)
