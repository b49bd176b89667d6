# ASC5002 fixture (pypto_pro DSL): a float and a 32-bit integer vf.div in a loop stay silent.
import pypto_pro.language as pl
from pypto_pro.language import Vf as vf  # noqa: N813


@pl.vector_function
def native_divs(dst, x, y, xi, yi):
    m = vf.create_mask(dtype=pl.DT_FP32)
    mi = vf.create_mask(dtype=pl.DT_INT32)
    for i in pl.range(64):
        a = vf.load_align(x, i * 64)
        b = vf.load_align(y, i * 64)
        q = vf.div(a, b, m)
        vf.store_align(dst, q, m)
        c = vf.load_align(xi, i * 64, dtype=pl.DT_INT32)
        d = vf.load_align(yi, i * 64, dtype=pl.DT_INT32)
        r = vf.div(c, d, mi)
        vf.store_align(dst, r, mi)
