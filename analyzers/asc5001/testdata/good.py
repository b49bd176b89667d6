# ASC5001 fixture (pypto_pro DSL): full-width loops, and half masks on strided rows.
import pypto_pro.language as pl
from pypto_pro.language import Vf as vf  # noqa: N813


@pl.vector_function
def full_scale(dst, src):
    m = vf.create_mask(dtype=pl.DT_FP32)
    for i in pl.range(16):
        x = vf.load_align(src, i * 64)
        x = vf.muls(x, 2.0, m)
        vf.store_align(dst, x, m, i * 64)


@pl.vector_function
def first_half_of_rows(dst, src):
    m = vf.create_mask(pattern=pl.MaskPattern.VL32, dtype=pl.DT_FP32)
    for r in pl.range(16):
        x = vf.load_align(src, r * 64)
        x = vf.muls(x, 2.0, m)
        vf.store_align(dst, x, m, r * 64)
