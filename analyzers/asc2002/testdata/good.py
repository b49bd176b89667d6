# ASC2002 fixture (pypto_pro DSL): dist modes that fit their data, and
# deliberate reinterpretations; must stay silent.
import pypto_pro.language as pl
from pypto_pro.language import Vf as vf  # noqa: N813


# A mode named with its width is passed to the vlds/vsts builtin as it is:
# the width says which bytes move, the dtype only how the register is read.
# As in the lightning indexer: broadcast byte 0 into every byte lane of a
# UINT16 register, keep the high bytes, add a broadcast u16, store as u16.
@pl.vector_function
def reinterpret(kth_tile, idx_high_tile, idx_buf, wide_tile):
    preg_b32 = vf.create_mask(dtype=pl.DT_FP32)
    preg_b16 = vf.create_mask(dtype=pl.DT_FP16)
    idx_high = vf.load_align(idx_high_tile, 0, dist=pl.LoadDist.BRC_B8, dtype=pl.DT_UINT16)
    idx_low = vf.load_align(idx_buf, 0, dist=pl.LoadDist.BRC_B16, dtype=pl.DT_UINT16)
    idx_mask = vf.full(0xFF00, dtype=pl.DT_UINT16)
    idx_high = vf.and_(idx_high, idx_mask, preg_b32)
    idx_k = vf.add(idx_high, idx_low, preg_b16)
    vf.store_align(kth_tile, idx_k, preg_b32, dist=pl.StoreDist.NORM_B16)
    q = vf.load_align(wide_tile, 0, dist=pl.LoadDist.BRC_B32, dtype=pl.DT_INT64)
    vf.store_align(wide_tile, q, preg_b32, dist=pl.StoreDist.NORM_B16)


# Modes without a width, at a width pypto has for the data.
@pl.vector_function
def widthless(fdst, fsrc, hdst, hsrc, bdst, bsrc, qdst, qsrc):
    mf = vf.create_mask(dtype=pl.DT_FP32)
    mh = vf.create_mask(dtype=pl.DT_FP16)
    mq = vf.create_mask(dtype=pl.DT_INT64)
    f = vf.load_align(fsrc, 0, dist=pl.LoadDist.BRC, dtype=pl.DT_FP32)
    f = vf.load_align(fsrc, 0, dist=pl.LoadDist.E2B, dtype=pl.DT_FP32)
    f = vf.load_align(fsrc, 0, dist=pl.LoadDist.UNPK, dtype=pl.DT_FP32)
    f = vf.load_align(fsrc, 0, dist=pl.LoadDist.BLK, dtype=pl.DT_FP32)
    vf.store_align(fdst, f, mf, dist=pl.StoreDist.FIRST_ELEMENT)
    vf.store_align(fdst, f, mf, dist=pl.StoreDist.PACK)
    vf.store_align(fdst, f, mf, dist=pl.StoreDist.PACK4)
    h = vf.load_align(hsrc, 0, dist=pl.LoadDist.US, dtype=pl.DT_FP16)
    h = vf.load_align(hsrc, 0, dist=pl.LoadDist.DS, dtype=pl.DT_FP16)
    vf.store_align(hdst, h, mh, dist=pl.StoreDist.NORM)
    b = vf.load_align(bsrc, 0, dist=pl.LoadDist.UNPK4, dtype=pl.DT_UINT8)
    vf.store_align(bdst, b, mh, dist=pl.StoreDist.PACK)  # PACK_B16: T may be the narrow type
    q = vf.load_align(qsrc, 0, dtype=pl.DT_INT64)
    q = vf.load_align(qsrc, 0, dist=pl.LoadDist.UNPK, dtype=pl.DT_INT64)  # UNPK_B32 widens 32-bit data
    vf.store_align(qdst, q, mq)
    vf.store_align(qdst, q, mq, dist=pl.StoreDist.PACK)


# Two registers with the modes that move two; the default mode of each.
@pl.vector_function
def registers(dst, src):
    m = vf.create_mask(dtype=pl.DT_FP16)
    x0, x1 = vf.load_align(src, 0, dtype=pl.DT_FP16)
    y0, y1 = vf.load_align(src, 256, dist=pl.LoadDist.DINTLV_B16, dtype=pl.DT_FP16)
    vf.store_align(dst, x0, x1, m)
    vf.store_align(dst, y0, y1, m, dist=pl.StoreDist.INTLV)
    vf.store_align(dst, y0, y1, m, dist=pl.StoreDist.INTLV_B32)


# Mask loads and stores use the MaskReg modes; an unknown dtype has no width.
@pl.vector_function
def masks_and_unknown(bits, out, src):
    m = vf.create_mask(dtype=pl.DT_FP32)
    m = vf.load_align(bits, 0, dist=pl.LoadDist.US)
    vf.store_align(out, m, dist=pl.StoreDist.PACK)
    v = vf.load_align(src, 0, dist=pl.LoadDist.US)
    vf.store_align(out, v, vf.create_mask(), dist=pl.StoreDist.FIRST_ELEMENT)
