# ASC3002 fixture (pypto_pro DSL): masks computed where they are used.
import pypto_pro.language as pl
from pypto_pro.language import Vf as vf  # noqa: N813


@pl.vector_function
def masks_on_demand(dst, src):
    all_ = vf.create_mask(dtype=pl.DT_FP32)
    x = vf.load_align(src, 0)
    y = vf.full(0.0, all_, dtype=pl.DT_FP32)
    m0 = vf.gt(x, 0.0, all_)
    y = vf.select(x, y, m0)
    m1 = vf.gt(x, 1.0, all_)
    y = vf.select(x, y, m1)
    m2 = vf.gt(x, 2.0, all_)
    y = vf.select(x, y, m2)
    m3 = vf.gt(x, 3.0, all_)
    y = vf.select(x, y, m3)
    m4 = vf.gt(x, 4.0, all_)
    y = vf.select(x, y, m4)
    m5 = vf.gt(x, 5.0, all_)
    y = vf.select(x, y, m5)
    m6 = vf.gt(x, 6.0, all_)
    y = vf.select(x, y, m6)
    m7 = vf.gt(x, 7.0, all_)
    y = vf.select(x, y, m7)
    m8 = vf.gt(x, 8.0, all_)
    y = vf.select(x, y, m8)
    m9 = vf.gt(x, 9.0, all_)
    y = vf.select(x, y, m9)
    m10 = vf.gt(x, 10.0, all_)
    y = vf.select(x, y, m10)
    m11 = vf.gt(x, 11.0, all_)
    y = vf.select(x, y, m11)
    vf.store_align(dst, y, all_)


# One name reused for every compare: one mask live at a time.
@pl.vector_function
def one_name(dst, src):
    all_ = vf.create_mask(dtype=pl.DT_FP32)
    x = vf.load_align(src, 0)
    y = vf.full(0.0, all_, dtype=pl.DT_FP32)
    for k in pl.range(12):
        m = vf.gt(x, 1.0, all_)
        y = vf.select(x, y, m)
    vf.store_align(dst, y, all_)


# Eight compare results kept for selects at the end, under a constant
# predicate: the last result takes the predicate's register, eight at once.
@pl.vector_function
def eight_masks(dst, src):
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
    y = vf.select(x, y, m0)
    y = vf.select(x, y, m1)
    y = vf.select(x, y, m2)
    y = vf.select(x, y, m3)
    y = vf.select(x, y, m4)
    y = vf.select(x, y, m5)
    y = vf.select(x, y, m6)
    y = vf.select(x, y, m7)
    vf.store_align(dst, y, all_)
