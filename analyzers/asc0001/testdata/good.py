# ASC0001 fixture (pypto_pro DSL): clean VF code must stay silent.
import pypto_pro.language as pl
from pypto_pro.language import Vf as vf  # noqa: N813


@pl.vector_function
def add_clean(dst, src0, src1, repeat):
    mask = vf.create_mask(dtype=pl.DT_FP32)
    for i in pl.range(repeat):
        a = vf.load_align(src0, i * 64)
        b = vf.load_align(src1, i * 64)
        c = vf.add(a, b, mask)
        vf.store_align(dst, c, mask, i * 64)


# Python the DSL allows around the calls: keyword arguments split over
# lines, a conditional expression, a docstring, a nested helper.
@pl.vector_function
def scale_clean(dst, src, s, repeat):
    """Scale every row by s."""
    mask = vf.create_mask(
        pattern=pl.MaskPattern.ALL,
        dtype=pl.DT_FP32,
    )
    step = 64 if repeat > 1 else 0
    for i in pl.range(repeat):
        v = vf.load_align(src, i * step)
        v = vf.muls(v, s, mask)
        vf.store_align(dst, v, mask, i * step)


@pl.jit()
def host(a, out):
    with pl.section_vector():
        add_clean(out, a, a, 4)


# Broken code outside every VF function is none of ASC0001's business.
def not_vf(x):
    return x + (
