# ASC2001 fixture (pypto_pro DSL): offsets, post-update strides and AddrReg
# steps that break the alignment of their dist mode. Offsets are in elements
# of the data's dtype.
import pypto_pro.language as pl
from pypto_pro.language import Vf as vf  # noqa: N813


# NORM (32 bytes): a loop stride, a post-update stride and an AddrReg step.
@pl.vector_function
def norm(dst, src, n):
    m = vf.create_mask(dtype=pl.DT_FP16)
    for i in pl.range(n):
        v = vf.load_align(src, i * 24, dtype=pl.DT_FP16)  # want 27:"LoadAlign address src \\+ i \\* 24 moves 48 bytes per iteration of i, but DIST_NORM needs 32-byte alignment; step it by a multiple of 16 elements of half"
        vf.store_align(dst, v, m, 128 + i * 72)  # want 24:"StoreAlign address dst \\+ 128 \\+ i \\* 72 moves 144 bytes per iteration of i"
        vf.store_align(dst + 128 + i * 72, v, m)  # want 24:"StoreAlign address dst \\+ 128 \\+ i \\* 72 moves 144 bytes per iteration of i"
    f = vf.load_align(src, 60, dtype=pl.DT_FP32, post_update=True)  # want 28:"post-update stride 60 of float data is 240 bytes, but DIST_NORM needs 32-byte alignment; use a multiple of 8 elements"
    mf = vf.create_mask(dtype=pl.DT_FP32)
    for c in pl.range(n):
        a = vf.create_addr_reg(c, 12, dtype=pl.DT_FP32)
        vf.store_align(dst, f, mf, a)  # want 36:"AddrReg a step 12 of float data per iteration of c is 48 bytes, but StoreAlign with DIST_NORM needs 32-byte alignment; make the CreateAddrReg stride a multiple of 8 elements"


# The other modes: explicit widths, and widths pypto takes from the dtype.
@pl.vector_function
def modes(hdst, hsrc, fsrc, bsrc, wsrc, dsrc, n):
    m = vf.create_mask(dtype=pl.DT_FP16)
    h0 = vf.load_align(hsrc, 0, dtype=pl.DT_FP16)
    h1 = vf.load_align(hsrc, 128, dtype=pl.DT_FP16)
    for i in pl.range(n):
        vf.store_align(hdst, h0, h1, m, i * 8, dist=pl.StoreDist.INTLV_B16)  # want "address hdst \\+ i \\* 8 moves 16 bytes per iteration of i, but DIST_INTLV_B16 needs 32-byte alignment"
        f0, f1 = vf.load_align(fsrc, i * 4, dist=pl.LoadDist.DINTLV_B32, dtype=pl.DT_FP32)  # want "fsrc \\+ i \\* 4 moves 16 bytes .* DIST_DINTLV_B32 needs 32-byte alignment"
        a = vf.create_addr_reg(i, 3, dtype=pl.DT_UINT8)
        vf.store_align(hdst, h0, m, a, dist=pl.StoreDist.FIRST_ELEMENT_B16)  # want "AddrReg a step 3 of uint8_t data per iteration of i is 3 bytes, but StoreAlign with DIST_FIRST_ELEMENT_B16 needs 2-byte alignment"
        h0 = vf.load_align(hsrc, a, dist=pl.LoadDist.BRC_B16, dtype=pl.DT_FP16)  # want "AddrReg a step 3 .* LoadAlign with DIST_BRC_B16 needs 2-byte alignment"
        vf.store_align(hdst, h0, m, i * 8, dist=pl.StoreDist.PACK_B32)  # want "moves 16 bytes per iteration of i, but DIST_PACK_B32 needs 32-byte alignment"
        b = vf.load_align(bsrc, 48 * i, dist=pl.LoadDist.UNPK4_B8, dtype=pl.DT_UINT8)  # want "moves 48 bytes .* DIST_UNPACK4_B8 needs 32-byte alignment"
        w = vf.load_align(wsrc, i * 4, dist=pl.LoadDist.E2B_B16, dtype=pl.DT_UINT16)  # want "wsrc \\+ i \\* 4 moves 8 bytes .* DIST_E2B_B16 needs 16-byte alignment; step it by a multiple of 8 elements of uint16_t"
        d = vf.load_align(dsrc, i * 4, dist=pl.LoadDist.E2B, dtype=pl.DT_UINT32)  # want "dsrc \\+ i \\* 4 moves 16 bytes .* DIST_E2B_B32 needs 32-byte alignment"
        f0 = vf.load_align(fsrc, i * 12, dist=pl.LoadDist.BLK, dtype=pl.DT_FP32)  # want "moves 48 bytes .* DIST_BLK needs 32-byte alignment"
        h0 = vf.load_align(hsrc, 64 + i * 72, dist=pl.LoadDist.UNPK_B16, dtype=pl.DT_FP16)  # want "moves 144 bytes per iteration of i, but DIST_UNPACK_B16 needs 32-byte alignment"
    h0 = vf.load_align(hsrc, 8, dist=pl.LoadDist.US_B16, dtype=pl.DT_FP16, post_update=True)  # want "post-update stride 8 of half data is 16 bytes, but DIST_US_B16 needs 32-byte alignment"
    h1 = vf.load_align(hsrc, 40, dist=pl.LoadDist.DS_B16, dtype=pl.DT_FP16, post_update=True)  # want "post-update stride 40 of half data is 80 bytes, but DIST_DS_B16 needs"
    vf.store_align(hdst, h1, m, 3, post_update=True)  # want "post-update stride 3 of half data is 6 bytes"


# The element type is unknown (no dtype=, no evidence): reported only when
# every size breaks the alignment.
@pl.vector_function
def unknown_type(dst, src, n):
    for i in pl.range(n):
        v = vf.load_align(src, i * 7)  # want "LoadAlign address src \\+ i \\* 7 moves 7 \\* sizeof\\(T\\) bytes per iteration of i, off the grid for every size of T, but DIST_NORM needs 32-byte alignment"
        vf.store_align(dst, v, vf.create_mask(), 3, post_update=True)  # want "post-update stride 3 of the data is 3 \\* sizeof\\(T\\) bytes, off the grid for every size of T"
