# ASC3002 fixture (pypto_pro DSL): more than 8 mask registers live at once.
import pypto_pro.language as pl
from pypto_pro.language import Vf as vf  # noqa: N813


# Nine compare results kept for selects at the end: at the last compare eight
# are live and the predicate is read, nine at once.
@pl.vector_function  # want "VF region nine_masks keeps 9 MaskReg registers live at once"
def nine_masks(dst, src):
    all_ = vf.create_mask(dtype=pl.DT_FP32)
    x = vf.load_align(src, 0)
    y = vf.full(0.0, all_, dtype=pl.DT_FP32)
    m0 = vf.gt(x, 0.0, all_)
    m1 = vf.gt(x, 1.0, all_)
    m2 = vf.gt(x, 2.0, all_)
    m3 = vf.gt(x, 3.0, all_)
    m4 = vf.gt(x, 4.0, all_)
    m5 = vf.gt(x, 5.0, all_)
    m6 = vf.gt(x, 6.0, all_)
    m7 = vf.gt(x, 7.0, all_)
    m8 = vf.gt(x, 8.0, all_)
    y = vf.select(x, y, m0)
    y = vf.select(x, y, m1)
    y = vf.select(x, y, m2)
    y = vf.select(x, y, m3)
    y = vf.select(x, y, m4)
    y = vf.select(x, y, m5)
    y = vf.select(x, y, m6)
    y = vf.select(x, y, m7)
    y = vf.select(x, y, m8)
    vf.store_align(dst, y, all_)
