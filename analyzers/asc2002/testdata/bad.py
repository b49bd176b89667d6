# ASC2002 fixture (pypto_pro DSL): dist modes that do not fit the data. pypto
# passes a mode named with its width to the vlds/vsts builtin as it is (see
# good.py); a mode named without one takes the data's width, unless the mode
# has no variant of that width, and then pypto silently uses another.
import pypto_pro.language as pl
from pypto_pro.language import Vf as vf  # noqa: N813


# Width-less modes on data of a width they do not have.
@pl.vector_function
def widthless(fdst, fsrc, bsrc, hdst, hsrc):
    mf = vf.create_mask(dtype=pl.DT_FP32)
    mh = vf.create_mask(dtype=pl.DT_FP16)
    f = vf.load_align(fsrc, 0, dist=pl.LoadDist.US, dtype=pl.DT_FP32)  # want 37:"vf.load_align with dist=pl.LoadDist.US on float data, but the mode has no 32-bit variant: pypto emits US_B16, which moves 16-bit elements; name US_B16 if that is meant"
    g = vf.load_align(fsrc, 0, dist=pl.LoadDist.DS)  # want "vf.load_align with dist=pl.LoadDist.DS on float data, but the mode has no 32-bit variant: pypto emits DS_B16"
    vf.store_align(fdst, g, mf)
    b = vf.load_align(bsrc, 0, dist=pl.LoadDist.E2B, dtype=pl.DT_UINT8)  # want "dist=pl.LoadDist.E2B on uint8_t data, but the mode has no 8-bit variant: pypto emits E2B_B32, which moves 32-bit elements"
    h = vf.load_align(hsrc, 0, dtype=pl.DT_FP16)
    vf.store_align(hdst, h, mh, dist=pl.StoreDist.PACK4)  # want "vf.store_align with dist=pl.StoreDist.PACK4 on half data, but the mode has no 16-bit variant: pypto emits PACK4_B32"
    vf.store_align(fdst, f, mf)


# 64-bit data: a single load takes NORM only, a single store NORM or PACK.
@pl.vector_function
def wide(dst, src):
    m = vf.create_mask(dtype=pl.DT_INT64)
    q = vf.load_align(src, 0, dist=pl.LoadDist.BRC, dtype=pl.DT_INT64)  # want "vf.load_align with dist=pl.LoadDist.BRC on int64_t data, but a single load of 64-bit data supports only NORM \\(or UNPK to widen 32-bit data\\); pypto emits BRC_B32"
    r = vf.load_align(src, 0, dist=pl.LoadDist.BLK, dtype=pl.DT_INT64)  # want "dist=pl.LoadDist.BLK on int64_t data, but a single load of 64-bit data supports only NORM"
    vf.store_align(dst, q, m, dist=pl.StoreDist.FIRST_ELEMENT)  # want "vf.store_align with dist=pl.StoreDist.FIRST_ELEMENT on int64_t data, but a single store of 64-bit data supports only NORM and PACK; pypto emits FIRST_ELEMENT_B32"
    vf.store_align(dst, q, r, m, dist=pl.StoreDist.INTLV)  # want "dist=pl.StoreDist.INTLV on int64_t data, but the mode has no 64-bit variant: pypto emits INTLV_B32"


# Interleave and de-interleave move two registers, the other modes one.
@pl.vector_function
def registers(dst, src):
    m = vf.create_mask(dtype=pl.DT_FP16)
    a = vf.load_align(src, 0, dist=pl.LoadDist.DINTLV_B16)  # want 36:"vf.load_align with dist=pl.LoadDist.DINTLV_B16 has one destination, but de-interleave loads two \\(x0, x1 = vf.load_align\\(...\\)\\); assign two registers, or use NORM for one"
    vf.store_align(dst, a, m, dist=pl.StoreDist.INTLV)  # want "vf.store_align with dist=pl.StoreDist.INTLV stores one register, but interleave stores two \\(dst, src0, src1, mask\\); pass the second register, or use NORM for one"
    x0, x1 = vf.load_align(src, 0, dist=pl.LoadDist.BRC_B16)  # want "vf.load_align with dist=pl.LoadDist.BRC_B16 has two destination registers, but only DINTLV loads two; use it, or one register"
    vf.store_align(dst, x0, x1, m, dist=pl.StoreDist.NORM_B16)  # want "vf.store_align with dist=pl.StoreDist.NORM_B16 has two source registers, but only INTLV stores two; use it, or one register"
