# ASC5002 fixture (pypto_pro DSL): vf.div on 64-bit integers in a loop.
import pypto_pro.language as pl
from pypto_pro.language import Vf as vf  # noqa: N813


@pl.vector_function
def div_by_loaded(dst, x, y):
    m = vf.create_mask(dtype=pl.DT_INT64)
    for i in pl.range(64):
        a = vf.load_align(x, i * 32, dtype=pl.DT_INT64)
        b = vf.load_align(y, i * 32, dtype=pl.DT_INT64)
        q = vf.div(a, b, m)  # want "Div on int64_t in a VF loop runs the library's [0-9]+-instruction sequence each iteration .*divide int32_t data instead"
        vf.store_align(dst, q, m)
