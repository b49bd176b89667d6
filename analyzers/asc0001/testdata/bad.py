# ASC0001 fixture (pypto_pro DSL): VF functions with syntax errors are
# reported where parsing failed.
import pypto_pro.language as pl
from pypto_pro.language import Vf as vf  # noqa: N813


@pl.vector_function
def scale_stray_paren(dst, src, s, repeat):
    mask = vf.create_mask(dtype=pl.DT_FP32)
    for i in pl.range(repeat):
        v = vf.load_align(src, i * 64)
        v = vf.muls(v, s, mask))  # want 13:"VF region scale_stray_paren does not parse here; findings in it may be incomplete"
        vf.store_align(dst, v, mask, i * 64)


@pl.vector_function
def missing_colon(dst, src, repeat):
    mask = vf.create_mask(dtype=pl.DT_FP32)
    for i in pl.range(repeat)  # want 5:"VF region missing_colon does not parse here"
        v = vf.load_align(src, i * 64)
        v = vf.abs(v, mask)
        vf.store_align(dst, v, mask, i * 64)


@pl.vector_function
def stray_token(dst, src, repeat):
    mask = vf.create_mask(dtype=pl.DT_FP32)
    for i in pl.range(repeat):
        v = vf.load_align(src, i * 64)
        v = vf.abs(v, mask) $  # want 13:"VF region stray_token does not parse here"
        vf.store_align(dst, v, mask, i * 64)


# An unclosed call runs to the end of the file.
@pl.vector_function
def add_missing_paren(dst, src0, src1, repeat):
    mask = vf.create_mask(dtype=pl.DT_FP32)
    for i in pl.range(repeat):
        a = vf.load_align(src0, i * 64)
        b = vf.load_align(src1, i * 64)
        c = vf.add(a, b, mask  # want 9:"VF region add_missing_paren does not parse here"
        vf.store_align(dst, c, mask, i * 64)
