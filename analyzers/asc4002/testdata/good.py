# ASC4002 fixture (pypto_pro DSL): loops with enough independent work.
import pypto_pro.language as pl
from pypto_pro.language import Vf as vf  # noqa: N813


@pl.vector_function
def independent(dst, src):
    m = vf.create_mask(dtype=pl.DT_FP32)
    for i in pl.range(32):
        a = vf.load_align(src, i * 256 + 0)
        b = vf.load_align(src, i * 256 + 64)
        c = vf.load_align(src, i * 256 + 128)
        d = vf.load_align(src, i * 256 + 192)
        a = vf.adds(a, 1.0, m)
        b = vf.adds(b, 1.0, m)
        c = vf.adds(c, 1.0, m)
        d = vf.adds(d, 1.0, m)
        vf.store_align(dst, a, m, i * 256 + 0)
        vf.store_align(dst, b, m, i * 256 + 64)
        vf.store_align(dst, c, m, i * 256 + 128)
        vf.store_align(dst, d, m, i * 256 + 192)
