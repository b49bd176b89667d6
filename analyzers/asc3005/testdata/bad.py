# ASC3005 fixture (pypto_pro DSL): vf.and_ of two compares under the same predicate.
import pypto_pro.language as pl
from pypto_pro.language import Vf as vf  # noqa: N813


@pl.vector_function
def both_zero(dst, a, b):
    mask = vf.create_mask(dtype=pl.DT_UINT32)
    x = vf.load_align(a, 0)
    y = vf.load_align(b, 0)
    zx = vf.eq(x, 0, mask)
    zy = vf.eq(y, 0, mask)
    zy = vf.and_(zx, zy, mask)  # want 10:"MaskAnd joins two compares made under mask; pass zx as the predicate of the compare on line 12 and drop the MaskAnd"
    x = vf.select(x, y, zy)
    vf.store_align(dst, x, mask)


# A compare of two registers and one against a scalar.
@pl.vector_function
def in_box(dst, p, lo):
    mask = vf.create_mask(dtype=pl.DT_FP32)
    x = vf.load_align(p, 0)
    l = vf.load_align(lo, 0)  # noqa: E741
    ge = vf.ge(x, l, mask)
    le = vf.le(x, 1.0, mask)
    inside = vf.and_(ge, le, mask)  # want "MaskAnd joins two compares made under mask; pass ge"
    vf.store_align(dst, x, inside)
